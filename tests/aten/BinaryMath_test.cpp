// pow, atan2, hypot, fmod, maximum, minimum, clamp, silu and gelu: values and their edge cases,
// promotion, the in-place and out= forms, and libtorch 1.13's errors (each text checked against
// libtorch). A value never depends on where it sits, whatever the layout.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "ElementwiseTestUtils.h"

namespace {

using namespace elementwise_test;
using at::Tensor;

Tensor values(int64_t n, int seed = 0) {
  Tensor d = at::empty({n}, at::kDouble);
  for (int64_t i = 0; i < n; ++i) {
    d.data_ptr<double>()[i] = ((i * 37 + seed * 11) % 101 - 50) * 0.173;
  }
  return d.to(at::kFloat);
}

// Whether every element of a float tensor is NaN.
bool all_nan(const Tensor& t) {
  const Tensor c = t.contiguous();
  for (int64_t i = 0; i < c.numel(); ++i) {
    if (!std::isnan(c.data_ptr<float>()[i])) return false;
  }
  return true;
}

// op(x, y) element i == op of element i alone, for every layout.
template <typename Op>
void expect_position_independent(Op op, const Tensor& x, const Tensor& y, const char* layout) {
  const Tensor r = op(x, y).contiguous();
  const Tensor xe = x.expand(r.sizes()).contiguous().reshape({-1});
  const Tensor ye = y.expand(r.sizes()).contiguous().reshape({-1});
  for (int64_t i = 0; i < r.numel(); ++i) {
    const float alone = op(xe.narrow(0, i, 1), ye.narrow(0, i, 1)).template item<float>();
    ASSERT_TRUE(same_value(r.data_ptr<float>()[i], alone)) << layout << " element " << i;
  }
}

TEST(BinaryMath, ValueDoesNotDependOnWhereItSits) {
  const Tensor x = values(210), y = values(210, 5).add_(0.3);
  auto run = [&](auto op) {
    expect_position_independent(op, x, y, "contiguous");
    expect_position_independent(op, x.view({14, 15}).t(), y.view({15, 14}), "transposed");
    expect_position_independent(op, x.slice(0, 0, 210, 3), y.narrow(0, 0, 70), "strided");
    expect_position_independent(op, x.view({14, 15}), y.narrow(0, 0, 15), "broadcast");
    expect_position_independent(op, x, at::full({}, 1.75), "scalar");
  };
  run([](const Tensor& a, const Tensor& b) { return at::pow(a.abs(), b); });
  run([](const Tensor& a, const Tensor& b) { return at::atan2(a, b); });
  run([](const Tensor& a, const Tensor& b) { return at::hypot(a, b); });
  run([](const Tensor& a, const Tensor& b) { return at::fmod(a, b); });
  run([](const Tensor& a, const Tensor& b) { return at::maximum(a, b); });
  run([](const Tensor& a, const Tensor& b) { return at::clamp(a, b, b.add(1)); });
}

// ---- pow ---------------------------------------------------------------------------------------

TEST(Pow, ShortcutsAreExact) {
  const Tensor x = values(77);
  EXPECT_TRUE(same_tensor(at::pow(x, 2), x * x));
  EXPECT_TRUE(same_tensor(at::pow(x, 3), x * x * x));
  EXPECT_TRUE(same_tensor(at::pow(x, -2), (x * x).reciprocal()));
  EXPECT_TRUE(same_tensor(at::pow(x, 0.5), at::sqrt(x)));
  EXPECT_TRUE(same_tensor(at::pow(x, -0.5), at::rsqrt(x)));
  EXPECT_TRUE(same_tensor(at::pow(x, -1), at::reciprocal(x)));
  // ** 0 fills ones without reading (NaN ** 0 is 1); ** 1 copies.
  EXPECT_TRUE(same_tensor(at::pow(at::tensor({NAN, 2.f}), 0), at::tensor({1.f, 1.f})));
  const Tensor one = at::pow(x, 1);
  EXPECT_TRUE(same_tensor(one, x));
  EXPECT_FALSE(one.is_alias_of(x));
  // 1 ** anything is 1.
  EXPECT_TRUE(same_tensor(at::pow(1, at::tensor({NAN, 2.f})), at::tensor({1.f, 1.f})));
  EXPECT_TRUE(same_tensor(at::pow(2, at::tensor({3.f, -1.f})), at::tensor({8.f, 0.5f})));
}

TEST(Pow, IntegersAndPromotion) {
  EXPECT_TRUE(
      same_tensor(at::pow(at::arange(5, at::kLong), 3), at::tensor({0, 1, 8, 27, 64}, at::kLong)));
  EXPECT_TRUE(same_tensor(at::pow(at::arange(5, at::kLong), at::arange(5, at::kLong)),
                          at::tensor({1, 1, 4, 27, 256}, at::kLong)));
  // A negative exponent tensor truncates; a negative Scalar is refused.
  EXPECT_TRUE(same_tensor(at::pow(at::tensor({-2, -1, 0, 1, 2}), at::full({5}, -3, at::kInt)),
                          at::tensor({0, -1, 0, 1, 0})));
  EXPECT_EQ(error_of([] { at::pow(at::arange(3, at::kLong), -2); }),
            "Integers to negative integer powers are not allowed.");
  // Wraps as int arithmetic does: 100000 ** 3 in int32.
  EXPECT_EQ(at::pow(at::full({1}, 100000, at::kInt), 3).item<int>(), -1530494976);
  EXPECT_EQ(at::pow(at::arange(3, at::kLong), 2.5).scalar_type(), at::kFloat);
  EXPECT_EQ(at::pow(2.5, at::arange(3, at::kLong)).scalar_type(), at::kFloat);
  EXPECT_EQ(at::pow(2, at::arange(3, at::kLong)).scalar_type(), at::kLong);
  EXPECT_EQ(at::pow(at::ones({2}, at::kBool), 2).scalar_type(), at::kLong);
  EXPECT_EQ(error_of([] { at::pow(at::ones({2}, at::kBool), at::ones({2}, at::kBool)); }),
            "\"pow\" not implemented for 'Bool'");
  Tensor i = at::arange(3, at::kLong);
  EXPECT_EQ(error_of([&] { i.pow_(2.5); }), "Found dtype Long but expected Float");
  EXPECT_TRUE(same_tensor(at::pow(at::tensor({1.5f, 3.f}).to(at::kHalf), 2),
                          at::tensor({2.25f, 9.f}).to(at::kHalf)));
}

TEST(Pow, InPlaceAndOut) {
  const Tensor x = values(40).abs(), e = values(40).div(10);
  Tensor a = x.clone();
  EXPECT_TRUE(same_tensor(a.pow_(e), at::pow(x, e)));
  Tensor b = x.clone();
  EXPECT_TRUE(same_tensor(b.pow_(2.5), at::pow(x, 2.5)));
  Tensor out = at::empty({0});
  EXPECT_TRUE(same_tensor(at::pow_out(out, x, e), at::pow(x, e)));
  EXPECT_TRUE(same_tensor(at::pow_out(out, 3.f, e), at::pow(3.f, e)));
  EXPECT_TRUE(same_tensor(at::pow_out(out, 1, e), at::ones({40})));
}

// ---- atan2, hypot, fmod ---------------------------------------------------------------------

TEST(BinaryMath, Atan2SignedZerosAndPromotion) {
  const Tensor r =
      at::atan2(at::tensor({0.f, -0.f, 0.f, -0.f}), at::tensor({0.f, 0.f, -0.f, -0.f}));
  EXPECT_TRUE(
      same_tensor(r, at::tensor({0.f, -0.f, static_cast<float>(M_PI), -static_cast<float>(M_PI)})));
  EXPECT_EQ(at::atan2(at::ones({2}, at::kLong), at::ones({2}, at::kLong)).scalar_type(),
            at::kFloat);
  EXPECT_EQ(error_of([] { at::atan2(at::ones({2}, at::kHalf), at::ones({2}, at::kHalf)); }),
            "\"atan2_cpu\" not implemented for 'Half'");
}

TEST(BinaryMath, Hypot) {
  EXPECT_TRUE(same_tensor(at::hypot(at::tensor({3.f, INFINITY, NAN}), at::tensor({4.f, NAN, 1.f})),
                          at::tensor({5.f, INFINITY, NAN})));
  EXPECT_EQ(error_of([] { at::hypot(at::ones({2}, at::kLong), at::ones({2}, at::kLong)); }),
            "\"hypot_cpu\" not implemented for 'Long'");
}

TEST(BinaryMath, Fmod) {
  EXPECT_TRUE(same_tensor(at::fmod(at::tensor({-3.f, 3.f, 5.5f, -0.f}), 2),
                          at::tensor({-1.f, 1.f, 1.5f, -0.f})));
  EXPECT_TRUE(all_nan(at::fmod(at::tensor({1.f}), 0)));
  EXPECT_TRUE(same_tensor(at::fmod(at::tensor({-7, 7}, at::kLong), at::tensor({3, -3}, at::kLong)),
                          at::tensor({-1, 1}, at::kLong)));
  // INT64_MIN % -1 traps on x86 (libtorch 1.13 dies there); it is 0.
  EXPECT_EQ(
      at::fmod(at::full({1}, std::numeric_limits<int64_t>::min(), at::kLong), -1).item<int64_t>(),
      0);
  EXPECT_EQ(error_of([] { at::fmod(at::arange(3, at::kLong), 0); }), "ZeroDivisionError");
  EXPECT_EQ(at::fmod(at::arange(3, at::kLong), 1.5).scalar_type(), at::kFloat);
  EXPECT_EQ(error_of([] { at::fmod(at::ones({2}, at::kBool), at::ones({2}, at::kBool)); }),
            "\"fmod_cpu\" not implemented for 'Bool'");
  Tensor h = at::full({2}, 5.5, at::kHalf);
  EXPECT_TRUE(same_tensor(h.fmod_(2), at::full({2}, 1.5, at::kHalf)));
}

// ---- maximum, minimum, clamp -----------------------------------------------------------------

TEST(Extremes, MaximumMinimumPropagateNaN) {
  const Tensor a = at::tensor({NAN, 1.f, 2.f, -0.f}), b = at::tensor({1.f, NAN, 3.f, 0.f});
  const Tensor mx = at::maximum(a, b), mn = at::minimum(a, b);
  EXPECT_TRUE(all_nan(mx.narrow(0, 0, 2)));
  EXPECT_EQ(mx[2].item<float>(), 3.f);
  EXPECT_TRUE(all_nan(mn.narrow(0, 0, 2)));
  EXPECT_EQ(mn[2].item<float>(), 2.f);
  EXPECT_TRUE(same_tensor(at::maximum(at::tensor({1, 5}), at::tensor({2.5f, 1.f})),
                          at::tensor({2.5f, 5.f})));
  EXPECT_TRUE(same_tensor(at::maximum(at::ones({2}, at::kBool), at::zeros({2}, at::kBool)),
                          at::ones({2}, at::kBool)));
  EXPECT_EQ(error_of([] { at::maximum(at::ones({2}, at::kComplexFloat), at::ones({2})); }),
            "maximum not implemented for complex tensors.");
  EXPECT_EQ(error_of([] { at::minimum(at::ones({2}), at::ones({2}, at::kComplexFloat)); }),
            "minimum not implemented for complex tensors.");
}

TEST(Extremes, ClampScalar) {
  const Tensor x = at::tensor({1.f, 5.f, NAN, -3.f});
  EXPECT_TRUE(same_tensor(at::clamp(x, 0, 2), at::tensor({1.f, 2.f, NAN, 0.f})));
  EXPECT_TRUE(same_tensor(at::clamp(x, 3, 2), at::tensor({2.f, 2.f, NAN, 2.f})));  // max wins
  EXPECT_TRUE(all_nan(at::clamp(x, NAN, 2)));
  EXPECT_TRUE(same_tensor(at::clamp(x, NAN, c10::nullopt), x));  // one NaN bound: ignored
  EXPECT_TRUE(all_nan(at::clamp_min(x, NAN)));
  EXPECT_TRUE(same_tensor(at::clamp_min(x, 0), at::tensor({1.f, 5.f, NAN, 0.f})));
  EXPECT_TRUE(same_tensor(at::clamp_max(x, 0), at::tensor({0.f, 0.f, NAN, -3.f})));
  const Tensor i = at::arange(4, at::kLong);
  EXPECT_EQ(at::clamp(i, 0.5, 2).scalar_type(), at::kFloat);
  EXPECT_EQ(at::clamp(i, 0, 2).scalar_type(), at::kLong);
  EXPECT_EQ(at::clamp(at::ones({2}, at::kBool), 0, 2).scalar_type(), at::kLong);
  Tensor j = i.clone();
  EXPECT_EQ(error_of([&] { j.clamp_(0.5, 2); }),
            "result type Float can't be cast to the desired output type Long");
  EXPECT_EQ(error_of([&] { j.clamp_min_(0.5); }),
            "result type Float can't be cast to the desired output type Long");
  EXPECT_EQ(
      error_of([&] { at::clamp(i, c10::optional<at::Scalar>(), c10::optional<at::Scalar>()); }),
      "torch.clamp: At least one of 'min' or 'max' must not be None");
  EXPECT_EQ(error_of([] { at::clamp(at::ones({2}, at::kComplexFloat), 0, 1); }),
            "clamp is not supported for complex types");
  EXPECT_EQ(error_of([] { at::clamp(at::ones({2}, at::kHalf), 0, 1); }),
            "\"clamp_scalar_cpu\" not implemented for 'Half'");
  Tensor out = at::empty({0}, at::kLong);
  EXPECT_EQ(error_of([&] { at::clamp_out(out, i, 0.5, 2); }),
            "Found dtype Long but expected Float");
}

TEST(Extremes, ClampTensor) {
  const Tensor x = at::tensor({1.f, 5.f, NAN});
  EXPECT_TRUE(same_tensor(at::clamp(x, at::tensor({NAN, 0.f, 0.f}), at::full({3}, 2.f)),
                          at::tensor({NAN, 2.f, NAN})));
  EXPECT_TRUE(same_tensor(at::clamp_min(at::tensor({1.f, NAN}), at::tensor({NAN, 0.f})),
                          at::tensor({NAN, NAN})));
  EXPECT_TRUE(same_tensor(at::clamp(at::arange(4, at::kLong), at::full({4}, 0.5), c10::nullopt),
                          at::tensor({0.5f, 1.f, 2.f, 3.f})));
  Tensor i = at::arange(4, at::kLong);
  EXPECT_EQ(error_of([&] { i.clamp_(at::full({4}, 0.5), c10::nullopt); }),
            "result type Float can't be cast to the desired output type Long");
  EXPECT_EQ(error_of([] {
              at::clamp(at::ones({2}, at::kHalf), at::ones({2}, at::kHalf),
                        at::ones({2}, at::kHalf));
            }),
            "\"clamp_cpu\" not implemented for 'Half'");
  Tensor y = x.clone();
  EXPECT_TRUE(same_tensor(y.clamp_max_(at::full({3}, 2.f)), at::minimum(x, at::full({3}, 2.f))));
}

// ---- silu, gelu --------------------------------------------------------------------------------

TEST(Activations, SiluAndGeluValues) {
  const Tensor x = values(101);
  const Tensor s = at::silu(x), g = at::gelu(x), gt = at::gelu(x, "tanh");
  for (int64_t i = 0; i < x.numel(); ++i) {
    const long double v = x.data_ptr<float>()[i];
    const long double silu = v / (1 + expl(-v));
    const long double gelu = v * 0.5L * (1 + erfl(v / sqrtl(2.0L)));
    const long double inner = sqrtl(2.0L / M_PI) * (v + 0.044715L * v * v * v);
    const long double gelu_tanh = 0.5L * v * (1 + tanhl(inner));
    // libtorch's formulas in float: a few ulps, more where the result is near a cancellation.
    const auto tol = [](long double ref) { return 4e-7L * std::max(fabsl(ref), 1e-3L) + 1e-9L; };
    EXPECT_LE(fabsl(s.data_ptr<float>()[i] - silu), tol(silu)) << v;
    EXPECT_LE(fabsl(g.data_ptr<float>()[i] - gelu), tol(gelu) + 1e-7L) << v;
    EXPECT_LE(fabsl(gt.data_ptr<float>()[i] - gelu_tanh), tol(gelu_tanh) + 1e-7L) << v;
  }
  EXPECT_EQ(error_of([&] { at::gelu(x, "foo"); }),
            "approximate argument must be either none or tanh.");
  EXPECT_EQ(error_of([] { at::silu(at::ones({2}, at::kLong)); }),
            "\"silu_cpu\" not implemented for 'Long'");
  EXPECT_EQ(error_of([] { at::gelu(at::ones({2}, at::kHalf)); }),
            "\"GeluKernelImpl\" not implemented for 'Half'");
  EXPECT_EQ(at::silu(at::ones({2}, at::kComplexFloat)).scalar_type(), at::kComplexFloat);
  EXPECT_EQ(at::gelu(at::ones({2}, at::kBFloat16), "tanh").scalar_type(), at::kBFloat16);
  Tensor y = x.clone();
  EXPECT_TRUE(same_tensor(at::gelu_(y, "tanh"), gt));
  Tensor out = at::empty({0});
  EXPECT_TRUE(same_tensor(at::silu_out(out, x), s));
}

}  // namespace
