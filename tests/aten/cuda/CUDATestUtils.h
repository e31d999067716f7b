#pragma once
// Shared by the CUDA tests: they run on a machine with a device and skip without one (CI has
// none); the tests of what happens without a device run only there.

#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "../ElementwiseTestUtils.h"  // same_tensor
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

inline std::vector<int64_t> vec(at::IntArrayRef r) {
  return {r.begin(), r.end()};
}

inline int64_t storage_numel(const at::Tensor& t) {
  return static_cast<int64_t>(t.storage().nbytes() / t.element_size());
}

// The same tensor on the device: its whole storage copied, viewed with the same geometry.
inline at::Tensor same_layout_on_device(const at::Tensor& cpu) {
  const at::Tensor storage = cpu.as_strided({storage_numel(cpu)}, {1}, 0).cuda();
  return storage.as_strided(cpu.sizes(), cpu.strides(), cpu.storage_offset());
}

// The CPU's counterpart: t's whole storage copied and viewed with t's geometry, so that an
// in-place call on it writes to a copy, as it does on same_layout_on_device's.
inline at::Tensor same_layout_on_cpu(const at::Tensor& t) {
  return t.as_strided({storage_numel(t)}, {1}, 0)
      .clone()
      .as_strided(t.sizes(), t.strides(), t.storage_offset());
}

// The CPU's result beside the device's: the same geometry and dtype, and values equal (`tol`
// 0) or within tol relative to max(1, |cpu|); NaN where the CPU has NaN.
inline ::testing::AssertionResult matches(const at::Tensor& cpu, const at::Tensor& gpu,
                                          double tol = 0) {
  if (!gpu.is_cuda()) return ::testing::AssertionFailure() << "result not on CUDA";
  if (gpu.scalar_type() != cpu.scalar_type()) {
    return ::testing::AssertionFailure()
           << "dtype " << gpu.scalar_type() << " vs " << cpu.scalar_type();
  }
  if (vec(gpu.sizes()) != vec(cpu.sizes()) || vec(gpu.strides()) != vec(cpu.strides())) {
    return ::testing::AssertionFailure()
           << "geometry " << gpu.sizes() << gpu.strides() << " vs " << cpu.sizes() << cpu.strides();
  }
  const at::Tensor g = gpu.cpu();
  if (tol == 0) {
    if (elementwise_test::same_tensor(g, cpu)) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "values differ:\n" << g << "\nvs\n" << cpu;
  }
  const at::Tensor gd = g.to(at::kDouble).contiguous(), cd = cpu.to(at::kDouble).contiguous();
  const double* x = gd.data_ptr<double>();
  const double* y = cd.data_ptr<double>();
  for (int64_t i = 0; i < gd.numel(); ++i) {
    if (std::isnan(y[i]) && std::isnan(x[i])) continue;
    if (x[i] == y[i]) continue;  // infinities
    if (!(std::abs(x[i] - y[i]) <= tol * std::max(1.0, std::abs(y[i])))) {
      return ::testing::AssertionFailure() << "element " << i << ": " << x[i] << " vs " << y[i];
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace cuda_test
