#include "c10/cuda/CUDACachingAllocator.h"

#include <array>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "c10/cuda/CUDAGuard.h"

namespace c10 {
namespace cuda {
namespace CUDACachingAllocator {

namespace {

// DeviceMemory over the CUDA runtime. Events are created without timing (the cheapest kind) and
// kept for reuse: an allocator records one per cross-stream free.
class CudaDeviceMemory final : public DeviceMemory {
 public:
  void* malloc(int device, size_t size) override {
    const CUDAGuard guard(static_cast<DeviceIndex>(device));
    void* ptr = nullptr;
    const cudaError_t err = cudaMalloc(&ptr, size);
    if (err == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();  // not sticky: the allocator frees its cache and retries
      return nullptr;
    }
    C10_CUDA_CHECK(err);
    return ptr;
  }
  void free(int device, void* ptr) override {
    const CUDAGuard guard(static_cast<DeviceIndex>(device));
    C10_CUDA_CHECK(cudaFree(ptr));
  }
  void mem_get_info(int device, size_t* free, size_t* total) override {
    const CUDAGuard guard(static_cast<DeviceIndex>(device));
    C10_CUDA_CHECK(cudaMemGetInfo(free, total));
  }
  EventHandle record_event(int device, StreamHandle stream) override {
    const CUDAGuard guard(static_cast<DeviceIndex>(device));
    cudaEvent_t event = nullptr;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      std::vector<cudaEvent_t>& cached = free_events_[device];
      if (!cached.empty()) {
        event = cached.back();
        cached.pop_back();
      }
    }
    if (event == nullptr) C10_CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
    C10_CUDA_CHECK(cudaEventRecord(event, static_cast<cudaStream_t>(stream)));
    std::lock_guard<std::mutex> lock(mutex_);
    event_device_[event] = device;
    return event;
  }
  bool query_event(EventHandle event) override {
    return event_completed(static_cast<cudaEvent_t>(event));
  }
  void synchronize_event(EventHandle event) override {
    C10_CUDA_CHECK(cudaEventSynchronize(static_cast<cudaEvent_t>(event)));
  }
  void release_event(EventHandle event) override {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = event_device_.find(static_cast<cudaEvent_t>(event));
    TORCH_INTERNAL_ASSERT(it != event_device_.end());
    free_events_[it->second].push_back(it->first);
    event_device_.erase(it);
  }
  void synchronize_device(int device) override {
    const CUDAGuard guard(static_cast<DeviceIndex>(device));
    C10_CUDA_CHECK(cudaDeviceSynchronize());
  }

 private:
  std::mutex mutex_;
  std::array<std::vector<cudaEvent_t>, C10_COMPILE_TIME_MAX_GPUS> free_events_;
  std::unordered_map<cudaEvent_t, int> event_device_;
};

void delete_block(void* ctx);

// One DeviceCachingAllocator per device, made on first use. Never destroyed (libtorch's
// choice too): tensors in static objects may be freed after the CUDA runtime is gone.
class CUDACachingAllocatorImpl final : public Allocator {
 public:
  DataPtr allocate(size_t nbytes) const override {
    const DeviceIndex device = current_device();
    if (nbytes == 0) return {nullptr, nullptr, &delete_block, Device(DeviceType::CUDA, device)};
    Block* block = for_device(device).malloc(nbytes, getCurrentCUDAStream(device).stream());
    return {block->ptr, block, &delete_block, Device(DeviceType::CUDA, device)};
  }
  DeleterFnPtr raw_deleter() const override { return &raw_delete; }
  void* raw_allocate(size_t nbytes) override { return raw_alloc(nbytes); }

  DeviceCachingAllocator& for_device(DeviceIndex device) const {
    TORCH_INTERNAL_ASSERT(device >= 0 && device < C10_COMPILE_TIME_MAX_GPUS);
    std::call_once(created_[device],
                   [&] { allocators_[device] = new DeviceCachingAllocator(device, &memory_); });
    return *allocators_[device];
  }
  // The allocators made so far (emptyCache must not create any).
  template <typename F>
  void for_each_created(F f) const {
    for (DeviceCachingAllocator* a : allocators_) {
      if (a != nullptr) f(*a);
    }
  }

  // raw_alloc's blocks, by address: raw_delete gets only the pointer.
  std::mutex raw_mutex;
  std::unordered_map<void*, Block*> raw_blocks;

 private:
  mutable CudaDeviceMemory memory_;
  mutable std::array<std::once_flag, C10_COMPILE_TIME_MAX_GPUS> created_;
  mutable std::array<DeviceCachingAllocator*, C10_COMPILE_TIME_MAX_GPUS> allocators_{};
};

CUDACachingAllocatorImpl& impl() {
  static auto* allocator = new CUDACachingAllocatorImpl();
  return *allocator;
}

void delete_block(void* ctx) {
  if (ctx == nullptr) return;
  Block* block = static_cast<Block*>(ctx);
  impl().for_device(static_cast<DeviceIndex>(block->device)).free(block);
}

DeviceIndex checked(DeviceIndex device) {
  TORCH_CHECK(device >= 0 && device < device_count(), "Invalid device argument ",
              static_cast<int>(device), ": did you call init?");
  return device;
}

}  // namespace

Allocator* get() {
  return &impl();
}

void emptyCache() {
  impl().for_each_created([](DeviceCachingAllocator& a) { a.empty_cache(); });
}

DeviceStats getDeviceStats(DeviceIndex device) {
  return impl().for_device(checked(device)).get_stats();
}

void resetPeakStats(DeviceIndex device) {
  impl().for_device(checked(device)).reset_peak_stats();
}

void resetAccumulatedStats(DeviceIndex device) {
  impl().for_device(checked(device)).reset_accumulated_stats();
}

void recordStream(const DataPtr& ptr, CUDAStream stream) {
  // Empty tensors and memory from other allocators have no block (libtorch ignores them too).
  if (ptr.get_context() == nullptr || ptr.get_deleter() != &delete_block) return;
  Block* block = static_cast<Block*>(ptr.get_context());
  impl().for_device(static_cast<DeviceIndex>(block->device)).record_stream(block, stream.stream());
}

void* raw_alloc_with_stream(size_t nbytes, cudaStream_t stream) {
  if (nbytes == 0) return nullptr;
  Block* block = impl().for_device(current_device()).malloc(nbytes, stream);
  std::lock_guard<std::mutex> lock(impl().raw_mutex);
  impl().raw_blocks[block->ptr] = block;
  return block->ptr;
}

void* raw_alloc(size_t nbytes) {
  return raw_alloc_with_stream(nbytes, getCurrentCUDAStream().stream());
}

void raw_delete(void* ptr) {
  if (ptr == nullptr) return;
  Block* block = nullptr;
  {
    std::lock_guard<std::mutex> lock(impl().raw_mutex);
    auto it = impl().raw_blocks.find(ptr);
    TORCH_CHECK(it != impl().raw_blocks.end(), "invalid device pointer: ", ptr);
    block = it->second;
    impl().raw_blocks.erase(it);
  }
  impl().for_device(static_cast<DeviceIndex>(block->device)).free(block);
}

REGISTER_ALLOCATOR(DeviceType::CUDA, get());

}  // namespace CUDACachingAllocator
}  // namespace cuda
}  // namespace c10
