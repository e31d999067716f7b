#pragma once
// The CUDA allocator (cudaMalloc/cudaFree) and a device guard. Built only with CUDA; a CPU-only
// build has no CUDA allocator, so asking for CUDA memory there is a clear error.

#include "c10/core/Allocator.h"

namespace c10 {
namespace cuda {

// Number of visible CUDA devices; 0 when there is no driver or no device (never throws).
C10_API int device_count() noexcept;
C10_API bool is_available() noexcept;
C10_API Allocator* GetCUDAAllocator();

// Sets the current device for a scope and restores the previous one.
class C10_API CUDAGuard {
 public:
  explicit CUDAGuard(DeviceIndex index);
  ~CUDAGuard();
  CUDAGuard(const CUDAGuard&) = delete;
  CUDAGuard& operator=(const CUDAGuard&) = delete;

 private:
  int previous_;
};

}  // namespace cuda
}  // namespace c10
