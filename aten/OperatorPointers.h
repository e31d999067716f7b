#pragma once
// ATEN_FN / ATEN_FN2: an operator's typed entry point as a plain function pointer, libtorch's
// spelling of at::_ops::<op>[_<overload>]::call (aten/generated/Operators.h):
//
//   auto* add = ATEN_FN2(add, Tensor);   // at::Tensor (*)(const Tensor&, const Tensor&, const Scalar&)
//   at::Tensor y = add(x, x, 1);          // dispatches as at::add(x, x) does
//   auto* c = ATEN_FN(contiguous);        // an operator without an overload name

#include "aten/generated/Operators.h"

#define ATEN_FN2(op_name, overload) at::_ops::op_name##_##overload::call
#define ATEN_FN(op_name) at::_ops::op_name::call
