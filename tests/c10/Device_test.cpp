#include <gtest/gtest.h>

#include <sstream>
#include <unordered_set>

#include "c10/core/Device.h"
#include "c10/core/Layout.h"
#include "c10/core/MemoryFormat.h"

namespace {

std::string printed(const c10::Device& d) {
  std::ostringstream ss;
  ss << d;
  return ss.str();
}

TEST(Device, ParsesAndPrintsLikeLibtorch) {
  EXPECT_EQ(printed(c10::Device("cuda:1")), "cuda:1");
  EXPECT_EQ(printed(c10::Device(c10::kMeta)), "meta");
  EXPECT_EQ(printed(c10::Device(c10::kPrivateUse1, 0)), "privateuseone:0");
  EXPECT_EQ(printed(c10::Device("cpu")), "cpu");
  EXPECT_EQ(c10::DeviceTypeName(c10::kMeta), "META");
  EXPECT_EQ(c10::DeviceTypeName(c10::kCUDA, true), "cuda");
  c10::Device d("cuda:3");
  EXPECT_TRUE(d.is_cuda());
  EXPECT_EQ(d.index(), 3);
  EXPECT_TRUE(d.has_index());
  EXPECT_FALSE(c10::Device(c10::kCPU).has_index());
  EXPECT_EQ(c10::Device("cuda:0"), c10::Device(c10::kCUDA, 0));
  EXPECT_NE(c10::Device("cuda:0"), c10::Device(c10::kCUDA));
  std::unordered_set<c10::Device> set{c10::Device("cpu"), c10::Device("cuda:0"), c10::Device("cpu")};
  EXPECT_EQ(set.size(), 2u);
}

TEST(Device, EveryLibtorchDeviceTypeWithItsNumberAndNames) {
  // Read off libtorch 1.13: DeviceTypeName(DeviceType(i), false / true) for i in 0..19.
  const char* names[][2] = {
      {"CPU", "cpu"},       {"CUDA", "cuda"},     {"MKLDNN", "mkldnn"}, {"OPENGL", "opengl"},
      {"OPENCL", "opencl"}, {"IDEEP", "ideep"},   {"HIP", "hip"},       {"FPGA", "fpga"},
      {"ORT", "ort"},       {"XLA", "xla"},       {"VULKAN", "vulkan"}, {"METAL", "metal"},
      {"XPU", "xpu"},       {"MPS", "mps"},       {"META", "meta"},     {"HPU", "hpu"},
      {"VE", "ve"},         {"LAZY", "lazy"},     {"IPU", "ipu"},       {"PRIVATEUSEONE", "privateuseone"},
  };
  for (int i = 0; i < c10::COMPILE_TIME_MAX_DEVICE_TYPES; ++i) {
    const auto type = static_cast<c10::DeviceType>(i);
    EXPECT_TRUE(c10::isValidDeviceType(type));
    EXPECT_EQ(c10::DeviceTypeName(type), names[i][0]);
    EXPECT_EQ(c10::DeviceTypeName(type, true), names[i][1]);
    EXPECT_EQ(c10::Device(names[i][1]).type(), type);
  }
  EXPECT_EQ(static_cast<int>(c10::DeviceType::XLA), 9);
  EXPECT_EQ(static_cast<int>(c10::DeviceType::Meta), 14);
  EXPECT_EQ(printed(c10::Device("lazy:1")), "lazy:1");
  EXPECT_FALSE(c10::isValidDeviceType(c10::DeviceType::COMPILE_TIME_MAX_DEVICE_TYPES));
}

TEST(Device, BadStringsAreErrors) {
  try {
    c10::Device("cuda:x");
    FAIL();
  } catch (const c10::Error& e) {
    EXPECT_STREQ(e.what_without_backtrace(), "Invalid device string: 'cuda:x'");
  }
  try {
    c10::Device("foo");
    FAIL();
  } catch (const c10::Error& e) {
    EXPECT_STREQ(e.what_without_backtrace(),
                 "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, "
                 "fpga, ort, xla, lazy, vulkan, mps, meta, hpu, privateuseone device type at "
                 "start of device string: foo");
  }
  EXPECT_THROW(c10::Device(c10::kCUDA, -2), c10::Error);
}

TEST(MemoryFormat, PrintsAndComputesChannelsLastStrides) {
  std::ostringstream ss;
  ss << c10::MemoryFormat::ChannelsLast << " " << c10::MemoryFormat::Preserve << " "
     << c10::kStrided;
  EXPECT_EQ(ss.str(), "ChannelsLast Preserve Strided");
  EXPECT_EQ(c10::IntArrayRef(c10::get_channels_last_strides_2d({2, 3, 4, 5})),
            c10::IntArrayRef({60, 1, 15, 3}));
  EXPECT_EQ(c10::IntArrayRef(c10::get_channels_last_strides_2d({3, 4, 5})),
            c10::IntArrayRef({1, 15, 3}));
  EXPECT_EQ(c10::IntArrayRef(c10::get_channels_last_strides_3d({2, 3, 4, 5, 6})),
            c10::IntArrayRef({360, 1, 90, 18, 3}));
  // NCHW [1,64,5,4] in NHWC: the seed's example.
  EXPECT_EQ(c10::IntArrayRef(c10::get_channels_last_strides_2d({1, 64, 5, 4})),
            c10::IntArrayRef({1280, 1, 256, 64}));
}

}  // namespace
