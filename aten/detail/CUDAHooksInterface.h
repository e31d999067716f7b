#pragma once
// What the device-independent parts of aten need from the CUDA backend, behind an interface
// (libtorch's ATen/detail/CUDAHooksInterface.h): pinned host memory for CPU factories, the
// current device for to("cuda"), a device-to-device byte copy for resize_. A build without CUDA
// keeps the defaults below, which say so; the CUDA build registers aten/cuda/CUDAHooks.cpp's
// implementation at static-initialization time. aten code never includes CUDA headers for these.
//
//   at::detail::getCUDAHooks().initCUDA();            // libtorch's lazy CUDA initialization
//   c10::Allocator* a = at::detail::getCUDAHooks().getPinnedMemoryAllocator();

#include <cstddef>
#include <cstdint>

#include "c10/core/Allocator.h"
#include "c10/core/Device.h"

namespace at {
namespace detail {

struct TORCH_API CUDAHooksInterface {
  virtual ~CUDAHooksInterface() = default;

  // Whether a CUDA tensor can be made: raises libtorch's reason when not ("Found no NVIDIA
  // driver on your system. ...", "No CUDA GPUs are available"; without CUDA, "Torch not compiled
  // with CUDA enabled"). Cheap after the first success.
  virtual void initCUDA() const;
  virtual bool hasCUDA() const { return false; }
  // The calling thread's current CUDA device.
  virtual c10::DeviceIndex currentDevice() const;
  // The allocator of page-locked host memory (CPU tensors made with pin_memory=true).
  virtual c10::Allocator* getPinnedMemoryAllocator() const;
  // Whether `data` lies in page-locked memory of the pinned allocator.
  virtual bool isPinnedPtr(const void* data) const { return false; }
  // n bytes from src to dst, two buffers of `device`, on its current stream.
  virtual void copyDeviceBytes(void* dst, const void* src, size_t n, c10::DeviceIndex device) const;
  // Reseeds every device's default generator (at::manual_seed); nothing without CUDA or a device.
  virtual void manualSeedAll(uint64_t seed) const { (void)seed; }
};

// The registered hooks, or the defaults.
TORCH_API const CUDAHooksInterface& getCUDAHooks();

// Registers the CUDA build's hooks (one static object in aten/cuda/CUDAHooks.cpp).
struct TORCH_API CUDAHooksRegisterer {
  explicit CUDAHooksRegisterer(const CUDAHooksInterface* hooks);
};

}  // namespace detail
}  // namespace at
