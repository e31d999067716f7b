#include "c10/core/TensorOptions.h"

#include <ostream>

namespace c10 {

namespace {
template <typename T>
void print_field(std::ostream& out, const char* name, bool has, const T& value) {
  out << name << "=" << value;
  if (!has) out << " (default)";
}
}  // namespace

DispatchKey backendDispatchKey(DeviceType device_type) {
  switch (device_type) {
    case DeviceType::CPU:
      return DispatchKey::CPU;
    case DeviceType::CUDA:
      return DispatchKey::CUDA;
    case DeviceType::Meta:
      return DispatchKey::Meta;
    case DeviceType::PrivateUse1:
      return DispatchKey::PrivateUse1;
    case DeviceType::XLA:
      return DispatchKey::XLA;
    case DeviceType::Lazy:
      return DispatchKey::Lazy;
    case DeviceType::FPGA:
      return DispatchKey::FPGA;
    default:
      TORCH_CHECK(false, "Unsupported device type for dense layout: ", device_type);
  }
}

DispatchKey computeDispatchKey(c10::optional<ScalarType> /*dtype*/,
                               c10::optional<Layout> layout, c10::optional<Device> device) {
  TORCH_CHECK(layout.value_or(Layout::Strided) == Layout::Strided,
              "miniaten only supports the strided layout");
  return backendDispatchKey(device.value_or(Device(DeviceType::CPU)).type());
}

std::ostream& operator<<(std::ostream& stream, const TensorOptions& options) {
  stream << "TensorOptions(";
  print_field(stream, "dtype", options.has_dtype(), options.dtype());
  stream << ", ";
  print_field(stream, "device", options.has_device(), options.device());
  stream << ", ";
  print_field(stream, "layout", options.has_layout(), options.layout());
  stream << ", ";
  print_field(stream, "requires_grad", options.has_requires_grad(),
              options.requires_grad() ? "true" : "false");
  stream << ", ";
  print_field(stream, "pinned_memory", options.has_pinned_memory(),
              options.pinned_memory() ? "true" : "false");
  stream << ", memory_format=";
  if (options.has_memory_format()) {
    stream << *options.memory_format_opt();
  } else {
    stream << "(nullopt)";
  }
  return stream << ")";
}

}  // namespace c10
