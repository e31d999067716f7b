#pragma once
// SizesAndStrides: a tensor's sizes and strides, stored inline for up to 5 dims (the common
// case never touches the heap), out of line beyond that. The accessors and copy/move semantics
// are libtorch 1.13's (a moved-from SizesAndStrides has size() 0); overwrite_sizes and
// set_sizes_and_strides are miniaten's, for the hot paths that write every stride next.

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "c10/util/ArrayRef.h"

namespace c10 {
namespace impl {

constexpr size_t C10_SIZES_AND_STRIDES_MAX_INLINE_SIZE = 5;

class C10_API SizesAndStrides {
 public:
  SizesAndStrides() : size_(1) {
    // A fresh tensor is 1-d of size 0 until it is given sizes (as in libtorch).
    inline_[0] = 0;
    inline_[kInline] = 1;
  }
  ~SizesAndStrides() {
    if (!is_inline()) std::free(out_of_line_);
  }
  SizesAndStrides(const SizesAndStrides& rhs) : size_(0) { copy_from(rhs); }
  SizesAndStrides& operator=(const SizesAndStrides& rhs) {
    if (this != &rhs) copy_from(rhs);
    return *this;
  }
  // Takes rhs's storage (inline: copies it); rhs is left with size() 0, as in libtorch.
  SizesAndStrides(SizesAndStrides&& rhs) noexcept : size_(rhs.size_) {
    if (is_inline()) {
      std::memcpy(inline_, rhs.inline_, sizeof(inline_));
    } else {
      out_of_line_ = rhs.out_of_line_;
    }
    rhs.size_ = 0;
  }
  SizesAndStrides& operator=(SizesAndStrides&& rhs) noexcept {
    if (this == &rhs) return *this;
    if (!is_inline()) std::free(out_of_line_);
    if (rhs.is_inline()) {
      std::memcpy(inline_, rhs.inline_, sizeof(inline_));
    } else {
      out_of_line_ = rhs.out_of_line_;
    }
    size_ = rhs.size_;
    rhs.size_ = 0;
    return *this;
  }

  // libtorch's iterator names (sizes and strides are each contiguous).
  using sizes_iterator = int64_t*;
  using sizes_const_iterator = const int64_t*;
  using strides_iterator = int64_t*;
  using strides_const_iterator = const int64_t*;

  size_t size() const noexcept { return size_; }
  bool is_inline() const noexcept { return size_ <= kInline; }

  const int64_t* sizes_data() const noexcept { return is_inline() ? &inline_[0] : out_of_line_; }
  int64_t* sizes_data() noexcept { return is_inline() ? &inline_[0] : out_of_line_; }
  const int64_t* strides_data() const noexcept {
    return is_inline() ? &inline_[kInline] : out_of_line_ + size_;
  }
  int64_t* strides_data() noexcept { return is_inline() ? &inline_[kInline] : out_of_line_ + size_; }

  IntArrayRef sizes_arrayref() const noexcept { return IntArrayRef(sizes_data(), size_); }
  IntArrayRef strides_arrayref() const noexcept { return IntArrayRef(strides_data(), size_); }

  int64_t size_at(size_t i) const noexcept { return sizes_data()[i]; }
  int64_t stride_at(size_t i) const noexcept { return strides_data()[i]; }
  int64_t& size_at(size_t i) noexcept { return sizes_data()[i]; }
  int64_t& stride_at(size_t i) noexcept { return strides_data()[i]; }
  // libtorch checks i in size_at/stride_at with assert() only; neither checks here.
  int64_t size_at_unchecked(size_t i) const noexcept { return sizes_data()[i]; }
  int64_t stride_at_unchecked(size_t i) const noexcept { return strides_data()[i]; }
  int64_t& size_at_unchecked(size_t i) noexcept { return sizes_data()[i]; }
  int64_t& stride_at_unchecked(size_t i) noexcept { return strides_data()[i]; }

  sizes_const_iterator sizes_begin() const noexcept { return sizes_data(); }
  sizes_iterator sizes_begin() noexcept { return sizes_data(); }
  sizes_const_iterator sizes_end() const noexcept { return sizes_data() + size_; }
  sizes_iterator sizes_end() noexcept { return sizes_data() + size_; }
  strides_const_iterator strides_begin() const noexcept { return strides_data(); }
  strides_iterator strides_begin() noexcept { return strides_data(); }
  strides_const_iterator strides_end() const noexcept { return strides_data() + size_; }
  strides_iterator strides_end() noexcept { return strides_data() + size_; }

  // As libtorch: resize (the leading strides kept, new ones zero), then the sizes.
  void set_sizes(IntArrayRef sizes) {
    resize(sizes.size());
    std::copy(sizes.begin(), sizes.end(), sizes_data());
  }
  // The sizes only, for a caller that writes every stride next (set_sizes_contiguous
  // restrides): new strides are left unwritten rather than zeroed.
  void overwrite_sizes(IntArrayRef sizes) {
    const size_t n = sizes.size();
    resize_for_overwrite(n);
    int64_t* sz = sizes_data();
    for (size_t i = 0; i < n; ++i) sz[i] = sizes[i];
  }
  void set_strides(IntArrayRef strides) {
    TORCH_INTERNAL_ASSERT(strides.size() == size_);
    std::copy(strides.begin(), strides.end(), strides_data());
  }

  // Both at once (a new view's geometry).
  void set_sizes_and_strides(IntArrayRef sizes, IntArrayRef strides) {
    const size_t n = sizes.size();
    resize_for_overwrite(n);
    // Element loops, not std::copy: that becomes a memmove call, slower for a few dims.
    int64_t* sz = sizes_data();
    int64_t* st = strides_data();
    for (size_t i = 0; i < n; ++i) {
      sz[i] = sizes[i];
      st[i] = strides[i];
    }
  }

  // resize for callers that write every value next: inline, the new values are left as they
  // were rather than zeroed (a loop GCC turns into two memset calls).
  void resize_for_overwrite(size_t new_size) {
    if (new_size <= kInline && is_inline()) {
      size_ = new_size;
    } else {
      resize(new_size);
    }
  }

  // Keeps the leading min(old, new) sizes and strides; new ones are zero.
  void resize(size_t new_size) {
    if (new_size == size_) return;
    if (new_size <= kInline && is_inline()) {
      // Strides live at a fixed inline offset, so nothing moves.
      for (size_t i = size_; i < new_size; ++i) {
        inline_[i] = 0;
        inline_[kInline + i] = 0;
      }
      size_ = new_size;
      return;
    }
    int64_t tmp[2 * kInline];
    int64_t* new_storage = new_size <= kInline ? tmp : static_cast<int64_t*>(
                                                           std::malloc(2 * new_size * sizeof(int64_t)));
    TORCH_CHECK(new_storage != nullptr, "SizesAndStrides: could not allocate ", new_size, " dims");
    const size_t keep = std::min(size_, new_size);
    const size_t new_stride_at = new_size <= kInline ? kInline : new_size;
    std::fill(new_storage, new_storage + (new_size <= kInline ? 2 * kInline : 2 * new_size), 0);
    std::copy(sizes_data(), sizes_data() + keep, new_storage);
    std::copy(strides_data(), strides_data() + keep, new_storage + new_stride_at);
    if (!is_inline()) std::free(out_of_line_);
    size_ = new_size;
    if (new_size <= kInline) {
      std::memcpy(inline_, tmp, sizeof(inline_));
    } else {
      out_of_line_ = new_storage;
    }
  }

 private:
  static constexpr size_t kInline = C10_SIZES_AND_STRIDES_MAX_INLINE_SIZE;

  void copy_from(const SizesAndStrides& rhs) {
    resize(rhs.size_);
    std::copy(rhs.sizes_data(), rhs.sizes_data() + size_, sizes_data());
    std::copy(rhs.strides_data(), rhs.strides_data() + size_, strides_data());
  }

  size_t size_;
  union {
    int64_t* out_of_line_;
    int64_t inline_[2 * kInline];
  };
};

}  // namespace impl
}  // namespace c10
