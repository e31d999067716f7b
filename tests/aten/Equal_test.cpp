// at::equal / Tensor::equal / at::native::cpu_equal, against libtorch 1.13's answers: sizes must
// match exactly (a 0-dim tensor is not equal to a 1-element one), values compare in the common
// dtype, NaN is unequal to itself, layout does not matter.
#include <gtest/gtest.h>

#include <cmath>

#include "aten/ATen.h"
#include "aten/generated/NativeFunctions.h"

namespace {

TEST(Equal, SizesAndValues) {
  EXPECT_TRUE(at::ones({2}).equal(at::ones({2})));
  EXPECT_FALSE(at::ones({2}).equal(at::ones({3})));
  EXPECT_FALSE(at::ones({}).equal(at::ones({1})));
  EXPECT_FALSE(at::equal(at::arange(4), at::arange(1, 5)));
  EXPECT_TRUE(at::equal(at::zeros({0, 3}), at::zeros({0, 3})));
  EXPECT_FALSE(at::full({1}, NAN).equal(at::full({1}, NAN)));
}

TEST(Equal, LayoutsAndDtypes) {
  at::Tensor a = at::arange(6).view({2, 3});
  EXPECT_TRUE(a.t().equal(a.t().contiguous()));
  EXPECT_TRUE(at::ones({2, 3}).t().equal(at::ones({3, 2})));
  EXPECT_TRUE(at::ones({2}).equal(at::ones({2}, at::kDouble)));  // compared as double
  EXPECT_TRUE(at::native::cpu_equal(at::arange(3, at::kInt), at::arange(3, at::kLong)));
}

TEST(Equal, NativeFactoriesTakeTheSchemasDefaults) {
  at::Tensor t = at::native::ones({2, 2});  // dtype, layout, device, pin_memory default
  EXPECT_EQ(t.scalar_type(), at::kFloat);
  EXPECT_TRUE(at::native::cpu_equal(t, at::ones({2, 2})));
}

}  // namespace
