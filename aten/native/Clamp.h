#pragma once
// clamp's kernels (aten/native/cpu/BinaryMathKernel.cpp), called by Clamp.cpp. The Tensor
// overloads with one bound are maximum / minimum (BinaryOps.h).

#include "aten/native/DispatchStub.h"
#include "aten/native/TensorIterator.h"
#include "c10/core/Scalar.h"

namespace at {
namespace native {

using clamp_tensor_fn = void (*)(TensorIteratorBase& iter);  // (out, self, min, max)
using clamp_scalar_fn = void (*)(TensorIteratorBase& iter, const c10::Scalar& min,
                                 const c10::Scalar& max);
using clamp_bound_fn = void (*)(TensorIteratorBase& iter, const c10::Scalar& bound);

DECLARE_DISPATCH(clamp_tensor_fn, clamp_stub);
DECLARE_DISPATCH(clamp_scalar_fn, clamp_scalar_stub);
DECLARE_DISPATCH(clamp_bound_fn, clamp_min_scalar_stub);
DECLARE_DISPATCH(clamp_bound_fn, clamp_max_scalar_stub);

}  // namespace native
}  // namespace at
