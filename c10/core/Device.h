#pragma once
// Device: a device type plus an optional index (-1 = "the current one").

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>

#include "c10/core/DeviceType.h"
#include "c10/util/Exception.h"

namespace c10 {

using DeviceIndex = int8_t;

struct C10_API Device final {
  /* implicit */ Device(DeviceType type, DeviceIndex index = -1) : type_(type), index_(index) {
    validate();
  }
  // Parses "cpu", "cuda", "cuda:1", "meta", "privateuseone:0".
  /* implicit */ Device(const std::string& device_string);
  /* implicit */ Device(const char* device_string) : Device(std::string(device_string)) {}

  bool operator==(const Device& other) const noexcept {
    return type_ == other.type_ && index_ == other.index_;
  }
  bool operator!=(const Device& other) const noexcept { return !(*this == other); }

  void set_index(DeviceIndex index) {
    index_ = index;
    validate();
  }
  DeviceType type() const noexcept { return type_; }
  DeviceIndex index() const noexcept { return index_; }
  bool has_index() const noexcept { return index_ != -1; }
  bool is_cpu() const noexcept { return type_ == DeviceType::CPU; }
  bool is_cuda() const noexcept { return type_ == DeviceType::CUDA; }
  bool is_meta() const noexcept { return type_ == DeviceType::Meta; }
  bool is_privateuseone() const noexcept { return type_ == DeviceType::PrivateUse1; }

  // "cpu", "cuda:0" — as libtorch prints devices.
  std::string str() const;

 private:
  void validate() {
    TORCH_CHECK(index_ >= -1, "Device index must be -1 or non-negative, got ",
                static_cast<int>(index_));
  }

  DeviceType type_;
  DeviceIndex index_ = -1;
};

C10_API std::ostream& operator<<(std::ostream& stream, const Device& device);

}  // namespace c10

namespace std {
template <>
struct hash<c10::Device> {
  size_t operator()(c10::Device d) const noexcept {
    // libtorch's bits: type in the third byte, index in the first (IValue(cuda:2).hash() is 65538).
    return (static_cast<size_t>(static_cast<uint8_t>(d.type())) << 16) |
           static_cast<uint8_t>(d.index());
  }
};
}  // namespace std

namespace at {
using c10::Device;
using c10::DeviceIndex;
}  // namespace at
