#pragma once
// The allocation step every factory ends in: storage from a device's allocator, a TensorImpl
// with the backend's dispatch keys, restrided for a memory format. The `empty` kernels call
// these; so do tests that need a tensor without going through the dispatcher.
//
//   at::Tensor t = at::detail::empty_cpu({2, 3}, at::kFloat);          // strides [3, 1]
//   at::Tensor c = at::detail::empty_cpu({2, 3, 4, 5}, at::kFloat, at::MemoryFormat::ChannelsLast);

#include "aten/core/Tensor.h"

namespace at {
namespace detail {

// "Trying to create tensor with negative dimension -1: [-1, 2]"
TORCH_API void check_size_nonnegative(IntArrayRef size);

TORCH_API Tensor empty_generic(IntArrayRef size, c10::Allocator* allocator,
                               c10::DispatchKeySet ks, c10::ScalarType scalar_type,
                               c10::optional<c10::MemoryFormat> memory_format_opt);
TORCH_API Tensor empty_strided_generic(IntArrayRef size, IntArrayRef stride,
                                       c10::Allocator* allocator, c10::DispatchKeySet ks,
                                       c10::ScalarType scalar_type);

TORCH_API Tensor empty_cpu(IntArrayRef size, c10::ScalarType dtype,
                           c10::optional<c10::MemoryFormat> memory_format_opt = c10::nullopt);
TORCH_API Tensor empty_strided_cpu(IntArrayRef size, IntArrayRef stride, c10::ScalarType dtype);

}  // namespace detail
}  // namespace at
