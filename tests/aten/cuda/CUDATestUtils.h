#pragma once
// Shared by the CUDA tests: they run on a machine with a device and skip without one (CI has
// none); the tests of what happens without a device run only there.

#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <string>

#include "aten/ATen.h"
#include "aten/cuda/CUDAQueries.h"

#define SKIP_WITHOUT_CUDA() \
  if (!torch::cuda::is_available()) GTEST_SKIP() << "no CUDA device"

#define SKIP_WITH_CUDA() \
  if (torch::cuda::is_available()) GTEST_SKIP() << "a CUDA device is present"

namespace cuda_test {

// What libtorch says when a CUDA tensor is asked for on this machine without a usable device:
// no driver at all, or a driver that sees no device.
inline std::string no_device_error() {
  int version = 0;
  if (cudaDriverGetVersion(&version) != cudaSuccess || version <= 0) {
    (void)cudaGetLastError();
    return "Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and "
           "installed a driver from http://www.nvidia.com/Download/index.aspx";
  }
  return "No CUDA GPUs are available";
}

}  // namespace cuda_test
