#pragma once
// c10::Stream: a device-agnostic handle to a queue of work on one device (a CUDA stream), as
// libtorch has it: a Device and an id, 0 for the device's default stream.
//
//   c10::Stream s(c10::Stream::DEFAULT, c10::Device(c10::kCUDA, 1));
//   s.id();                    // 0
//   std::cout << s;            // stream 0 on device cuda:1
//   c10::Stream::unpack(s.pack()) == s;

#include <cstdint>
#include <iosfwd>

#include "c10/core/Device.h"

namespace c10 {

using StreamId = int64_t;

class C10_API Stream final {
 public:
  enum Unsafe { UNSAFE };
  enum Default { DEFAULT };

  // Trusts the caller that `id` names a stream of `device`.
  explicit Stream(Unsafe, Device device, StreamId id) : device_(device), id_(id) {}
  explicit Stream(Default, Device device) : device_(device), id_(0) {}

  bool operator==(const Stream& other) const noexcept {
    return device_ == other.device_ && id_ == other.id_;
  }
  bool operator!=(const Stream& other) const noexcept { return !(*this == other); }

  Device device() const noexcept { return device_; }
  DeviceType device_type() const noexcept { return device_.type(); }
  DeviceIndex device_index() const noexcept { return device_.index(); }
  StreamId id() const noexcept { return id_; }

  // One 64-bit word, libtorch's encoding: device type in the top byte, index in the next, the
  // id's low 48 bits (sign-extended back by unpack). IValue stores a Stream this way.
  uint64_t pack() const noexcept {
    return static_cast<uint64_t>(static_cast<uint8_t>(device_type())) << 56 |
           static_cast<uint64_t>(static_cast<uint8_t>(device_index())) << 48 |
           (static_cast<uint64_t>(id_) & ((1ull << 48) - 1));
  }
  static Stream unpack(uint64_t bits) {
    const uint64_t mask = 1ull << 47;
    const auto id = (static_cast<StreamId>(bits & 0xFFFFFFFFFFFFull) ^ mask) - mask;
    const auto index = static_cast<DeviceIndex>((bits >> 48) & 0xFFull);
    const auto type = static_cast<DeviceType>(bits >> 56);
    return Stream(UNSAFE, Device(type, index), id);
  }

 private:
  Device device_;
  StreamId id_;
};

// "stream 0 on device cuda:1", as libtorch prints it.
C10_API std::ostream& operator<<(std::ostream& out, const Stream& s);

}  // namespace c10

namespace at {
using c10::Stream;
}  // namespace at

namespace std {
template <>
struct hash<c10::Stream> {
  size_t operator()(c10::Stream s) const noexcept { return std::hash<uint64_t>{}(s.pack()); }
};
}  // namespace std
