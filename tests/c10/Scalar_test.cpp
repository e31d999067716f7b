#include <gtest/gtest.h>

#include <sstream>

#include "c10/core/Scalar.h"

namespace {

TEST(Scalar, KnowsItsKind) {
  c10::Scalar i = 3, d = 2.5, b = true;
  EXPECT_TRUE(i.isIntegral(false));
  EXPECT_FALSE(i.isFloatingPoint());
  EXPECT_TRUE(d.isFloatingPoint());
  EXPECT_TRUE(b.isBoolean());
  EXPECT_FALSE(b.isIntegral(false));
  EXPECT_TRUE(b.isIntegral(true));
  EXPECT_EQ(i.type(), c10::ScalarType::Long);
  EXPECT_EQ(d.type(), c10::ScalarType::Double);
  EXPECT_EQ(b.type(), c10::ScalarType::Bool);
  EXPECT_EQ(c10::Scalar(2.5f).type(), c10::ScalarType::Double);
  EXPECT_EQ(c10::Scalar(int8_t(3)).type(), c10::ScalarType::Long);
}

TEST(Scalar, ConvertsLikeLibtorch) {
  EXPECT_EQ(c10::Scalar(2.5).to<int64_t>(), 2);
  EXPECT_EQ(c10::Scalar(-2.5).to<int64_t>(), -2);
  EXPECT_EQ(c10::Scalar(3).to<double>(), 3.0);
  EXPECT_EQ(c10::Scalar(true).to<int64_t>(), 1);
  EXPECT_EQ(c10::Scalar(0.5).toBool(), true);
  EXPECT_EQ(c10::Scalar(-1).to<uint8_t>(), 255);  // libtorch lets negatives wrap into uint8
  EXPECT_EQ(static_cast<float>(c10::Scalar(1.0).to<c10::Half>()), 1.0f);
  EXPECT_EQ(c10::Scalar(std::numeric_limits<double>::infinity()).to<float>(),
            std::numeric_limits<float>::infinity());
}

TEST(Scalar, OverflowIsAnError) {
  try {
    c10::Scalar(300).to<uint8_t>();
    FAIL();
  } catch (const c10::Error& e) {
    EXPECT_STREQ(e.what_without_backtrace(),
                 "value cannot be converted to type uint8_t without overflow");
  }
  try {
    c10::Scalar(1e300).to<float>();
    FAIL();
  } catch (const c10::Error& e) {
    EXPECT_STREQ(e.what_without_backtrace(),
                 "value cannot be converted to type float without overflow");
  }
  EXPECT_THROW(c10::Scalar(1e10).to<int32_t>(), c10::Error);
  EXPECT_THROW(c10::Scalar(int64_t(1) << 40).to<int32_t>(), c10::Error);
  EXPECT_THROW(c10::Scalar(-129).to<int8_t>(), c10::Error);
  EXPECT_EQ(c10::Scalar(-128).to<int8_t>(), -128);
}

TEST(Scalar, PrintsNegatesAndCompares) {
  std::ostringstream ss;
  ss << c10::Scalar(3) << " " << c10::Scalar(2.5) << " " << c10::Scalar(true);
  EXPECT_EQ(ss.str(), "3 2.5 true");
  EXPECT_TRUE((-c10::Scalar(3)).equal(int64_t(-3)));
  EXPECT_TRUE((-c10::Scalar(2.5)).equal(-2.5));
  EXPECT_THROW(-c10::Scalar(true), c10::Error);
  EXPECT_TRUE(c10::Scalar(2).equal(2.0));
  EXPECT_FALSE(c10::Scalar(true).equal(1.0));
}

}  // namespace
