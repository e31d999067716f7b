// The plan of a GPU reduction: see Note [How a GPU reduction is laid out] in ReducePlan.h.

#include "aten/native/cuda/ReducePlan.h"

#include <algorithm>
#include <cstdlib>

#include "aten/native/TensorIterator.h"

namespace at {
namespace native {
namespace gpu {

namespace {

int64_t ceil_div(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}

int pow2_at_least(int64_t n, int cap) {
  int p = 1;
  while (p < n && p < cap) p *= 2;
  return p;
}

// Reorders the dims listed in `order` by increasing input stride (stable, so equal strides keep
// the iterator's order).
void sort_by_input_stride(c10::SmallVector<int, 6>& order, const int64_t* in_strides) {
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return in_strides[a] < in_strides[b]; });
}

}  // namespace

ReduceDims split_reduce_dims(const TensorIteratorBase& iter) {
  const IntArrayRef shape = iter.shape();
  const IntArrayRef out = iter.strides(0);
  const IntArrayRef in = iter.strides(1);
  c10::SmallVector<int, 6> kept, reduced;
  for (int d = 0; d < iter.ndim(); ++d) {
    if (shape[d] == 1) continue;
    (out[d] == 0 ? reduced : kept).push_back(d);
  }
  sort_by_input_stride(kept, in.data());
  sort_by_input_stride(reduced, in.data());
  ReduceDims dims;
  for (int d : kept) {
    dims.kept_sizes.push_back(shape[d]);
    dims.kept_out_strides.push_back(out[d]);
    dims.kept_in_strides.push_back(in[d]);
    dims.num_outputs *= shape[d];
  }
  for (int d : reduced) {
    dims.reduced_sizes.push_back(shape[d]);
    dims.reduced_in_strides.push_back(in[d]);
    dims.num_reduce *= shape[d];
  }
  dims.inner = !reduced.empty() && (kept.empty() || std::abs(dims.reduced_in_strides[0]) <=
                                                        std::abs(dims.kept_in_strides[0]));
  return dims;
}

ReducePlan make_reduce_plan(int64_t num_outputs, int64_t num_reduce, bool inner, int num_sms,
                            bool allow_split) {
  const int64_t resident_threads = int64_t{std::max(num_sms, 1)} * 2048;
  ReducePlan plan;
  plan.inner = inner;
  int lanes;    // threads of a block on one output's reduction
  int outputs;  // outputs of a block
  if (inner) {
    // A warp per output while the outputs alone fill the GPU; wider lanes when they do not.
    lanes = std::min(32, pow2_at_least(num_reduce, 32));
    while (lanes < kReduceMaxThreads && lanes < num_reduce &&
           num_outputs * lanes < resident_threads) {
      lanes *= 2;
    }
    outputs = std::min(kReduceMaxThreads / lanes, pow2_at_least(num_outputs, kReduceMaxThreads));
    plan.block_x = lanes;
    plan.block_y = outputs;
  } else {
    // A warp across 32 neighbouring outputs; the rest of the block down the reduction.
    outputs = pow2_at_least(num_outputs, 32);
    lanes = std::min(kReduceMaxThreads / outputs, pow2_at_least(num_reduce, kReduceMaxThreads));
    plan.block_x = outputs;
    plan.block_y = lanes;
  }
  plan.grid_x = ceil_div(num_outputs, outputs);
  if (allow_split) {
    const int64_t blocks_wanted = ceil_div(resident_threads, plan.threads());
    if (plan.grid_x < blocks_wanted) {
      int64_t split = ceil_div(blocks_wanted, plan.grid_x);
      split = std::min(split, std::max<int64_t>(1, num_reduce / (lanes * kReduceMinWorkPerLane)));
      plan.grid_y = std::min<int64_t>(split, 65535);
    }
  }
  return plan;
}

}  // namespace gpu
}  // namespace native
}  // namespace at
