// pow's CPU kernels, compiled once per CPU capability. See Note [pow's shortcuts] in
// aten/native/Pow.cpp for which exponents the operator handles before these run.
//
// Floating bases go through Vectorized::pow (SLEEF's 1-ulp pow) with cpu_vec_kernel, so a
// value does not depend on where it sits (Note [Vector math runs on partial vectors] in
// Loops.h); the exact shortcuts (x*x, x*x*x, 1/(x*x), and sqrt/rsqrt/reciprocal for 0.5, -0.5
// and -1) are libtorch 1.13's, with the same roundings. Half computes pow in float and rounds
// once, as libtorch (its Half pow has no shortcuts). Integers raise by squaring, wrapping as the
// other integer arithmetic does (Note [Integer tensor arithmetic wraps] in aten/CMakeLists.txt).

#include <cmath>
#include <type_traits>

#include "aten/Dispatch.h"
#include "aten/native/IntegerPow.h"
#include "aten/native/Pow.h"
#include "aten/native/UnaryOps.h"
#include "aten/native/cpu/Loops.h"

namespace at {
namespace native {
inline namespace CPU_CAPABILITY {

using vec::Vectorized;

namespace {

void pow_tensor_tensor_kernel(TensorIteratorBase& iter) {
  const c10::ScalarType dtype = iter.common_dtype();
  if (c10::isComplexType(dtype)) {
    AT_DISPATCH_COMPLEX_TYPES(dtype, "pow", [&] {
      cpu_kernel(iter, [](scalar_t base, scalar_t exp) -> scalar_t { return std::pow(base, exp); });
    });
  } else if (c10::isFloatingType(dtype)) {
    AT_DISPATCH_FLOATING_TYPES_AND2(
        c10::ScalarType::Half, c10::ScalarType::BFloat16, dtype, "pow", [&] {
          cpu_vec_kernel(iter, [](Vectorized<scalar_t> base, Vectorized<scalar_t> exp) {
            return base.pow(exp);
          });
        });
  } else {
    AT_DISPATCH_INTEGRAL_TYPES(dtype, "pow", [&] {
      cpu_kernel(iter,
                 [](scalar_t base, scalar_t exp) -> scalar_t { return integer_pow(base, exp); });
    });
  }
}

template <typename scalar_t>
void pow_floating_scalar(TensorIteratorBase& iter, double exp) {
  using Vec = Vectorized<scalar_t>;
  if (exp == 2.0) {
    cpu_kernel_vec(
        iter, [](scalar_t x) -> scalar_t { return x * x; }, [](Vec x) { return x * x; });
  } else if (exp == 3.0) {
    cpu_kernel_vec(
        iter, [](scalar_t x) -> scalar_t { return x * x * x; }, [](Vec x) { return x * x * x; });
  } else if (exp == -2.0) {
    cpu_kernel_vec(
        iter, [](scalar_t x) -> scalar_t { return scalar_t(1) / (x * x); },
        [](Vec x) { return (x * x).reciprocal(); });
  } else {
    // The exponent in the base's type, as libtorch (a float tensor's pow(x, 0.1f)).
    const Vec e(static_cast<scalar_t>(exp));
    cpu_vec_kernel(iter, [e](Vec x) { return x.pow(e); });
  }
}

void pow_tensor_scalar_kernel(TensorIteratorBase& iter, const Scalar& exp_scalar) {
  const c10::ScalarType dtype = iter.common_dtype();
  // Half has no shortcuts in libtorch 1.13.
  if (dtype != c10::ScalarType::Half && (c10::isFloatingType(dtype) || c10::isComplexType(dtype))) {
    if (exp_scalar.equal(0.5)) return sqrt_stub(iter.device_type(), iter);
    if (exp_scalar.equal(-0.5)) return rsqrt_stub(iter.device_type(), iter);
    if (exp_scalar.equal(-1.0)) return reciprocal_stub(iter.device_type(), iter);
  }
  if (c10::isComplexType(dtype)) {
    AT_DISPATCH_COMPLEX_TYPES(dtype, "pow", [&] {
      const auto exp = exp_scalar.to<scalar_t>();
      cpu_kernel(iter, [exp](scalar_t base) -> scalar_t { return std::pow(base, exp); });
    });
  } else if (dtype == c10::ScalarType::Half) {
    using scalar_t = c10::Half;
    const float exp = static_cast<float>(exp_scalar.to<scalar_t>());
    const Vectorized<scalar_t> e{scalar_t(exp)};
    cpu_vec_kernel(iter, [e](Vectorized<scalar_t> x) { return x.pow(e); });
  } else if (c10::isFloatingType(dtype)) {
    // BFloat16 compares its exponent rounded to BFloat16 (2.001 takes x*x), as libtorch.
    AT_DISPATCH_FLOATING_TYPES_AND(c10::ScalarType::BFloat16, dtype, "pow", [&] {
      pow_floating_scalar<scalar_t>(iter, dtype == c10::ScalarType::BFloat16
                                              ? static_cast<double>(exp_scalar.to<scalar_t>())
                                              : exp_scalar.to<double>());
    });
  } else {
    AT_DISPATCH_INTEGRAL_TYPES(dtype, "pow", [&] {
      const auto exp = exp_scalar.to<scalar_t>();
      cpu_kernel(iter, [exp](scalar_t base) -> scalar_t { return integer_pow(base, exp); });
    });
  }
}

}  // namespace
}  // namespace CPU_CAPABILITY

REGISTER_DISPATCH(pow_tensor_tensor_stub, &pow_tensor_tensor_kernel);
REGISTER_DISPATCH(pow_tensor_scalar_stub, &pow_tensor_scalar_kernel);

}  // namespace native
}  // namespace at
