#pragma once
// The kinds of device a tensor can live on. Values match libtorch's so they travel as ints.

#include <cstdint>
#include <iosfwd>
#include <string>

#include "c10/util/Macros.h"

namespace c10 {

// libtorch's device types with libtorch's numbers; miniaten has kernels for CPU, CUDA and Meta
// only, the others exist so that code naming them (registering an XLA kernel, say) builds.
enum class DeviceType : int8_t {
  CPU = 0,
  CUDA = 1,
  MKLDNN = 2,
  OPENGL = 3,
  OPENCL = 4,
  IDEEP = 5,
  HIP = 6,
  FPGA = 7,
  ORT = 8,
  XLA = 9,
  Vulkan = 10,
  Metal = 11,
  XPU = 12,
  MPS = 13,
  Meta = 14,
  HPU = 15,
  VE = 16,
  Lazy = 17,
  IPU = 18,
  PrivateUse1 = 19,
  COMPILE_TIME_MAX_DEVICE_TYPES = 20,
};

constexpr DeviceType kCPU = DeviceType::CPU;
constexpr DeviceType kCUDA = DeviceType::CUDA;
constexpr DeviceType kMeta = DeviceType::Meta;
constexpr DeviceType kPrivateUse1 = DeviceType::PrivateUse1;
constexpr int COMPILE_TIME_MAX_DEVICE_TYPES =
    static_cast<int>(DeviceType::COMPILE_TIME_MAX_DEVICE_TYPES);

// "CPU", "CUDA", ... (lower_case=true gives "cpu", "cuda", "meta", "privateuseone"); PrivateUse1
// prints as the name its backend registered, once it has.
C10_API std::string DeviceTypeName(DeviceType d, bool lower_case = false);

// Naming the PrivateUse1 device type, as recent PyTorch offers it (libtorch 1.13 has no name for
// it): after register_privateuse1_backend("npu"), Device("npu:0") parses, prints "npu:0" and is
// a PrivateUse1 device. The name is set once per process; "privateuseone" keeps parsing.
//   c10::register_privateuse1_backend("npu");
//   c10::get_privateuse1_backend();        // "npu" ("privateuseone" before any registration)
//   c10::get_privateuse1_backend(false);   // "NPU"
C10_API void register_privateuse1_backend(const std::string& backend_name);
C10_API std::string get_privateuse1_backend(bool lower_case = true);
C10_API bool is_privateuse1_backend_registered();
C10_API bool isValidDeviceType(DeviceType d);
C10_API std::ostream& operator<<(std::ostream& stream, DeviceType type);

}  // namespace c10

namespace at {
using c10::DeviceType;
using c10::kCPU;
using c10::kCUDA;
using c10::kMeta;
using c10::kPrivateUse1;
}  // namespace at
