#include "c10/cuda/CUDAAllocator.h"

#include <cuda_runtime_api.h>

namespace c10 {
namespace cuda {

namespace {

void check(cudaError_t err, const char* what) {
  TORCH_CHECK(err == cudaSuccess, "CUDA error: ", cudaGetErrorString(err), " (", what, ")");
}

void free_cuda(void* ptr) {
  // Errors while freeing (e.g. at process exit) cannot be reported by a deleter.
  (void)cudaFree(ptr);
}

struct CUDAAllocator final : public Allocator {
  DataPtr allocate(size_t nbytes) const override {
    int device = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    if (nbytes == 0) return {nullptr, nullptr, &free_cuda, Device(DeviceType::CUDA, device)};
    void* ptr = nullptr;
    const cudaError_t err = cudaMalloc(&ptr, nbytes);
    if (err == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();  // clear the sticky error
      TORCH_CHECK_WITH(OutOfMemoryError, false, "CUDA out of memory. Tried to allocate ", nbytes,
                       " bytes on device ", device, ".");
    }
    check(err, "cudaMalloc");
    return {ptr, ptr, &free_cuda, Device(DeviceType::CUDA, static_cast<DeviceIndex>(device))};
  }
  DeleterFnPtr raw_deleter() const override { return &free_cuda; }
};

CUDAAllocator g_cuda_alloc;

}  // namespace

int device_count() noexcept {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return count;
}

bool is_available() noexcept { return device_count() > 0; }

Allocator* GetCUDAAllocator() { return &g_cuda_alloc; }

REGISTER_ALLOCATOR(DeviceType::CUDA, &g_cuda_alloc);

CUDAGuard::CUDAGuard(DeviceIndex index) : previous_(0) {
  check(cudaGetDevice(&previous_), "cudaGetDevice");
  if (index >= 0 && index != previous_) check(cudaSetDevice(index), "cudaSetDevice");
}

CUDAGuard::~CUDAGuard() { (void)cudaSetDevice(previous_); }

}  // namespace cuda
}  // namespace c10
