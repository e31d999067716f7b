#pragma once
// The activation functions' kernels (aten/native/cpu/ActivationKernel.cpp), called by
// Activation.cpp.

#include "aten/native/DispatchStub.h"
#include "aten/native/TensorIterator.h"

namespace at {
namespace native {

// gelu's two forms: the exact x * Φ(x) ("none") and the tanh approximation ("tanh").
enum class GeluType { None, Tanh };

using silu_fn = void (*)(TensorIteratorBase& iter);
using gelu_fn = void (*)(TensorIteratorBase& iter, GeluType approximate);

DECLARE_DISPATCH(silu_fn, silu_stub);
DECLARE_DISPATCH(gelu_fn, gelu_stub);

// iter: (grad_input; self, grad_output) in one dtype. grad_input = self <= threshold ? 0 : grad.
using threshold_backward_fn = void (*)(TensorIteratorBase& iter, const c10::Scalar& threshold);
DECLARE_DISPATCH(threshold_backward_fn, threshold_backward_stub);

}  // namespace native
}  // namespace at
