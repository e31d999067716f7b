// CPU kernels of the unary elementwise operators: neg, abs, conj_physical, bitwise_not, the
// floating-point functions (exp, log, sin, tanh, sigmoid, rsqrt, ...; complex included where
// libtorch takes it), rounding and sign. Compiled once per CPU capability (see Note [Kernels are
// compiled once per CPU capability] in aten/native/DispatchStub.h).
//
// Half and BFloat16 compute in float and round once, in the scalar op and in Vectorized alike
// (see Note [Half and BFloat16 compute in float] in BinaryOpsKernel.cpp).

#include <cmath>
#include <type_traits>

#include "aten/Dispatch.h"
#include "aten/OpMathType.h"
#include "aten/native/UnaryOps.h"
#include "aten/native/cpu/InFloat.h"
#include "aten/native/cpu/Loops.h"

namespace at {
namespace native {
inline namespace CPU_CAPABILITY {

using vec::Vectorized;

namespace {

template <typename T>
using compute_t = at::opmath_type<T>;

// -a with two's-complement wrap-around for every integer (neg of INT64_MIN is INT64_MIN, and
// of uint8 5 is 251), without signed overflow.
template <typename T>
T negate(T a) {
  if constexpr (std::is_integral<T>::value) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(U(0) - static_cast<U>(a)));
  } else {
    return static_cast<T>(-static_cast<compute_t<T>>(a));
  }
}

template <typename T>
T absolute(T a) {
  if constexpr (std::is_unsigned<T>::value) {
    return a;
  } else if constexpr (std::is_integral<T>::value) {
    return a < 0 ? negate(a) : a;
  } else {
    return static_cast<T>(std::abs(static_cast<compute_t<T>>(a)));
  }
}

// See Note [Complex kernels run the scalar loop] in BinaryOpsKernel.cpp.
void neg_kernel(TensorIteratorBase& iter) {
  if (c10::isComplexType(iter.dtype())) {
    AT_DISPATCH_COMPLEX_TYPES(iter.dtype(), "neg_cpu",
                              [&] { cpu_kernel(iter, [](scalar_t a) -> scalar_t { return -a; }); });
    return;
  }
  AT_DISPATCH_ALL_TYPES_AND2(c10::ScalarType::Half, c10::ScalarType::BFloat16, iter.dtype(),
                             "neg_cpu", [&] {
                               cpu_kernel_vec(
                                   iter, [](scalar_t a) -> scalar_t { return negate(a); },
                                   [](Vectorized<scalar_t> a) { return a.neg(); });
                             });
}

// A complex input has a real output (see abs_out in UnaryOps.cpp): |z| as std::abs computes it.
void abs_kernel(TensorIteratorBase& iter) {
  if (c10::isComplexType(iter.input_dtype())) {
    AT_DISPATCH_COMPLEX_TYPES(iter.input_dtype(), "abs_cpu", [&] {
      using real_t = typename scalar_t::value_type;
      if (iter.dtype() == iter.input_dtype()) {
        // abs_out into a complex tensor: (|z|, 0), as libtorch's complex-to-complex kernel.
        cpu_kernel(iter, [](scalar_t a) -> scalar_t { return scalar_t(std::abs(a)); });
        return;
      }
      TORCH_INTERNAL_ASSERT(iter.dtype() == c10::CppTypeToScalarType<real_t>::value);
      cpu_kernel(iter, [](scalar_t a) -> real_t { return std::abs(a); });
    });
    return;
  }
  AT_DISPATCH_ALL_TYPES_AND2(c10::ScalarType::Half, c10::ScalarType::BFloat16, iter.dtype(),
                             "abs_cpu", [&] {
                               cpu_kernel_vec(
                                   iter, [](scalar_t a) -> scalar_t { return absolute(a); },
                                   [](Vectorized<scalar_t> a) { return a.abs(); });
                             });
}

void conj_physical_kernel(TensorIteratorBase& iter) {
  AT_DISPATCH_COMPLEX_TYPES(iter.dtype(), "conj_cpu", [&] {
    cpu_kernel(iter, [](scalar_t a) -> scalar_t { return std::conj(a); });
  });
}

// ~a: logical not for Bool, the bits flipped for the integral types (xor with all ones).
void bitwise_not_kernel(TensorIteratorBase& iter) {
  if (iter.dtype() == c10::ScalarType::Bool) {
    cpu_kernel(iter, [](bool a) -> bool { return !a; });
    return;
  }
  AT_DISPATCH_INTEGRAL_TYPES(iter.dtype(), "bitwise_not_cpu", [&] {
    cpu_kernel_vec(
        iter, [](scalar_t a) -> scalar_t { return static_cast<scalar_t>(~a); },
        [](Vectorized<scalar_t> a) { return a ^ Vectorized<scalar_t>(static_cast<scalar_t>(-1)); });
  });
}

// ---- The floating-point functions ------------------------------------------------------------
// Each runs every element through its Vectorized function (SLEEF in AVX2/AVX512, see Note [Which
// function computes each lane] in aten/cpu/vec/VecMath.h) with cpu_vec_kernel, so a value does
// not depend on where it sits (Note [Vector math runs on partial vectors] in Loops.h). Complex
// inputs, where libtorch takes them, go element by element through c10::complex's std::
// functions. Which dtypes each takes, and the name in "not implemented for" errors, are
// libtorch 1.13's: Float, Double, BFloat16 (and Half for exp2 and reciprocal).

enum Takes { kRealOnly = 0, kHalfToo = 1, kComplexToo = 2 };

template <int takes, typename VecFn, typename ComplexFn>
void float_math(TensorIteratorBase& iter, const char* name, VecFn vfn, ComplexFn cfn) {
  const c10::ScalarType dtype = iter.dtype();
  if constexpr ((takes & kComplexToo) != 0) {
    if (c10::isComplexType(dtype)) {
      AT_DISPATCH_COMPLEX_TYPES(
          dtype, name, [&] { cpu_kernel(iter, [&](scalar_t z) -> scalar_t { return cfn(z); }); });
      return;
    }
  }
  auto body = [&](auto tag) {
    using scalar_t = decltype(tag);
    cpu_vec_kernel(iter, [&](Vectorized<scalar_t> a) { return vfn(a); });
  };
  if constexpr ((takes & kHalfToo) != 0) {
    AT_DISPATCH_FLOATING_TYPES_AND2(c10::ScalarType::Half, c10::ScalarType::BFloat16, dtype, name,
                                    [&] { body(scalar_t{}); });
  } else {
    AT_DISPATCH_FLOATING_TYPES_AND(c10::ScalarType::BFloat16, dtype, name,
                                   [&] { body(scalar_t{}); });
  }
}

// For the functions libtorch has no complex kernel of (its error comes from the dispatch).
constexpr auto kNoComplex = [](auto z) { return z; };

#define MINIATEN_FLOAT_MATH_KERNEL(op, name, takes, complex_fn) \
  void op##_kernel(TensorIteratorBase& iter) {                  \
    float_math<takes>(                                          \
        iter, name, [](auto a) { return a.op(); }, complex_fn); \
  }
#define MINIATEN_STD_COMPLEX(op) [](auto z) { return std::op(z); }

MINIATEN_FLOAT_MATH_KERNEL(exp, "exp_vml_cpu", kComplexToo, MINIATEN_STD_COMPLEX(exp))
MINIATEN_FLOAT_MATH_KERNEL(log, "log_vml_cpu", kComplexToo, MINIATEN_STD_COMPLEX(log))
MINIATEN_FLOAT_MATH_KERNEL(log2, "log2_vml_cpu", kComplexToo, MINIATEN_STD_COMPLEX(log2))
MINIATEN_FLOAT_MATH_KERNEL(log10, "log10_vml_cpu", kComplexToo, MINIATEN_STD_COMPLEX(log10))
MINIATEN_FLOAT_MATH_KERNEL(sin, "sin_vml_cpu", kComplexToo, MINIATEN_STD_COMPLEX(sin))
MINIATEN_FLOAT_MATH_KERNEL(cos, "cos_vml_cpu", kComplexToo, MINIATEN_STD_COMPLEX(cos))
MINIATEN_FLOAT_MATH_KERNEL(tan, "tan_vml_cpu", kComplexToo, MINIATEN_STD_COMPLEX(tan))
MINIATEN_FLOAT_MATH_KERNEL(asin, "asin_vml_cpu", kComplexToo, MINIATEN_STD_COMPLEX(asin))
MINIATEN_FLOAT_MATH_KERNEL(acos, "acos_vml_cpu", kComplexToo, MINIATEN_STD_COMPLEX(acos))
MINIATEN_FLOAT_MATH_KERNEL(atan, "atan_vml_cpu", kComplexToo, MINIATEN_STD_COMPLEX(atan))
MINIATEN_FLOAT_MATH_KERNEL(sinh, "sinh_cpu", kComplexToo, MINIATEN_STD_COMPLEX(sinh))
MINIATEN_FLOAT_MATH_KERNEL(cosh, "cosh_cpu", kComplexToo, MINIATEN_STD_COMPLEX(cosh))
MINIATEN_FLOAT_MATH_KERNEL(tanh, "tanh_vml_cpu", kComplexToo, MINIATEN_STD_COMPLEX(tanh))
MINIATEN_FLOAT_MATH_KERNEL(expm1, "expm1_vml_cpu", kRealOnly, kNoComplex)
MINIATEN_FLOAT_MATH_KERNEL(exp2, "exp2", kHalfToo, kNoComplex)
MINIATEN_FLOAT_MATH_KERNEL(log1p, "log1p_vml_cpu", kRealOnly, kNoComplex)
MINIATEN_FLOAT_MATH_KERNEL(erf, "erf_vml_cpu", kRealOnly, kNoComplex)
MINIATEN_FLOAT_MATH_KERNEL(erfc, "erfc_vml_cpu", kRealOnly, kNoComplex)
// sqrt is one exact instruction; complex sqrt goes through std::sqrt.
MINIATEN_FLOAT_MATH_KERNEL(sqrt, "sqrt_vml_cpu", kComplexToo, MINIATEN_STD_COMPLEX(sqrt))
// 1 / sqrt(x), rounded once for BFloat16 (Vectorized::rsqrt computes in float).
MINIATEN_FLOAT_MATH_KERNEL(rsqrt, "rsqrt_cpu", kComplexToo,
                           [](auto z) { return decltype(z)(1) / std::sqrt(z); })
MINIATEN_FLOAT_MATH_KERNEL(reciprocal, "reciprocal_cpu", kHalfToo | kComplexToo,
                           [](auto z) { return decltype(z)(1) / z; })

#undef MINIATEN_FLOAT_MATH_KERNEL
#undef MINIATEN_STD_COMPLEX

// 1 / (1 + exp(-x)), libtorch's vectorized formula, in float for BFloat16.
void sigmoid_kernel(TensorIteratorBase& iter) {
  float_math<kComplexToo>(
      iter, "sigmoid_cpu",
      [](auto a) {
        return in_float(a, [](auto x) {
          using V = decltype(x);
          return (V(1) + x.neg().exp()).reciprocal();
        });
      },
      [](auto z) {
        using C = decltype(z);
        return C(1) / (C(1) + std::exp(-z));
      });
}

// ---- Rounding: exact, so the scalar op may run the tails (cpu_kernel_vec) ------------------
// Integer tensors never get here (the operator copies them); Bool raises, as in libtorch.
#define MINIATEN_ROUNDING_KERNEL(op, name, std_fn)                                      \
  void op##_kernel(TensorIteratorBase& iter) {                                          \
    AT_DISPATCH_FLOATING_TYPES_AND(c10::ScalarType::BFloat16, iter.dtype(), name, [&] { \
      cpu_kernel_vec(                                                                   \
          iter,                                                                         \
          [](scalar_t a) -> scalar_t {                                                  \
            return static_cast<scalar_t>(std_fn(static_cast<compute_t<scalar_t>>(a)));  \
          },                                                                            \
          [](Vectorized<scalar_t> a) { return a.op(); });                               \
    });                                                                                 \
  }

MINIATEN_ROUNDING_KERNEL(floor, "floor_vml_cpu", std::floor)
MINIATEN_ROUNDING_KERNEL(ceil, "ceil_vml_cpu", std::ceil)
MINIATEN_ROUNDING_KERNEL(trunc, "trunc_vml_cpu", std::trunc)
MINIATEN_ROUNDING_KERNEL(round, "round_vml_cpu", std::nearbyint)  // halfway cases to even

#undef MINIATEN_ROUNDING_KERNEL

// (0 < a) - (a < 0): 0 for ±0 and NaN, as libtorch 1.13. A Bool tensor is its own sign.
void sign_kernel(TensorIteratorBase& iter) {
  if (iter.dtype() == c10::ScalarType::Bool) {
    cpu_kernel(iter, [](bool a) -> bool { return a; });
    return;
  }
  AT_DISPATCH_ALL_TYPES_AND2(
      c10::ScalarType::Half, c10::ScalarType::BFloat16, iter.dtype(), "sign_cpu", [&] {
        using Vec = Vectorized<scalar_t>;
        cpu_kernel_vec(
            iter,
            [](scalar_t a) -> scalar_t {
              return static_cast<scalar_t>((scalar_t(0) < a) - (a < scalar_t(0)));
            },
            [](Vec a) {
              const Vec zero(scalar_t(0));
              return Vec::blendv(zero, Vec(scalar_t(1)), zero < a) -
                     Vec::blendv(zero, Vec(scalar_t(1)), a < zero);
            });
      });
}

}  // namespace
}  // namespace CPU_CAPABILITY

REGISTER_DISPATCH(neg_stub, &neg_kernel);
REGISTER_DISPATCH(abs_stub, &abs_kernel);
REGISTER_DISPATCH(exp_stub, &exp_kernel);
REGISTER_DISPATCH(expm1_stub, &expm1_kernel);
REGISTER_DISPATCH(exp2_stub, &exp2_kernel);
REGISTER_DISPATCH(log_stub, &log_kernel);
REGISTER_DISPATCH(log2_stub, &log2_kernel);
REGISTER_DISPATCH(log10_stub, &log10_kernel);
REGISTER_DISPATCH(log1p_stub, &log1p_kernel);
REGISTER_DISPATCH(sin_stub, &sin_kernel);
REGISTER_DISPATCH(cos_stub, &cos_kernel);
REGISTER_DISPATCH(tan_stub, &tan_kernel);
REGISTER_DISPATCH(asin_stub, &asin_kernel);
REGISTER_DISPATCH(acos_stub, &acos_kernel);
REGISTER_DISPATCH(atan_stub, &atan_kernel);
REGISTER_DISPATCH(sinh_stub, &sinh_kernel);
REGISTER_DISPATCH(cosh_stub, &cosh_kernel);
REGISTER_DISPATCH(tanh_stub, &tanh_kernel);
REGISTER_DISPATCH(erf_stub, &erf_kernel);
REGISTER_DISPATCH(erfc_stub, &erfc_kernel);
REGISTER_DISPATCH(sqrt_stub, &sqrt_kernel);
REGISTER_DISPATCH(rsqrt_stub, &rsqrt_kernel);
REGISTER_DISPATCH(reciprocal_stub, &reciprocal_kernel);
REGISTER_DISPATCH(sigmoid_stub, &sigmoid_kernel);
REGISTER_DISPATCH(floor_stub, &floor_kernel);
REGISTER_DISPATCH(ceil_stub, &ceil_kernel);
REGISTER_DISPATCH(trunc_stub, &trunc_kernel);
REGISTER_DISPATCH(round_stub, &round_kernel);
REGISTER_DISPATCH(sign_stub, &sign_kernel);
REGISTER_DISPATCH(bitwise_not_stub, &bitwise_not_kernel);
REGISTER_DISPATCH(conj_physical_stub, &conj_physical_kernel);

}  // namespace native
}  // namespace at
