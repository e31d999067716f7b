#pragma once
// The kernels behind the binary elementwise operators (add, sub, mul, div), the comparisons
// (eq, ne, lt, le, gt, ge), bitwise and/or/xor, and where: one DispatchStub each, called by the
// operators in BinaryOps.cpp, CompareOps.cpp and BitwiseOps.cpp, filled by
// aten/native/cpu/BinaryOpsKernel.cpp (once per CPU capability; see Note [Kernels are compiled
// once per CPU capability]).
//
//   auto iter = TensorIterator::binary_op(out, self, other);   // promotion, broadcasting, out
//   add_stub(iter.device_type(), iter, alpha);                  // out = self + alpha * other
//
// Every kernel computes in iter.common_dtype(); the operator has already checked its arguments.

#include "aten/native/DispatchStub.h"
#include "aten/native/TensorIterator.h"
#include "c10/core/Scalar.h"

namespace at {
namespace native {

using structured_binary_fn = void (*)(TensorIteratorBase&);
using structured_binary_fn_alpha = void (*)(TensorIteratorBase&, const c10::Scalar& alpha);
using where_fn = void (*)(TensorIteratorBase&);

// out = self + alpha * other. sub is add with -alpha, as in libtorch.
DECLARE_DISPATCH(structured_binary_fn_alpha, add_stub);
DECLARE_DISPATCH(structured_binary_fn, mul_stub);
// True division: the operator promotes integer inputs to float first.
DECLARE_DISPATCH(structured_binary_fn, div_true_stub);
// div with rounding_mode "trunc" / "floor": integer dtypes stay integers ("ZeroDivisionError"
// on an integer 0 divisor), floating ones round the quotient.
DECLARE_DISPATCH(structured_binary_fn, div_trunc_stub);
DECLARE_DISPATCH(structured_binary_fn, div_floor_stub);

// Comparisons: inputs in the common dtype; the output is Bool, or (for an out= tensor of
// another dtype) the common dtype holding 1 or 0, cast back by TensorIterator.
DECLARE_DISPATCH(structured_binary_fn, eq_stub);
DECLARE_DISPATCH(structured_binary_fn, ne_stub);
DECLARE_DISPATCH(structured_binary_fn, lt_stub);
DECLARE_DISPATCH(structured_binary_fn, le_stub);
DECLARE_DISPATCH(structured_binary_fn, gt_stub);
DECLARE_DISPATCH(structured_binary_fn, ge_stub);
// Logical and, or, xor: comparisons of the operands' nonzero-ness (any dtype, NaN is true).
DECLARE_DISPATCH(structured_binary_fn, logical_and_stub);
DECLARE_DISPATCH(structured_binary_fn, logical_or_stub);
DECLARE_DISPATCH(structured_binary_fn, logical_xor_stub);
// !self into Bool, or 1/0 in self's dtype for an out= of another dtype (one input operand).
DECLARE_DISPATCH(structured_binary_fn, logical_not_stub);

// Bitwise and, or, xor of integral or bool operands (BitwiseOps.cpp); "\"bitwise_and_cpu\" not
// implemented for 'Float'" for any other common dtype.
DECLARE_DISPATCH(structured_binary_fn, bitwise_and_stub);
DECLARE_DISPATCH(structured_binary_fn, bitwise_or_stub);
DECLARE_DISPATCH(structured_binary_fn, bitwise_xor_stub);

// The binary math functions (BinaryMathOps.cpp): atan2 in the default float dtype for integer
// inputs; hypot, fmod, maximum and minimum in the common dtype. fmod of integers raises
// "ZeroDivisionError" on a 0 divisor; maximum and minimum propagate NaN.
DECLARE_DISPATCH(structured_binary_fn, atan2_stub);
DECLARE_DISPATCH(structured_binary_fn, hypot_stub);
DECLARE_DISPATCH(structured_binary_fn, fmod_stub);
// remainder: the divisor's sign (Python's %), "ZeroDivisionError" for integers.
DECLARE_DISPATCH(structured_binary_fn, remainder_stub);
DECLARE_DISPATCH(structured_binary_fn, maximum_stub);
DECLARE_DISPATCH(structured_binary_fn, minimum_stub);

// wrapped_scalar_tensor(other) already converted to result_type(self, other): what the Scalar
// overloads pass on. See Note [Scalar overloads wrap their Scalar] in BinaryOps.cpp.
TORCH_API Tensor wrapped_scalar_for(const Tensor& self, const c10::Scalar& other);

// Note [The dense fast path]
// When self and other are CPU tensors of one dtype and one shape, laid out alike (both
// contiguous, both channels-last, or both non-overlapping and dense with equal strides), and
// the output is new, TensorIterator's build would do no more than allocate that layout and walk
// all three as one linear dim (its fast setup). add/sub/mul/div then skip the build — most of
// the cost of a small op — and run the same vectorized loop over the arrays directly, in
// parallel chunks as for_each would. The Scalar overloads take it too: their wrapped number
// already has self's dtype when the result does (wrapped_scalar_for), and is read with stride 0,
// as TensorIterator would broadcast it. Anything else (broadcasting, promotion, out=, in-place)
// goes through TensorIterator.
struct DenseBinaryArgs {
  char* out;
  const char* self;
  const char* other;
  int64_t numel;
  c10::ScalarType dtype;
  bool other_is_scalar;  // a wrapped number: stride 0
};
using dense_binary_fn = void (*)(const DenseBinaryArgs&);
using dense_binary_fn_alpha = void (*)(const DenseBinaryArgs&, const c10::Scalar& alpha);

DECLARE_DISPATCH(dense_binary_fn_alpha, add_dense_stub);
DECLARE_DISPATCH(dense_binary_fn, mul_dense_stub);
DECLARE_DISPATCH(dense_binary_fn, div_true_dense_stub);

// out = condition ? self : other; operands (out, condition, self, other), self and other already
// in out's dtype, condition Bool.
DECLARE_DISPATCH(where_fn, where_stub);

}  // namespace native
}  // namespace at
