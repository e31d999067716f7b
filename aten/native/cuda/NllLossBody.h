#pragma once
// The per-thread bodies of the GPU nll_loss (cuda/LossKernel.cu) as host-device functions: the
// rows as the kernels read them, one sample's loss and gradient, and a thread's share of the sum.
// The CPU tests run them for every thread of a launch and compare with the CPU loops of Loss.cpp.

#include <cstdint>

#include "aten/native/NllRows.h"
#include "c10/util/Macros.h"

namespace at {
namespace native {
namespace gpu {

constexpr int kNllThreads = 256;
constexpr int kNllReduceThreads = 1024;

using native::NllRows;  // aten/native/NllRows.h, shared with the CPU loops

// Sample i's loss, -weight[c] * self[i, c], or 0 when it is ignored.
// In T, as the CPU's loop.
template <typename T>
C10_HOST_DEVICE T nll_sample_loss(const NllRows<T>& r, int64_t i, int64_t ignore_index) {
  const int64_t c = r.class_of(i, ignore_index);
  return c < 0 ? T(0) : static_cast<T>(-r.score(i, c) * r.weight_of(c));
}

// Thread t of `threads`' share of the sum: samples t, t + threads, ... (loss and weights, in
// double as the CPU's sum).
struct NllPartial {
  double loss = 0, weight = 0;
};
template <typename T>
C10_HOST_DEVICE NllPartial nll_thread_partial(const NllRows<T>& r, int64_t ignore_index, int t,
                                              int threads) {
  NllPartial p;
  for (int64_t i = t; i < r.rows; i += threads) {
    const int64_t c = r.class_of(i, ignore_index);
    if (c < 0) continue;
    const double w = static_cast<double>(r.weight_of(c));
    p.weight += w;
    p.loss -= static_cast<double>(r.score(i, c)) * w;
  }
  return p;
}

// Sample i's gradient into grad_input (contiguous rows of `classes`, zero elsewhere):
// -weight[c] * grad * scale, computed in T as the CPU's loop.
template <typename T>
C10_HOST_DEVICE void nll_sample_backward(T* grad_input, int64_t gi_row, const T* grad,
                                         int64_t grad_stride, T scale, const NllRows<T>& r,
                                         int64_t i, int64_t ignore_index) {
  const int64_t c = r.class_of(i, ignore_index);
  if (c < 0) return;
  grad_input[i * gi_row + c] = static_cast<T>(-r.weight_of(c) * grad[i * grad_stride] * scale);
}

}  // namespace gpu
}  // namespace native
}  // namespace at
