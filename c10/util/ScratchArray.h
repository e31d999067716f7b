#pragma once
// c10::ScratchArray<T, N>: room for n trivially-constructible values, on the stack up to N and
// left uninitialized. For per-call scratch in hot paths (TensorIterator's loops, view
// geometry), where c10::SmallVector(n) would zero the elements first and index them through
// Abseil's hardened checks (Note [Hot loops index raw pointers] in SmallVector.h).
//
//   c10::ScratchArray<int64_t, 16> sizes(ndim);
//   for (size_t i = 0; i < ndim; ++i) sizes[i] = ...;   // write before reading
//   use(c10::IntArrayRef(sizes.data(), ndim));

#include <cstddef>
#include <memory>

namespace c10 {

template <typename T, size_t N>
class ScratchArray {
 public:
  explicit ScratchArray(size_t n) : heap_(n > N ? new T[n] : nullptr) {}
  T* data() { return heap_ ? heap_.get() : inline_; }
  T& operator[](size_t i) { return data()[i]; }

 private:
  T inline_[N];
  std::unique_ptr<T[]> heap_;
};

}  // namespace c10
