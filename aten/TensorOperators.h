#pragma once
// The binary operators on tensors and scalars, as libtorch's ATen/TensorOperators.h defines them:
//
//   at::Tensor y = 2 * x + 1;     // x.mul(2).add(1)
//   at::Tensor m = 1 - x;         // a tensor like x filled with 1, then sub_(x)
//   at::Tensor b = x >= 0.5;      // x.ge(0.5), a Bool tensor
//   at::Tensor m = b & (x < 2);   // x.bitwise_and(...): integral and Bool tensors only
//
// A Scalar on the left of a commutative op or a comparison swaps sides (2 * x is x.mul(2),
// 1 < x is x.gt(1)); for - and / it becomes a tensor shaped, typed and laid out like the right
// operand, so `1 - int_tensor` stays integral exactly as in libtorch. The unary - and ~ and the
// compound assignments (+=, &=, ...) are Tensor members (aten/core/Tensor.h).

#include "aten/core/Tensor.h"
#include "aten/generated/Functions.h"
#include "aten/generated/TensorMethods.h"
#include "c10/core/Scalar.h"

namespace at {

#define MINIATEN_FORALL_BINARY_OPS(_)                                                 \
  _(+, x.add(y), y.add(x))                                                            \
  _(*, x.mul(y), y.mul(x))                                                            \
  _(-, x.sub(y), ::at::empty_like(y, c10::MemoryFormat::Preserve).fill_(x).sub_(y))   \
  _(/, x.div(y), ::at::empty_like(y, c10::MemoryFormat::Preserve).fill_(x).div_(y))   \
  _(&, x.bitwise_and(y), y.bitwise_and(x))                                            \
  _(|, x.bitwise_or(y), y.bitwise_or(x))                                              \
  _(^, x.bitwise_xor(y), y.bitwise_xor(x))                                            \
  _(<, x.lt(y), y.gt(x))                                                              \
  _(<=, x.le(y), y.ge(x))                                                             \
  _(>, x.gt(y), y.lt(x))                                                              \
  _(>=, x.ge(y), y.le(x))                                                             \
  _(==, x.eq(y), y.eq(x))                                                             \
  _(!=, x.ne(y), y.ne(x))

#define MINIATEN_DEFINE_OPERATOR(op, body, reverse_scalar_body)                        \
  inline Tensor operator op(const Tensor& x, const Tensor& y) { return body; }         \
  inline Tensor operator op(const Tensor& x, const c10::Scalar& y) { return body; }    \
  inline Tensor operator op(const c10::Scalar& x, const Tensor& y) { return reverse_scalar_body; }

MINIATEN_FORALL_BINARY_OPS(MINIATEN_DEFINE_OPERATOR)

#undef MINIATEN_DEFINE_OPERATOR
#undef MINIATEN_FORALL_BINARY_OPS

}  // namespace at
