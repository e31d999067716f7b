#pragma once
// The kernels behind softmax and log_softmax (aten/native/cpu/SoftMaxKernel.cpp), called by
// SoftMax.cpp with contiguous tensors of one floating dtype (float or double).
//
// A contiguous tensor seen along `dim` is outer x size x inner: `outer` blocks, each holding
// `size` slices of `inner` elements. Each of the outer * inner lines along dim is normalized on
// its own.

#include "aten/native/DispatchStub.h"

namespace at {
class Tensor;
namespace native {

// result = softmax(self) along dim, or log_softmax when `log`.
using softmax_fn = void (*)(const Tensor& result, const Tensor& self, int64_t dim, bool log);
// grad_input from grad_output and the forward's output: softmax's
// output * (grad - sum(grad * output)), or log_softmax's grad - exp(output) * sum(grad).
using softmax_backward_fn = void (*)(const Tensor& grad_input, const Tensor& grad,
                                     const Tensor& output, int64_t dim, bool log);

DECLARE_DISPATCH(softmax_fn, softmax_stub);
DECLARE_DISPATCH(softmax_backward_fn, softmax_backward_stub);

}  // namespace native
}  // namespace at
