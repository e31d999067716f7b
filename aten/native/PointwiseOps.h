#pragma once
// The kernels of the pointwise ops of three tensors (PointwiseOps.cpp, filled by
// cpu/PointwiseOpsKernel.cpp): out = self + value * t1 * t2 (addcmul), self + value * t1 / t2
// (addcdiv), and the linear interpolation self + weight * (end - self) (lerp, with a Scalar or
// a tensor weight). The iterator has the output then the inputs, all of one dtype.

#include "aten/native/DispatchStub.h"
#include "aten/native/TensorIterator.h"

namespace at {
namespace native {

using pointwise_fn = void (*)(TensorIteratorBase& iter, const Scalar& value);
DECLARE_DISPATCH(pointwise_fn, addcmul_stub);
DECLARE_DISPATCH(pointwise_fn, addcdiv_stub);
// iter: out, self, end; value is the weight.
DECLARE_DISPATCH(pointwise_fn, lerp_scalar_stub);
using lerp_tensor_fn = void (*)(TensorIteratorBase& iter);  // out, self, end, weight
DECLARE_DISPATCH(lerp_tensor_fn, lerp_tensor_stub);

}  // namespace native
}  // namespace at
