// The CUDA build's answers to at::detail::CUDAHooksInterface (see that header): registered at
// static-initialization time, so aten's device-independent code reaches the CUDA runtime only
// through it.

#include <cuda_runtime_api.h>

#include <mutex>

#include "aten/cuda/CUDAGeneratorImpl.h"
#include "aten/detail/CUDAHooksInterface.h"
#include "c10/cuda/CUDAGuard.h"
#include "c10/cuda/CachingHostAllocator.h"

namespace at {
namespace cuda {
namespace {

struct CUDAHooks final : public at::detail::CUDAHooksInterface {
  void initCUDA() const override { c10::cuda::device_count_ensure_non_zero(); }
  bool hasCUDA() const override { return c10::cuda::device_count() > 0; }
  c10::DeviceIndex currentDevice() const override {
    if (c10::cuda::device_count() == 0) c10::cuda::device_count_ensure_non_zero();
    return c10::cuda::current_device();
  }
  c10::Allocator* getPinnedMemoryAllocator() const override {
    initCUDA();
    return c10::cuda::getCachingHostAllocator();
  }
  bool isPinnedPtr(const void* data) const override { return c10::cuda::isPinnedPtr(data); }
  void copyDeviceBytes(void* dst, const void* src, size_t n,
                       c10::DeviceIndex device) const override {
    const c10::cuda::CUDAGuard guard(device);
    C10_CUDA_CHECK(cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToDevice,
                                   c10::cuda::getCurrentCUDAStream(device)));
  }
  // As libtorch's at::manual_seed: every device's default generator, when there is a device.
  void manualSeedAll(uint64_t seed) const override {
    const c10::DeviceIndex devices = c10::cuda::device_count();
    for (c10::DeviceIndex i = 0; i < devices; ++i) {
      Generator gen = cuda::detail::getDefaultCUDAGenerator(i);
      std::lock_guard<std::mutex> lock(gen.mutex());
      gen.set_current_seed(seed);
    }
  }
};

const CUDAHooks hooks;
const at::detail::CUDAHooksRegisterer registerer(&hooks);

}  // namespace
}  // namespace cuda
}  // namespace at
