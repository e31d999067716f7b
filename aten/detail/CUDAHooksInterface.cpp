#include "aten/detail/CUDAHooksInterface.h"

#include <atomic>

namespace at {
namespace detail {

namespace {
// libtorch's Python layer says this (torch/cuda/__init__.py); its C++ defaults point to a
// missing libtorch_cuda.so, which a one-library miniaten cannot have.
constexpr const char* kNotCompiled = "Torch not compiled with CUDA enabled";

const CUDAHooksInterface& default_hooks() {
  static const CUDAHooksInterface hooks;
  return hooks;
}

std::atomic<const CUDAHooksInterface*> registered{nullptr};
}  // namespace

void CUDAHooksInterface::initCUDA() const {
  TORCH_CHECK(false, kNotCompiled);
}

c10::DeviceIndex CUDAHooksInterface::currentDevice() const {
  // libtorch's words when no device guard is registered for CUDA (to("cuda") in a CPU build).
  TORCH_CHECK(false, "PyTorch is not linked with support for cuda devices");
  __builtin_unreachable();
}

c10::Allocator* CUDAHooksInterface::getPinnedMemoryAllocator() const {
  // libtorch 1.13's text for pin_memory=true in a build that cannot pin.
  TORCH_CHECK(false, "Need to provide pin_memory allocator to use pin memory.");
  __builtin_unreachable();
}

void CUDAHooksInterface::copyDeviceBytes(void*, const void*, size_t, c10::DeviceIndex) const {
  TORCH_CHECK(false, kNotCompiled);
}

const CUDAHooksInterface& getCUDAHooks() {
  const CUDAHooksInterface* hooks = registered.load(std::memory_order_acquire);
  return hooks != nullptr ? *hooks : default_hooks();
}

CUDAHooksRegisterer::CUDAHooksRegisterer(const CUDAHooksInterface* hooks) {
  registered.store(hooks, std::memory_order_release);
}

}  // namespace detail
}  // namespace at
