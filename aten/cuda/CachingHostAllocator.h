#pragma once
// libtorch's ATen/cuda/CachingHostAllocator.h: the pinned host memory allocator under at::cuda
// (c10/cuda/CachingHostAllocator.h has the allocator itself).
//
//   at::Tensor h = at::empty({n}, at::TensorOptions().pinned_memory(true));
//   at::cuda::CachingHostAllocator_recordEvent(h.data_ptr(), h.storage().data_ptr().get_context(),
//                                              at::cuda::getCurrentCUDAStream());

#include "c10/cuda/CachingHostAllocator.h"

namespace at {
namespace cuda {

inline c10::Allocator* getCachingHostAllocator() {
  return c10::cuda::getCachingHostAllocator();
}

// libtorch's signature: the block is found from ctx, the storage's DataPtr context (its start).
inline bool CachingHostAllocator_recordEvent(void* ptr, void* ctx, c10::cuda::CUDAStream stream) {
  (void)ptr;
  return c10::cuda::CachingHostAllocator_recordEvent(ctx, stream);
}

inline void CachingHostAllocator_emptyCache() {
  c10::cuda::CachingHostAllocator_emptyCache();
}

}  // namespace cuda
}  // namespace at
