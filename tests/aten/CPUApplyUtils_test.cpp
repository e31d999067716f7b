// CPU_tensor_apply2/3/4: elements paired in each tensor's own row-major order, libtorch 1.13's
// checks and texts (values printed by libtorch running the same calls).
#include <gtest/gtest.h>

#include "aten/ATen.h"
#include "aten/CPUApplyUtils.h"
#include "tests/TestUtils.h"

namespace {

using test_util::error_of;

TEST(CPUApplyUtils, PairsElementsInEachTensorsOwnOrder) {
  at::Tensor a = at::zeros({2, 3});
  const at::Tensor b = at::arange(6, at::kFloat).view({3, 2}).t();  // non-contiguous
  at::CPU_tensor_apply2<float, float>(a, b, [](float& x, const float& y) { x = y * 10; });
  EXPECT_TRUE(a.equal(at::tensor({0.f, 20.f, 40.f, 10.f, 30.f, 50.f}).view({2, 3})));

  // Different shapes, the same number of elements.
  at::Tensor d = at::zeros({2, 2}), g = at::zeros({1, 4});
  at::CPU_tensor_apply4<float, float, float, float>(
      d, at::ones({4}), at::arange(4, at::kFloat), g,
      [](float& w, float& x, float& y, float& z) {
        w = x + y;
        z = w * 2;
      });
  EXPECT_TRUE(d.equal(at::tensor({1.f, 2.f, 3.f, 4.f}).view({2, 2})));
  EXPECT_TRUE(g.equal(at::tensor({2.f, 4.f, 6.f, 8.f}).view({1, 4})));

  at::Tensor l = at::zeros({3}, at::kLong);
  at::CPU_tensor_apply3<int64_t, float, double>(
      l, at::tensor({1.5f, 2.5f, 3.5f}), at::tensor({1.0, 2.0, 3.0}),
      [](int64_t& out, const float& x, const double& y) { out = static_cast<int64_t>(x * y); });
  EXPECT_TRUE(l.equal(at::tensor({1, 5, 10}).to(at::kLong)));

  // 0-dim tensors hold one element; empty ones none.
  at::Tensor z = at::zeros({});
  at::CPU_tensor_apply2<float, float>(z, at::full({}, 5.f), [](float& x, float& y) { x = y; });
  EXPECT_EQ(z.item<float>(), 5);
  int calls = 0;
  at::CPU_tensor_apply2<float, float>(at::zeros({0}), at::zeros({0, 3}),
                                      [&](float&, float&) { ++calls; });
  EXPECT_EQ(calls, 0);
}

TEST(CPUApplyUtils, Errors) {
  at::Tensor a = at::zeros({2, 3});
  EXPECT_EQ(error_of([&] {
              at::CPU_tensor_apply2<float, float>(a, at::zeros({3}), [](float&, float&) {});
            }),
            "inconsistent tensor size, expected [2, 3], and [3] to have the same number of "
            "elements, but got 6, and 3 elements respectively");
  EXPECT_EQ(error_of([&] {
              at::CPU_tensor_apply3<float, float, float>(a, a, at::zeros({3}),
                                                         [](float&, float&, float&) {});
            }),
            "inconsistent tensor size, expected [2, 3], [2, 3], and [3] to have the same number "
            "of elements, but got 6, 6, and 3 elements respectively");
  EXPECT_EQ(error_of([&] {
              at::CPU_tensor_apply2<float, float>(a, at::empty({2, 3}, at::TensorOptions().device(at::kMeta)),
                                                  [](float&, float&) {});
            }),
            "Expected tensor to have cpu DeviceType, but got tensor with meta DeviceType (while "
            "checking arguments for CPU_tensor_apply)");
  EXPECT_EQ(error_of([&] {
              at::CPU_tensor_apply2<float, double>(a, a, [](float&, double&) {});
            }),
            "expected scalar type Double but found Float");
}

}  // namespace
