#include "c10/cuda/CachingHostAllocator.h"

#include <cuda_runtime_api.h>

#include "c10/cuda/CUDAGuard.h"

namespace c10 {
namespace cuda {

namespace {

// HostMemory over the CUDA runtime. Called with the allocator's lock held.
class CudaHostMemory final : public HostMemory {
 public:
  void* malloc(size_t size) override {
    // Pinned memory is mapped for every device; the allocation only needs a context to exist.
    if (device_count() == 0) device_count_ensure_non_zero();
    void* ptr = nullptr;
    const cudaError_t err = cudaHostAlloc(&ptr, size, cudaHostAllocDefault);
    if (err == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();
      return nullptr;
    }
    C10_CUDA_CHECK(err);
    return ptr;
  }
  void free(void* ptr) override { C10_CUDA_CHECK(cudaFreeHost(ptr)); }
  EventHandle record_event(StreamHandle stream) override {
    cudaEvent_t event = nullptr;
    C10_CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
    C10_CUDA_CHECK(cudaEventRecord(event, static_cast<cudaStream_t>(stream)));
    return event;
  }
  bool query_event(EventHandle event) override {
    return event_completed(static_cast<cudaEvent_t>(event));
  }
  void release_event(EventHandle event) override {
    C10_CUDA_CHECK_WARN(cudaEventDestroy(static_cast<cudaEvent_t>(event)));
  }
};

CachingHostAllocatorCore& core() {
  // Never destroyed: pinned tensors in static objects may die after the runtime.
  static auto* memory = new CudaHostMemory();
  static auto* allocator = new CachingHostAllocatorCore(memory);
  return *allocator;
}

void free_pinned(void* ptr) {
  core().free(ptr);
}

struct PinnedAllocator final : public Allocator {
  DataPtr allocate(size_t nbytes) const override {
    void* ptr = core().malloc(nbytes);
    return {ptr, ptr, &free_pinned, Device(DeviceType::CPU)};
  }
  DeleterFnPtr raw_deleter() const override { return &free_pinned; }
};

}  // namespace

Allocator* getCachingHostAllocator() {
  static PinnedAllocator allocator;
  return &allocator;
}

bool CachingHostAllocator_recordEvent(void* ptr, CUDAStream stream) {
  return core().record_event(ptr, stream.stream());
}

void CachingHostAllocator_emptyCache() {
  core().empty_cache();
}

bool isPinnedPtr(const void* ptr) {
  if (ptr == nullptr) return false;
  if (core().is_pinned(ptr)) return true;
  if (device_count() == 0) return false;
  cudaPointerAttributes attributes;
  const cudaError_t err = cudaPointerGetAttributes(&attributes, ptr);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return attributes.type == cudaMemoryTypeHost;
}

HostStats CachingHostAllocator_getStats() {
  return core().get_stats();
}

}  // namespace cuda
}  // namespace c10
