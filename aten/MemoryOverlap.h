#pragma once
// Whether tensors share memory in ways that make an in-place or out= write unsafe.

#include "aten/core/Tensor.h"

namespace at {

// Can one element of `t` be written twice? YES when a dim of size > 1 has stride 0;
// TOO_HARD when it is neither dense nor obviously overlapping.
enum class MemOverlap { No, Yes, TooHard };
// How two tensors' memory relates.
enum class MemOverlapStatus { Full, Partial, No, TooHard };

TORCH_API MemOverlap has_internal_overlap(const TensorBase& t);
TORCH_API MemOverlapStatus get_overlap_status(const TensorBase& a, const TensorBase& b);

// "unsupported operation: more than one element of the written-to tensor refers to a single
// memory location. Please clone() the tensor before performing the operation."
TORCH_API void assert_no_internal_overlap(const TensorBase& t);
// "unsupported operation: some elements of the input tensor and the written-to tensor refer to
// a single memory location. Please clone() the tensor before performing the operation."
TORCH_API void assert_no_partial_overlap(const TensorBase& a, const TensorBase& b);
// The same message for full overlap too (an input that is exactly the output).
TORCH_API void assert_no_overlap(const TensorBase& a, const TensorBase& b);

}  // namespace at
