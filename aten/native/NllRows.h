#pragma once
// The rows nll_loss reads, shared by the CPU loops (Loss.cpp) and the GPU kernels
// (cuda/LossKernel.cu, through cuda/NllLossBody.h): sample i's class scores start at
// input + i * row_stride. Host-device, so one definition serves both and the CPU tests run the
// GPU's bodies over it.

#include <cstdint>

#include "aten/core/Tensor.h"
#include "c10/util/Exception.h"
#include "c10/util/Macros.h"

namespace at {
namespace native {

template <typename T>
struct NllRows {
  const T* input;
  int64_t rows, classes, row_stride, class_stride;
  const int64_t* target;
  int64_t target_stride;
  const T* weight;  // null without weights
  int64_t weight_stride;

  // Sample i's class, checked against the class count; -1 when it is ignored. On the GPU a bad
  // target stops the kernel (Note [A GPU thread cannot raise for a bad target] in
  // cuda/LossKernel.cu); on the host it is libtorch's error.
  C10_HOST_DEVICE int64_t class_of(int64_t i, int64_t ignore_index) const {
    const int64_t t = target[i * target_stride];
    if (t == ignore_index) return -1;
    if (t < 0 || t >= classes) {
#if defined(__CUDA_ARCH__)
      __trap();
#else
      TORCH_CHECK_INDEX(false, "Target ", t, " is out of bounds.");
#endif
    }
    return t;
  }
  C10_HOST_DEVICE T weight_of(int64_t c) const {
    return weight ? weight[c * weight_stride] : T(1);
  }
  C10_HOST_DEVICE T score(int64_t i, int64_t c) const {
    return input[i * row_stride + c * class_stride];
  }
};

// The rows of a 1-D (one sample) or 2-D self with their targets and weights (weight may be
// undefined). It keeps raw pointers: the tensors must outlive it (a temporary contiguous()
// copy would not).
template <typename T>
NllRows<T> nll_rows_of(const Tensor& self, const Tensor& target, const Tensor& weight) {
  return NllRows<T>{self.data_ptr<T>(),
                    self.dim() == 1 ? 1 : self.size(0),
                    self.size(-1),
                    self.dim() == 1 ? 0 : self.stride(0),
                    self.stride(-1),
                    target.data_ptr<int64_t>(),
                    target.dim() == 0 ? 0 : target.stride(0),
                    weight.defined() ? weight.data_ptr<T>() : nullptr,
                    weight.defined() ? weight.stride(0) : 0};
}

}  // namespace native
}  // namespace at
