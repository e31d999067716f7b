#pragma once
// DimCounter: where a linear range [begin, end) of a TensorIterator starts in every dim, and how
// far the next 2-D step may go (seed 002's walk-through: begin = 1066670 on [64, 2000, 10] is
// values [46, 666, 8]; steps {18, 1}, then {64, 1333}, then {64, 2000}).

#include <array>
#include <memory>

#include "aten/native/TensorIterator.h"

namespace at {

// Scratch space for n trivially-constructible values, on the stack up to N and left
// uninitialized: c10::SmallVector(n) would zero it first (a memset call per loop start, a
// tenth of a small copy's cost), and every element is written before it is read.
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

struct TORCH_API DimCounter {
  DimCounter(IntArrayRef shape, Range range);

  void increment(const std::array<int64_t, 2>& step);
  bool is_done() const { return offset >= range.end; }
  // The largest (size0, size1) block starting at `values` that stays inside the range.
  std::array<int64_t, 2> max_2d_step() const;

  IntArrayRef shape;
  Range range;
  c10::SmallVector<int64_t, 4> values;
  int64_t offset;
};

}  // namespace at
