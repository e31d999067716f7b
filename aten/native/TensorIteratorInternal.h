#pragma once
// DimCounter: where a linear range [begin, end) of a TensorIterator starts in every dim, and how
// far the next 2-D step may go (seed 002's walk-through: begin = 1066670 on [64, 2000, 10] is
// values [46, 666, 8]; steps {18, 1}, then {64, 1333}, then {64, 2000}).

#include <array>

#include "aten/native/TensorIterator.h"
#include "c10/util/ScratchArray.h"

namespace at {

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
