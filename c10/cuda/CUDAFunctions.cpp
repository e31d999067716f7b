#include "c10/cuda/CUDAFunctions.h"

#include <array>
#include <limits>
#include <memory>
#include <mutex>

namespace c10 {
namespace cuda {

namespace {

int driver_version() {
  int version = -1;
  C10_CUDA_IGNORE_ERROR(cudaDriverGetVersion(&version));
  return version;
}

// libtorch's answers, error by error (c10/cuda/CUDAFunctions.cpp). Without a driver the count is
// 0 when fail_if_no_driver is false (torch::cuda::is_available() is then simply false).
int device_count_impl(bool fail_if_no_driver) {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err == cudaSuccess) return count;
  (void)cudaGetLastError();
  // Each case returns or raises; TORCH_CHECK(false, ...) cannot say that it never returns.
  if (err == cudaErrorNoDevice) return 0;
  if (err == cudaErrorInsufficientDriver) {
    const int version = driver_version();
    if (version <= 0) {
      if (!fail_if_no_driver) return 0;
      TORCH_CHECK(false,
                  "Found no NVIDIA driver on your system. Please check that you have an NVIDIA "
                  "GPU and installed a driver from http://www.nvidia.com/Download/index.aspx");
    }
    TORCH_CHECK(false, "The NVIDIA driver on your system is too old (found version ", version,
                "). Please update your GPU driver by downloading and installing a new version "
                "from the URL: http://www.nvidia.com/Download/index.aspx Alternatively, go to: "
                "https://pytorch.org to install a PyTorch version that has been compiled with "
                "your version of the CUDA driver.");
  }
  TORCH_CHECK(err != cudaErrorInitializationError,
              "CUDA driver initialization failed, you might not have a CUDA gpu.");
  TORCH_CHECK(err != cudaErrorUnknown,
              "CUDA unknown error - this may be due to an incorrectly set up environment, e.g. "
              "changing env variable CUDA_VISIBLE_DEVICES after program start. Setting the "
              "available devices to be zero.");
  TORCH_CHECK(false,
              "Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before "
              "calling NumCudaDevices() that might have already set an error? Error ",
              static_cast<int>(err), ": ", cudaGetErrorString(err));
  return 0;
}

}  // namespace

DeviceIndex device_count() noexcept {
  static const int count = [] {
    try {
      const int n = device_count_impl(/*fail_if_no_driver=*/false);
      return std::min<int>(n, C10_COMPILE_TIME_MAX_GPUS);
    } catch (const Error& e) {
      TORCH_WARN("CUDA initialization: ", e.msg());
      return 0;
    }
  }();
  return static_cast<DeviceIndex>(count);
}

DeviceIndex device_count_ensure_non_zero() {
  // Every time, so that each call raises the reason (libtorch does the same).
  const int count = device_count_impl(/*fail_if_no_driver=*/true);
  TORCH_CHECK(count, "No CUDA GPUs are available");
  return static_cast<DeviceIndex>(std::min<int>(count, C10_COMPILE_TIME_MAX_GPUS));
}

DeviceIndex current_device() {
  int device = 0;
  C10_CUDA_CHECK(cudaGetDevice(&device));
  return static_cast<DeviceIndex>(device);
}

void set_device(DeviceIndex device) {
  TORCH_CHECK(device >= 0, "device id must be positive!");
  int current = -1;
  C10_CUDA_CHECK(cudaGetDevice(&current));
  if (current != device) C10_CUDA_CHECK(cudaSetDevice(device));
}

void device_synchronize() {
  C10_CUDA_CHECK(cudaDeviceSynchronize());
}

DeviceIndex ExchangeDevice(DeviceIndex to) {
  const DeviceIndex from = current_device();
  if (to != from) C10_CUDA_CHECK(cudaSetDevice(to));
  return from;
}

bool event_completed(cudaEvent_t event) {
  const cudaError_t err = cudaEventQuery(event);
  if (err == cudaErrorNotReady) {
    (void)cudaGetLastError();  // not an error: the event is pending
    return false;
  }
  C10_CUDA_CHECK(err);
  return true;
}

const cudaDeviceProp& device_properties(DeviceIndex device) {
  static std::array<std::once_flag, C10_COMPILE_TIME_MAX_GPUS> once;
  static std::array<cudaDeviceProp, C10_COMPILE_TIME_MAX_GPUS> props;
  if (device < 0) device = current_device();
  const DeviceIndex count = device_count_ensure_non_zero();
  TORCH_CHECK(device < count, "device=", static_cast<int>(device),
              ", num_gpus=", static_cast<int>(count));
  std::call_once(once[device],
                 [&] { C10_CUDA_CHECK(cudaGetDeviceProperties(&props[device], device)); });
  return props[device];
}

}  // namespace cuda
}  // namespace c10
