// The floating-point unary functions (exp ... sigmoid), rounding and sign: a value never depends
// on where it sits (every layout, every tail length, every neighbour), output sizes and strides
// over the layouts, the special values against std::, the dtypes and errors of libtorch 1.13,
// and the in-place and out= forms. Accuracy is VecMathAccuracy_test's.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "ElementwiseTestUtils.h"
#include "aten/native/cpu/Loops.h"

namespace {

using namespace elementwise_test;
using at::Tensor;

struct UnaryOp {
  const char* name;
  Tensor (*fn)(const Tensor&);
  Tensor& (*inplace)(Tensor&);
  Tensor& (*out)(Tensor&, const Tensor&);
  double (*ref)(double);  // for the special values
  const char* kernel;     // the name in libtorch's "not implemented for" errors
  bool half, complex;     // whether libtorch 1.13's CPU kernel takes Half / complex
};

double ref_rsqrt(double x) {
  return 1.0 / std::sqrt(x);
}
double ref_reciprocal(double x) {
  return 1.0 / x;
}
double ref_sigmoid(double x) {
  return 1.0 / (1.0 + std::exp(-x));
}

#define MINIATEN_OP(op, ref, kernel, half, complex)                                               \
  UnaryOp {                                                                                       \
#op, [](const Tensor& t) { return at::op(t); }, [](Tensor& t) -> Tensor& { return t.op##_(); }, \
        [](Tensor& o, const Tensor& t) -> Tensor& { return at::op##_out(o, t); }, ref, kernel, half, \
        complex \
  }

const std::vector<UnaryOp>& float_ops() {
  static const std::vector<UnaryOp> ops = {
      MINIATEN_OP(
          exp, [](double x) { return std::exp(x); }, "exp_vml_cpu", false, true),
      MINIATEN_OP(
          expm1, [](double x) { return std::expm1(x); }, "expm1_vml_cpu", false, false),
      MINIATEN_OP(
          exp2, [](double x) { return std::exp2(x); }, "exp2", true, false),
      MINIATEN_OP(
          log, [](double x) { return std::log(x); }, "log_vml_cpu", false, true),
      MINIATEN_OP(
          log2, [](double x) { return std::log2(x); }, "log2_vml_cpu", false, true),
      MINIATEN_OP(
          log10, [](double x) { return std::log10(x); }, "log10_vml_cpu", false, true),
      MINIATEN_OP(
          log1p, [](double x) { return std::log1p(x); }, "log1p_vml_cpu", false, false),
      MINIATEN_OP(
          sin, [](double x) { return std::sin(x); }, "sin_vml_cpu", false, true),
      MINIATEN_OP(
          cos, [](double x) { return std::cos(x); }, "cos_vml_cpu", false, true),
      MINIATEN_OP(
          tan, [](double x) { return std::tan(x); }, "tan_vml_cpu", false, true),
      MINIATEN_OP(
          asin, [](double x) { return std::asin(x); }, "asin_vml_cpu", false, true),
      MINIATEN_OP(
          acos, [](double x) { return std::acos(x); }, "acos_vml_cpu", false, true),
      MINIATEN_OP(
          atan, [](double x) { return std::atan(x); }, "atan_vml_cpu", false, true),
      MINIATEN_OP(
          sinh, [](double x) { return std::sinh(x); }, "sinh_cpu", false, true),
      MINIATEN_OP(
          cosh, [](double x) { return std::cosh(x); }, "cosh_cpu", false, true),
      MINIATEN_OP(
          tanh, [](double x) { return std::tanh(x); }, "tanh_vml_cpu", false, true),
      MINIATEN_OP(
          erf, [](double x) { return std::erf(x); }, "erf_vml_cpu", false, false),
      MINIATEN_OP(
          erfc, [](double x) { return std::erfc(x); }, "erfc_vml_cpu", false, false),
      MINIATEN_OP(
          sqrt, [](double x) { return std::sqrt(x); }, "sqrt_vml_cpu", false, true),
      MINIATEN_OP(rsqrt, ref_rsqrt, "rsqrt_cpu", false, true),
      MINIATEN_OP(reciprocal, ref_reciprocal, "reciprocal_cpu", true, true),
      MINIATEN_OP(sigmoid, ref_sigmoid, "sigmoid_cpu", false, true),
  };
  return ops;
}

#undef MINIATEN_OP

// Values over every function's interesting range, magnitudes mixed (sin/cos/tan reduce large
// and small arguments differently: Note [SLEEF's trigonometric functions couple their lanes]).
Tensor mixed_values(int64_t n, at::ScalarType dtype) {
  static const double pool[] = {0.3, -0.7, 2.5,  -3.75, 0.0,  -0.0, 1e-3, 87.5,  -87.5, 150.0,
                                1e5, -2e6, 1e20, 0.999, -0.5, 12.0, 40.0, 1e-30, 7.0,   -15.5};
  Tensor d = at::empty({n}, at::kDouble);
  double* p = d.data_ptr<double>();
  for (int64_t i = 0; i < n; ++i) p[i] = pool[(i * 7 + i / 20) % 20];
  return d.to(dtype);
}

// Element i of op(x) must equal op of x's element i computed alone (a one-element tensor: a
// partial vector of one lane), bit for bit.
void expect_position_independent(const UnaryOp& op, const Tensor& x, const std::string& layout) {
  const Tensor y = op.fn(x).contiguous();
  const Tensor xc = x.contiguous();
  ASSERT_EQ(y.sizes(), x.sizes()) << op.name << " " << layout;
  AT_DISPATCH_FLOATING_TYPES_AND(at::kBFloat16, y.scalar_type(), "check", [&] {
    for (int64_t i = 0; i < y.numel(); ++i) {
      const Tensor alone = op.fn(xc.reshape({-1}).narrow(0, i, 1));
      ASSERT_TRUE(same_value(element<scalar_t>(y, i), alone.data_ptr<scalar_t>()[0]))
          << op.name << " " << layout << " element " << i << " of " << y.numel() << ": "
          << static_cast<double>(element<scalar_t>(y, i)) << " vs "
          << static_cast<double>(alone.data_ptr<scalar_t>()[0]);
    }
  });
}

class FloatUnaryOps : public ::testing::TestWithParam<at::ScalarType> {};

TEST_P(FloatUnaryOps, ValueDoesNotDependOnWhereItSits) {
  const at::ScalarType dtype = GetParam();
  for (const UnaryOp& op : float_ops()) {
    // Every tail length of a 16-lane AVX-512 vector and of the 2-vector step.
    for (int64_t n : {1, 2, 7, 8, 15, 16, 17, 31, 33, 63, 65}) {
      expect_position_independent(op, mixed_values(n, dtype), "contiguous " + std::to_string(n));
    }
    const Tensor x = mixed_values(4 * 6 * 5 * 3, dtype);
    expect_position_independent(op, x.view({24, 15}).t(), "transposed");
    expect_position_independent(op, x.view({40, 9}).narrow(1, 1, 5), "sliced");
    expect_position_independent(op, x.slice(0, 0, x.numel(), 3), "strided");
    expect_position_independent(op, x.narrow(0, 0, 13).expand({7, 13}), "expanded");
    expect_position_independent(op, x.view({4, 6, 5, 3}).contiguous(at::MemoryFormat::ChannelsLast),
                                "channels-last");
  }
}

TEST_P(FloatUnaryOps, OutputLayoutFollowsTheInput) {
  const at::ScalarType dtype = GetParam();
  const Tensor x = mixed_values(4 * 6 * 5 * 3, dtype);
  for (const UnaryOp& op : float_ops()) {
    SCOPED_TRACE(op.name);
    const Tensor cl = x.view({4, 6, 5, 3}).contiguous(at::MemoryFormat::ChannelsLast);
    EXPECT_EQ(op.fn(cl).strides(), cl.strides());
    const Tensor t = x.view({24, 15}).t();
    EXPECT_EQ(op.fn(t).strides(), t.strides());
    EXPECT_EQ(op.fn(x.view({40, 9}).narrow(1, 1, 5)).strides(), (c10::IntArrayRef{5, 1}));
    EXPECT_EQ(op.fn(x.narrow(0, 0, 13).expand({7, 13})).strides(), (c10::IntArrayRef{13, 1}));
    const Tensor empty = op.fn(at::empty({0, 3}, dtype));
    EXPECT_EQ(empty.sizes(), (c10::IntArrayRef{0, 3}));
    EXPECT_EQ(op.fn(at::full({}, 0.5, dtype)).dim(), 0);
  }
}

TEST_P(FloatUnaryOps, InPlaceAndOutMatchFunctional) {
  const at::ScalarType dtype = GetParam();
  const Tensor x = mixed_values(101, dtype);
  for (const UnaryOp& op : float_ops()) {
    SCOPED_TRACE(op.name);
    const Tensor expected = op.fn(x);
    Tensor inplace = x.clone();
    EXPECT_TRUE(op.inplace(inplace).is_same(inplace));
    EXPECT_TRUE(same_tensor(inplace, expected));
    Tensor out = at::empty({0}, dtype);
    EXPECT_TRUE(op.out(out, x).is_same(out));
    EXPECT_TRUE(same_tensor(out, expected));
  }
}

INSTANTIATE_TEST_SUITE_P(Floating, FloatUnaryOps,
                         ::testing::Values(at::kFloat, at::kDouble, at::kBFloat16),
                         [](const ::testing::TestParamInfo<at::ScalarType>& info) {
                           return std::string(c10::toString(info.param));
                         });

// Strided operands are gathered into vectors (Note [Vector math runs on partial vectors]).
TEST(FloatUnaryOps, StridedOperandsAreGathered) {
  auto& counters = at::native::detail::loop_counters;
  const Tensor x = mixed_values(200, at::kFloat);
  counters.reset();
  counters.enabled = true;
  at::sin(x);
  const int64_t contiguous = counters.vectorized.load();
  at::sin(x.slice(0, 0, 200, 2));
  const int64_t gathered = counters.gathered.load();
  counters.enabled = false;
  EXPECT_GE(contiguous, 1);
  EXPECT_GE(gathered, 1);
  EXPECT_EQ(counters.basic.load(), 0);
}

// NaN, infinities and signed zeros exactly as std:: gives them (libtorch's agree: checked
// against libtorch 1.13 for float and double, both capabilities).
TEST(FloatUnaryOps, SpecialValuesAsStd) {
  using L = std::numeric_limits<float>;
  const std::vector<float> specials = {0.f, -0.f, L::infinity(),   -L::infinity(), L::quiet_NaN(),
                                       1.f, -1.f, L::denorm_min(), L::max(),       -L::max()};
  for (at::ScalarType dtype : {at::kFloat, at::kDouble}) {
    Tensor x = at::empty({static_cast<int64_t>(specials.size())}, at::kFloat);
    std::copy(specials.begin(), specials.end(), x.data_ptr<float>());
    x = x.to(dtype);
    for (const UnaryOp& op : float_ops()) {
      const Tensor y = op.fn(x).to(at::kDouble);
      for (size_t i = 0; i < specials.size(); ++i) {
        const double want = op.ref(static_cast<double>(specials[i]));
        const double got = y.data_ptr<double>()[i];
        if (!(std::isnan(want) || std::isinf(want) || want == 0)) continue;
        if (dtype == at::kFloat && !std::isinf(want) && want == 0 && specials[i] != 0 &&
            !std::isinf(specials[i]))
          continue;  // a float's underflow: VecMathAccuracy_test's business
        if (dtype == at::kFloat && std::isinf(want) && !std::isinf(specials[i]) && specials[i] != 0)
          continue;  // overflow of a finite argument likewise
        SCOPED_TRACE(std::string(op.name) + "(" + std::to_string(specials[i]) + ") " +
                     c10::toString(dtype));
        EXPECT_EQ(std::isnan(got), std::isnan(want));
        if (!std::isnan(want)) {
          EXPECT_EQ(got, want);
          EXPECT_EQ(std::signbit(got), std::signbit(want));
        }
      }
    }
  }
}

TEST(FloatUnaryOps, DtypesAndErrorsAsLibtorch) {
  for (const UnaryOp& op : float_ops()) {
    SCOPED_TRACE(op.name);
    // Integers and Bool compute in Float.
    EXPECT_EQ(op.fn(at::ones({3}, at::kLong)).scalar_type(), at::kFloat);
    EXPECT_EQ(op.fn(at::ones({3}, at::kBool)).scalar_type(), at::kFloat);
    EXPECT_EQ(op.fn(at::ones({3}, at::kBFloat16)).scalar_type(), at::kBFloat16);
    const std::string not_impl = std::string("\"") + op.kernel + "\" not implemented for ";
    const Tensor h = at::ones({3}, at::kHalf);
    if (op.half) {
      EXPECT_EQ(op.fn(h).scalar_type(), at::kHalf);
    } else {
      EXPECT_EQ(error_of([&] { op.fn(h); }), not_impl + "'Half'");
    }
    const Tensor z = at::ones({3}, at::kComplexFloat);
    if (op.complex) {
      EXPECT_EQ(op.fn(z).scalar_type(), at::kComplexFloat);
    } else {
      EXPECT_EQ(error_of([&] { op.fn(z); }), not_impl + "'ComplexFloat'");
    }
    Tensor i64 = at::ones({3}, at::kLong);
    EXPECT_EQ(error_of([&] { op.inplace(i64); }),
              "result type Float can't be cast to the desired output type Long");
  }
}

// Complex inputs take std::'s complex functions, element by element (to a few ulps: libstdc++'s
// inline complex arithmetic rounds differently under the kernels' -m flags).
TEST(FloatUnaryOps, ComplexValues) {
  const Tensor z = at::view_as_complex(at::tensor({0.5f, -1.25f, 2.f, 0.75f}).view({2, 2}));
  using C = c10::complex<float>;
  const C z0(0.5f, -1.25f);
  auto near = [](C got, C want) {
    return std::abs(got.real() - want.real()) <= 1e-6f * std::abs(want.real()) &&
           std::abs(got.imag() - want.imag()) <= 1e-6f * std::abs(want.imag());
  };
  EXPECT_TRUE(near(at::sin(z).data_ptr<C>()[0], std::sin(z0)));
  EXPECT_TRUE(near(at::tanh(z).data_ptr<C>()[0], std::tanh(z0)));
  EXPECT_TRUE(near(at::sigmoid(z).data_ptr<C>()[0], C(1) / (C(1) + std::exp(-z0))));
}

// ---- floor, ceil, trunc, round, sign -----------------------------------------------------------

TEST(RoundingOps, Values) {
  const Tensor x = at::tensor({0.5f, 1.5f, 2.5f, -0.5f, -2.5f, -1.7f, 1.2f, -0.f, INFINITY, NAN});
  EXPECT_TRUE(same_tensor(at::round(x),
                          at::tensor({0.f, 2.f, 2.f, -0.f, -2.f, -2.f, 1.f, -0.f, INFINITY, NAN})));
  EXPECT_TRUE(same_tensor(at::floor(x),
                          at::tensor({0.f, 1.f, 2.f, -1.f, -3.f, -2.f, 1.f, -0.f, INFINITY, NAN})));
  EXPECT_TRUE(same_tensor(at::ceil(x),
                          at::tensor({1.f, 2.f, 3.f, -0.f, -2.f, -1.f, 2.f, -0.f, INFINITY, NAN})));
  EXPECT_TRUE(same_tensor(at::trunc(x),
                          at::tensor({0.f, 1.f, 2.f, -0.f, -2.f, -1.f, 1.f, -0.f, INFINITY, NAN})));
  // (0 < a) - (a < 0): +0 for ±0 and NaN.
  EXPECT_TRUE(
      same_tensor(at::sign(x), at::tensor({1.f, 1.f, 1.f, -1.f, -1.f, -1.f, 1.f, 0.f, 1.f, 0.f})));
  // Long tails and a transposed layout take the same instructions.
  const Tensor big = mixed_values(1037, at::kDouble).mul_(0.37);
  const Tensor want = big.contiguous();
  for (int64_t i : {0, 1, 517, 1036}) {
    const double v = want.data_ptr<double>()[i];
    EXPECT_EQ(at::round(big).data_ptr<double>()[i], std::nearbyint(v));
    EXPECT_EQ(at::floor(big).data_ptr<double>()[i], std::floor(v));
  }
}

TEST(RoundingOps, IntegersAreCopiedAndBoolAndComplexRefused) {
  const Tensor i = at::arange(5, at::kLong);
  for (auto fn : {&at::floor, &at::ceil, &at::trunc, &at::round}) {
    const Tensor r = fn(i);
    EXPECT_TRUE(same_tensor(r, i));
    EXPECT_FALSE(r.is_alias_of(i));
  }
  Tensor in_place = i.clone();
  EXPECT_TRUE(in_place.floor_().is_same(in_place));
  Tensor out = at::empty({0}, at::kLong);
  EXPECT_TRUE(same_tensor(at::round_out(out, i), i));
  EXPECT_EQ(error_of([&] { at::floor(at::ones({2}, at::kBool)); }),
            "\"floor_vml_cpu\" not implemented for 'Bool'");
  EXPECT_EQ(error_of([&] { at::round(at::ones({2}, at::kBool)); }),
            "\"round_vml_cpu\" not implemented for 'Bool'");
  EXPECT_EQ(error_of([&] { at::floor(at::ones({2}, at::kHalf)); }),
            "\"floor_vml_cpu\" not implemented for 'Half'");
  const Tensor z = at::ones({2}, at::kComplexFloat);
  EXPECT_EQ(error_of([&] { at::floor(z); }), "floor is not supported for complex inputs");
  EXPECT_EQ(error_of([&] { at::ceil(z); }), "ceil is not supported for complex inputs");
  EXPECT_EQ(error_of([&] { at::trunc(z); }), "trunc is not supported for complex inputs");
  EXPECT_EQ(error_of([&] { at::round(z); }),
            "\"round_vml_cpu\" not implemented for 'ComplexFloat'");
  EXPECT_EQ(error_of([&] { at::floor_out(out, at::ones({2})); }),
            "Found dtype Long but expected Float");
}

TEST(RoundingOps, SignOfEveryDtype) {
  EXPECT_TRUE(same_tensor(at::sign(at::tensor({-3, 0, 7})), at::tensor({-1, 0, 1})));
  const Tensor b = at::ones({3}, at::kBool);
  EXPECT_TRUE(same_tensor(at::sign(b), b));
  EXPECT_EQ(at::sign(at::ones({2}, at::kHalf)).scalar_type(), at::kHalf);
  EXPECT_EQ(error_of([&] { at::sign(at::ones({2}, at::kComplexFloat)); }),
            "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use "
            "torch.sgn instead.");
}

}  // namespace

namespace {

// See Note [Operators without derivatives yet] in aten/autograd/VariableTypeNotImplemented.cpp.
TEST(MathAutograd, RefusedWhereADerivativeIsNeededUntilOneExists) {
  Tensor x = at::ones({3});
  x.set_requires_grad(true);
  // clamp with tensor bounds, and a backward operator called where a graph would record it.
  EXPECT_EQ(error_of([&] { at::clamp(x, at::zeros({3})); }),
            "derivative for aten::clamp is not implemented");
  EXPECT_EQ(error_of([&] { at::_softmax_backward_data(x, at::ones({3}), 0, at::kFloat); }),
            "derivative for aten::_softmax_backward_data is not implemented");
  // threshold_backward has one (relu's second derivative).
  EXPECT_EQ(at::threshold_backward(x, at::ones({3}), 0).grad_fn()->name(),
            "ThresholdBackwardBackward0");
  EXPECT_EQ(at::sin(x).grad_fn()->name(), "SinBackward0");
  Tensor out0 = at::empty({3});
  EXPECT_EQ(error_of([&] { at::sin_out(out0, x); }),
            "sin(): functions with out=... arguments don't support automatic differentiation, but "
            "one of the arguments requires grad.");
  {
    at::NoGradGuard no_grad;
    EXPECT_TRUE(same_tensor(at::sin(x), at::sin(at::ones({3}))));
  }
  // Without requires_grad the operators run, and their writes count.
  Tensor y = at::ones({3});
  const auto v = y._version();
  y.sin_();
  EXPECT_EQ(y._version(), v + 1);
  Tensor out = at::empty({3});
  const auto w = out._version();
  at::tanh_out(out, y);
  EXPECT_EQ(out._version(), w + 1);
  y.clamp_(0, 0.5);
  EXPECT_EQ(y._version(), v + 2);
}

}  // namespace
