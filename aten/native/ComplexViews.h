#pragma once
// Real views of complex tensors, for the kernels that work on a complex tensor's parts.
//
//   Tensor z = at::zeros({3}, at::kComplexFloat);
//   Tensor parts = native::view_as_real_unchecked(z);   // Float, sizes [3, 2], strides [2, 1]
//   parts.normal_(0, std);                               // fills real and imaginary parts
//
// libtorch's at::view_as_real without its operator entry (no autograd, no dispatch): kernels
// such as randn and rand of a complex dtype fill the parts through it, as libtorch's do.

#include "aten/core/Tensor.h"

namespace at {
namespace native {

// self (ComplexFloat or ComplexDouble) seen as its real value type with a last dim of 2
// (real, imag): strides doubled, storage offset doubled, same storage and version counter.
TORCH_API Tensor view_as_real_unchecked(const Tensor& self);

}  // namespace native
}  // namespace at
