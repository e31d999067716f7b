#pragma once
// RAII guards that make a device current for a scope and restore the previous one, for any
// device type whose backend registered a DeviceGuardImplInterface (libtorch's c10::DeviceGuard
// and c10::OptionalDeviceGuard):
//
//   {
//     c10::DeviceGuard g(c10::Device("npu:1"));   // the npu backend's setDevice(npu:1)
//     g.original_device();                         // what was current before: npu:0
//   }                                              // npu:0 is current again
//
//   c10::OptionalDeviceGuard g;                    // does nothing until given a device
//   g.reset_device(t.device());
//
// A device without an index (npu, not npu:1) means "whichever is current": nothing changes.

#include <optional>
#include "c10/core/Device.h"
#include "c10/core/impl/DeviceGuardImplInterface.h"

#include "c10/util/Optional.h"

namespace c10 {

class DeviceGuard {
 public:
  explicit DeviceGuard() = delete;
  explicit DeviceGuard(Device device)
      : DeviceGuard(device, impl::getDeviceGuardImpl(device.type())) {}
  // With an explicit implementation (tests, or a backend's own guard).
  explicit DeviceGuard(Device device, const impl::DeviceGuardImplInterface* impl) : impl_(impl) {
    enter(device);
  }
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;
  DeviceGuard(DeviceGuard&&) = delete;
  DeviceGuard& operator=(DeviceGuard&&) = delete;
  ~DeviceGuard() { impl_->uncheckedSetDevice(original_device_); }

  // Makes `device` current instead. Another device type restores this one's original device
  // first and guards the new type from then on.
  void reset_device(Device device) {
    if (device.type() != impl_->type()) {
      impl_->setDevice(original_device_);
      impl_ = impl::getDeviceGuardImpl(device.type());
      enter(device);
      return;
    }
    if (device.index() == -1) return;
    impl_->setDevice(device);
    current_device_ = device;
  }
  void set_index(DeviceIndex index) { reset_device(Device(original_device_.type(), index)); }

  Device original_device() const { return original_device_; }
  Device current_device() const { return current_device_; }

 private:
  // Makes `device` current through impl_ and remembers what was current before.
  void enter(Device device) {
    original_device_ = device.index() == -1 ? impl_->getDevice() : impl_->exchangeDevice(device);
    current_device_ = device.index() == -1 ? original_device_ : device;
  }

  const impl::DeviceGuardImplInterface* impl_;
  Device original_device_ = Device(DeviceType::CPU);
  Device current_device_ = Device(DeviceType::CPU);
};

class OptionalDeviceGuard {
 public:
  explicit OptionalDeviceGuard() = default;
  explicit OptionalDeviceGuard(Device device) { reset_device(device); }
  explicit OptionalDeviceGuard(optional<Device> device) {
    if (device) reset_device(*device);
  }
  OptionalDeviceGuard(const OptionalDeviceGuard&) = delete;
  OptionalDeviceGuard& operator=(const OptionalDeviceGuard&) = delete;
  OptionalDeviceGuard(OptionalDeviceGuard&&) = delete;
  OptionalDeviceGuard& operator=(OptionalDeviceGuard&&) = delete;

  void reset_device(Device device) {
    if (guard_) {
      guard_->reset_device(device);
    } else {
      guard_.emplace(device);
    }
  }
  // Restores the original device now and guards nothing from then on.
  void reset() { guard_.reset(); }

  optional<Device> original_device() const {
    return guard_ ? optional<Device>(guard_->original_device()) : nullopt;
  }
  optional<Device> current_device() const {
    return guard_ ? optional<Device>(guard_->current_device()) : nullopt;
  }

 private:
  std::optional<DeviceGuard> guard_;
};

}  // namespace c10

namespace at {
using c10::DeviceGuard;
using c10::OptionalDeviceGuard;
}  // namespace at
