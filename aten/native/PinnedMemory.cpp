// Pinned (page-locked) CPU tensors: is_pinned, pin_memory, _pin_memory. The memory comes from
// the CUDA build's caching host allocator through the CUDA hooks; without a device (or without
// CUDA) nothing is pinned and pinning raises libtorch's error.

#include "aten/ATen.h"
#include "aten/detail/CUDAHooksInterface.h"
#include "aten/detail/EmptyTensor.h"
#include "aten/generated/NativeFunctions.h"

namespace at {
namespace native {

namespace {
void check_pin_device(c10::optional<Device> device) {
  TORCH_CHECK(!device.has_value() || device->is_cuda(),
              "pin_memory: only CUDA can use pinned memory, but got device ", *device);
}
}  // namespace

bool is_pinned(const Tensor& self, c10::optional<Device> device) {
  check_pin_device(device);
  if (!self.is_cpu()) return false;  // only CPU memory is ever page-locked for a device
  return at::detail::getCUDAHooks().isPinnedPtr(self.storage().data());
}

Tensor pin_memory(const Tensor& self, c10::optional<Device> device) {
  if (self.is_pinned(device)) return self;
  return at::_pin_memory(self, device);
}

// A pinned copy with the same sizes and strides (its storage spans exactly what they reach).
Tensor _pin_memory(const Tensor& self, c10::optional<Device> device) {
  check_pin_device(device);
  TORCH_CHECK(self.is_cpu(), "cannot pin '", self.toString(),
              "' only dense CPU tensors can be pinned");
  const at::detail::CUDAHooksInterface& hooks = at::detail::getCUDAHooks();
  TORCH_CHECK(hooks.hasCUDA(), "Need to provide pin_memory allocator to use pin memory.");
  constexpr c10::DispatchKeySet cpu_keys = c10::keysetForBackend(c10::DispatchKey::CPU);
  Tensor pinned = at::detail::empty_strided_generic(
      self.sizes(), self.strides(), hooks.getPinnedMemoryAllocator(), cpu_keys, self.scalar_type());
  pinned.copy_(self);
  return pinned;
}

}  // namespace native
}  // namespace at
