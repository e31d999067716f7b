// The GPU reduction's plan without a GPU (Note [How a GPU reduction is laid out] in
// aten/native/cuda/ReducePlan.h): how the iterator's dims split into kept and reduced ones, and
// the block and grid each shape gets on a 132-multiprocessor GPU (an H100 or H200). The kernel
// that runs the plans is checked on a device (CUDAOps_test.cpp).

#include <gtest/gtest.h>

#include <vector>

#include "aten/ATen.h"
#include "aten/native/TensorIterator.h"
#include "aten/native/cuda/ReducePlan.h"

namespace {

using at::native::gpu::make_reduce_plan;
using at::native::gpu::ReduceDims;
using at::native::gpu::ReducePlan;
using at::native::gpu::split_reduce_dims;

std::vector<int64_t> vec(c10::ArrayRef<int64_t> r) {
  return {r.begin(), r.end()};
}

// The dims of sum(x, dims, keepdim=true) as the GPU kernel sees them.
ReduceDims dims_of(const at::Tensor& x, std::vector<int64_t> reduce) {
  std::vector<int64_t> out_sizes(x.sizes().begin(), x.sizes().end());
  for (int64_t d : reduce) out_sizes[d] = 1;
  at::Tensor out = at::empty(out_sizes, x.options());
  std::vector<int64_t> sizes(x.sizes().begin(), x.sizes().end());
  std::vector<int64_t> strides(out.strides().begin(), out.strides().end());
  for (int64_t d : reduce) strides[d] = 0;
  at::Tensor viewed = out.as_strided(sizes, strides);
  auto iter = at::TensorIterator::reduce_op(viewed, x);
  return split_reduce_dims(iter);
}

TEST(GpuReduceDims, RowsColumnsAndChannels) {
  const at::Tensor m = at::zeros({300, 1000});
  ReduceDims rows = dims_of(m, {1});
  EXPECT_TRUE(rows.inner);
  EXPECT_EQ(rows.num_outputs, 300);
  EXPECT_EQ(rows.num_reduce, 1000);
  EXPECT_EQ(vec(rows.reduced_in_strides), (std::vector<int64_t>{4}));
  EXPECT_EQ(vec(rows.kept_in_strides), (std::vector<int64_t>{4000}));
  EXPECT_EQ(vec(rows.kept_out_strides), (std::vector<int64_t>{4}));

  ReduceDims cols = dims_of(m, {0});
  EXPECT_FALSE(cols.inner);
  EXPECT_EQ(cols.num_outputs, 1000);
  EXPECT_EQ(vec(cols.kept_in_strides), (std::vector<int64_t>{4}));
  EXPECT_EQ(vec(cols.reduced_in_strides), (std::vector<int64_t>{4000}));

  // Per-channel statistics of NCHW: H and W coalesce into one reduced dim, N another.
  ReduceDims nchw = dims_of(at::zeros({8, 16, 14, 14}), {0, 2, 3});
  EXPECT_TRUE(nchw.inner);
  EXPECT_EQ(nchw.num_outputs, 16);
  EXPECT_EQ(vec(nchw.reduced_sizes), (std::vector<int64_t>{196, 8}));
  EXPECT_EQ(vec(nchw.reduced_in_strides), (std::vector<int64_t>{4, 16 * 196 * 4}));
  EXPECT_EQ(vec(nchw.kept_in_strides), (std::vector<int64_t>{196 * 4}));

  // The same of a channels-last tensor: the channel is the fastest dim, so the plan is outer.
  ReduceDims nhwc =
      dims_of(at::zeros({8, 16, 14, 14}).contiguous(at::MemoryFormat::ChannelsLast), {0, 2, 3});
  EXPECT_FALSE(nhwc.inner);
  EXPECT_EQ(nhwc.num_outputs, 16);
  EXPECT_EQ(nhwc.num_reduce, 8 * 14 * 14);
  EXPECT_EQ(vec(nhwc.kept_in_strides), (std::vector<int64_t>{4}));

  // Everything reduced: no kept dims, one output.
  ReduceDims all = dims_of(at::zeros({5, 6, 7}), {0, 1, 2});
  EXPECT_TRUE(all.inner);
  EXPECT_EQ(all.num_outputs, 1);
  EXPECT_EQ(all.num_reduce, 210);
  EXPECT_TRUE(all.kept_sizes.empty());
}

struct PlanCase {
  int64_t outputs, reduce;
  bool inner;
  int block_x, block_y;
  int64_t grid_x, grid_y;
};

TEST(GpuReducePlan, ShapesOnA132SmGpu) {
  const PlanCase cases[] = {
      // sum of 64M floats: 512 lanes on the one output, split over 528 blocks.
      {1, int64_t{64} << 20, true, 512, 1, 1, 528},
      // [8192, 8192] over dim 1: 8192 outputs; 64 lanes each fill the GPU, no split.
      {8192, 8192, true, 64, 8, 1024, 1},
      // [8192, 8192] over dim 0: a warp across 32 columns, 16 lanes down, split in 3.
      {8192, 8192, false, 32, 16, 256, 3},
      // Too little to split: a small reduction stays in one block.
      {1, 10, true, 16, 1, 1, 1},
      {24, 1000, false, 32, 16, 1, 3},
      {300, 1000, true, 512, 1, 300, 1},
      // Many tiny rows: a warp is more than a row needs.
      {1 << 20, 4, true, 4, 128, 8192, 1},
  };
  for (const auto& c : cases) {
    const ReducePlan p = make_reduce_plan(c.outputs, c.reduce, c.inner, 132);
    EXPECT_EQ(p.block_x, c.block_x) << c.outputs << "x" << c.reduce;
    EXPECT_EQ(p.block_y, c.block_y) << c.outputs << "x" << c.reduce;
    EXPECT_EQ(p.grid_x, c.grid_x) << c.outputs << "x" << c.reduce;
    EXPECT_EQ(p.grid_y, c.grid_y) << c.outputs << "x" << c.reduce;
  }
}

// Whatever the shape: powers of two, at most 512 threads, every output covered, a legal grid,
// and no split in a second pass.
TEST(GpuReducePlan, InvariantsOverManyShapes) {
  for (int64_t outputs : std::vector<int64_t>{1, 2, 3, 31, 33, 100, 4096, 100000, 1 << 26}) {
    for (int64_t reduce : std::vector<int64_t>{1, 2, 7, 32, 33, 1000, 65536, 1 << 28}) {
      for (bool inner : {true, false}) {
        for (bool split : {true, false}) {
          const ReducePlan p = make_reduce_plan(outputs, reduce, inner, 132, split);
          EXPECT_EQ(p.block_x & (p.block_x - 1), 0);
          EXPECT_EQ(p.block_y & (p.block_y - 1), 0);
          EXPECT_LE(p.threads(), at::native::gpu::kReduceMaxThreads);
          EXPECT_GE(p.grid_x * p.outputs_per_block(), outputs);
          EXPECT_LT((p.grid_x - 1) * p.outputs_per_block(), outputs);
          EXPECT_GE(p.grid_y, 1);
          EXPECT_LE(p.grid_y, 65535);
          if (!split) {
            EXPECT_EQ(p.grid_y, 1);
          }
          // A split leaves each lane at least its minimum share.
          if (p.grid_y > 1) {
            EXPECT_GE(reduce / (p.grid_y * p.reduce_lanes()),
                      at::native::gpu::kReduceMinWorkPerLane);
          }
        }
      }
    }
  }
}

}  // namespace
