#pragma once
// pow's kernels (aten/native/cpu/PowKernel.cpp), called by Pow.cpp.
//
//   pow_tensor_tensor_stub(iter.device_type(), iter);         // base ** exponent, elementwise
//   pow_tensor_scalar_stub(iter.device_type(), iter, 2.5);    // base ** one exponent

#include "aten/native/DispatchStub.h"
#include "aten/native/TensorIterator.h"
#include "c10/core/Scalar.h"

namespace at {
namespace native {

using pow_tensor_tensor_fn = void (*)(TensorIteratorBase& iter);
using pow_tensor_scalar_fn = void (*)(TensorIteratorBase& iter, const c10::Scalar& exponent);

DECLARE_DISPATCH(pow_tensor_tensor_fn, pow_tensor_tensor_stub);
DECLARE_DISPATCH(pow_tensor_scalar_fn, pow_tensor_scalar_stub);

}  // namespace native
}  // namespace at
