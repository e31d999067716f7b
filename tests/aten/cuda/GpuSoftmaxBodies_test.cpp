// The GPU softmax without a GPU: each layout's per-thread bodies (SoftMaxBody.h), the same
// host-device functions the CUDA kernels run, executed here for every thread of the launch in
// the layout the kernel takes, with the block's combining done as the kernel does it (a sum or
// max over the rows layout's threads, the tiles layout's halving tree), and compared with the
// CPU kernel; then which layout each shape takes and its geometry (Note [The GPU layouts of a
// softmax]). What only a GPU checks: the shuffles and shared memory themselves, the launches
// and the speed (tests/aten/cuda/CUDAModelOps_test.cpp).

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "aten/ATen.h"
#include "aten/native/cuda/SoftMaxBody.h"

namespace {

namespace gpu = at::native::gpu;

// The tiles layout's combining of one pass, as tile_reduce does it: partials[y] for y in
// [0, tile.y), rows y and y + half combined at each halving.
template <typename T, typename Op>
T tile_combine(std::vector<T> partials, Op op) {
  for (size_t half = partials.size() / 2; half > 0; half /= 2) {
    for (size_t y = 0; y < half; ++y) partials[y] = op(partials[y], partials[y + half]);
  }
  return partials[0];
}

template <typename T>
T nan_max(T a, T b) {
  return gpu::softmax_nan_max(a, b);
}
template <typename T>
T plus(T a, T b) {
  return a + b;
}

// The lines of the tiles layout as its blocks' thread columns take them: f(start) for each
// column that has a line. A column past inner joins the kernel's combining with identities
// only, which change no other column's.
template <typename F>
void for_each_tile_line(const gpu::SoftmaxLines& l, const F& f) {
  const gpu::SoftmaxTile tile = gpu::softmax_tile(l);
  const int64_t tiles = gpu::softmax_tiles_per_outer(l, tile);
  for (int64_t block = 0; block < l.outer * tiles; ++block) {
    for (int x = 0; x < tile.x; ++x) {
      const gpu::SoftmaxTileLine line = gpu::softmax_tile_line(l, tile.x, tiles, block, x);
      if (line.valid) f(line.start);
    }
  }
}

// One launch of the softmax forward (log or not) on a contiguous tensor, run on the host in the
// layout the kernel takes (Note [The GPU layouts of a softmax]): the rows layout block by block
// (each pass's per-thread results combined in thread order, where block_reduce's shuffle tree
// may add them in another: only a sum's last bits see it), the tiles layout block by block and
// column by column (combined in tile_reduce's order), the columns layout line by line.
template <typename T, bool kLog>
at::Tensor softmax_on_host(const at::Tensor& x, int64_t dim) {
  at::Tensor out = at::empty_like(x);
  const gpu::SoftmaxLines l = gpu::softmax_lines(x.sizes().data(), x.dim(), dim);
  const T* in = x.data_ptr<T>();
  T* o = out.data_ptr<T>();
  switch (gpu::softmax_layout(l)) {
    case gpu::SoftmaxLayout::Rows: {
      const int threads = gpu::softmax_row_threads(l.size);
      for (int64_t row = 0; row < l.outer; ++row) {
        const T* r = in + row * l.size;
        T m = -std::numeric_limits<T>::infinity();
        for (int t = 0; t < threads; ++t) {
          m = gpu::softmax_nan_max(m, gpu::softmax_line_max(r, l.size, 1, t, threads));
        }
        T sum = 0;
        for (int t = 0; t < threads; ++t) {
          sum += gpu::softmax_line_sum_exp(r, l.size, 1, m, t, threads);
        }
        for (int t = 0; t < threads; ++t) {
          gpu::softmax_line_write<T, kLog>(o + row * l.size, r, l.size, 1, m, sum, t, threads);
        }
      }
      break;
    }
    case gpu::SoftmaxLayout::Tiles: {
      const int ys = gpu::softmax_tile(l).y;
      std::vector<T> partials(ys);
      for_each_tile_line(l, [&](int64_t start) {
        for (int y = 0; y < ys; ++y) {
          partials[y] = gpu::softmax_line_max(in + start, l.size, l.inner, y, ys);
        }
        const T m = tile_combine(partials, nan_max<T>);
        for (int y = 0; y < ys; ++y) {
          partials[y] = gpu::softmax_line_sum_exp(in + start, l.size, l.inner, m, y, ys);
        }
        const T sum = tile_combine(partials, plus<T>);
        for (int y = 0; y < ys; ++y) {
          gpu::softmax_line_write<T, kLog>(o + start, in + start, l.size, l.inner, m, sum, y, ys);
        }
      });
      break;
    }
    case gpu::SoftmaxLayout::Columns:
      for (int64_t line = 0; line < l.outer * l.inner; ++line) {
        gpu::softmax_column_line<T, kLog>(o, in, l, line);
      }
      break;
  }
  return out;
}

template <typename T, bool kLog>
at::Tensor softmax_backward_on_host(const at::Tensor& g, const at::Tensor& y, int64_t dim) {
  at::Tensor gi = at::empty_like(g);
  const gpu::SoftmaxLines l = gpu::softmax_lines(g.sizes().data(), g.dim(), dim);
  const T* gp = g.data_ptr<T>();
  const T* yp = y.data_ptr<T>();
  T* gip = gi.data_ptr<T>();
  switch (gpu::softmax_layout(l)) {
    case gpu::SoftmaxLayout::Rows: {
      const int threads = gpu::softmax_row_threads(l.size);
      for (int64_t row = 0; row < l.outer; ++row) {
        const int64_t base = row * l.size;
        T sum = 0;
        for (int t = 0; t < threads; ++t) {
          sum +=
              gpu::softmax_backward_line_sum<T, kLog>(gp + base, yp + base, l.size, 1, t, threads);
        }
        for (int t = 0; t < threads; ++t) {
          gpu::softmax_backward_line_write<T, kLog>(gip + base, gp + base, yp + base, l.size, 1,
                                                    sum, t, threads);
        }
      }
      break;
    }
    case gpu::SoftmaxLayout::Tiles: {
      const int ys = gpu::softmax_tile(l).y;
      std::vector<T> partials(ys);
      for_each_tile_line(l, [&](int64_t start) {
        for (int t = 0; t < ys; ++t) {
          partials[t] = gpu::softmax_backward_line_sum<T, kLog>(gp + start, yp + start, l.size,
                                                                l.inner, t, ys);
        }
        const T sum = tile_combine(partials, plus<T>);
        for (int t = 0; t < ys; ++t) {
          gpu::softmax_backward_line_write<T, kLog>(gip + start, gp + start, yp + start, l.size,
                                                    l.inner, sum, t, ys);
        }
      });
      break;
    }
    case gpu::SoftmaxLayout::Columns:
      for (int64_t line = 0; line < l.outer * l.inner; ++line) {
        gpu::softmax_backward_column_line<T, kLog>(gip, gp, yp, l, line);
      }
      break;
  }
  return gi;
}

template <typename T>
void check_softmax_bodies(double tol) {
  const auto dtype = c10::CppTypeToScalarType<T>::value;
  // Every layout: rows (dim last), columns (short or many lines across inner), and tiles (few
  // long lines: [100, 7] over dim 0 is one tile of 8 x 16 threads with an idle column; [3, 50,
  // 40] over dim 1 two tiles an outer index, the second with 8 lines of 32).
  const std::vector<std::vector<int64_t>> shapes = {{7, 10},   {3, 3000}, {4, 5, 6},   {10},
                                                    {2, 1, 9}, {100, 7},  {3, 50, 40}, {2, 131072}};
  for (const auto& shape : shapes) {
    const at::Tensor x = at::randn(shape, at::TensorOptions().dtype(dtype)).mul(3);
    for (int64_t dim = 0; dim < x.dim(); ++dim) {
      SCOPED_TRACE(std::string(c10::toString(dtype)) + " " + c10::str(x.sizes()) + " dim " +
                   std::to_string(dim));
      const at::Tensor y = at::_softmax(x, dim, false), ly = at::_log_softmax(x, dim, false);
      EXPECT_TRUE(at::allclose(softmax_on_host<T, false>(x, dim), y, tol, tol));
      EXPECT_TRUE(at::allclose(softmax_on_host<T, true>(x, dim), ly, tol, tol));
      const at::Tensor g = at::randn(shape, at::TensorOptions().dtype(dtype));
      EXPECT_TRUE(at::allclose(softmax_backward_on_host<T, false>(g, y, dim),
                               at::_softmax_backward_data(g, y, dim, dtype), tol, tol));
      EXPECT_TRUE(at::allclose(softmax_backward_on_host<T, true>(g, ly, dim),
                               at::_log_softmax_backward_data(g, ly, dim, dtype), tol, tol));
    }
  }
}

TEST(GpuSoftmaxBodies, EveryThreadsShareGivesTheCpuSoftmax) {
  at::manual_seed(0);
  check_softmax_bodies<float>(1e-5);
  check_softmax_bodies<double>(1e-12);
}

TEST(GpuSoftmaxBodies, BlockWidthsAndLineGeometry) {
  for (int64_t size : {1, 10, 127, 128, 129, 2048, 2049, 100000}) {
    const int threads = gpu::softmax_row_threads(size);
    EXPECT_EQ(threads % 32, 0);
    EXPECT_LE(threads, gpu::kSoftmaxMaxThreads);
    // A block only doubles while the narrower one left each thread more than four elements, and
    // stops at the widest or once a thread has four or fewer.
    EXPECT_TRUE(threads == 32 || size > 4 * (threads / 2));
    EXPECT_TRUE(threads == gpu::kSoftmaxMaxThreads || size <= 4 * threads);
  }
  const int64_t sizes[] = {2, 3, 4, 5};
  const gpu::SoftmaxLines l = gpu::softmax_lines(sizes, 4, 2);
  EXPECT_EQ(l.outer, 6);
  EXPECT_EQ(l.size, 4);
  EXPECT_EQ(l.inner, 5);
  // Line 7 is (outer 1, inner 2): element [0, 1, 0, 2] of the (6, 4, 5) view.
  EXPECT_EQ(gpu::softmax_line_start(l, 7), 1 * 4 * 5 + 2);
  const gpu::SoftmaxLines scalar = gpu::softmax_lines(sizes, 0, 0);
  EXPECT_EQ(scalar.outer * scalar.size * scalar.inner, 1);
  // Note [A few long lines across the fast dim]: only few, long lines across it move it last.
  const int64_t tall[] = {100000, 4};
  EXPECT_TRUE(gpu::softmax_moves_dim_last(gpu::softmax_lines(tall, 2, 0)));
  EXPECT_FALSE(gpu::softmax_moves_dim_last(gpu::softmax_lines(tall, 2, 1)));  // already last
  EXPECT_FALSE(gpu::softmax_moves_dim_last(l));                               // short lines
  const int64_t wide[] = {64, 1000, 4096};  // 262144 lines: the columns layout fills the GPU
  EXPECT_FALSE(gpu::softmax_moves_dim_last(gpu::softmax_lines(wide, 3, 1)));
}

// Note [Splitting a line across a block]: which layout each shape takes, the tiles' geometry,
// and the line each tile thread takes.
TEST(GpuSoftmaxBodies, FewLinesAcrossInnerAreSplitAcrossATilesThreads) {
  const auto lines = [](std::vector<int64_t> sizes, int64_t dim) {
    return gpu::softmax_lines(sizes.data(), static_cast<int64_t>(sizes.size()), dim);
  };
  EXPECT_EQ(gpu::softmax_layout(lines({7, 10}, 1)), gpu::SoftmaxLayout::Rows);
  EXPECT_EQ(gpu::softmax_layout(lines({2, 131072}, 0)), gpu::SoftmaxLayout::Columns);  // many
  EXPECT_EQ(gpu::softmax_layout(lines({4, 5, 6}, 1)), gpu::SoftmaxLayout::Columns);    // short
  // 4096 lines of 1000: a warp of lines a tile, 16 threads a line, 128 blocks.
  const gpu::SoftmaxLines mid = lines({64, 1000, 64}, 1);
  ASSERT_EQ(gpu::softmax_layout(mid), gpu::SoftmaxLayout::Tiles);
  gpu::SoftmaxTile tile = gpu::softmax_tile(mid);
  EXPECT_EQ(tile.x, 32);
  EXPECT_EQ(tile.y, 16);
  EXPECT_EQ(mid.outer * gpu::softmax_tiles_per_outer(mid, tile), 128);
  tile = gpu::softmax_tile(lines({100, 7}, 0));
  EXPECT_EQ(tile.x, 8);
  EXPECT_EQ(tile.y, 16);  // 100 elements: 16 threads keep 4 or more each, 32 would not
  // [3, 50, 40] over dim 1: two tiles an outer index; block 3 is outer 1's second tile, whose
  // thread 7 takes line (1, 39) and thread 8 none.
  const gpu::SoftmaxLines two = lines({3, 50, 40}, 1);
  tile = gpu::softmax_tile(two);
  EXPECT_EQ(tile.x, 32);
  EXPECT_EQ(tile.y, 8);
  ASSERT_EQ(gpu::softmax_tiles_per_outer(two, tile), 2);
  const gpu::SoftmaxTileLine last = gpu::softmax_tile_line(two, tile.x, 2, 3, 7);
  EXPECT_TRUE(last.valid);
  EXPECT_EQ(last.start, 1 * 50 * 40 + 39);
  EXPECT_FALSE(gpu::softmax_tile_line(two, tile.x, 2, 3, 8).valid);
  // Over many shapes: a tile fits a block, x covers inner up to a warp, and a split line leaves
  // each thread four or more elements within the launch's kSoftmaxManyLines threads.
  for (int64_t outer : {1, 3, 64, 1000}) {
    for (int64_t size : {2, 7, 8, 64, 1000, 100000}) {
      for (int64_t inner : {2, 3, 17, 32, 33, 100, 5000}) {
        const gpu::SoftmaxLines l = lines({outer, size, inner}, 1);
        const gpu::SoftmaxTile t = gpu::softmax_tile(l);
        SCOPED_TRACE(std::to_string(outer) + " x " + std::to_string(size) + " x " +
                     std::to_string(inner));
        EXPECT_LE(t.x * t.y, gpu::kSoftmaxMaxThreads);
        EXPECT_EQ(t.x & (t.x - 1), 0);
        EXPECT_EQ(t.y & (t.y - 1), 0);
        if (t.y == 1) continue;
        EXPECT_TRUE(t.x >= inner || t.x == 32);
        EXPECT_LT(t.x / 2, inner);
        EXPECT_LE(outer * inner * t.y, gpu::kSoftmaxManyLines);
        EXPECT_GE(size, 4 * t.y);
      }
    }
  }
}

}  // namespace
