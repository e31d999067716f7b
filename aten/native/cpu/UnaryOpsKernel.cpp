// CPU kernels of neg, abs, exp, log, sqrt (complex included), conj_physical and bitwise_not.
// Compiled once per CPU capability (see Note [Kernels are compiled once per CPU capability] in
// aten/native/DispatchStub.h).
//
// Half and BFloat16 compute in float and round once, in the scalar op and in Vectorized alike
// (see Note [Half and BFloat16 compute in float] in BinaryOpsKernel.cpp). exp, log and sqrt
// take the dtypes libtorch 1.13's CPU kernels take: Float, Double, BFloat16; Half raises
// "exp_vml_cpu" not implemented for 'Half', as there. Their values are std::exp/log/sqrt of the
// element (libtorch's vectorized exp/log come from SLEEF and may differ in the last ulp).

#include <cmath>
#include <type_traits>

#include "aten/Dispatch.h"
#include "aten/OpMathType.h"
#include "aten/native/UnaryOps.h"
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

// The three floating-point functions differ only in the function applied. Complex inputs take
// std::op of c10::complex (through std::complex), element by element.
#define MINIATEN_FLOAT_UNARY_KERNEL(op, name)                                           \
  void op##_kernel(TensorIteratorBase& iter) {                                          \
    if (c10::isComplexType(iter.dtype())) {                                             \
      AT_DISPATCH_COMPLEX_TYPES(iter.dtype(), name, [&] {                               \
        cpu_kernel(iter, [](scalar_t a) -> scalar_t { return std::op(a); });            \
      });                                                                               \
      return;                                                                           \
    }                                                                                   \
    AT_DISPATCH_FLOATING_TYPES_AND(c10::ScalarType::BFloat16, iter.dtype(), name, [&] { \
      cpu_kernel_vec(                                                                   \
          iter,                                                                         \
          [](scalar_t a) -> scalar_t {                                                  \
            return static_cast<scalar_t>(std::op(static_cast<compute_t<scalar_t>>(a))); \
          },                                                                            \
          [](Vectorized<scalar_t> a) { return a.op(); });                               \
    });                                                                                 \
  }

MINIATEN_FLOAT_UNARY_KERNEL(exp, "exp_vml_cpu")
MINIATEN_FLOAT_UNARY_KERNEL(log, "log_vml_cpu")
MINIATEN_FLOAT_UNARY_KERNEL(sqrt, "sqrt_vml_cpu")

#undef MINIATEN_FLOAT_UNARY_KERNEL

}  // namespace
}  // namespace CPU_CAPABILITY

REGISTER_DISPATCH(neg_stub, &neg_kernel);
REGISTER_DISPATCH(abs_stub, &abs_kernel);
REGISTER_DISPATCH(exp_stub, &exp_kernel);
REGISTER_DISPATCH(log_stub, &log_kernel);
REGISTER_DISPATCH(sqrt_stub, &sqrt_kernel);
REGISTER_DISPATCH(bitwise_not_stub, &bitwise_not_kernel);
REGISTER_DISPATCH(conj_physical_stub, &conj_physical_kernel);

}  // namespace native
}  // namespace at
