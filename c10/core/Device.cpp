#include "c10/core/Device.h"

#include <ostream>

namespace c10 {

std::string DeviceTypeName(DeviceType d, bool lower_case) {
  switch (d) {
    case DeviceType::CPU:
      return lower_case ? "cpu" : "CPU";
    case DeviceType::CUDA:
      return lower_case ? "cuda" : "CUDA";
    case DeviceType::Meta:
      return lower_case ? "meta" : "META";
    case DeviceType::PrivateUse1:
      return lower_case ? "privateuseone" : "PrivateUse1";
    default:
      TORCH_CHECK(false, "Unknown device: ", static_cast<int16_t>(d),
                  ". If you have recently updated the caffe2.proto file to add a new device "
                  "type, did you forget to update the DeviceTypeName() function to reflect "
                  "such recent changes?");
  }
}

bool isValidDeviceType(DeviceType d) {
  switch (d) {
    case DeviceType::CPU:
    case DeviceType::CUDA:
    case DeviceType::Meta:
    case DeviceType::PrivateUse1:
      return true;
    default:
      return false;
  }
}

std::ostream& operator<<(std::ostream& stream, DeviceType type) {
  return stream << DeviceTypeName(type, /*lower_case=*/true);
}

namespace {
DeviceType parse_type(const std::string& name) {
  if (name == "cpu") return DeviceType::CPU;
  if (name == "cuda") return DeviceType::CUDA;
  if (name == "meta") return DeviceType::Meta;
  if (name == "privateuseone") return DeviceType::PrivateUse1;
  TORCH_CHECK(false,
              "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, "
              "fpga, ort, xla, lazy, vulkan, mps, meta, hpu, privateuseone device type at start "
              "of device string: ",
              name);
}
}  // namespace

Device::Device(const std::string& device_string) : Device(DeviceType::CPU) {
  TORCH_CHECK(!device_string.empty(), "Device string must not be empty");
  const auto colon = device_string.find(':');
  type_ = parse_type(device_string.substr(0, colon));
  index_ = -1;
  if (colon != std::string::npos) {
    const std::string index_str = device_string.substr(colon + 1);
    bool digits = !index_str.empty() && index_str.size() <= 3;
    for (char c : index_str) digits = digits && c >= '0' && c <= '9';
    TORCH_CHECK(digits, "Invalid device string: '", device_string, "'");
    const int index = std::stoi(index_str);
    TORCH_CHECK(index <= 127, "Invalid device string: '", device_string, "'");
    index_ = static_cast<DeviceIndex>(index);
  }
  validate();
}

std::string Device::str() const {
  std::string s = DeviceTypeName(type_, /*lower_case=*/true);
  if (has_index()) {
    s += ":";
    s += std::to_string(index_);
  }
  return s;
}

std::ostream& operator<<(std::ostream& stream, const Device& device) {
  return stream << device.str();
}

}  // namespace c10
