// CPU kernels of atan2, hypot, fmod, maximum, minimum and clamp, compiled once per CPU
// capability (see Note [Kernels are compiled once per CPU capability] in DispatchStub.h).
//
// atan2 and hypot are SLEEF's (1 ulp and 0.5 ulp) through cpu_vec_kernel, so a value does not
// depend on where it sits (Note [Vector math runs on partial vectors] in Loops.h). fmod (exact
// in SLEEF and std:: alike), maximum, minimum and clamp compute the same bits in the vector and
// the scalar op, so their tails may take the scalar op (cpu_kernel_vec). The dtypes each takes
// and the names in its errors are libtorch 1.13's.

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "aten/Dispatch.h"
#include "aten/OpMathType.h"
#include "aten/native/BinaryOps.h"
#include "aten/native/Clamp.h"
#include "aten/native/cpu/Loops.h"

namespace at {
namespace native {
inline namespace CPU_CAPABILITY {

using vec::Vectorized;

namespace {

void atan2_kernel(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_TYPES_AND(c10::ScalarType::BFloat16, iter.common_dtype(), "atan2_cpu", [&] {
    cpu_vec_kernel(iter, [](Vectorized<scalar_t> a, Vectorized<scalar_t> b) { return a.atan2(b); });
  });
}

void hypot_kernel(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_TYPES_AND(c10::ScalarType::BFloat16, iter.common_dtype(), "hypot_cpu", [&] {
    cpu_vec_kernel(iter, [](Vectorized<scalar_t> a, Vectorized<scalar_t> b) { return a.hypot(b); });
  });
}

// The remainder with the dividend's sign. Integers: a % b, "ZeroDivisionError" on 0, and 0 for
// a divisor of -1 (INT_MIN % -1 traps on x86; see Note [Integer division by -1] in
// aten/native/DivRounding.h).
void fmod_kernel(TensorIteratorBase& iter) {
  const c10::ScalarType dtype = iter.common_dtype();
  if (c10::isIntegralType(dtype, /*includeBool=*/false)) {
    AT_DISPATCH_INTEGRAL_TYPES(dtype, "fmod_cpu", [&] {
      cpu_kernel(iter, [](scalar_t a, scalar_t b) -> scalar_t {
        TORCH_CHECK(b != 0, "ZeroDivisionError");
        if constexpr (std::is_signed<scalar_t>::value) {
          if (b == scalar_t(-1)) return 0;
        }
        return static_cast<scalar_t>(a % b);
      });
    });
    return;
  }
  AT_DISPATCH_FLOATING_TYPES_AND2(
      c10::ScalarType::Half, c10::ScalarType::BFloat16, dtype, "fmod_cpu", [&] {
        using acc_t = at::opmath_type<scalar_t>;
        cpu_kernel_vec(
            iter,
            [](scalar_t a, scalar_t b) -> scalar_t {
              return static_cast<scalar_t>(std::fmod(static_cast<acc_t>(a), static_cast<acc_t>(b)));
            },
            [](Vectorized<scalar_t> a, Vectorized<scalar_t> b) { return a.fmod(b); });
      });
}

// The remainder with the divisor's sign: fmod's, moved by one divisor when the signs differ.
// Integers as fmod's (a divisor of -1 gives 0); a float divisor of 0 gives NaN.
void remainder_kernel(TensorIteratorBase& iter) {
  const c10::ScalarType dtype = iter.common_dtype();
  if (c10::isIntegralType(dtype, /*includeBool=*/false)) {
    AT_DISPATCH_INTEGRAL_TYPES(dtype, "remainder_cpu", [&] {
      cpu_kernel(iter, [](scalar_t a, scalar_t b) -> scalar_t {
        TORCH_CHECK(b != 0, "ZeroDivisionError");
        if constexpr (std::is_signed<scalar_t>::value) {
          if (b == scalar_t(-1)) return 0;
        }
        scalar_t r = static_cast<scalar_t>(a % b);
        if (r != 0 && (r < 0) != (b < 0)) r = static_cast<scalar_t>(r + b);
        return r;
      });
    });
    return;
  }
  AT_DISPATCH_FLOATING_TYPES_AND2(c10::ScalarType::Half, c10::ScalarType::BFloat16, dtype,
                                  "remainder_cpu", [&] {
                                    using acc_t = at::opmath_type<scalar_t>;
                                    cpu_kernel(iter, [](scalar_t a, scalar_t b) -> scalar_t {
                                      const acc_t divisor = static_cast<acc_t>(b);
                                      acc_t mod = std::fmod(static_cast<acc_t>(a), divisor);
                                      if (mod != 0 && (divisor < 0) != (mod < 0)) mod += divisor;
                                      return static_cast<scalar_t>(mod);
                                    });
                                  });
}

// NaN-propagating extremes (a NaN in either operand gives NaN), logical or/and for Bool.
template <bool kMax>
void extremum_kernel(TensorIteratorBase& iter, const char* name) {
  const c10::ScalarType dtype = iter.common_dtype();
  if (dtype == c10::ScalarType::Bool) {
    cpu_kernel(iter, [](bool a, bool b) -> bool { return kMax ? (a || b) : (a && b); });
    return;
  }
  AT_DISPATCH_ALL_TYPES_AND2(c10::ScalarType::Half, c10::ScalarType::BFloat16, dtype, name, [&] {
    cpu_kernel_vec(
        iter,
        [](scalar_t a, scalar_t b) -> scalar_t {
          if constexpr (!std::is_integral<scalar_t>::value) {
            if (a != a) return a;
            if (b != b) return b;
          }
          return kMax ? std::max(a, b) : std::min(a, b);
        },
        [](Vectorized<scalar_t> a, Vectorized<scalar_t> b) {
          return kMax ? maximum(a, b) : minimum(a, b);
        });
  });
}

void maximum_kernel(TensorIteratorBase& iter) {
  extremum_kernel<true>(iter, "maximum_cpu");
}
void minimum_kernel(TensorIteratorBase& iter) {
  extremum_kernel<false>(iter, "minimum_cpu");
}

// (out, self, min, max): NaN anywhere gives NaN, else std::min(std::max(a, min), max).
void clamp_tensor_kernel(TensorIteratorBase& iter) {
  AT_DISPATCH_ALL_TYPES_AND(c10::ScalarType::BFloat16, iter.common_dtype(), "clamp_cpu", [&] {
    cpu_kernel_vec(
        iter,
        [](scalar_t a, scalar_t lo, scalar_t hi) -> scalar_t {
          if constexpr (!std::is_integral<scalar_t>::value) {
            if (a != a) return a;
            if (lo != lo || hi != hi) return std::numeric_limits<scalar_t>::quiet_NaN();
          }
          return std::min(std::max(a, lo), hi);
        },
        [](Vectorized<scalar_t> a, Vectorized<scalar_t> lo, Vectorized<scalar_t> hi) {
          return minimum(maximum(a, lo), hi);
        });
  });
}

// Scalar bounds (never NaN here: Clamp.cpp fills NaN itself): std::max(a, lo) then
// std::min(., hi), so a NaN element stays NaN.
void clamp_scalar_kernel(TensorIteratorBase& iter, const Scalar& min, const Scalar& max) {
  AT_DISPATCH_ALL_TYPES_AND(
      c10::ScalarType::BFloat16, iter.common_dtype(), "clamp_scalar_cpu", [&] {
        const auto lo = min.to<scalar_t>();
        const auto hi = max.to<scalar_t>();
        const Vectorized<scalar_t> vlo(lo), vhi(hi);
        cpu_kernel_vec(
            iter, [lo, hi](scalar_t a) -> scalar_t { return std::min(std::max(a, lo), hi); },
            [vlo, vhi](Vectorized<scalar_t> a) { return clamp(a, vlo, vhi); });
      });
}

void clamp_min_scalar_kernel(TensorIteratorBase& iter, const Scalar& min) {
  AT_DISPATCH_ALL_TYPES_AND(c10::ScalarType::BFloat16, iter.common_dtype(), "clamp_min_cpu", [&] {
    const auto lo = min.to<scalar_t>();
    const Vectorized<scalar_t> vlo(lo);
    cpu_kernel_vec(
        iter, [lo](scalar_t a) -> scalar_t { return std::max(a, lo); },
        [vlo](Vectorized<scalar_t> a) { return clamp_min(a, vlo); });
  });
}

void clamp_max_scalar_kernel(TensorIteratorBase& iter, const Scalar& max) {
  AT_DISPATCH_ALL_TYPES_AND(c10::ScalarType::BFloat16, iter.common_dtype(), "clamp_max_scalar_cpu",
                            [&] {
                              const auto hi = max.to<scalar_t>();
                              const Vectorized<scalar_t> vhi(hi);
                              cpu_kernel_vec(
                                  iter, [hi](scalar_t a) -> scalar_t { return std::min(a, hi); },
                                  [vhi](Vectorized<scalar_t> a) { return clamp_max(a, vhi); });
                            });
}

}  // namespace
}  // namespace CPU_CAPABILITY

REGISTER_DISPATCH(atan2_stub, &atan2_kernel);
REGISTER_DISPATCH(hypot_stub, &hypot_kernel);
REGISTER_DISPATCH(fmod_stub, &fmod_kernel);
REGISTER_DISPATCH(remainder_stub, &remainder_kernel);
REGISTER_DISPATCH(maximum_stub, &maximum_kernel);
REGISTER_DISPATCH(minimum_stub, &minimum_kernel);
REGISTER_DISPATCH(clamp_stub, &clamp_tensor_kernel);
REGISTER_DISPATCH(clamp_scalar_stub, &clamp_scalar_kernel);
REGISTER_DISPATCH(clamp_min_scalar_stub, &clamp_min_scalar_kernel);
REGISTER_DISPATCH(clamp_max_scalar_stub, &clamp_max_scalar_kernel);

}  // namespace native
}  // namespace at
