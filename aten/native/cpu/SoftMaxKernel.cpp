// softmax and log_softmax, forward and backward, on contiguous float and double tensors (see
// SoftMax.h for the outer x size x inner view). Compiled once per CPU capability.
//
// Note [Two ways along the softmax dim]
// When dim is the last one (inner == 1) each line is a contiguous row: a row is reduced a
// vector at a time (max, then the sum of exp(x - max)) and written a vector at a time. Otherwise
// the elements of one line are `inner` apart and neighbouring lines are neighbours in memory, so
// a vector holds one element of each of several lines: the reductions run lane-wise down the
// dim, with no horizontal step, reading contiguous slices. Both compute as libtorch's CPU
// kernels do (softmax: exp(x - max) * (1 / sum); log_softmax: (x - max) - log(sum)), and both
// feed tails to the vector exp as partial vectors, so a value never depends on where in the
// row it sits (Note [Vector math runs on partial vectors] in Loops.h).

#include <algorithm>
#include <cmath>
#include <limits>

#include "aten/Dispatch.h"
#include "aten/Parallel.h"
#include "aten/core/Tensor.h"
#include "aten/cpu/vec/Vectorized.h"
#include "aten/native/SoftMax.h"

namespace at {
namespace native {
inline namespace CPU_CAPABILITY {

namespace {

using at::vec::Vectorized;

template <typename T>
T nan_max(T a, T b) {
  return (std::isnan(a) || a > b) ? a : b;
}

template <typename T>
T horizontal_max(const Vectorized<T>& v) {
  T m = v[0];
  for (int i = 1; i < Vectorized<T>::size(); ++i) m = nan_max(m, v[i]);
  return m;
}

template <typename T>
T horizontal_sum(const Vectorized<T>& v) {
  T s = v[0];
  for (int i = 1; i < Vectorized<T>::size(); ++i) s += v[i];
  return s;
}

// The view of SoftMax.h.
struct Lines {
  int64_t outer, size, inner;
};

Lines lines_of(const Tensor& t, int64_t dim) {
  Lines l{1, t.dim() == 0 ? 1 : t.size(dim), 1};
  for (int64_t d = 0; d < dim; ++d) l.outer *= t.size(d);
  for (int64_t d = dim + 1; d < t.dim(); ++d) l.inner *= t.size(d);
  return l;
}

// ---- Rows (inner == 1) -------------------------------------------------------------------------

// Four accumulators: a maximum is exact in any order, and the chain of dependent vmaxps is what
// would bound a single one.
template <typename T>
T row_max(const T* x, int64_t n) {
  using Vec = Vectorized<T>;
  constexpr int64_t V = Vec::size();
  int64_t i = 0;
  T m = -std::numeric_limits<T>::infinity();
  if (n >= 4 * V) {
    Vec m0 = Vec::loadu(x), m1 = Vec::loadu(x + V), m2 = Vec::loadu(x + 2 * V),
        m3 = Vec::loadu(x + 3 * V);
    for (i = 4 * V; i + 4 * V <= n; i += 4 * V) {
      m0 = maximum(m0, Vec::loadu(x + i));
      m1 = maximum(m1, Vec::loadu(x + i + V));
      m2 = maximum(m2, Vec::loadu(x + i + 2 * V));
      m3 = maximum(m3, Vec::loadu(x + i + 3 * V));
    }
    m = horizontal_max(maximum(maximum(m0, m1), maximum(m2, m3)));
  }
  for (; i < n; ++i) m = nan_max(m, x[i]);
  return m;
}

// Whole vectors load and store plainly; only the tail goes through the masked forms.
template <typename T>
void softmax_row(T* out, const T* x, int64_t n, bool log) {
  using Vec = Vectorized<T>;
  constexpr int64_t V = Vec::size();
  const int64_t whole = n - n % V;
  const T max = row_max(x, n);
  const Vec vmax(max);
  Vec vsum(T(0));
  for (int64_t i = 0; i < whole; i += V) {
    const Vec e = (Vec::loadu(x + i) - vmax).exp();
    vsum = vsum + e;
    if (!log) e.store(out + i);
  }
  if (whole < n) {
    const int64_t c = n - whole;
    const Vec e = (Vec::loadu(x + whole, c) - vmax).exp();
    // The unused lanes hold exp(0 - max): they must not reach the sum.
    T lanes[V];
    e.store(lanes);
    vsum = vsum + Vec::loadu(lanes, c);
    if (!log) e.store(out + whole, c);
  }
  const T sum = horizontal_sum(vsum);
  if (log) {
    const Vec vlog(std::log(sum));
    for (int64_t i = 0; i < whole; i += V) ((Vec::loadu(x + i) - vmax) - vlog).store(out + i);
    if (whole < n) {
      ((Vec::loadu(x + whole, n - whole) - vmax) - vlog).store(out + whole, n - whole);
    }
  } else {
    const Vec scale(T(1) / sum);
    for (int64_t i = 0; i < whole; i += V) (Vec::loadu(out + i) * scale).store(out + i);
    if (whole < n) (Vec::loadu(out + whole, n - whole) * scale).store(out + whole, n - whole);
  }
}

template <typename T>
void softmax_backward_row(T* gi, const T* g, const T* y, int64_t n, bool log) {
  using Vec = Vectorized<T>;
  constexpr int64_t V = Vec::size();
  Vec vsum(T(0));
  for (int64_t i = 0; i < n; i += V) {
    const int64_t c = std::min(V, n - i);
    const Vec gv = Vec::loadu(g + i, c);
    vsum = vsum + (log ? gv : gv * Vec::loadu(y + i, c));  // unused lanes load as zero
  }
  const Vec sum(horizontal_sum(vsum));
  for (int64_t i = 0; i < n; i += V) {
    const int64_t c = std::min(V, n - i);
    const Vec gv = Vec::loadu(g + i, c), yv = Vec::loadu(y + i, c);
    (log ? gv - yv.exp() * sum : (gv - sum) * yv).store(gi + i, c);
  }
}

// ---- Columns (inner > 1): lanes are neighbouring lines -----------------------------------------

template <typename T>
void softmax_columns(T* out, const T* x, int64_t size, int64_t inner, int64_t count, bool log) {
  using Vec = Vectorized<T>;
  Vec m = Vec::loadu(x, count);
  for (int64_t d = 1; d < size; ++d) m = maximum(m, Vec::loadu(x + d * inner, count));
  Vec sum(T(0));
  for (int64_t d = 0; d < size; ++d) {
    const Vec e = (Vec::loadu(x + d * inner, count) - m).exp();
    sum = sum + e;
    if (!log) e.store(out + d * inner, count);
  }
  if (log) {
    const Vec lg = sum.log();
    for (int64_t d = 0; d < size; ++d) {
      ((Vec::loadu(x + d * inner, count) - m) - lg).store(out + d * inner, count);
    }
  } else {
    const Vec scale = Vec(T(1)) / sum;
    for (int64_t d = 0; d < size; ++d) {
      (Vec::loadu(out + d * inner, count) * scale).store(out + d * inner, count);
    }
  }
}

template <typename T>
void softmax_backward_columns(T* gi, const T* g, const T* y, int64_t size, int64_t inner,
                              int64_t count, bool log) {
  using Vec = Vectorized<T>;
  Vec sum(T(0));
  for (int64_t d = 0; d < size; ++d) {
    const Vec gv = Vec::loadu(g + d * inner, count);
    sum = sum + (log ? gv : gv * Vec::loadu(y + d * inner, count));
  }
  for (int64_t d = 0; d < size; ++d) {
    const Vec gv = Vec::loadu(g + d * inner, count), yv = Vec::loadu(y + d * inner, count);
    (log ? gv - yv.exp() * sum : (gv - sum) * yv).store(gi + d * inner, count);
  }
}

// Runs `row(offset)` for every line (inner == 1) or `columns(offset, count)` for every group of
// up to one vector of neighbouring lines, in parallel, `offset` being the line's first element.
template <typename T, typename Row, typename Columns>
void for_each_line(const Lines& l, const Row& row, const Columns& columns) {
  const int64_t line_cost = std::max<int64_t>(1, l.size);
  if (l.inner == 1) {
    at::parallel_for(0, l.outer, std::max<int64_t>(1, at::internal::GRAIN_SIZE / line_cost),
                     [&](int64_t begin, int64_t end) {
                       for (int64_t o = begin; o < end; ++o) row(o * l.size);
                     });
    return;
  }
  constexpr int64_t V = Vectorized<T>::size();
  const int64_t groups = (l.inner + V - 1) / V;
  at::parallel_for(0, l.outer * groups,
                   std::max<int64_t>(1, at::internal::GRAIN_SIZE / (line_cost * V)),
                   [&](int64_t begin, int64_t end) {
                     for (int64_t i = begin; i < end; ++i) {
                       const int64_t o = i / groups, j = (i % groups) * V;
                       columns(o * l.size * l.inner + j, std::min(V, l.inner - j));
                     }
                   });
}

void softmax_kernel(const Tensor& result, const Tensor& self, int64_t dim, bool log) {
  const Lines l = lines_of(self, dim);
  if (self.numel() == 0) return;
  AT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "softmax_kernel_impl", [&] {
    const scalar_t* x = self.data_ptr<scalar_t>();
    scalar_t* out = result.data_ptr<scalar_t>();
    for_each_line<scalar_t>(
        l, [&](int64_t off) { softmax_row(out + off, x + off, l.size, log); },
        [&](int64_t off, int64_t count) {
          softmax_columns(out + off, x + off, l.size, l.inner, count, log);
        });
  });
}

void softmax_backward_kernel(const Tensor& grad_input, const Tensor& grad, const Tensor& output,
                             int64_t dim, bool log) {
  const Lines l = lines_of(output, dim);
  if (output.numel() == 0) return;
  AT_DISPATCH_FLOATING_TYPES(output.scalar_type(), "softmax_backward_data", [&] {
    const scalar_t* g = grad.data_ptr<scalar_t>();
    const scalar_t* y = output.data_ptr<scalar_t>();
    scalar_t* gi = grad_input.data_ptr<scalar_t>();
    for_each_line<scalar_t>(
        l, [&](int64_t off) { softmax_backward_row(gi + off, g + off, y + off, l.size, log); },
        [&](int64_t off, int64_t count) {
          softmax_backward_columns(gi + off, g + off, y + off, l.size, l.inner, count, log);
        });
  });
}

}  // namespace
}  // namespace CPU_CAPABILITY

REGISTER_DISPATCH(softmax_stub, &softmax_kernel);
REGISTER_DISPATCH(softmax_backward_stub, &softmax_backward_kernel);
}  // namespace native
}  // namespace at
