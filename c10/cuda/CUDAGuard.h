#pragma once
// RAII guards for the current CUDA device and stream, libtorch's c10/cuda/CUDAGuard.h:
//
//   {
//     c10::cuda::CUDAGuard g(1);                         // cuda:1 is current in this scope
//     c10::cuda::CUDAStreamGuard sg(c10::cuda::getStreamFromPool());  // and one of its streams
//   }                                                    // both restored here
//
//   c10::cuda::OptionalCUDAGuard g(device_of(t));        // does nothing for a CPU tensor
//
// A guard makes no runtime call when the device it sets is already current.

#include "c10/cuda/CUDAFunctions.h"
#include "c10/cuda/CUDAStream.h"
#include "c10/util/Optional.h"

namespace c10 {
namespace cuda {

class CUDAGuard {
 public:
  explicit CUDAGuard(DeviceIndex device_index)
      : original_(ExchangeDevice(device_index)), current_(device_index) {}
  explicit CUDAGuard(Device device) : CUDAGuard(checked_index(device)) {}
  CUDAGuard(const CUDAGuard&) = delete;
  CUDAGuard& operator=(const CUDAGuard&) = delete;
  ~CUDAGuard() {
    if (current_ != original_) restore(original_);
  }

  void set_device(Device device) { set_index(checked_index(device)); }
  void reset_device(Device device) { set_device(device); }
  void set_index(DeviceIndex device_index) {
    if (device_index != current_) ExchangeDevice(device_index);
    current_ = device_index;
  }
  Device original_device() const { return Device(DeviceType::CUDA, original_); }
  Device current_device() const { return Device(DeviceType::CUDA, current_); }

  static DeviceIndex checked_index(Device device) {
    TORCH_CHECK(device.is_cuda(), "Expected a CUDA device, but got ", device);
    return device.has_index() ? device.index() : c10::cuda::current_device();
  }

 private:
  // A destructor must not throw: a failure to restore goes to the warning handler.
  static void restore(DeviceIndex device) { C10_CUDA_CHECK_WARN(cudaSetDevice(device)); }

  DeviceIndex original_;
  DeviceIndex current_;
};

// A CUDAGuard that may hold nothing: constructed from nullopt (or a non-CUDA device through
// device_of) it leaves the device alone until set_device is called.
class OptionalCUDAGuard {
 public:
  OptionalCUDAGuard() = default;
  explicit OptionalCUDAGuard(optional<Device> device_opt) {
    if (device_opt.has_value() && device_opt->is_cuda()) set_device(*device_opt);
  }
  explicit OptionalCUDAGuard(optional<DeviceIndex> device_index_opt) {
    if (device_index_opt.has_value()) set_index(*device_index_opt);
  }
  OptionalCUDAGuard(const OptionalCUDAGuard&) = delete;
  OptionalCUDAGuard& operator=(const OptionalCUDAGuard&) = delete;
  ~OptionalCUDAGuard() { reset(); }

  void set_device(Device device) { set_index(CUDAGuard::checked_index(device)); }
  void reset_device(Device device) { set_device(device); }
  void set_index(DeviceIndex device_index) {
    if (original_ < 0) {
      original_ = ExchangeDevice(device_index);
    } else if (device_index != current_) {
      ExchangeDevice(device_index);
    }
    current_ = device_index;
  }
  optional<Device> original_device() const {
    return original_ < 0 ? nullopt : make_optional(Device(DeviceType::CUDA, original_));
  }
  optional<Device> current_device() const {
    return current_ < 0 ? nullopt : make_optional(Device(DeviceType::CUDA, current_));
  }
  // Restores the original device now and holds nothing.
  void reset() {
    if (original_ >= 0 && original_ != current_) C10_CUDA_CHECK_WARN(cudaSetDevice(original_));
    original_ = current_ = -1;
  }

 private:
  DeviceIndex original_ = -1;
  DeviceIndex current_ = -1;
};

// Makes a stream current on its device, and its device current, for a scope.
class CUDAStreamGuard {
 public:
  explicit CUDAStreamGuard(Stream stream)
      : device_guard_(stream.device()),
        original_stream_of_device_(getCurrentCUDAStream(stream.device_index())),
        current_stream_(CUDAStream(stream)) {
    setCurrentCUDAStream(current_stream_);
  }
  CUDAStreamGuard(const CUDAStreamGuard&) = delete;
  CUDAStreamGuard& operator=(const CUDAStreamGuard&) = delete;
  ~CUDAStreamGuard() { setCurrentCUDAStream(original_stream_of_device_); }

  // Another stream, possibly of another device: the first device's stream is restored now.
  void reset_stream(Stream stream) {
    const CUDAStream next(stream);
    if (next.device_index() != current_stream_.device_index()) {
      setCurrentCUDAStream(original_stream_of_device_);
      device_guard_.set_index(next.device_index());
      original_stream_of_device_ = getCurrentCUDAStream(next.device_index());
    }
    current_stream_ = next;
    setCurrentCUDAStream(current_stream_);
  }
  CUDAStream original_stream() const { return original_stream_of_device_; }
  CUDAStream current_stream() const { return current_stream_; }
  Device current_device() const { return device_guard_.current_device(); }
  Device original_device() const { return device_guard_.original_device(); }

 private:
  CUDAGuard device_guard_;
  CUDAStream original_stream_of_device_;
  CUDAStream current_stream_;
};

}  // namespace cuda
}  // namespace c10
