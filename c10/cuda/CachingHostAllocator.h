#pragma once
// Page-locked ("pinned") host memory for CPU tensors made with pin_memory=true or by
// t.pin_memory(): the CUDA runtime can copy it to and from the device asynchronously, with the
// host free to go on. Libtorch's at::cuda::CachingHostAllocator; the policy (power-of-two sizes,
// blocks held back until the copies that use them finish) is CachingHostAllocatorCore.h's.
//
//   at::Tensor h = at::empty({n}, at::TensorOptions().pinned_memory(true));
//   at::Tensor d = h.to(at::kCUDA, /*non_blocking=*/true);   // returns before the copy is done;
//                                                           // h's block is not reused until it is

#include "c10/core/Allocator.h"
#include "c10/cuda/CUDAStream.h"
#include "c10/cuda/CachingHostAllocatorCore.h"

namespace c10 {
namespace cuda {

// The allocator of pinned CPU tensors (their DataPtr's device is the CPU).
C10_API Allocator* getCachingHostAllocator();

// Records that the pinned block starting at `ptr` is used by work queued on `stream`: it goes
// back to the cache only after that work. False when `ptr` is not such a block (pageable memory).
C10_API bool CachingHostAllocator_recordEvent(void* ptr, CUDAStream stream);

// Gives cached blocks whose uses have finished back to the driver.
C10_API void CachingHostAllocator_emptyCache();

// Whether `ptr` points into page-locked memory: a block of this allocator, or memory the CUDA
// runtime reports as pinned host memory. False without a device.
C10_API bool isPinnedPtr(const void* ptr);

C10_API HostStats CachingHostAllocator_getStats();

}  // namespace cuda
}  // namespace c10
