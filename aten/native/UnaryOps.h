#pragma once
// The kernels behind the unary elementwise operators (neg, abs, exp, log, sqrt): one DispatchStub
// each, called by UnaryOps.cpp, filled by aten/native/cpu/UnaryOpsKernel.cpp.
//
//   auto iter = TensorIterator::unary_float_op(out, self);   // integers promote to Float
//   exp_stub(iter.device_type(), iter);

#include "aten/native/DispatchStub.h"
#include "aten/native/TensorIterator.h"

namespace at {
namespace native {

using unary_fn = void (*)(TensorIteratorBase&);

DECLARE_DISPATCH(unary_fn, neg_stub);
DECLARE_DISPATCH(unary_fn, abs_stub);
DECLARE_DISPATCH(unary_fn, exp_stub);
DECLARE_DISPATCH(unary_fn, log_stub);
DECLARE_DISPATCH(unary_fn, sqrt_stub);
DECLARE_DISPATCH(unary_fn, conj_physical_stub);
// ~x of an integral or bool tensor (BitwiseOps.cpp).
DECLARE_DISPATCH(unary_fn, bitwise_not_stub);

}  // namespace native
}  // namespace at
