// remainder, lerp, addcmul, addcdiv: values against the definitions over broadcast and strided
// operands, dtypes as libtorch 1.13 gives them (printed by a libtorch program), in-place and out=
// forms, and libtorch's error texts.

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "aten/ATen.h"
#include "tests/aten/ErrorCase.h"

namespace {

using at::Tensor;

TEST(Remainder, TakesTheDivisorsSign) {
  const Tensor r =
      at::remainder(at::tensor({-3.0f, 3.0f, -3.5f, 5.0f}), at::tensor({2.0f, -2.0f, 2.0f, 0.0f}));
  EXPECT_EQ(r[0].item<float>(), 1.0f);
  EXPECT_EQ(r[1].item<float>(), -1.0f);
  EXPECT_EQ(r[2].item<float>(), 0.5f);
  EXPECT_TRUE(std::isnan(r[3].item<float>()));
  EXPECT_TRUE(at::equal(at::remainder(at::tensor({-3, 3, -7}), at::tensor({2, -2, 3})),
                        at::tensor({1, -1, 2})));
  // a - floor(a / b) * b over broadcast, strided operands.
  const Tensor a = at::randn({4, 5}, at::kDouble).t() * 10, b = at::rand({4}, at::kDouble) + 0.5;
  EXPECT_TRUE(at::allclose(at::remainder(a, b), a - at::floor(a / b) * b));
  // A Scalar divisor is a wrapped number: Long % 2.5 is Float.
  const Tensor s = at::remainder(at::tensor({-3, 3}), 2.5);
  EXPECT_EQ(s.scalar_type(), at::kFloat);
  EXPECT_TRUE(at::equal(s, at::tensor({2.0f, 0.5f})));
  const Tensor st = at::remainder(5, at::tensor({-3, 3}).to(at::kLong));
  EXPECT_EQ(st.scalar_type(), at::kLong);
  EXPECT_TRUE(at::equal(st, at::tensor({-1, 2})));
  Tensor t = at::tensor({7, -7});
  t.remainder_(3);
  EXPECT_TRUE(at::equal(t, at::tensor({1, 2})));
  EXPECT_EQ(t._version(), 1);
  // INT64_MIN % -1 is 0, not a trap.
  EXPECT_EQ(at::remainder(at::full({1}, INT64_MIN, at::kLong), at::full({1}, -1, at::kLong))
                .item<int64_t>(),
            0);
}

TEST(Lerp, ScalarAndTensorWeights) {
  const Tensor start = at::tensor({1.0f, 2.0f}), end = at::tensor({3.0f, 10.0f});
  EXPECT_TRUE(at::allclose(at::lerp(start, end, 0.75), at::tensor({2.5f, 8.0f})));
  EXPECT_TRUE(
      at::allclose(at::lerp(start, end, at::tensor({0.25f, 0.9f})), at::tensor({1.5f, 9.2f})));
  // Outside [0, 1], and the endpoints exactly (Note [Two-sided lerp]).
  EXPECT_EQ(at::lerp(at::tensor({1.0f}), at::tensor({3.0f}), 2.0).item<float>(), 5.0f);
  EXPECT_EQ(at::lerp(at::tensor({1.0f}), at::tensor({3.0f}), -0.5).item<float>(), 0.0f);
  const Tensor a = at::randn({64}), b = at::randn({64});
  EXPECT_TRUE(at::equal(at::lerp(a, b, 1.0), b));
  EXPECT_TRUE(at::equal(at::lerp(a, b, 0.0), a));
  // Broadcast to [2, 3].
  const Tensor bc = at::lerp(at::zeros({2, 1}), at::ones({3}), at::full({1}, 0.5f));
  EXPECT_EQ(bc.sizes(), c10::IntArrayRef({2, 3}));
  EXPECT_TRUE(at::equal(bc, at::full({2, 3}, 0.5f)));
  const Tensor w = at::rand({5, 4}, at::kDouble).t(), s = at::randn({4, 5}, at::kDouble),
               e = at::randn({4, 5}, at::kDouble);
  EXPECT_TRUE(at::allclose(at::lerp(s, e, w), s + w * (e - s)));
  Tensor in_place = s.clone();
  in_place.lerp_(e, w);
  EXPECT_TRUE(at::allclose(in_place, s + w * (e - s)));
  Tensor out = at::empty({0}, at::kDouble);
  at::lerp_out(out, s, e, 0.3);
  EXPECT_TRUE(at::allclose(out, s + 0.3 * (e - s)));
  const Tensor c = at::ones({2}, at::kComplexFloat);
  EXPECT_EQ(at::lerp(c, c, 0.5).scalar_type(), at::kComplexFloat);
}

TEST(Addc, MulAndDiv) {
  const Tensor self = at::randn({3, 4}, at::kDouble), t1 = at::randn({4}, at::kDouble),
               t2 = at::rand({3, 1}, at::kDouble) + 1;
  EXPECT_TRUE(at::allclose(at::addcmul(self, t1, t2, 0.5), self + 0.5 * t1 * t2));
  EXPECT_TRUE(at::allclose(at::addcdiv(self, t1, t2, -2), self - 2 * t1 / t2));
  EXPECT_TRUE(at::allclose(at::addcmul(self.t().contiguous().t(), t1, t2), self + t1 * t2));
  Tensor s = self.clone();
  s.addcdiv_(t1, t2);
  EXPECT_TRUE(at::allclose(s, self + t1 / t2));
  EXPECT_EQ(s._version(), 1);
  Tensor out = at::empty({0}, at::kDouble);
  at::addcmul_out(out, self, t1, t2, 3);
  EXPECT_TRUE(at::allclose(out, self + 3 * t1 * t2));
  // Promotion: Float self with Double factors is Double; a Long with a Float is Float; integer
  // addcmul stays integer, with the value cast to it.
  const Tensor f = at::tensor({1.0f, 2.0f});
  const Tensor d = at::tensor({3.0, 10.0}).to(at::kDouble);
  EXPECT_EQ(at::addcmul(f, d, d).scalar_type(), at::kDouble);
  EXPECT_TRUE(at::equal(at::addcmul(f, d, d), at::tensor({10.0, 102.0}).to(at::kDouble)));
  EXPECT_EQ(at::addcmul(at::ones({2}, at::kLong), f, f).scalar_type(), at::kFloat);
  EXPECT_TRUE(
      at::equal(at::addcmul(at::ones({2}, at::kLong), at::tensor({2, 3}), at::tensor({4, 5}), 2),
                at::tensor({17, 31})));
  EXPECT_TRUE(
      at::equal(at::addcmul(at::ones({2}, at::kLong), at::tensor({2, 3}), at::tensor({4, 5}), 0.5),
                at::ones({2}, at::kLong)));
  EXPECT_TRUE(std::isinf(at::addcdiv(f, f, at::zeros({2}))[0].item<float>()));
}

using test_util::ErrorCase;
using test_util::Kind;

const std::vector<ErrorCase>& error_cases() {
  static const auto f = [] { return at::tensor({1.0f, 2.0f}); };
  static const auto d = [] { return at::tensor({1.0, 2.0}).to(at::kDouble); };
  static const std::vector<ErrorCase> all = {
      {"remainder_zero",
       [] {
         at::remainder(at::tensor({-3, 3}), at::tensor({0, 1}));
       },
       Kind::Error, "ZeroDivisionError"},
      {"remainder_bool", [] { at::remainder(at::ones({1}, at::kBool), at::ones({1}, at::kBool)); },
       Kind::Error, "\"remainder_cpu\" not implemented for 'Bool'"},
      {"remainder_complex",
       [] { at::remainder(at::ones({1}, at::kComplexFloat), at::ones({1}, at::kComplexFloat)); },
       Kind::Error, "\"remainder_cpu\" not implemented for 'ComplexFloat'"},
      {"lerp_end_dtype", [] { at::lerp(f(), d(), 0.5); }, Kind::Error,
       "expected dtype float for `end` but got dtype double"},
      {"lerp_end_dtype2", [] { at::lerp(d(), f(), 0.5); }, Kind::Error,
       "expected dtype double for `end` but got dtype float"},
      {"lerp_weight_dtype", [] { at::lerp(f(), f(), d()); }, Kind::Error,
       "expected dtype float for `weight` but got dtype double"},
      {"lerp_long", [] { at::lerp(at::arange(2), at::arange(2), 0.5); }, Kind::Error,
       "\"lerp_kernel_scalar\" not implemented for 'Long'"},
      {"lerp_half", [] { at::lerp(f().to(at::kHalf), f().to(at::kHalf), 0.5); }, Kind::Error,
       "\"lerp_kernel_scalar\" not implemented for 'Half'"},
      {"lerp_inplace_broadcast",
       [] {
         f().lerp_(at::ones({3, 2}), 0.5);
       },
       Kind::Error, "output with shape [2] doesn't match the broadcast shape [3, 2]"},
      {"addcmul_inplace_broadcast",
       [] {
         f().addcmul_(at::ones({3, 2}), f());
       },
       Kind::Error, "output with shape [2] doesn't match the broadcast shape [3, 2]"},
      {"addcmul_inplace_cast",
       [] {
         at::ones({2}, at::kLong).addcmul_(at::tensor({1.0f, 2.0f}), at::tensor({1.0f, 2.0f}));
       },
       Kind::Error, "result type Float can't be cast to the desired output type Long"},
      {"addcmul_half", [] { at::addcmul(f().to(at::kHalf), f().to(at::kHalf), f().to(at::kHalf)); },
       Kind::Error, "\"addcmul_cpu_out\" not implemented for 'Half'"},
      {"addcmul_bool",
       [] {
         auto b = at::ones({2}, at::kBool);
         at::addcmul(b, b, b, 2);
       },
       Kind::Error, "\"addcmul_cpu_out\" not implemented for 'Bool'"},
      {"addcdiv_integers",
       [] {
         at::addcdiv(at::ones({2}), at::tensor({2, 3}), at::tensor({4, 5}), 2);
       },
       Kind::Error,
       "Integer division with addcdiv is no longer supported, and in a future  release addcdiv "
       "will perform a true division of tensor1 and tensor2. The historic addcdiv behavior can be "
       "implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for "
       "integer inputs and as (input + value * tensor1 / tensor2) for float inputs. The future "
       "addcdiv behavior is just the latter implementation: (input + value * tensor1 / tensor2), "
       "for all dtypes."},
  };
  return all;
}

class PointwiseErrors : public ::testing::TestWithParam<ErrorCase> {};
TEST_P(PointwiseErrors, ExactTextAndType) {
  test_util::expect_error_case(GetParam());
}
INSTANTIATE_TEST_SUITE_P(LibtorchTexts, PointwiseErrors, ::testing::ValuesIn(error_cases()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
