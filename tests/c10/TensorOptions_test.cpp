#include <gtest/gtest.h>

#include <sstream>

#include "c10/core/TensorOptions.h"

namespace {

std::string printed(const c10::TensorOptions& o) {
  std::ostringstream ss;
  ss << o;
  return ss.str();
}

TEST(TensorOptions, DefaultsAreLibtorchs) {
  c10::TensorOptions o;
  EXPECT_EQ(o.dtype(), at::kFloat);
  EXPECT_EQ(o.device(), c10::Device(c10::kCPU));
  EXPECT_EQ(o.layout(), c10::kStrided);
  EXPECT_FALSE(o.requires_grad());
  EXPECT_FALSE(o.has_dtype());
  EXPECT_FALSE(o.memory_format_opt().has_value());
  EXPECT_EQ(printed(o),
            "TensorOptions(dtype=float (default), device=cpu (default), layout=Strided (default), "
            "requires_grad=false (default), pinned_memory=false (default), "
            "memory_format=(nullopt))");
}

TEST(TensorOptions, BuildersAndImplicitConversions) {
  EXPECT_EQ(at::TensorOptions().device(at::kCUDA, 1).device(), c10::Device(c10::kCUDA, 1));
  c10::TensorOptions o = at::TensorOptions().dtype(at::kLong).device("cuda:1").requires_grad(true);
  EXPECT_EQ(o.dtype(), at::kLong);
  EXPECT_EQ(o.device(), c10::Device(c10::kCUDA, 1));
  EXPECT_TRUE(o.requires_grad());
  c10::TensorOptions from_dtype = at::kDouble;
  EXPECT_EQ(from_dtype.dtype(), at::kDouble);
  c10::TensorOptions from_device = at::kCUDA;
  EXPECT_EQ(from_device.device(), c10::Device(c10::kCUDA));
  c10::TensorOptions from_format = at::MemoryFormat::ChannelsLast;
  EXPECT_EQ(from_format.memory_format_opt(), at::MemoryFormat::ChannelsLast);
  EXPECT_EQ(at::dtype(at::kInt).layout(at::kStrided).dtype(), at::kInt);
  EXPECT_EQ(at::dtype<int16_t>().dtype(), at::kShort);
  EXPECT_TRUE(at::requires_grad().requires_grad());
  EXPECT_EQ(printed(at::dtype(at::kFloat).device(at::kCPU)),
            "TensorOptions(dtype=float, device=cpu, layout=Strided (default), requires_grad=false "
            "(default), pinned_memory=false (default), memory_format=(nullopt))");
}

TEST(TensorOptions, MergeInPrefersTheArgument) {
  c10::TensorOptions base = at::dtype(at::kLong).device(at::kCPU);
  c10::TensorOptions merged = base.merge_in(at::dtype(at::kDouble));
  EXPECT_EQ(merged.dtype(), at::kDouble);
  EXPECT_TRUE(merged.has_device());
}

}  // namespace
