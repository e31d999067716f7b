#include "c10/core/impl/DeviceGuardImplInterface.h"

#include "c10/util/Exception.h"

namespace c10 {
namespace impl {

std::atomic<const DeviceGuardImplInterface*>
    device_guard_impl_registry[static_cast<size_t>(DeviceType::COMPILE_TIME_MAX_DEVICE_TYPES)];

DeviceGuardImplRegistrar::DeviceGuardImplRegistrar(DeviceType type,
                                                   const DeviceGuardImplInterface* impl) {
  device_guard_impl_registry[static_cast<size_t>(type)].store(impl);
}

const DeviceGuardImplInterface* getDeviceGuardImpl(DeviceType type) {
  const DeviceGuardImplInterface* impl =
      device_guard_impl_registry[static_cast<size_t>(type)].load();
  TORCH_CHECK(impl, "PyTorch is not linked with support for ", type, " devices");
  return impl;
}

bool hasDeviceGuardImpl(DeviceType type) {
  return device_guard_impl_registry[static_cast<size_t>(type)].load() != nullptr;
}

Stream DeviceGuardImplInterface::getDefaultStream(Device) const {
  TORCH_CHECK(false, "Backend doesn't support acquiring a default stream.");
}

void DeviceGuardImplInterface::synchronizeStream(const Stream&) const {
  TORCH_CHECK(false, "Backend doesn't support synchronizing streams.");
}

// CPU and Meta: one device, nothing asynchronous (libtorch registers the same).
C10_REGISTER_GUARD_IMPL(CPU, NoOpDeviceGuardImpl<DeviceType::CPU>);
C10_REGISTER_GUARD_IMPL(Meta, NoOpDeviceGuardImpl<DeviceType::Meta>);

}  // namespace impl
}  // namespace c10
