#pragma once
// Type promotion (REFERENCE.md section 3): the dtype an operation computes in.
//
// Note [Promotion categories]
// Operands fall into three priority groups: tensors with dims, zero-dim tensors, and wrapped
// numbers (C++ Scalars). The result is the promoted dtype of the highest group present, except
// that a lower group whose dtype is of a higher *category* (bool < integer < floating <
// complex) still lifts it: int tensor + 2.5 -> default float, but int64 tensor + int32 zero-dim
// -> int64. A complex lower group keeps a floating higher group's precision (double tensor +
// complex<float> zero-dim -> ComplexDouble). A wrapped floating number counts as the default
// dtype (Float), not Double; a wrapped complex one as ComplexFloat.

#include "aten/core/Tensor.h"

namespace at {
namespace native {

struct ResultTypeState {
  c10::ScalarType dimResult = c10::ScalarType::Undefined;
  c10::ScalarType zeroResult = c10::ScalarType::Undefined;
  c10::ScalarType wrappedResult = c10::ScalarType::Undefined;
};

TORCH_API ResultTypeState update_result_type_state(const Tensor& tensor,
                                                   const ResultTypeState& in_state);
TORCH_API ResultTypeState update_result_type_state(const c10::Scalar& scalar,
                                                   const ResultTypeState& in_state);
TORCH_API c10::ScalarType result_type(const ResultTypeState& state);

}  // namespace native

// at::result_type(a, b) and friends, as libtorch exposes them.
TORCH_API c10::ScalarType result_type(const Tensor& a, const Tensor& b);
TORCH_API c10::ScalarType result_type(const Tensor& a, const c10::Scalar& b);

// A 0-dim CPU tensor holding a C++ number, marked as a wrapped number for promotion.
TORCH_API Tensor wrapped_scalar_tensor(const c10::Scalar& s);

}  // namespace at
