#pragma once
// Complex tensors seen as their parts, and real tensors seen as complex ones: view_as_real,
// view_as_complex, real, imag (libtorch's aten/src/ATen/native/ComplexHelper.h).
//
//   Tensor z = at::zeros({3}, at::kComplexFloat);
//   Tensor parts = at::view_as_real(z);     // Float, sizes [3, 2], strides [2, 1], aliases z
//   at::real(z).fill_(1);                   // z is now (1, 0), (1, 0), (1, 0)
//   at::view_as_complex(parts);             // ComplexFloat, sizes [3], aliases z
//
// Every result is a view: same storage, same version counter. Kernels that fill a complex
// tensor's parts (rand, randn) use view_as_real_unchecked, which skips the operator.

#include "aten/core/Tensor.h"

namespace at {
namespace native {

// self (ComplexFloat or ComplexDouble) seen as its real value type with a last dim of 2
// (real, imag): strides doubled, storage offset doubled.
TORCH_API Tensor view_as_real_unchecked(const Tensor& self);

}  // namespace native
}  // namespace at
