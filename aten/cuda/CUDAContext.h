#pragma once
// libtorch's ATen/cuda/CUDAContext.h: the CUDA runtime under at::cuda, for code written against
// ATen's CUDA API (a CUDA build only).
//
//   cudaStream_t s = at::cuda::getCurrentCUDAStream();
//   const cudaDeviceProp* p = at::cuda::getCurrentDeviceProperties();
//   at::cuda::CUDAGuard g(1);

#include <cuda_runtime_api.h>

#include "aten/cuda/CUDAQueries.h"
#include "c10/cuda/CUDAException.h"
#include "c10/cuda/CUDAFunctions.h"
#include "c10/cuda/CUDAGuard.h"
#include "c10/cuda/CUDAStream.h"

namespace at {
namespace cuda {

// at::cuda::CUDAStream, at::cuda::getStreamFromPool, at::cuda::CUDAGuard, ... as in libtorch.
using namespace c10::cuda;

inline bool is_available() {
  return c10::cuda::device_count() > 0;
}
inline int64_t getNumGPUs() {
  return c10::cuda::device_count();
}

inline cudaDeviceProp* getDeviceProperties(c10::DeviceIndex device) {
  return const_cast<cudaDeviceProp*>(&c10::cuda::device_properties(device));
}
inline cudaDeviceProp* getCurrentDeviceProperties() {
  return getDeviceProperties(c10::cuda::current_device());
}

}  // namespace cuda
}  // namespace at
