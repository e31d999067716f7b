// neg, abs, exp, log, sqrt: values against a naive loop for every dtype they take (contiguous,
// transposed and expanded inputs), in-place and out= forms, integer-to-float promotion, the
// dtypes libtorch 1.13 refuses, output layouts against libtorch's strides, and parallel ==
// serial.

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "ElementwiseTestUtils.h"
#include "aten/Parallel.h"

namespace {

using namespace elementwise_test;
using at::Tensor;

template <typename T>
constexpr bool is_reduced_float() {
  return std::is_same<T, c10::Half>::value || std::is_same<T, c10::BFloat16>::value;
}
template <typename T>
using acc_t = std::conditional_t<is_reduced_float<T>(), float, T>;

// exp/log/sqrt's result type: integers and bool compute in Float.
template <typename T>
using float_t = std::conditional_t<std::is_integral<T>::value, float, T>;

template <typename T>
T ref_neg(T a) {
  if constexpr (std::is_integral<T>::value) {
    // Two's-complement wrap-around, as int arithmetic narrowed back to T.
    return static_cast<T>(-static_cast<int64_t>(a));
  } else {
    return static_cast<T>(-static_cast<acc_t<T>>(a));
  }
}

template <typename T>
T ref_abs(T a) {
  if constexpr (std::is_unsigned<T>::value) {
    return a;
  } else if constexpr (std::is_integral<T>::value) {
    return static_cast<T>(std::abs(static_cast<int64_t>(a)));
  } else {
    return static_cast<T>(std::abs(static_cast<acc_t<T>>(a)));
  }
}

// f applied in the result type's compute precision.
template <typename T, typename F>
float_t<T> ref_float(T a, F f) {
  using R = float_t<T>;
  return static_cast<R>(f(static_cast<acc_t<R>>(static_cast<R>(a))));
}

template <typename T, typename Out, typename Ref>
void check(const Tensor& result, const Tensor& x, Ref ref, const char* what) {
  ASSERT_EQ(result.scalar_type(), c10::CppTypeToScalarType<Out>::value) << what;
  ASSERT_EQ(result.sizes().vec(), x.sizes().vec()) << what;
  const Tensor xc = x.contiguous();
  expect_values<Out>(
      result, [&](int64_t i) { return ref(element<T>(xc, i)); }, what);
}

// a and b at most one representable value apart (NaNs match): exp and log come from SLEEF in
// the AVX2 and AVX-512 kernels, within 1 ulp of std:: (Note [Which function computes each lane]
// in aten/cpu/vec/VecMath.h); VecMathAccuracy_test measures them against a long-double one.
template <typename T>
bool within_one_ulp(T a, T b) {
  if (same_value(a, b)) return true;
  if (std::isnan(static_cast<double>(a)) || std::isnan(static_cast<double>(b))) return false;
  using Bits =
      typename std::conditional_t<sizeof(T) == 8, std::common_type<int64_t>,
                                  std::conditional_t<sizeof(T) == 4, std::common_type<int32_t>,
                                                     std::common_type<int16_t>>>::type;
  auto ordered = [](T v) {
    Bits bits;
    std::memcpy(&bits, &v, sizeof(T));
    // Sign-magnitude to two's complement order: -0 and +0 both map to 0.
    return bits < 0 ? static_cast<int64_t>(std::numeric_limits<Bits>::min()) - bits
                    : static_cast<int64_t>(bits);
  };
  const int64_t d = ordered(a) - ordered(b);
  return d >= -1 && d <= 1;
}

template <typename T, typename Out, typename Ref>
void check_within_ulp(const Tensor& result, const Tensor& x, Ref ref, const char* what) {
  ASSERT_EQ(result.scalar_type(), c10::CppTypeToScalarType<Out>::value) << what;
  ASSERT_EQ(result.sizes().vec(), x.sizes().vec()) << what;
  const Tensor xc = x.contiguous();
  const Tensor r = result.contiguous();
  for (int64_t i = 0; i < r.numel(); ++i) {
    const Out want = ref(element<T>(xc, i));
    ASSERT_TRUE(within_one_ulp(element<Out>(r, i), want))
        << what << " element " << i << ": got " << static_cast<double>(element<Out>(r, i))
        << ", expected " << static_cast<double>(want);
  }
}

template <typename T>
void check_all_ops(const Tensor& x, const char* form) {
  SCOPED_TRACE(form);
  using R = float_t<T>;
  if constexpr (!std::is_same<T, bool>::value) {
    check<T, T>(
        at::neg(x), x, [](T a) { return ref_neg(a); }, "neg");
    check<T, T>(
        at::abs(x), x, [](T a) { return ref_abs(a); }, "abs");
  }
  if constexpr (!std::is_same<T, c10::Half>::value) {
    check_within_ulp<T, R>(
        at::exp(x), x, [](T a) { return ref_float(a, [](auto v) { return std::exp(v); }); }, "exp");
    check_within_ulp<T, R>(
        at::log(x), x, [](T a) { return ref_float(a, [](auto v) { return std::log(v); }); }, "log");
    check<T, R>(
        at::sqrt(x), x, [](T a) { return ref_float(a, [](auto v) { return std::sqrt(v); }); },
        "sqrt");
  }
}

class UnaryOpsDtypes : public ::testing::TestWithParam<at::ScalarType> {};

TEST_P(UnaryOpsDtypes, MatchNaiveLoop) {
  AT_DISPATCH_ALL_MINIATEN_TYPES(GetParam(), "test", [&] {
    const Tensor x = make_values(GetParam(), kNumel, 1);
    check_all_ops<scalar_t>(x, "contiguous");
    check_all_ops<scalar_t>(x.view({17, 61}).t(), "transposed");
    check_all_ops<scalar_t>(x.narrow(0, 0, 61).expand({17, 61}), "expanded");
    check_all_ops<scalar_t>(x.select(0, 7), "zero-dim");
  });
}

TEST_P(UnaryOpsDtypes, InPlaceAndOutMatchFunctional) {
  const at::ScalarType dtype = GetParam();
  const Tensor x = make_values(dtype, kNumel, 1);
  if (dtype != at::kBool) {
    Tensor inplace = x.clone();
    const Tensor& r = inplace.neg_();
    EXPECT_TRUE(r.is_same(inplace));
    EXPECT_TRUE(same_tensor(inplace, at::neg(x)));
    inplace = x.clone();
    at::abs_(inplace);
    EXPECT_TRUE(same_tensor(inplace, at::abs(x)));
    Tensor out = at::empty({0}, dtype);
    Tensor& o = at::neg_out(out, x);
    EXPECT_TRUE(o.is_same(out));
    EXPECT_TRUE(same_tensor(out, at::neg(x)));
  }
  if (c10::isFloatingType(dtype) && dtype != at::kHalf) {
    Tensor inplace = x.clone(), out = at::empty({0}, dtype);
    inplace.exp_();
    EXPECT_TRUE(same_tensor(inplace, at::exp_out(out, x)));
    inplace = x.clone();
    inplace.log_();
    EXPECT_TRUE(same_tensor(inplace, at::log_out(out, x)));
    inplace = x.clone();
    inplace.sqrt_();
    EXPECT_TRUE(same_tensor(inplace, at::sqrt_out(out, x)));
  }
}

INSTANTIATE_TEST_SUITE_P(AllTypes, UnaryOpsDtypes, ::testing::ValuesIn(kAllTypes),
                         [](const auto& info) { return std::string(c10::toString(info.param)); });

// ---- Dtypes, promotion and errors ------------------------------------------------------------

TEST(UnaryOps, FloatOpsPromoteIntegers) {
  for (at::ScalarType t : {at::kByte, at::kChar, at::kShort, at::kInt, at::kLong, at::kBool}) {
    EXPECT_EQ(at::exp(at::ones({2}, t)).scalar_type(), at::kFloat);
    EXPECT_EQ(at::sqrt(at::ones({2}, t)).scalar_type(), at::kFloat);
  }
  EXPECT_EQ(at::log(at::ones({2}, at::kDouble)).scalar_type(), at::kDouble);
  EXPECT_EQ(at::exp(at::ones({2}, at::kBFloat16)).scalar_type(), at::kBFloat16);
  EXPECT_TRUE(same_tensor(at::sqrt(at::full({2}, 9, at::kLong)), at::full({2}, 3.0, at::kFloat)));
  // out= may be wider than the input's float type.
  Tensor out_d = at::empty({2, 3}, at::kDouble);
  at::exp_out(out_d, at::zeros({2, 3}));
  EXPECT_TRUE(same_tensor(out_d, at::ones({2, 3}, at::kDouble)));
  Tensor out_f = at::empty({2, 3});
  at::exp_out(out_f, at::zeros({2, 3}, at::kLong));
  EXPECT_TRUE(same_tensor(out_f, at::ones({2, 3})));
}

TEST(UnaryOps, Errors) {
  EXPECT_EQ(error_of([] { at::neg(at::ones({2}, at::kBool)); }),
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
            "invert a mask, use the `~` or `logical_not()` operator instead.");
  Tensor b = at::ones({2}, at::kBool);
  EXPECT_EQ(error_of([&] { b.neg_(); }),
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
            "invert a mask, use the `~` or `logical_not()` operator instead.");
  EXPECT_EQ(error_of([&] { at::abs(b); }), "\"abs_cpu\" not implemented for 'Bool'");
  // libtorch 1.13's CPU exp/log/sqrt have no Half kernels.
  const Tensor h = at::ones({2}, at::kHalf);
  EXPECT_EQ(error_of([&] { at::exp(h); }), "\"exp_vml_cpu\" not implemented for 'Half'");
  EXPECT_EQ(error_of([&] { at::log(h); }), "\"log_vml_cpu\" not implemented for 'Half'");
  EXPECT_EQ(error_of([&] { at::sqrt(h); }), "\"sqrt_vml_cpu\" not implemented for 'Half'");
  Tensor i64 = at::ones({2, 3}, at::kLong);
  EXPECT_EQ(error_of([&] { i64.exp_(); }),
            "result type Float can't be cast to the desired output type Long");
  Tensor out_i = at::empty({2, 3}, at::kInt);
  EXPECT_EQ(error_of([&] {
              at::exp_out(out_i, at::ones({2, 3}));
            }),
            "result type Float can't be cast to the desired output type Int");
  // neg and abs keep the dtype: out= must have it.
  Tensor out_f = at::empty({2, 3});
  EXPECT_EQ(error_of([&] { at::neg_out(out_f, i64); }), "Found dtype Float but expected Long");
  EXPECT_EQ(error_of([&] { at::abs_out(out_f, i64); }), "Found dtype Float but expected Long");
  Tensor a = at::arange(10, at::kFloat);
  Tensor head = a.narrow(0, 0, 5);
  EXPECT_EQ(error_of([&] { at::neg_out(head, a.narrow(0, 1, 5)); }),
            "unsupported operation: some elements of the input tensor and the written-to tensor "
            "refer to a single memory location. Please clone() the tensor before performing the "
            "operation.");
}

TEST(UnaryOps, WrapAroundAndSpecialValues) {
  EXPECT_TRUE(same_tensor(at::neg(at::full({2}, 5, at::kByte)), at::full({2}, 251, at::kByte)));
  const Tensor min8 = at::full({2}, -128, at::kChar);
  EXPECT_TRUE(same_tensor(at::abs(min8), min8));  // -(-128) wraps, as in libtorch
  const Tensor special = at::tensor({-0.f, -1.f, 0.f, INFINITY, -INFINITY, NAN});
  EXPECT_TRUE(same_tensor(at::abs(special), at::tensor({0.f, 1.f, 0.f, INFINITY, INFINITY, NAN})));
  EXPECT_TRUE(same_tensor(at::sqrt(special), at::tensor({-0.f, NAN, 0.f, INFINITY, NAN, NAN})));
  EXPECT_TRUE(same_tensor(at::log(special), at::tensor({-INFINITY, NAN, -INFINITY, INFINITY, NAN, NAN})));
  EXPECT_TRUE(same_tensor(at::exp(special), at::tensor({1.f, std::exp(-1.f), 1.f, INFINITY, 0.f, NAN})));
}

// ---- Layouts ---------------------------------------------------------------------------------

class UnaryOpsLayouts : public ::testing::TestWithParam<LayoutCase> {};

TEST_P(UnaryOpsLayouts, OutputStridesMatchLibtorch) {
  const LayoutCase& c = GetParam();
  const Tensor a = c.a();
  for (const Tensor& r : {at::neg(a), at::abs(a), at::exp(a), at::sqrt(a)}) {
    EXPECT_EQ(r.strides().vec(), c.unary);
  }
  // The integer input is converted to Float first; the layout is still a's.
  EXPECT_EQ(at::exp(a.to(at::kInt)).strides().vec(), c.unary);
  check<float, float>(
      at::neg(a), a, [](float v) { return -v; }, "neg");
}

INSTANTIATE_TEST_SUITE_P(Libtorch, UnaryOpsLayouts, ::testing::ValuesIn(layout_cases()),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(UnaryOps, ParallelMatchesSerial) {
  const Tensor x = make_values(at::kFloat, 256 * 301, 1).view({301, 256}).t();
  const int threads = at::get_num_threads();
  at::set_num_threads(1);
  const Tensor serial_exp = at::exp(x), serial_neg = at::neg(x);
  at::set_num_threads(2);
  const Tensor parallel_exp = at::exp(x), parallel_neg = at::neg(x);
  at::set_num_threads(threads);
  EXPECT_TRUE(same_tensor(serial_exp, parallel_exp));
  EXPECT_TRUE(same_tensor(serial_neg, parallel_neg));
}

}  // namespace
