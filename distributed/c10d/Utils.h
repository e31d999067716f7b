#pragma once
// Checks the process groups share (libtorch 1.13's torch/csrc/distributed/c10d/Utils.hpp).

#include <cstdint>
#include <vector>

#include "aten/core/Tensor.h"
#include "c10/util/Exception.h"

namespace c10d {

// alltoall_base's split sizes for `t` among `world` ranks: none (dim 0 divides equally) or one
// per rank, each in [0, dim 0], summing to dim 0; libtorch's texts.
inline void checkSplitSizes(const std::vector<int64_t>& splits, const at::Tensor& t,
                            int64_t world) {
  const int64_t rows = t.dim() ? t.size(0) : 1;
  if (splits.empty()) {
    TORCH_CHECK(rows % world == 0, "Tensor's dim 0 does not divide equally across group size");
    return;
  }
  TORCH_CHECK(static_cast<int64_t>(splits.size()) == world,
              "Number of tensor splits not equal to group size");
  int64_t total = 0;
  for (int64_t s : splits) {
    TORCH_CHECK(s >= 0 && s <= rows, "Split sizes doesn't match total dim 0 size");
    total += s;
  }
  TORCH_CHECK(total == rows, "Split sizes doesn't match total dim 0 size");
}

}  // namespace c10d
