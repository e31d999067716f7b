#pragma once
// Tensor methods written by hand (those with a fast path before the dispatcher).

#include "aten/core/Tensor.h"
#include "aten/generated/Operators.h"

namespace at {

inline Tensor Tensor::__dispatch_contiguous(c10::MemoryFormat memory_format) const {
  return at::_ops::contiguous::call(*this, memory_format);
}

}  // namespace at
