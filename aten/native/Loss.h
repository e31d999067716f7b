#pragma once
// The device kernels of nll_loss (aten/native/cuda/LossKernel.cu), called by Loss.cpp after its
// checks. The CPU's loops are in Loss.cpp itself.

#include <cstdint>

#include "aten/native/DispatchStub.h"

namespace at {
class Tensor;
namespace native {

// self: 1-D (one sample) or 2-D (N, C) scores; target: Long, 0-D or (N); weight: (C) or
// undefined. output: (N) for reduction None on a 2-D self, else 0-dim; total_weight 0-dim.
// Neither is empty (Loss.cpp answers an empty target itself).
using nll_loss_forward_fn = void (*)(const Tensor& output, const Tensor& total_weight,
                                     const Tensor& self, const Tensor& target, const Tensor& weight,
                                     int64_t reduction, int64_t ignore_index);
// grad_input: zeros shaped as self (contiguous), filled at each counted sample's class.
using nll_loss_backward_fn = void (*)(const Tensor& grad_input, const Tensor& grad_output,
                                      const Tensor& self, const Tensor& target,
                                      const Tensor& weight, int64_t reduction, int64_t ignore_index,
                                      const Tensor& total_weight);

DECLARE_DISPATCH(nll_loss_forward_fn, nll_loss_forward_stub);
DECLARE_DISPATCH(nll_loss_backward_fn, nll_loss_backward_stub);

}  // namespace native
}  // namespace at
