#pragma once
// How a GPU reduction lays its threads over a TensorIterator's reduction (ATen's ReduceConfig in
// cuda/Reduce.cuh, simplified). Host code only, built in every build: the CPU tests check the
// plans (tests/aten/cuda/GpuReducePlan_test.cpp); ReduceKernel.cu runs them.
//
// Note [How a GPU reduction is laid out]
// The iterator's dims split into kept dims (the outputs: M of them) and reduced dims (R elements
// reduced into each output; the output's stride there is 0). Two calculators turn an output
// index into the output's and the input's byte offsets, and a reduction index into the input's
// offset within that output's elements; both list dims by increasing input stride, so
// consecutive indices are neighbours in memory where the layout allows.
//
// A block is block_x * block_y threads (at most 512, both powers of two). Which of x and y runs
// along the reduction depends on where the input is contiguous:
//  * inner (the input's fastest dim is reduced: sum over the last dim, or over everything):
//    threadIdx.x walks the reduction, so a warp reads consecutive elements; threadIdx.y picks the
//    output. block_x starts at a warp and widens while the outputs alone leave the GPU idle;
//  * outer (the fastest dim is kept: sum over dim 0 of a row-major matrix): threadIdx.x picks
//    the output, so a warp reads 32 neighbouring columns of one row; threadIdx.y walks the
//    reduction.
// Each thread sums its share of the reduction (four independent accumulators, so four loads are
// in flight), then the block's lanes of one output combine in shared memory. When the blocks
// along the outputs (grid_x) cannot fill the GPU (a sum of everything has one output), the
// reduction is also split across grid_y blocks, each writing a partial result of the
// accumulation type to a workspace [grid_y, M]; a second pass, planned the same way with no
// split, reduces the workspace into the output. No atomics: the result does not depend on
// the order blocks run in.

#include <cstdint>

#include "c10/util/SmallVector.h"

namespace at {
class TensorIteratorBase;

namespace native {
namespace gpu {

// The iterator's dims as kept and reduced lists, each ordered by increasing input stride.
// Operand 0 is the output, operand 1 the input; dims of size 1 are dropped.
struct ReduceDims {
  // M outputs, each the sum of R elements.
  int64_t num_outputs = 1;
  int64_t num_reduce = 1;
  // Sizes, and strides in bytes.
  c10::SmallVector<int64_t, 6> kept_sizes, kept_out_strides, kept_in_strides;
  c10::SmallVector<int64_t, 6> reduced_sizes, reduced_in_strides;
  // The input's smallest stride is along a reduced dim (Note [How a GPU reduction is laid out]).
  bool inner = true;
};

ReduceDims split_reduce_dims(const TensorIteratorBase& iter);

struct ReducePlan {
  bool inner = true;
  int block_x = 1, block_y = 1;  // threads: x is the fastest
  int64_t grid_x = 1;            // blocks along the outputs
  int64_t grid_y = 1;            // blocks along the reduction: > 1 means a second pass
  int threads() const { return block_x * block_y; }
  // How many lanes of a block share one output's reduction.
  int reduce_lanes() const { return inner ? block_x : block_y; }
  int outputs_per_block() const { return inner ? block_y : block_x; }
};

constexpr int kReduceMaxThreads = 512;
// The least a reduction lane should read before a split across blocks pays.
constexpr int64_t kReduceMinWorkPerLane = 16;

// The plan for M outputs of R elements each on a GPU with num_sms multiprocessors (2048
// resident threads each); allow_split false gives grid_y == 1 (the second pass).
ReducePlan make_reduce_plan(int64_t num_outputs, int64_t num_reduce, bool inner, int num_sms,
                            bool allow_split = true);

}  // namespace gpu
}  // namespace native
}  // namespace at
