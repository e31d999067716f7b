#pragma once
// The per-thread bodies of the GPU softmax (cuda/SoftMaxKernel.cu): the geometry of Note [The
// GPU layouts of a softmax] and each thread's share of a pass, as host-device functions, so the
// CPU tests run them for every thread of a launch and compare with the CPU kernel (GPU.md, "Make
// the GPU logic testable without a GPU"). Only the block's combining in the rows and tiles
// layouts (warp shuffles, shared memory) is the kernel's own.

#include <cmath>
#include <cstdint>
#include <limits>

#include "c10/util/Macros.h"

namespace at {
namespace native {
namespace gpu {

constexpr int kSoftmaxMaxThreads = 512;
constexpr int kSoftmaxColumnThreads = 256;

// A contiguous tensor seen along dim: `outer` blocks of `size` slices of `inner` elements.
struct SoftmaxLines {
  int64_t outer = 1, size = 1, inner = 1;
};

// sizes[0..dims), the dim a softmax runs along.
inline SoftmaxLines softmax_lines(const int64_t* sizes, int64_t dims, int64_t dim) {
  SoftmaxLines l;
  if (dims == 0) return l;
  for (int64_t d = 0; d < dim; ++d) l.outer *= sizes[d];
  l.size = sizes[dim];
  for (int64_t d = dim + 1; d < dims; ++d) l.inner *= sizes[d];
  return l;
}

// The rows layout's block: one warp for short rows, wider (in powers of two) while each thread
// would still have four or more elements.
inline int softmax_row_threads(int64_t size) {
  int threads = 32;
  while (threads < kSoftmaxMaxThreads && threads * 4 < size) threads *= 2;
  return threads;
}

// Note [A few long lines across the fast dim]
// When dim is not last and the lines are few and long (softmax over dim 0 of [100000, 4] is 4
// lines of 100000 elements), even the tiles layout (Note [Splitting a line across a block])
// gives the whole tensor a block or two: the GPU idles. So the kernel moves dim last in a
// contiguous copy, runs the rows layout (a block a line) and copies the result back: two more
// passes over the tensor, against a launch of a few blocks. Below kSoftmaxFewLines lines of
// kSoftmaxLongLine or more elements, the tiles give at most kSoftmaxFewLines / tile.x blocks (128
// for a warp-wide tile, under one an SM of an H100), the rows layout a block a line.
constexpr int64_t kSoftmaxFewLines = 4096;
constexpr int64_t kSoftmaxLongLine = 128;

inline bool softmax_moves_dim_last(const SoftmaxLines& l) {
  return l.inner > 1 && l.outer * l.inner < kSoftmaxFewLines && l.size >= kSoftmaxLongLine;
}

// Note [Splitting a line across a block]
// The columns layout's thread a line keeps the GPU busy only with many lines. With fewer
// (kSoftmaxManyLines), a block takes `tile.x` neighbouring lines of one outer index (threads
// side by side across inner, so each step reads a coalesced run) and splits each line's
// elements among `tile.y` threads (threadIdx.y); the block combines each pass's `tile.y`
// partial results per line by a halving tree in shared memory. tile.x is inner rounded up to a
// power of two, at most a warp; tile.y doubles while the block fits, lines * tile.y (the threads
// that hold a line; a last tile's columns past inner idle) stays within kSoftmaxManyLines, and
// each thread keeps four or more elements. tile.y == 1 is the columns layout. (PyTorch's
// SpatialSoftMax splits a line the same way.)
constexpr int64_t kSoftmaxManyLines = int64_t{1} << 17;

struct SoftmaxTile {
  int x = 1;  // lines a block, across inner
  int y = 1;  // threads a line, along dim
};

inline SoftmaxTile softmax_tile(const SoftmaxLines& l) {
  SoftmaxTile tile;
  const int64_t lines = l.outer * l.inner;
  if (l.inner == 1 || lines >= kSoftmaxManyLines) return tile;
  while (tile.x < 32 && tile.x < l.inner) tile.x *= 2;
  while (tile.x * tile.y * 2 <= kSoftmaxMaxThreads && lines * tile.y * 2 <= kSoftmaxManyLines &&
         l.size >= 8 * tile.y) {
    tile.y *= 2;
  }
  return tile;
}

// Note [The GPU layouts of a softmax] (SoftMaxKernel.cu): which one a launch takes.
enum class SoftmaxLayout { Rows, Columns, Tiles };

inline SoftmaxLayout softmax_layout(const SoftmaxLines& l) {
  if (l.inner == 1) return SoftmaxLayout::Rows;
  return softmax_tile(l).y == 1 ? SoftmaxLayout::Columns : SoftmaxLayout::Tiles;
}

// The tiles layout's blocks: each outer index has ceil(inner / tile.x) of them.
inline int64_t softmax_tiles_per_outer(const SoftmaxLines& l, const SoftmaxTile& tile) {
  return (l.inner + tile.x - 1) / tile.x;
}

// A NaN wins, as in the CPU kernel's max.
template <typename T>
C10_HOST_DEVICE T softmax_nan_max(T a, T b) {
  return (a != a || a > b) ? a : b;
}

// softmax: gi = out * (g - sum(g * out)); log_softmax: gi = g - exp(out) * sum(g).
template <typename T, bool kLog>
C10_HOST_DEVICE T softmax_backward_term(T g, T out) {
  return kLog ? g : g * out;
}
template <typename T, bool kLog>
C10_HOST_DEVICE T softmax_backward_value(T g, T out, T sum) {
  return kLog ? g - std::exp(out) * sum : out * (g - sum);
}

// ---- A thread's share of a pass over a line ---------------------------------------------------
// A line is `size` elements `stride` apart (stride 1 in the rows layout, inner across dim);
// thread t of the `threads` that share it takes its elements t, t + threads, ... The rows
// layout shares a row among a block, the tiles layout a line among tile.y threads, and the
// columns layout gives it one thread (t = 0, threads = 1).

template <typename T>
C10_HOST_DEVICE T softmax_line_max(const T* line, int64_t size, int64_t stride, int t,
                                   int threads) {
  T m = -std::numeric_limits<T>::infinity();
  for (int64_t i = t; i < size; i += threads) m = softmax_nan_max(line[i * stride], m);
  return m;
}

template <typename T>
C10_HOST_DEVICE T softmax_line_sum_exp(const T* line, int64_t size, int64_t stride, T max, int t,
                                       int threads) {
  T sum = 0;
  for (int64_t i = t; i < size; i += threads) sum += std::exp(line[i * stride] - max);
  return sum;
}

// The line's results from its max and its sum of exponentials.
template <typename T, bool kLog>
C10_HOST_DEVICE void softmax_line_write(T* out, const T* line, int64_t size, int64_t stride, T max,
                                        T sum, int t, int threads) {
  if (kLog) {
    const T shift = max + std::log(sum);
    for (int64_t i = t; i < size; i += threads) out[i * stride] = line[i * stride] - shift;
  } else {
    const T scale = T(1) / sum;
    for (int64_t i = t; i < size; i += threads) {
      out[i * stride] = std::exp(line[i * stride] - max) * scale;
    }
  }
}

template <typename T, bool kLog>
C10_HOST_DEVICE T softmax_backward_line_sum(const T* g, const T* out, int64_t size, int64_t stride,
                                            int t, int threads) {
  T sum = 0;
  for (int64_t i = t; i < size; i += threads) {
    sum += softmax_backward_term<T, kLog>(g[i * stride], out[i * stride]);
  }
  return sum;
}

template <typename T, bool kLog>
C10_HOST_DEVICE void softmax_backward_line_write(T* gi, const T* g, const T* out, int64_t size,
                                                 int64_t stride, T sum, int t, int threads) {
  for (int64_t i = t; i < size; i += threads) {
    gi[i * stride] = softmax_backward_value<T, kLog>(g[i * stride], out[i * stride], sum);
  }
}

// ---- Where a line starts ----------------------------------------------------------------------

// The columns layout's line `line` in [0, outer * inner).
C10_HOST_DEVICE inline int64_t softmax_line_start(const SoftmaxLines& l, int64_t line) {
  return (line / l.inner) * l.size * l.inner + line % l.inner;
}

// The tiles layout's line for thread x of block `block`; past the last line of its outer index
// (inner is not a multiple of tile.x) when the thread has none.
struct SoftmaxTileLine {
  int64_t start;
  bool valid;
};
C10_HOST_DEVICE inline SoftmaxTileLine softmax_tile_line(const SoftmaxLines& l, int tile_x,
                                                         int64_t tiles_per_outer, int64_t block,
                                                         int x) {
  const int64_t outer = block / tiles_per_outer;
  const int64_t j = (block % tiles_per_outer) * tile_x + x;
  return {outer * l.size * l.inner + j, j < l.inner};
}

// The columns layout's thread: a whole line.
template <typename T, bool kLog>
C10_HOST_DEVICE void softmax_column_line(T* out, const T* in, const SoftmaxLines& l, int64_t line) {
  const int64_t base = softmax_line_start(l, line);
  const T m = softmax_line_max(in + base, l.size, l.inner, 0, 1);
  const T sum = softmax_line_sum_exp(in + base, l.size, l.inner, m, 0, 1);
  softmax_line_write<T, kLog>(out + base, in + base, l.size, l.inner, m, sum, 0, 1);
}

template <typename T, bool kLog>
C10_HOST_DEVICE void softmax_backward_column_line(T* gi, const T* g, const T* out,
                                                  const SoftmaxLines& l, int64_t line) {
  const int64_t base = softmax_line_start(l, line);
  const T sum = softmax_backward_line_sum<T, kLog>(g + base, out + base, l.size, l.inner, 0, 1);
  softmax_backward_line_write<T, kLog>(gi + base, g + base, out + base, l.size, l.inner, sum, 0, 1);
}

}  // namespace gpu
}  // namespace native
}  // namespace at
