#pragma once
// Device management, libtorch's c10/cuda/CUDAFunctions.h:
//
//   c10::DeviceIndex n = c10::cuda::device_count();   // 0 without a driver or device; never throws
//   c10::cuda::set_device(1);
//   c10::DeviceIndex d = c10::cuda::current_device();
//   c10::cuda::device_synchronize();
//
// device_count_ensure_non_zero() is what a CUDA tensor's first allocation calls: without a
// driver or a device it raises libtorch's errors ("Found no NVIDIA driver on your system. ...",
// "No CUDA GPUs are available").

#include <cuda_runtime_api.h>

#include "c10/core/Device.h"
#include "c10/cuda/CUDAException.h"

namespace c10 {
namespace cuda {

// libtorch's compile-time bound on the devices a process may use.
constexpr DeviceIndex C10_COMPILE_TIME_MAX_GPUS = 16;

// The number of visible devices, computed once; 0 (with a warning for unusual failures) when
// CUDA cannot be used.
C10_API DeviceIndex device_count() noexcept;
// The number of devices, or libtorch's error saying why there are none.
C10_API DeviceIndex device_count_ensure_non_zero();
C10_API DeviceIndex current_device();
C10_API void set_device(DeviceIndex device);
C10_API void device_synchronize();
// Makes `to` current and returns the device that was; no runtime call when they are the same.
C10_API DeviceIndex ExchangeDevice(DeviceIndex to);

// Whether the work an event marks has finished (cudaEventQuery, with "not ready" as false).
C10_API bool event_completed(cudaEvent_t event);

// The runtime's properties of a device (cached per device; the device index is checked).
C10_API const cudaDeviceProp& device_properties(DeviceIndex device);

}  // namespace cuda
}  // namespace c10
