#pragma once
// ArrayRef<T>: a non-owning view of a contiguous run of T (sizes, strides, tensor lists).
// Cheap to pass by value; it never outlives what it points at.

#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <ostream>
#include <type_traits>
#include <vector>

#include "c10/util/Exception.h"
#include "c10/util/SmallVector.h"
#include "c10/util/irange.h"

namespace c10 {

template <typename T>
class ArrayRef final {
 public:
  using iterator = const T*;
  using const_iterator = const T*;
  using size_type = size_t;
  using value_type = T;
  using reverse_iterator = std::reverse_iterator<iterator>;

  constexpr ArrayRef() : data_(nullptr), length_(0) {}
  // One element.
  constexpr ArrayRef(const T& one) : data_(&one), length_(1) {}  // NOLINT
  constexpr ArrayRef(const T* data, size_t length) : data_(data), length_(length) {}
  constexpr ArrayRef(const T* begin, const T* end) : data_(begin), length_(end - begin) {}
  template <typename A>
  ArrayRef(const std::vector<T, A>& v) : data_(v.data()), length_(v.size()) {}  // NOLINT
  template <size_t N>
  ArrayRef(const absl::InlinedVector<T, N>& v) : data_(v.data()), length_(v.size()) {}  // NOLINT
  template <size_t N>
  constexpr ArrayRef(const std::array<T, N>& a) : data_(a.data()), length_(N) {}  // NOLINT
  template <size_t N>
  constexpr ArrayRef(const T (&a)[N]) : data_(a), length_(N) {}  // NOLINT
  // The list must outlive the ArrayRef: fine for arguments (`t.view({2, 3})`), never for
  // a variable initialized from a braced list.
#if defined(__GNUC__) && !defined(__clang__)  // a GCC-only warning; clang has no such group
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
#endif
  constexpr ArrayRef(const std::initializer_list<T>& v)  // NOLINT
      : data_(v.begin() == v.end() ? static_cast<T*>(nullptr) : v.begin()), length_(v.size()) {}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

  constexpr iterator begin() const { return data_; }
  constexpr iterator end() const { return data_ + length_; }
  constexpr const_iterator cbegin() const { return data_; }
  constexpr const_iterator cend() const { return data_ + length_; }
  constexpr reverse_iterator rbegin() const { return reverse_iterator(end()); }
  constexpr reverse_iterator rend() const { return reverse_iterator(begin()); }

  constexpr bool empty() const { return length_ == 0; }
  constexpr const T* data() const { return data_; }
  constexpr size_t size() const { return length_; }

  const T& front() const {
    TORCH_CHECK(!empty(), "ArrayRef: attempted to access front() of empty list");
    return data_[0];
  }
  const T& back() const {
    TORCH_CHECK(!empty(), "ArrayRef: attempted to access back() of empty list");
    return data_[length_ - 1];
  }

  // A plain loop: std::equal becomes a memcmp call, which costs more than comparing the
  // handful of sizes or strides this is almost always used on.
  bool equals(ArrayRef rhs) const {
    if (length_ != rhs.length_) return false;
    for (size_t i = 0; i < length_; ++i) {
      if (!(data_[i] == rhs.data_[i])) return false;
    }
    return true;
  }

  // Elements [n, n + m).
  ArrayRef<T> slice(size_t n, size_t m) const {
    TORCH_CHECK(n + m <= size(), "ArrayRef: invalid slice, N = ", n, "; M = ", m,
                "; size = ", size());
    return ArrayRef<T>(data() + n, m);
  }
  ArrayRef<T> slice(size_t n) const {
    TORCH_CHECK(n <= size(), "ArrayRef: invalid slice, N = ", n, "; size = ", size());
    return slice(n, size() - n);
  }

  constexpr const T& operator[](size_t index) const { return data_[index]; }
  const T& at(size_t index) const {
    TORCH_CHECK(index < length_, "ArrayRef: invalid index Index = ", index,
                "; Length = ", length_);
    return data_[index];
  }

  // Disallow accidental assignment from a temporary.
  template <typename U>
  typename std::enable_if<std::is_same<U, T>::value, ArrayRef<T>>::type& operator=(U&&) = delete;
  template <typename U>
  typename std::enable_if<std::is_same<U, T>::value, ArrayRef<T>>::type& operator=(
      std::initializer_list<U>) = delete;

  std::vector<T> vec() const { return std::vector<T>(data_, data_ + length_); }

 private:
  const T* data_;
  size_t length_;
};

template <typename T>
std::ostream& operator<<(std::ostream& out, ArrayRef<T> list) {
  out << "[";
  for (size_t i = 0; i < list.size(); ++i) {
    if (i > 0) out << ", ";
    out << list[i];
  }
  return out << "]";
}

template <typename T>
bool operator==(ArrayRef<T> a, ArrayRef<T> b) { return a.equals(b); }
template <typename T>
bool operator!=(ArrayRef<T> a, ArrayRef<T> b) { return !a.equals(b); }
template <typename T>
bool operator==(const std::vector<T>& a, ArrayRef<T> b) { return ArrayRef<T>(a).equals(b); }
template <typename T>
bool operator==(ArrayRef<T> a, const std::vector<T>& b) { return a.equals(ArrayRef<T>(b)); }
template <typename T>
bool operator!=(const std::vector<T>& a, ArrayRef<T> b) { return !ArrayRef<T>(a).equals(b); }
template <typename T>
bool operator!=(ArrayRef<T> a, const std::vector<T>& b) { return !a.equals(ArrayRef<T>(b)); }

using IntArrayRef = ArrayRef<int64_t>;
// An optional ArrayRef, for `int[]?` arguments (libtorch's c10::OptionalArrayRef).
//
// Note [Why not std::optional<ArrayRef>]
// With std::optional<IntArrayRef>, `t.sum({1})` builds the ArrayRef from a temporary int inside
// optional's constructor, and the kernel then reads freed memory; `{0, 1}` does not compile at
// all. This class takes a braced list as a list (it lives until the call returns) and has no
// constructor from a single element.
template <typename T>
class OptionalArrayRef final {
 public:
  constexpr OptionalArrayRef() noexcept = default;
  constexpr OptionalArrayRef(std::nullopt_t) noexcept {}  // NOLINT
  OptionalArrayRef(ArrayRef<T> ref) : wrapped_(ref) {}     // NOLINT
  // One element, as libtorch accepts `t.sum(0)`: the ArrayRef points at the argument, which
  // lives until the end of the full expression (the call).
  OptionalArrayRef(const T& one) : wrapped_(ArrayRef<T>(one)) {}  // NOLINT
  OptionalArrayRef(const std::vector<T>& v) : wrapped_(ArrayRef<T>(v)) {}  // NOLINT
  template <size_t N>
  OptionalArrayRef(const absl::InlinedVector<T, N>& v) : wrapped_(ArrayRef<T>(v)) {}  // NOLINT
  OptionalArrayRef(const std::initializer_list<T>& list)  // NOLINT
      : wrapped_(ArrayRef<T>(list)) {}
  OptionalArrayRef(const std::optional<ArrayRef<T>>& opt) : wrapped_(opt) {}  // NOLINT

  bool has_value() const noexcept { return wrapped_.has_value(); }
  explicit operator bool() const noexcept { return wrapped_.has_value(); }
  ArrayRef<T> value() const { return wrapped_.value(); }
  ArrayRef<T> operator*() const { return *wrapped_; }
  const ArrayRef<T>* operator->() const { return &*wrapped_; }
  ArrayRef<T> value_or(ArrayRef<T> other) const { return wrapped_.value_or(other); }
  operator std::optional<ArrayRef<T>>() const { return wrapped_; }  // NOLINT

 private:
  std::optional<ArrayRef<T>> wrapped_;
};

template <typename T>
std::ostream& operator<<(std::ostream& out, const OptionalArrayRef<T>& ref) {
  if (!ref.has_value()) return out << "None";
  return out << *ref;
}

using OptionalIntArrayRef = OptionalArrayRef<int64_t>;

// The small vector that holds a tensor's sizes or strides (5 dims inline).
constexpr size_t kDimVectorStaticSize = 5;
using DimVector = SmallVector<int64_t, kDimVectorStaticSize>;

}  // namespace c10

namespace at {
using c10::ArrayRef;
using c10::DimVector;
using c10::IntArrayRef;
using c10::OptionalIntArrayRef;
using c10::irange;
}  // namespace at

