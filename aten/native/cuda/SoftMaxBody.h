#pragma once
// The per-thread bodies of the GPU softmax (cuda/SoftMaxKernel.cu): the geometry of Note [Two
// GPU layouts of a softmax] and each thread's share of a pass, as host-device functions, so the
// CPU tests run them for every thread of a launch and compare with the CPU kernel (GPU.md, "Make
// the GPU logic testable without a GPU"). Only the block's combining of the rows layout (warp
// shuffles and shared memory) is the kernel's own.

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
// The columns layout gives a line a thread. When dim is not last but the lines are few and
// long (softmax over dim 0 of [100000, 4] is 4 lines: 4 threads walking 100000 elements each),
// the GPU idles, so the kernel moves dim last in a contiguous copy, runs the rows layout (a
// block a line) and copies the result back: two more passes over the tensor, against a launch
// of a few threads. kSoftmaxFewLines threads are under 2% of an H100's.
constexpr int64_t kSoftmaxFewLines = 4096;
constexpr int64_t kSoftmaxLongLine = 128;

inline bool softmax_moves_dim_last(const SoftmaxLines& l) {
  return l.inner > 1 && l.outer * l.inner < kSoftmaxFewLines && l.size >= kSoftmaxLongLine;
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

// ---- The rows layout: thread t of `threads` takes elements t, t + threads, ... of a row ------

template <typename T>
C10_HOST_DEVICE T softmax_row_max(const T* row, int64_t size, int t, int threads) {
  T m = -std::numeric_limits<T>::infinity();
  for (int64_t i = t; i < size; i += threads) m = softmax_nan_max(row[i], m);
  return m;
}

template <typename T>
C10_HOST_DEVICE T softmax_row_sum_exp(const T* row, int64_t size, T max, int t, int threads) {
  T sum = 0;
  for (int64_t i = t; i < size; i += threads) sum += std::exp(row[i] - max);
  return sum;
}

// The row's results from its max and its sum of exponentials.
template <typename T, bool kLog>
C10_HOST_DEVICE void softmax_row_write(T* out, const T* row, int64_t size, T max, T sum, int t,
                                       int threads) {
  if (kLog) {
    const T shift = max + std::log(sum);
    for (int64_t i = t; i < size; i += threads) out[i] = row[i] - shift;
  } else {
    const T scale = T(1) / sum;
    for (int64_t i = t; i < size; i += threads) out[i] = std::exp(row[i] - max) * scale;
  }
}

template <typename T, bool kLog>
C10_HOST_DEVICE T softmax_backward_row_sum(const T* g, const T* out, int64_t size, int t,
                                           int threads) {
  T sum = 0;
  for (int64_t i = t; i < size; i += threads) sum += softmax_backward_term<T, kLog>(g[i], out[i]);
  return sum;
}

template <typename T, bool kLog>
C10_HOST_DEVICE void softmax_backward_row_write(T* gi, const T* g, const T* out, int64_t size,
                                                T sum, int t, int threads) {
  for (int64_t i = t; i < size; i += threads) {
    gi[i] = softmax_backward_value<T, kLog>(g[i], out[i], sum);
  }
}

// ---- The columns layout: one thread per line, `line` in [0, outer * inner) -------------------

C10_HOST_DEVICE inline int64_t softmax_line_start(const SoftmaxLines& l, int64_t line) {
  return (line / l.inner) * l.size * l.inner + line % l.inner;
}

template <typename T, bool kLog>
C10_HOST_DEVICE void softmax_column_line(T* out, const T* in, const SoftmaxLines& l, int64_t line) {
  const int64_t base = softmax_line_start(l, line);
  in += base;
  out += base;
  T m = -std::numeric_limits<T>::infinity();
  for (int64_t i = 0; i < l.size; ++i) m = softmax_nan_max(in[i * l.inner], m);
  T sum = 0;
  for (int64_t i = 0; i < l.size; ++i) sum += std::exp(in[i * l.inner] - m);
  if (kLog) {
    const T shift = m + std::log(sum);
    for (int64_t i = 0; i < l.size; ++i) out[i * l.inner] = in[i * l.inner] - shift;
  } else {
    const T scale = T(1) / sum;
    for (int64_t i = 0; i < l.size; ++i) out[i * l.inner] = std::exp(in[i * l.inner] - m) * scale;
  }
}

template <typename T, bool kLog>
C10_HOST_DEVICE void softmax_backward_column_line(T* gi, const T* g, const T* out,
                                                  const SoftmaxLines& l, int64_t line) {
  const int64_t base = softmax_line_start(l, line);
  gi += base;
  g += base;
  out += base;
  T sum = 0;
  for (int64_t i = 0; i < l.size; ++i) {
    sum += softmax_backward_term<T, kLog>(g[i * l.inner], out[i * l.inner]);
  }
  for (int64_t i = 0; i < l.size; ++i) {
    gi[i * l.inner] = softmax_backward_value<T, kLog>(g[i * l.inner], out[i * l.inner], sum);
  }
}

}  // namespace gpu
}  // namespace native
}  // namespace at
