#pragma once
// The allocator of CUDA tensors: a caching allocator over cudaMalloc, libtorch's
// c10/cuda/CUDACachingAllocator.h. Its policy and bookkeeping are CachingAllocatorCore.h's (see
// the Notes there); this file binds them to the CUDA runtime, one allocator per device.
//
//   at::Tensor t = at::empty({1024}, at::kCUDA);       // a block from the cache (no cudaMalloc
//                                                     // once the cache is warm)
//   c10::cuda::CUDACachingAllocator::recordStream(t.storage().data_ptr(), side_stream);
//   auto stats = c10::cuda::CUDACachingAllocator::getDeviceStats(0);
//   stats.allocated_bytes[0].current;                 // StatType::AGGREGATE
//   c10::cuda::CUDACachingAllocator::emptyCache();    // cached memory back to the driver
//
// Memory is served on the current device for the current stream; freeing a tensor makes its
// block reusable at once by that stream (Note [Blocks belong to a stream]).

#include <cuda_runtime_api.h>

#include "c10/core/Allocator.h"
#include "c10/cuda/CUDAStream.h"
#include "c10/cuda/CachingAllocatorCore.h"

namespace c10 {
namespace cuda {
namespace CUDACachingAllocator {

// The c10::Allocator of CUDA tensors (also c10::GetAllocator(kCUDA)).
C10_API Allocator* get();

// Gives every cached segment that is wholly free back to the driver, on every device.
C10_API void emptyCache();
C10_API DeviceStats getDeviceStats(DeviceIndex device);
C10_API void resetPeakStats(DeviceIndex device);
C10_API void resetAccumulatedStats(DeviceIndex device);

// The memory of `ptr` (a CUDA tensor's DataPtr) is also used on `stream`: when it is freed it
// is not reused before the work queued on `stream` so far has finished.
C10_API void recordStream(const DataPtr& ptr, CUDAStream stream);

// Raw device memory from the cache, on the current device, for the current stream (or
// `stream`), freed with raw_delete.
C10_API void* raw_alloc(size_t nbytes);
C10_API void* raw_alloc_with_stream(size_t nbytes, cudaStream_t stream);
C10_API void raw_delete(void* ptr);

}  // namespace CUDACachingAllocator
}  // namespace cuda
}  // namespace c10
