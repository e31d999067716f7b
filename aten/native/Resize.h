#pragma once
// What libtorch's structured out= wrappers check and do before a kernel writes `out`: its dtype
// and device must be the expected ones, and it is resized to `sizes` (with libtorch's
// deprecation warning when a tensor with elements changes shape).

#include "aten/core/Tensor.h"

namespace at {
namespace native {

TORCH_API void resize_out(const Tensor& out, IntArrayRef sizes, const Tensor& self,
                          ScalarType dtype);

}  // namespace native
}  // namespace at
