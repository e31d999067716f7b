// Operators on complex tensors: arithmetic with type promotion against real tensors and Scalars,
// alpha, in-place and out=, eq/ne, the unary functions, sum/mean/cumsum, isclose/allclose/equal,
// and the exact errors of the operators libtorch refuses for complex dtypes. Every expected value
// and message was read off libtorch 1.13 programs doing the same.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "ElementwiseTestUtils.h"
#include "aten/ATen.h"
#include "aten/native/DispatchStub.h"
#include "aten/native/TypePromotion.h"

namespace {

using at::Tensor;
using elementwise_test::CapturedWarnings;
using test_util::error_of;
using cd = c10::complex<double>;
using cf = c10::complex<float>;

std::vector<cd> values_of(const Tensor& t) {
  const Tensor c = t.contiguous();
  std::vector<cd> out;
  AT_DISPATCH_COMPLEX_TYPES(c.scalar_type(), "values_of", [&] {
    const scalar_t* p = c.data_ptr<scalar_t>();
    for (int64_t i = 0; i < c.numel(); ++i) out.emplace_back(p[i].real(), p[i].imag());
  });
  return out;
}

std::vector<double> real_values_of(const Tensor& t) {
  const Tensor c = t.contiguous().to(at::kDouble);
  const double* p = c.data_ptr<double>();
  return std::vector<double>(p, p + c.numel());
}

// The operands of the libtorch programs.
struct Operands {
  Tensor a = at::tensor({cf(1, 2), cf(-0.5f, 3), cf(0, -1)});
  Tensor b = at::tensor({cf(2, -1), cf(1, 1), cf(4, 0)});
  Tensor f = at::tensor({1.5f, -2.f, 3.f});
  Tensor d = at::tensor({1.5, -2., 3.});
  Tensor l = at::tensor({int64_t(1), int64_t(2), int64_t(3)});
};

// ---- Arithmetic -------------------------------------------------------------------------------

TEST(ComplexArithmetic, TensorTensor) {
  Operands o;
  EXPECT_EQ(values_of(o.a + o.b), (std::vector<cd>{{3, 1}, {0.5, 4}, {4, -1}}));
  EXPECT_EQ(values_of(o.a - o.b), (std::vector<cd>{{-1, 3}, {-1.5, 2}, {-4, -1}}));
  EXPECT_EQ(values_of(o.a * o.b), (std::vector<cd>{{4, 3}, {-3.5, 2.5}, {0, -4}}));
  EXPECT_EQ(values_of(o.a / o.b), (std::vector<cd>{{0, 1}, {1.25, 1.75}, {0, -0.25}}));
  EXPECT_EQ((o.a + o.b).scalar_type(), at::kComplexFloat);
  // libtorch's textbook quotient: 1 / 0.1f is 9.99999905 there, not 10.
  const Tensor q =
      at::tensor({cf(1, 0), cf(0.3f, 0.7f)}) / at::tensor({cf(0.1f, 0), cf(1.1f, -0.2f)});
  EXPECT_EQ(q.data_ptr<cf>()[0], cf(9.99999905f, 0));
  EXPECT_EQ(q.data_ptr<cf>()[1], cf(0.15200001f, 0.663999975f));
  // Strided operands take the TensorIterator path.
  const Tensor m = at::tensor({cf(1, 2), cf(3, 4), cf(5, 6), cf(7, 8)}).view({2, 2});
  EXPECT_EQ(values_of(m.t() * m), (std::vector<cd>{{-3, 4}, {-9, 38}, {-9, 38}, {-15, 112}}));
}

TEST(ComplexArithmetic, Alpha) {
  Operands o;
  EXPECT_EQ(values_of(at::add(o.a, o.b, 2)), (std::vector<cd>{{5, 0}, {1.5, 5}, {8, -1}}));
  EXPECT_EQ(values_of(at::add(o.a, o.b, cd(0, 1))), (std::vector<cd>{{2, 4}, {-1.5, 4}, {0, 3}}));
  EXPECT_EQ(values_of(at::sub(o.a, o.b, cd(1, 1))),
            (std::vector<cd>{{-2, 1}, {-0.5, 1}, {-4, -5}}));
  EXPECT_EQ(error_of([&] { at::add(o.f, o.f, cd(0, 1)); }),
            "For non-complex input tensors, argument alpha must not be a complex number.");
  EXPECT_EQ(error_of([&] { at::add(o.l, o.l, cd(1, 1)); }),
            "For integral input tensors, argument alpha must not be a floating point number.");
}

// Note [A complex product is rounded as written]: each of the four products is rounded before
// the sum, at every position of a dense loop (its vector body and its tail), a strided one and
// with a Scalar operand. (1 + 2^-k)^2 rounds to 1 + 2^(1-k), which the second product is exactly,
// so the textbook real part is 0, where fusing the first product into the difference gives
// 2^-2k. libtorch 1.13 gives 0 in its vector body and 2^-2k in its scalar tail (GCC contracts
// the tail under -mfma); its default capability gives 0 everywhere, as here.
template <typename T>
void check_products_rounded_as_written(int k) {
  using C = c10::complex<T>;
  const T e = std::ldexp(T(1), -k);
  const C x(1 + e, 1), y(1 + e, 1 + 2 * e);
  const auto dtype = c10::CppTypeToScalarType<C>::value;
  const Tensor a = at::full({67}, x, at::TensorOptions().dtype(dtype));
  const Tensor b = at::full({67}, y, at::TensorOptions().dtype(dtype));
  const Tensor zero = at::zeros({67}, at::TensorOptions().dtype(dtype));
  const Tensor wide = at::full({67, 2}, x, at::TensorOptions().dtype(dtype));
  const std::vector<std::pair<const char*, Tensor>> results = {
      {"dense", a * b},
      {"strided", wide.select(1, 0) * b},
      {"scalar", a * at::scalar_tensor(y, at::TensorOptions().dtype(dtype))},
      {"alpha", at::add(zero, a, y)},
  };
  for (const auto& r : results) {
    const std::vector<double> real = real_values_of(at::real(r.second));
    ASSERT_EQ(real.size(), 67u);
    for (size_t i = 0; i < real.size(); ++i) {
      ASSERT_EQ(real[i], 0.0) << c10::toString(dtype) << " " << r.first << " element " << i;
    }
  }
}

TEST(ComplexArithmetic, ProductsAreRoundedAsWritten) {
  check_products_rounded_as_written<double>(30);
  check_products_rounded_as_written<float>(13);
}

TEST(ComplexArithmetic, PromotionWithRealTensors) {
  Operands o;
  const Tensor af = o.a + o.f;
  EXPECT_EQ(af.scalar_type(), at::kComplexFloat);
  EXPECT_EQ(values_of(af), (std::vector<cd>{{2.5, 2}, {-2.5, 3}, {3, -1}}));
  EXPECT_EQ(values_of(o.f * o.a), (std::vector<cd>{{1.5, 3}, {1, -6}, {0, -3}}));
  EXPECT_EQ(values_of(o.a + o.l), (std::vector<cd>{{2, 2}, {1.5, 3}, {3, -1}}));
  const Tensor da = o.d + o.a;  // Double + ComplexFloat is ComplexDouble
  EXPECT_EQ(da.scalar_type(), at::kComplexDouble);
  EXPECT_EQ(values_of(da), (std::vector<cd>{{2.5, 2}, {-2.5, 3}, {3, -1}}));
  EXPECT_EQ((at::ones({2}, at::kHalf) + at::ones({2}, at::kComplexFloat)).scalar_type(),
            at::kComplexFloat);
  EXPECT_EQ(values_of(o.a * at::ones({3}, at::kBool)), values_of(o.a));
}

TEST(ComplexArithmetic, PromotionWithZeroDimTensors) {
  Operands o;
  // A zero-dim complex lifts a floating dimensioned tensor to its own precision's complex type,
  // an integral one to the zero-dim's type.
  const Tensor zd = at::scalar_tensor(cd(1, 2), at::kComplexDouble);
  EXPECT_EQ((zd + at::ones({2}, at::kFloat)).scalar_type(), at::kComplexFloat);
  EXPECT_EQ((zd + at::ones({2}, at::kDouble)).scalar_type(), at::kComplexDouble);
  EXPECT_EQ((zd + at::ones({2}, at::kLong)).scalar_type(), at::kComplexDouble);
  EXPECT_EQ((zd + at::scalar_tensor(1.0, at::kFloat)).scalar_type(), at::kComplexDouble);
  EXPECT_EQ((o.d + at::scalar_tensor(cf(1, 1), at::kComplexFloat)).scalar_type(),
            at::kComplexDouble);
  EXPECT_EQ((at::tensor({cf(1, 2)}) + at::scalar_tensor(2.5, at::kDouble)).scalar_type(),
            at::kComplexFloat);
}

TEST(ComplexArithmetic, Scalars) {
  Operands o;
  EXPECT_EQ(values_of(o.a + 2), (std::vector<cd>{{3, 2}, {1.5, 3}, {2, -1}}));
  EXPECT_EQ(values_of(o.a * 2.5), (std::vector<cd>{{2.5, 5}, {-1.25, 7.5}, {0, -2.5}}));
  const Tensor ac = o.a + cd(1, 1);  // a wrapped complex counts as ComplexFloat
  EXPECT_EQ(ac.scalar_type(), at::kComplexFloat);
  EXPECT_EQ(values_of(ac), (std::vector<cd>{{2, 3}, {0.5, 4}, {1, 0}}));
  EXPECT_EQ((o.f + cd(1, 1)).scalar_type(), at::kComplexFloat);
  EXPECT_EQ(values_of(o.f + cd(1, 1)), (std::vector<cd>{{2.5, 1}, {-1, 1}, {4, 1}}));
  EXPECT_EQ((o.d + cd(1, 1)).scalar_type(), at::kComplexDouble);
  const Tensor lc = o.l + cd(1, 1);
  EXPECT_EQ(lc.scalar_type(), at::kComplexFloat);
  EXPECT_EQ(values_of(lc), (std::vector<cd>{{2, 1}, {3, 1}, {4, 1}}));
  EXPECT_EQ(values_of(o.l * cd(0, 1)), (std::vector<cd>{{0, 1}, {0, 2}, {0, 3}}));
  EXPECT_EQ(values_of(o.l / cd(0, 1)), (std::vector<cd>{{0, -1}, {0, -2}, {0, -3}}));
  EXPECT_EQ(at::result_type(o.l, cd(1, 2)), at::kComplexFloat);
  EXPECT_EQ((at::ones({2}, at::kBFloat16) + cd(1, 1)).scalar_type(), at::kComplexFloat);
  // libtorch gives ComplexHalf here; miniaten has no ComplexHalf (see Note [Why ComplexHalf is a
  // gap] in c10/core/ScalarType.h) and says so.
  EXPECT_EQ(error_of([] { at::ones({2}, at::kHalf) + cd(1, 1); }),
            "Unknown Complex ScalarType for Half");
}

TEST(ComplexArithmetic, InPlaceAndOut) {
  Operands o;
  Tensor x = o.a.clone();
  x.add_(o.b);
  EXPECT_EQ(values_of(x), (std::vector<cd>{{3, 1}, {0.5, 4}, {4, -1}}));
  x.mul_(2);
  EXPECT_EQ(values_of(x), (std::vector<cd>{{6, 2}, {1, 8}, {8, -2}}));
  x.div_(cd(0, 1));
  EXPECT_EQ(values_of(x), (std::vector<cd>{{2, -6}, {8, -1}, {-2, -8}}));
  Tensor y = o.a.clone();
  y.add_(o.f);
  EXPECT_EQ(values_of(y), (std::vector<cd>{{2.5, 2}, {-2.5, 3}, {3, -1}}));

  const char* kCast = "result type ComplexFloat can't be cast to the desired output type Float";
  EXPECT_EQ(error_of([&] { o.f.clone().add_(o.a); }), kCast);
  EXPECT_EQ(error_of([&] { o.f.clone().mul_(cd(1, 1)); }), kCast);
  Tensor out = at::empty({3}, at::kComplexDouble);
  at::add_out(out, o.a, o.b);
  EXPECT_EQ(out.scalar_type(), at::kComplexDouble);
  EXPECT_EQ(values_of(out), (std::vector<cd>{{3, 1}, {0.5, 4}, {4, -1}}));
  EXPECT_EQ(error_of([&] {
              Tensor fo = at::empty({3});
              at::add_out(fo, o.a, o.b);
            }),
            kCast);
}

// ---- Comparisons ------------------------------------------------------------------------------

TEST(ComplexCompare, EqAndNe) {
  Operands o;
  EXPECT_EQ(real_values_of(o.a == o.b), (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(real_values_of(o.a == o.a.clone()), (std::vector<double>{1, 1, 1}));
  EXPECT_EQ((o.a == o.b).scalar_type(), at::kBool);
  EXPECT_EQ(real_values_of(o.a != o.b), (std::vector<double>{1, 1, 1}));
  EXPECT_EQ(real_values_of(o.a == cd(1, 2)), (std::vector<double>{1, 0, 0}));
  EXPECT_EQ(real_values_of(o.a == o.f), (std::vector<double>{0, 0, 0}));
  Tensor out = at::empty({3}, at::kComplexFloat);
  at::eq_out(out, o.a, o.a);
  EXPECT_EQ(values_of(out), (std::vector<cd>(3, cd(1, 0))));
}

TEST(ComplexCompare, OrderingsAreNotImplemented) {
  Operands o;
  EXPECT_EQ(error_of([&] { (void)(o.a < o.b); }), "\"lt_cpu\" not implemented for 'ComplexFloat'");
  EXPECT_EQ(error_of([&] { (void)(o.a <= o.b); }), "\"le_cpu\" not implemented for 'ComplexFloat'");
  EXPECT_EQ(error_of([&] { (void)(o.a > o.b); }), "\"gt_cpu\" not implemented for 'ComplexFloat'");
  EXPECT_EQ(error_of([&] { at::ge(o.a, 1); }), "\"ge_cpu\" not implemented for 'ComplexFloat'");
  EXPECT_EQ(error_of([&] { (void)(o.f < o.a); }), "\"lt_cpu\" not implemented for 'ComplexFloat'");
}

TEST(ComplexCompare, EqualIscloseAllclose) {
  Operands o;
  EXPECT_TRUE(at::equal(o.a, o.a.clone()));
  EXPECT_FALSE(at::equal(o.a, o.b));
  EXPECT_FALSE(at::equal(o.a, o.f));
  EXPECT_TRUE(at::equal(o.a, o.a.to(at::kComplexDouble)));
  EXPECT_EQ(real_values_of(at::isclose(o.a, o.b)), (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(real_values_of(at::isclose(o.a, o.a + cf(1e-6f, 1e-6f))),
            (std::vector<double>{1, 1, 1}));
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Tensor n = at::tensor({cf(nan, 0), cf(1, nan), cf(1, 1)});
  EXPECT_EQ(real_values_of(at::isclose(n, n)), (std::vector<double>{0, 0, 1}));
  EXPECT_EQ(real_values_of(at::isclose(n, n, 1e-5, 1e-8, /*equal_nan=*/true)),
            (std::vector<double>{1, 1, 1}));
  EXPECT_TRUE(at::allclose(o.a, o.a + cf(1e-9f, 0)));
  EXPECT_FALSE(at::allclose(o.a, o.b));
  EXPECT_EQ(error_of([&] { at::isclose(o.a, o.a.to(at::kComplexDouble)); }),
            "ComplexFloat did not match ComplexDouble");
}

// ---- Unary functions --------------------------------------------------------------------------

TEST(ComplexUnary, Neg) {
  Operands o;
  EXPECT_EQ(values_of(-o.a), (std::vector<cd>{{-1, -2}, {0.5, -3}, {-0., 1}}));
  EXPECT_TRUE(std::signbit((-o.a).data_ptr<cf>()[2].real()));
  EXPECT_EQ(values_of(o.a.clone().neg_()), values_of(-o.a));
}

TEST(ComplexUnary, AbsIsReal) {
  Operands o;
  const Tensor r = at::abs(o.a);
  EXPECT_EQ(r.scalar_type(), at::kFloat);
  EXPECT_EQ(r.sizes().vec(), (std::vector<int64_t>{3}));
  EXPECT_EQ(r.data_ptr<float>()[0], 2.23606801f);
  EXPECT_EQ(r.data_ptr<float>()[1], 3.04138136f);
  EXPECT_EQ(r.data_ptr<float>()[2], 1.f);
  EXPECT_EQ(at::abs(o.a.to(at::kComplexDouble)).scalar_type(), at::kDouble);
  EXPECT_EQ(at::abs(o.a.t()).scalar_type(), at::kFloat);  // 1-d t() is the tensor itself
  // out= of a wider real type, or of a complex type (|z| with a zero imaginary part).
  Tensor wide = at::empty({0}, at::kDouble);
  at::abs_out(wide, o.a);
  EXPECT_EQ(real_values_of(wide), (std::vector<double>{2.23606801f, 3.04138136f, 1}));
  Tensor c = at::empty({3}, at::kComplexFloat);
  at::abs_out(c, o.a);
  EXPECT_EQ(values_of(c)[0], cd(2.23606801f, 0));
  EXPECT_EQ(error_of([&] {
              Tensor l = at::empty({3}, at::kLong);
              at::abs_out(l, o.a);
            }),
            "result type Float can't be cast to the desired output type Long");
  EXPECT_EQ(error_of([&] { o.a.clone().abs_(); }),
            "In-place abs is not supported for complex tensors.");
}

// Each part within `ulps` float ulps of libtorch's value.
void expect_near_float(const std::vector<cd>& actual, const std::vector<cd>& expected, int ulps) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    const double tol_re =
        ulps * std::abs(expected[i].real()) * std::numeric_limits<float>::epsilon();
    const double tol_im =
        ulps * std::abs(expected[i].imag()) * std::numeric_limits<float>::epsilon();
    EXPECT_NEAR(actual[i].real(), expected[i].real(), tol_re) << i;
    EXPECT_NEAR(actual[i].imag(), expected[i].imag(), tol_im) << i;
  }
}

TEST(ComplexUnary, ExpLogSqrt) {
  // std:: functions of std::complex. libtorch's float kernels run SLEEF's vectorized exp/sin/cos
  // (1-ulp accurate), so float parts may differ from it in the last bit or two (exp(-1i) is
  // (0.540302336, -0.841471016) there, (0.540302277, -0.841470957) through glibc); double ones
  // agree exactly here.
  Operands o;
  expect_near_float(
      values_of(at::exp(o.a)),
      {{-1.13120437f, 2.47172666f}, {-0.600460827f, 0.085593611f}, {0.540302336f, -0.841471016f}},
      2);
  expect_near_float(values_of(at::log(o.a)),
                    {{0.804718971f, 1.10714877f}, {1.11231184f, 1.73594499f}, {0, -1.57079637f}},
                    2);
  expect_near_float(
      values_of(at::sqrt(o.a)),
      {{1.27201962f, 0.786151409f}, {1.12724912f, 1.33067298f}, {0.707106769f, -0.707106769f}}, 2);
  const Tensor ad = o.a.to(at::kComplexDouble);
  EXPECT_EQ(values_of(at::exp(ad))[0], cd(-1.1312043837568135, 2.4717266720048188));
  EXPECT_EQ(values_of(at::log(ad))[1], cd(1.1123117757621668, 1.7359450042095235));
  EXPECT_EQ(values_of(at::sqrt(ad))[2], cd(0.70710678118654757, -0.70710678118654757));
  EXPECT_EQ(values_of(at::sqrt(at::tensor({cf(-1, 0)}))), (std::vector<cd>{{0, 1}}));
  EXPECT_EQ(values_of(o.a.clone().exp_()), values_of(at::exp(o.a)));
  EXPECT_EQ(error_of([&] {
              Tensor f = at::ones({3});
              at::exp_out(f, o.a);
            }),
            "result type ComplexFloat can't be cast to the desired output type Float");
}

// ---- Reductions -------------------------------------------------------------------------------

TEST(ComplexReductions, SumAndMean) {
  Operands o;
  EXPECT_EQ(values_of(o.a.sum()), (std::vector<cd>{{0.5, 4}}));
  EXPECT_EQ(o.a.sum().dim(), 0);
  EXPECT_EQ(values_of(o.a.mean()), (std::vector<cd>{{0.166666672f, 1.33333337f}}));
  EXPECT_EQ(values_of(o.a.sum(at::kComplexDouble)), (std::vector<cd>{{0.5, 4}}));
  EXPECT_EQ(values_of(o.f.sum(at::kComplexFloat)), (std::vector<cd>{{2.5, 0}}));
  EXPECT_EQ(values_of(at::ones({2, 3}, at::kComplexFloat).sum(0)), (std::vector<cd>(3, cd(2, 0))));

  const Tensor m = at::tensor({cf(0.1f, 0.2f), cf(0.3f, 0.7f), cf(1.1f, -0.3f), cf(2.5f, 1.25f),
                               cf(-0.7f, 0.1f), cf(0.9f, 0.9f)})
                       .view({2, 3});
  EXPECT_EQ(values_of(m.sum(0)),
            (std::vector<cd>{
                {2.5999999f, 1.45000005f}, {-0.399999976f, 0.800000012f}, {2, 0.599999964f}}));
  EXPECT_EQ(values_of(m.sum(1)), (std::vector<cd>{{1.5, 0.599999964f}, {2.69999981f, 2.25}}));
  EXPECT_EQ(values_of(m.mean()), (std::vector<cd>{{0.699999988f, 0.475000024f}}));
  EXPECT_EQ(values_of(m.mean(1)), (std::vector<cd>{{0.5, 0.199999988f}, {0.899999917f, 0.75}}));

  const Tensor big = at::arange(0, 40, at::kFloat).to(at::kComplexFloat) * cf(0.1f, 0.3f);
  EXPECT_EQ(values_of(big.sum()), (std::vector<cd>{{78, 234}}));
  EXPECT_EQ(values_of(big.mean()), (std::vector<cd>{{1.95000005f, 5.8499999f}}));
  // A mean in a complex dtype of an integral tensor, as libtorch allows.
  EXPECT_EQ(values_of(at::ones({2}, at::kLong).mean(at::kComplexDouble)),
            (std::vector<cd>{{1, 0}}));
}

TEST(ComplexReductions, LongSumsMatchLibtorchAtTheSameCapability) {
  // See Note [Complex sums use complex lanes]. libtorch 1.13 run with ATEN_CPU_CAPABILITY=avx2
  // and =avx512 (its vector width decides how the cascade groups the elements).
  const auto cap = at::native::get_cpu_capability();
  if (cap == at::native::CPUCapability::DEFAULT) GTEST_SKIP() << "no libtorch values recorded";
  const bool avx2 = cap == at::native::CPUCapability::AVX2;
  at::manual_seed(0);
  const Tensor a = at::randn({1000}, at::kComplexFloat);
  const Tensor m = at::randn({37, 300}, at::kComplexFloat);
  EXPECT_EQ(a.sum().item<cf>(),
            avx2 ? cf(-5.97697163f, 27.3512402f) : cf(-5.97697163f, 27.3512383f));
  EXPECT_EQ(m.sum(1)[0].item<cf>(),
            avx2 ? cf(2.99762392f, -16.5737743f) : cf(2.99762583f, -16.5737724f));
  EXPECT_EQ(m.sum(0)[0].item<cf>(), cf(-6.25536299f, 9.56821823f));
}

TEST(ComplexReductions, SumToARealDtypeKeepsTheRealPart) {
  Operands o;
  const Tensor s = o.a.sum(at::kFloat);
  EXPECT_EQ(s.scalar_type(), at::kFloat);
  EXPECT_EQ(s.item<float>(), 0.5f);
  EXPECT_EQ(o.a.mean(at::kFloat).item<float>(), 0.5f / 3);
}

TEST(ComplexReductions, Cumsum) {
  const Tensor m = at::tensor({cf(0.1f, 0.2f), cf(0.3f, 0.7f), cf(1.1f, -0.3f), cf(2.5f, 1.25f),
                               cf(-0.7f, 0.1f), cf(0.9f, 0.9f)})
                       .view({2, 3});
  EXPECT_EQ(values_of(m.cumsum(1)), (std::vector<cd>{{0.100000001f, 0.200000003f},
                                                     {0.400000006f, 0.899999976f},
                                                     {1.5, 0.599999964f},
                                                     {2.5, 1.25},
                                                     {1.79999995f, 1.35000002f},
                                                     {2.70000005f, 2.25}}));
}

// ---- where ------------------------------------------------------------------------------------

TEST(ComplexWhere, PicksAndPromotes) {
  Operands o;
  const Tensor cond = at::ones({3}, at::kBool);
  cond[1].fill_(false);
  EXPECT_EQ(values_of(at::where(cond, o.a, o.b)), (std::vector<cd>{{1, 2}, {1, 1}, {0, -1}}));
  const Tensor mixed = at::where(cond, o.a, o.f);
  EXPECT_EQ(mixed.scalar_type(), at::kComplexFloat);
  EXPECT_EQ(values_of(mixed), (std::vector<cd>{{1, 2}, {-2, 0}, {0, -1}}));
}

// ---- What libtorch refuses --------------------------------------------------------------------

TEST(ComplexRefused, RoundingBitwiseAndFactories) {
  Operands o;
  EXPECT_EQ(error_of([&] { at::div(o.a, o.b, "floor"); }),
            "\"div_floor_cpu\" not implemented for 'ComplexFloat'");
  EXPECT_EQ(error_of([&] { at::div(o.a, o.b, "trunc"); }),
            "\"div_trunc_cpu\" not implemented for 'ComplexFloat'");
  EXPECT_EQ(error_of([&] { at::bitwise_and(o.a, o.b); }),
            "\"bitwise_and_cpu\" not implemented for 'ComplexFloat'");
  EXPECT_EQ(error_of([&] { o.a& o.b; }), "\"bitwise_and_cpu\" not implemented for 'ComplexFloat'");
  EXPECT_EQ(error_of([&] { at::bitwise_not(o.a); }),
            "\"bitwise_not_cpu\" not implemented for 'ComplexFloat'");
  const Tensor x = at::ones({2, 3, 2}, at::kComplexFloat);
  EXPECT_EQ(error_of([&] { at::batch_norm(x, {}, {}, {}, {}, true, 0.1, 1e-5, false); }),
            "\"batch_norm\" not implemented for 'ComplexFloat'");
  EXPECT_EQ(error_of([&] {
              at::batch_norm(x, {}, {}, at::zeros({3}, at::kComplexFloat),
                             at::ones({3}, at::kComplexFloat), false, 0.1, 1e-5, false);
            }),
            "\"batch_norm\" not implemented for 'ComplexFloat'");
  EXPECT_EQ(
      error_of([] {
        at::batch_norm(at::ones({2, 3, 2}, at::kLong), {}, {}, {}, {}, true, 0.1, 1e-5, false);
      }),
      "\"batch_norm\" not implemented for 'Long'");
  EXPECT_EQ(error_of([&] { at::mean(o.l); }),
            "mean(): could not infer output dtype. Input dtype must be either a floating point or "
            "complex dtype. Got: Long");
}

}  // namespace
