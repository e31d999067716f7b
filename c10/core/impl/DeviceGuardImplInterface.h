#pragma once
// How generic code switches the current device of a device type it knows nothing about: each
// backend registers one DeviceGuardImplInterface for its device type, and c10::DeviceGuard,
// OptionalDeviceGuard and the autograd engine call it. This is libtorch's hook, with its names,
// so a backend written for libtorch registers itself the same way:
//
//   struct NpuGuardImpl final : c10::impl::DeviceGuardImplInterface {
//     c10::DeviceType type() const override { return c10::kPrivateUse1; }
//     ...
//   };
//   C10_REGISTER_GUARD_IMPL(PrivateUse1, NpuGuardImpl);
//
//   c10::impl::getDeviceGuardImpl(c10::kPrivateUse1)->getDevice();   // npu:0
//
// CPU and Meta register a no-op implementation (one device, one stream), as in libtorch.

#include <atomic>

#include "c10/core/Device.h"
#include "c10/core/DeviceType.h"
#include "c10/core/Stream.h"
#include "c10/util/Macros.h"

namespace c10 {
namespace impl {

struct C10_API DeviceGuardImplInterface {
  virtual ~DeviceGuardImplInterface() = default;

  // The device type this implementation serves.
  virtual DeviceType type() const = 0;
  // Makes `device` current and returns the device that was current before.
  virtual Device exchangeDevice(Device device) const = 0;
  virtual Device getDevice() const = 0;
  virtual void setDevice(Device device) const = 0;
  // setDevice for destructors: must not throw (a failure is the backend's to report).
  virtual void uncheckedSetDevice(Device device) const noexcept = 0;
  // The current stream of `device`, and making `stream` current (returning the previous one).
  virtual Stream getStream(Device device) const noexcept = 0;
  virtual Stream getDefaultStream(Device device) const;
  virtual Stream exchangeStream(Stream stream) const noexcept = 0;
  // How many devices of this type the process sees (0 when its driver is absent).
  virtual DeviceIndex deviceCount() const noexcept = 0;
  // Waits for the work queued on `stream`.
  virtual void synchronizeStream(const Stream& stream) const;
};

// For device types with one device and no asynchrony (CPU, Meta): every call is a no-op.
template <DeviceType T>
struct NoOpDeviceGuardImpl final : public DeviceGuardImplInterface {
  DeviceType type() const override { return T; }
  Device exchangeDevice(Device) const override { return Device(T, -1); }
  Device getDevice() const override { return Device(T, -1); }
  void setDevice(Device) const override {}
  void uncheckedSetDevice(Device) const noexcept override {}
  Stream getStream(Device) const noexcept override {
    return Stream(Stream::DEFAULT, Device(T, -1));
  }
  Stream exchangeStream(Stream) const noexcept override {
    return Stream(Stream::DEFAULT, Device(T, -1));
  }
  DeviceIndex deviceCount() const noexcept override { return 1; }
  void synchronizeStream(const Stream&) const override {}
};

// One slot per device type; the registrar fills it at static-initialization time.
extern C10_API std::atomic<const DeviceGuardImplInterface*>
    device_guard_impl_registry[static_cast<size_t>(DeviceType::COMPILE_TIME_MAX_DEVICE_TYPES)];

class C10_API DeviceGuardImplRegistrar {
 public:
  DeviceGuardImplRegistrar(DeviceType type, const DeviceGuardImplInterface* impl);
};

// The implementation registered for `type`; libtorch's error when there is none.
C10_API const DeviceGuardImplInterface* getDeviceGuardImpl(DeviceType type);
C10_API bool hasDeviceGuardImpl(DeviceType type);

}  // namespace impl
}  // namespace c10

#define C10_REGISTER_GUARD_IMPL(DevType, DeviceGuardImpl)                                        \
  static ::c10::impl::DeviceGuardImplRegistrar C10_ANONYMOUS_VARIABLE(g_##DevType##_guard_impl)( \
      ::c10::DeviceType::DevType, new DeviceGuardImpl())
