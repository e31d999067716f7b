#pragma once
// TensorIteratorDimVector: the per-dim rows a TensorIterator rewrites on every build (shape_,
// perm_, each operand's stride_bytes), as a small vector of int64_t with only the operations
// the iterator needs, all inline and unchecked.
//
//   TensorIteratorDimVector strides;
//   strides.push_back(4);                 // room for kInlineDims values on the object itself
//   strides.resize_for_overwrite(ndim);   // new values unwritten: the caller writes them
//   int64_t* s = strides.data();          // index the pointer in loops
//   IntArrayRef view = strides;           // what the iterator's accessors hand out
//
// Note [Why TensorIterator has its own dim vector]
// c10::DimVector is Abseil's InlinedVector, which Debian builds hardened (Note [Hot loops index
// raw pointers]): every push_back writes its size back to memory and re-reads it, resize and
// assign are out-of-line calls, and destruction asks whether the elements are on the heap. A
// TensorIterator build for a small copy does a dozen of these on rows of two to four values,
// and they were a tenth of its cost. Here the data pointer points at the inline buffer until a
// row outgrows it, so every access is one load; copies copy the values (never the pointer).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "c10/util/ArrayRef.h"
#include "c10/util/Macros.h"

namespace at {

class TensorIteratorDimVector {
 public:
  // As c10::DimVector: five dims cover NCHW plus a leading batch or a reduction's extra dim.
  static constexpr size_t kInlineDims = 5;

  TensorIteratorDimVector() = default;
  TensorIteratorDimVector(const TensorIteratorDimVector& other) { assign(other); }
  TensorIteratorDimVector& operator=(const TensorIteratorDimVector& other) {
    if (this != &other) assign(other);
    return *this;
  }
  // From any row of values (a c10::DimVector, a tensor's sizes); `values` may view this row.
  TensorIteratorDimVector& operator=(c10::IntArrayRef values) {
    assign(values);
    return *this;
  }
  ~TensorIteratorDimVector() {
    if (data_ != inline_) delete[] data_;
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  int64_t* data() { return data_; }
  const int64_t* data() const { return data_; }
  int64_t& operator[](size_t i) { return data_[i]; }
  int64_t operator[](size_t i) const { return data_[i]; }
  int64_t* begin() { return data_; }
  int64_t* end() { return data_ + size_; }
  const int64_t* begin() const { return data_; }
  const int64_t* end() const { return data_ + size_; }
  operator c10::IntArrayRef() const { return c10::IntArrayRef(data_, size_); }  // NOLINT

  void push_back(int64_t value) {
    if (C10_UNLIKELY(size_ == capacity_)) grow(size_ + 1u);
    data_[size_++] = value;
  }
  // Shrinks, or grows leaving the new values unwritten (as C++23's
  // string::resize_and_overwrite): every caller writes them next, and zeroing would be a memset.
  void resize_for_overwrite(size_t n) {
    if (C10_UNLIKELY(n > capacity_)) grow(n);
    size_ = static_cast<uint32_t>(n);
  }
  void assign(c10::IntArrayRef values) {
    const size_t n = values.size();
    if (C10_UNLIKELY(n > capacity_)) grow(n);  // `values` is not a view of this row then
    // memmove: `values` may be (part of) this row.
    if (n > 0) std::memmove(data_, values.data(), n * sizeof(int64_t));
    size_ = static_cast<uint32_t>(n);
  }

 private:
  // Out of line: only iterations of more than kInlineDims dims get here.
  C10_NOINLINE void grow(size_t n) {
    const size_t capacity = std::max<size_t>(n, 2 * capacity_);
    int64_t* data = new int64_t[capacity];
    if (size_ > 0) std::memcpy(data, data_, size_ * sizeof(int64_t));
    if (data_ != inline_) delete[] data_;
    data_ = data;
    capacity_ = static_cast<uint32_t>(capacity);
  }

  // 32-bit counts keep the object at c10::DimVector's 48 bytes plus the pointer.
  int64_t* data_ = inline_;
  uint32_t size_ = 0;
  uint32_t capacity_ = kInlineDims;
  int64_t inline_[kInlineDims];
};

}  // namespace at
