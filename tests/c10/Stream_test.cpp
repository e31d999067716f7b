// c10::Stream; expected values read off libtorch 1.13.
#include <gtest/gtest.h>

#include <sstream>

#include "c10/core/Stream.h"

namespace {

TEST(Stream, DefaultStreamIsIdZeroOnItsDevice) {
  const c10::Stream s(c10::Stream::DEFAULT, c10::Device(c10::DeviceType::CUDA, 1));
  EXPECT_EQ(s.id(), 0);
  EXPECT_EQ(s.device(), c10::Device(c10::DeviceType::CUDA, 1));
  EXPECT_EQ(s.device_type(), c10::DeviceType::CUDA);
  EXPECT_EQ(s.device_index(), 1);
  std::ostringstream ss;
  ss << s;
  EXPECT_EQ(ss.str(), "stream 0 on device cuda:1");
}

TEST(Stream, EqualityAndPacking) {
  const c10::Stream a(c10::Stream::DEFAULT, c10::Device(c10::DeviceType::CUDA, 0));
  const c10::Stream b(c10::Stream::DEFAULT, c10::Device(c10::DeviceType::CUDA, 1));
  const c10::Stream c(c10::Stream::UNSAFE, c10::Device(c10::DeviceType::CUDA, 1), -5);
  EXPECT_EQ(a, a);
  EXPECT_NE(a, b);
  EXPECT_EQ(c10::Stream::unpack(b.pack()), b);
  EXPECT_EQ(c10::Stream::unpack(c.pack()), c);  // negative ids survive the 48-bit field
  EXPECT_EQ(b.pack(), (uint64_t(1) << 56) | (uint64_t(1) << 48));
}

TEST(DeviceHash, IsLibtorchs) {
  EXPECT_EQ(std::hash<c10::Device>()(c10::Device(c10::DeviceType::CUDA, 2)), 65538u);
}

}  // namespace
