// The floating-point functions' accuracy, for every CPU capability this machine runs (each
// kernel copy called through its stub slot): 10^6 points over each function's domain plus the
// edges (±0, subnormals, ±inf, NaN, the overflow and underflow thresholds, huge arguments for the
// trigonometric functions), against a long-double std:: reference, within the error bound of
// what computes the lane (Note [Which function computes each lane] in aten/cpu/vec/VecMath.h):
// SLEEF's documented bound for the variant in AVX2/AVX512, glibc's for std:: in DEFAULT. NaN,
// infinities and signed zeros must be exactly the reference's.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "aten/ATen.h"
#include "aten/native/DispatchStub.h"
#include "aten/native/TensorIterator.h"
#include "aten/native/UnaryOps.h"

namespace {

using at::native::CPUCapability;
using Kernel = void (*)(at::TensorIteratorBase&);
using Ref = long double (*)(long double);

struct MathCase {
  const char* name;
  Kernel (*kernel)(CPUCapability);
  Ref ref;
  long double lo, hi;                   // the domain points are drawn from
  double sleef_ulps;                    // SLEEF's bound for the variant used (AVX2, AVX512)
  double glibc_ulps;                    // glibc's for float and double (DEFAULT)
  std::vector<long double> thresholds;  // where the result overflows, underflows, changes regime
  // The bound holds for |x| up to these (float, double): SLEEF documents log1p's and sinh's
  // only so far (log1pf(3e38) is inf, as libtorch's), and sigmoid's formula gives 0 once exp(-x)
  // overflows (as libtorch's does). The special-value tests in UnaryMath_test.cpp cover beyond.
  long double float_limit = INFINITY, double_limit = INFINITY;
};

#define MINIATEN_KERNEL_OF(stub) \
  [](CPUCapability c) -> Kernel { return at::native::stub.cpu_kernel_for(c); }

long double ref_rsqrt(long double x) {
  return 1.0L / sqrtl(x);
}
long double ref_sigmoid(long double x) {
  return 1.0L / (1.0L + expl(-x));
}

// Bounds: SLEEF 3.5's documentation (u10: 1.0 ulp, u15: 1.5); sqrt is exact (0.5); rsqrt is two
// correctly rounded steps, 1 / sqrt(x) (up to 1.5). glibc's are its manual's "Known Maximum
// Errors" for x86_64, the larger of float's and double's, except tanh: the manual lists 2, and
// 2.09 is measured here for both. sigmoid is libtorch's formula 1 / (1 + exp(-x)): exp's ulp
// plus two roundings. SLEEF's erff measures 1.075 ulp for results near FLT_MIN (|x| ~ 4e-38),
// past its documented 1.0; libtorch's (the same SLEEF function) gives the same bits, so the
// bound there is 1.1.
const std::vector<MathCase>& cases() {
  static const std::vector<MathCase> all = {
      {"exp",
       MINIATEN_KERNEL_OF(exp_stub),
       expl,
       -110,
       90,
       1.0,
       1.0,
       {88.72283935546875L, -87.33654L, -103.972L}},
      {"expm1",
       MINIATEN_KERNEL_OF(expm1_stub),
       expm1l,
       -30,
       90,
       1.0,
       1.0,
       {88.72283935546875L, 1e-8L}},
      {"exp2", MINIATEN_KERNEL_OF(exp2_stub), exp2l, -160, 130, 1.0, 1.0, {128, -126, -149}},
      {"log", MINIATEN_KERNEL_OF(log_stub), logl, 0, 1e30L, 1.0, 1.0, {1}},
      {"log2", MINIATEN_KERNEL_OF(log2_stub), log2l, 0, 1e30L, 1.0, 2.0, {1}},
      {"log10", MINIATEN_KERNEL_OF(log10_stub), log10l, 0, 1e30L, 1.0, 2.0, {1}},
      {"log1p",
       MINIATEN_KERNEL_OF(log1p_stub),
       log1pl,
       -1,
       1e30L,
       1.0,
       1.0,
       {-1, 1e-8L},
       1e38L,
       1e307L},
      {"sin",
       MINIATEN_KERNEL_OF(sin_stub),
       sinl,
       -1e4L,
       1e4L,
       1.0,
       1.0,
       {3.14159265358979L, 1e30L}},
      {"cos", MINIATEN_KERNEL_OF(cos_stub), cosl, -1e4L, 1e4L, 1.0, 1.0, {1.5707963267949L, 1e30L}},
      {"tan", MINIATEN_KERNEL_OF(tan_stub), tanl, -1e4L, 1e4L, 1.0, 2.0, {1.5707963267949L, 1e30L}},
      {"asin", MINIATEN_KERNEL_OF(asin_stub), asinl, -1, 1, 1.0, 1.0, {1, 0.5L}},
      {"acos", MINIATEN_KERNEL_OF(acos_stub), acosl, -1, 1, 1.0, 1.0, {1, 0.5L}},
      {"atan", MINIATEN_KERNEL_OF(atan_stub), atanl, -1e6L, 1e6L, 1.0, 1.0, {1, 1e30L}},
      {"sinh",
       MINIATEN_KERNEL_OF(sinh_stub),
       sinhl,
       -90,
       90,
       1.0,
       2.0,
       {89.415986L, 1e-4L},
       88.5L,
       709},
      {"cosh", MINIATEN_KERNEL_OF(cosh_stub), coshl, -90, 90, 1.0, 2.0, {89.415986L}, 88.5L, 709},
      {"tanh", MINIATEN_KERNEL_OF(tanh_stub), tanhl, -20, 20, 1.0, 2.5, {9.0109L, 1e-4L}},
      {"erf", MINIATEN_KERNEL_OF(erf_stub), erfl, -6, 6, 1.1, 1.0, {3.9L, 1e-4L}},
      {"erfc", MINIATEN_KERNEL_OF(erfc_stub), erfcl, -6, 27, 1.5, 5.0, {10.0553L, 26.5L}},
      {"sqrt", MINIATEN_KERNEL_OF(sqrt_stub), sqrtl, 0, 1e30L, 0.5, 0.5, {1}},
      {"rsqrt", MINIATEN_KERNEL_OF(rsqrt_stub), ref_rsqrt, 0, 1e30L, 1.5, 1.5, {1}},
      {"sigmoid",
       MINIATEN_KERNEL_OF(sigmoid_stub),
       ref_sigmoid,
       -110,
       90,
       2.5,
       2.5,
       {-88.7L, 17},
       88.72L,
       709.78L},
  };
  return all;
}

// 10^6 points: a quarter uniform over [lo, hi], half spread over the binades in it (random
// exponent and mantissa), and the rest the edges and 64 neighbours of each threshold.
template <typename T>
std::vector<T> points(const MathCase& c) {
  constexpr int64_t kPoints = 1000000;
  using lim = std::numeric_limits<T>;
  std::vector<T> p = {T(0),
                      -T(0),
                      lim::denorm_min(),
                      -lim::denorm_min(),
                      lim::min(),
                      -lim::min(),
                      lim::max(),
                      -lim::max(),
                      lim::infinity(),
                      -lim::infinity(),
                      lim::quiet_NaN(),
                      T(1),
                      T(-1),
                      T(0.5),
                      T(-0.5),
                      T(2),
                      T(-2)};
  for (long double t : c.thresholds) {
    for (T base : {static_cast<T>(t), static_cast<T>(-t)}) {
      T up = base, down = base;
      for (int k = 0; k < 64; ++k) {
        p.push_back(up = std::nextafter(up, lim::infinity()));
        p.push_back(down = std::nextafter(down, -lim::infinity()));
      }
    }
  }
  std::mt19937_64 rng(20261127);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const long double lo = c.lo, hi = c.hi;
  const int64_t n_uniform = kPoints / 4;
  for (int64_t k = 0; k < n_uniform; ++k) p.push_back(static_cast<T>(lo + (hi - lo) * unit(rng)));
  const long double mag = std::max(fabsl(lo), fabsl(hi));
  const int max_exp = static_cast<int>(std::ceil(std::log2(static_cast<double>(mag))));
  const int min_exp = lim::min_exponent - lim::digits;  // down to the subnormals
  while (static_cast<int64_t>(p.size()) < kPoints) {
    const int e = min_exp + static_cast<int>(unit(rng) * (max_exp - min_exp));
    const long double sign = (lo < 0 && unit(rng) < 0.5) ? -1 : 1;
    const long double x = sign * ldexpl(1.0L + unit(rng), e);
    if (x >= lo && x <= hi) p.push_back(static_cast<T>(x));
  }
  return p;
}

// |got - ref| in units of the last place of T at ref (subnormal spacing below the normals).
// Past the largest finite value the spacing stays the largest binade's and infinity counts as
// the next value after the largest (2^128 for float): a reference that rounds to infinity is
// then 0 ulps from it, and the largest finite value 1 ulp.
template <typename T>
long double ulp_error(T got, long double ref) {
  using lim = std::numeric_limits<T>;
  const int e = std::min(std::max(ilogbl(ref), lim::min_exponent - 1), lim::max_exponent - 1);
  const long double ulp = ldexpl(1.0L, e - (lim::digits - 1));
  const long double overflow = ldexpl(1.0L, lim::max_exponent);
  long double g = got;
  if (std::isinf(got)) g = std::copysign(overflow, got);
  if (fabsl(ref) > overflow) ref = std::copysign(overflow, ref);
  return fabsl(g - ref) / ulp;
}

template <typename T>
void check_case(const MathCase& c, CPUCapability capability) {
  Kernel kernel = c.kernel(capability);
  ASSERT_NE(kernel, nullptr) << c.name;
  const std::vector<T> in = points<T>(c);
  const auto n = static_cast<int64_t>(in.size());
  at::Tensor x = at::empty({n}, at::CppTypeToScalarType<T>::value);
  std::copy(in.begin(), in.end(), x.data_ptr<T>());
  at::Tensor y = at::empty_like(x);
  auto iter = at::TensorIterator::unary_float_op(y, x);
  kernel(iter);

  // The long-double reference is itself good to 2^-11 of a double's ulp: that much slack.
  const double bound =
      (capability == CPUCapability::DEFAULT ? c.glibc_ulps : c.sleef_ulps) + 1.0 / 1024;
  const long double limit = sizeof(T) == 4 ? c.float_limit : c.double_limit;
  const T* out = y.data_ptr<T>();
  long double worst = 0;
  T worst_x = 0;
  int64_t failures = 0;
  for (int64_t k = 0; k < n; ++k) {
    if (fabsl(in[k]) > limit) continue;
    const long double ref = c.ref(in[k]);
    const T got = out[k];
    bool ok;
    if (std::isnan(ref) || std::isnan(got)) {
      ok = std::isnan(ref) && std::isnan(got);
    } else if (std::isinf(ref) || ref == 0) {
      // Exact: infinities and zeros keep their sign (an overflow may round to the largest value
      // or an underflow to the smallest subnormal only where the reference is finite).
      ok = got == ref && std::signbit(got) == std::signbit(ref);
    } else {
      const long double err = ulp_error(got, ref);
      if (err > worst) {
        worst = err;
        worst_x = in[k];
      }
      ok = err <= bound;
    }
    if (!ok && failures++ < 5) {
      ADD_FAILURE() << c.name << "(" << in[k] << ") = " << got << ", reference "
                    << static_cast<double>(ref) << " (" << cpu_capability_name(capability) << ")";
    }
  }
  EXPECT_EQ(failures, 0) << c.name << " " << cpu_capability_name(capability);
  // The measured worst error, for the closing notes' table.
  ::testing::Test::RecordProperty(std::string(c.name) + "_" + cpu_capability_name(capability) +
                                      "_" + (sizeof(T) == 4 ? "float" : "double"),
                                  std::to_string(static_cast<double>(worst)));
  std::cerr << "[ulps] " << c.name << " " << cpu_capability_name(capability) << " "
            << (sizeof(T) == 4 ? "float" : "double") << " worst " << static_cast<double>(worst)
            << " at " << worst_x << " (bound " << bound << ")\n";
}

std::vector<CPUCapability> capabilities_here() {
  std::vector<CPUCapability> all;
  const int best = static_cast<int>(at::native::detail::detect_cpu_capability());
  for (int c = 0; c <= best; ++c) all.push_back(static_cast<CPUCapability>(c));
  return all;
}

class VecMathAccuracy : public ::testing::TestWithParam<int> {};

TEST_P(VecMathAccuracy, FloatWithinBound) {
  const MathCase& c = cases()[GetParam()];
  for (CPUCapability cap : capabilities_here()) check_case<float>(c, cap);
}

TEST_P(VecMathAccuracy, DoubleWithinBound) {
  const MathCase& c = cases()[GetParam()];
  for (CPUCapability cap : capabilities_here()) check_case<double>(c, cap);
}

INSTANTIATE_TEST_SUITE_P(Functions, VecMathAccuracy,
                         ::testing::Range(0, static_cast<int>(cases().size())),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return std::string(cases()[info.param].name);
                         });

}  // namespace
