// The GPU kernels of pow, atan2, hypot, fmod, remainder, bitwise and/or/xor, addcmul, addcdiv,
// lerp, silu and gelu. Each functor is the CPU kernel's scalar op (cpu/PowKernel.cpp,
// BinaryMathKernel.cpp, BinaryOpsKernel.cpp, PointwiseOpsKernel.cpp, ActivationKernel.cpp),
// compiled for the common dtype only: the iterator has converted every operand of another dtype
// (Note [Operands are converted before a CUDA op kernel] in TensorIteratorTypes.cpp). Binary ops
// run through gpu_kernel_with_scalars, so pow(t, cpu_scalar) and remainder(5, t) bind their CPU
// scalar as a kernel argument; the others through gpu_kernel_nocast.
//
// Element for element the CPU's rules: pow's shortcuts (Note [pow's shortcuts] in Pow.cpp) and
// libtorch's integer pow for a negative exponent, fmod with the dividend's sign and remainder with
// the divisor's (0 for a divisor of -1), integer arithmetic wrapping modulo 2^N, Half and
// BFloat16 computed in float and rounded once. The transcendental functions are CUDA's libm, so
// a value may differ from the CPU's (SLEEF's) in its last bit or two, as in UnaryOpsKernels.cu
// (Note [GPU unary dtypes]); the special values (NaN, inf, signed zeros) follow C99 on both.
// fmod and remainder follow Note [Integer division by zero on the GPU] in BinaryOpsKernels.cu.
//
// Dtypes: the CPU kernel's real ones plus Half, and BFloat16 for lerp, as PyTorch's CUDA kernels
// take them, with PyTorch's CUDA names in the errors ("\"hypot_cuda\" not implemented for
// 'Long'"). Complex numbers, where the CPU takes them (pow, addcmul, addcdiv, lerp, silu), go to
// ComplexKernels.cu; the others raise the dispatch macro's "\"atan2_cuda\" not implemented for
// 'ComplexFloat'", as the CPU's do.
//
// Note [One kernel for both operand orders]
// gpu_kernel_with_scalars binds a CPU scalar as the second argument of a functor (Note [A CPU
// scalar rides along as a kernel argument] in ElementwiseBody.h): of f when the scalar is the
// second input, of the mirror when it is the first. For an op that does not commute the usual
// mirror, Swapped<f>, is a second functor type, and two more kernels per dtype. The functors
// here carry a `swap` flag instead: the mirror is f with the flag set, the same type, so one
// bound kernel pair serves both orders. The flag is uniform across a launch, and picking which
// register is which costs nothing beside a memory-bound loop. For the same reason the three
// bitwise ops share one functor (an op code), as do fmod and remainder, addcmul and addcdiv,
// and gelu's two forms, and pow(t, Scalar) runs pow(t, cpu_scalar)'s bound kernels.
//
// Note [No fused multiply-add where the CPU has none]
// nvcc contracts a * b + c into one fma by default; the CPU kernels are compiled with
// -ffp-contract=off (Note [Kernels are compiled once per CPU capability] in DispatchStub.h)
// and round the product first. addcmul, addcdiv and lerp are exact arithmetic on both sides,
// so their products are spelled mul_rn (CUDA's __fmul_rn / __dmul_rn, which the compiler never
// fuses) and each element is the CPU's to the bit.

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "aten/Dispatch.h"
#include "aten/OpMathType.h"
#include "aten/native/Activation.h"
#include "aten/native/BinaryOps.h"
#include "aten/native/IntegerPow.h"
#include "aten/native/PointwiseOps.h"
#include "aten/native/Pow.h"
#include "aten/native/UnaryOps.h"
#include "aten/native/cuda/ComplexKernels.h"
#include "aten/native/cuda/Loops.cuh"

namespace at {
namespace native {

namespace {

template <typename T>
using opmath_t = at::opmath_type<T>;

// ---- Helpers -----------------------------------------------------------------------------------

// wrapping_mul and integer_pow: aten/native/IntegerPow.h, shared with the CPU kernels.

// See Note [No fused multiply-add where the CPU has none].
C10_HOST_DEVICE inline float mul_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}
C10_HOST_DEVICE inline double mul_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}

// ---- pow ---------------------------------------------------------------------------------------

// Which of the CPU's exact forms a Scalar exponent takes (Note [pow's shortcuts]); kNone for a
// tensor exponent, which the CPU raises through pow itself.
enum class PowShortcut : uint8_t { kNone, kSquare, kCube, kInvSquare };

template <typename T>
struct PowFunctor {
  PowShortcut shortcut;
  bool swap;  // Note [One kernel for both operand orders]
  C10_HOST_DEVICE T operator()(T a, T b) const {
    const T base = swap ? b : a;
    const T exp = swap ? a : b;
    if constexpr (std::is_integral<T>::value) {
      return integer_pow(base, exp);
    } else {
      // In T's own arithmetic, as the CPU's: BFloat16 rounds after each product.
      switch (shortcut) {
        case PowShortcut::kSquare:
          return base * base;
        case PowShortcut::kCube:
          return base * base * base;
        case PowShortcut::kInvSquare:
          return T(1) / (base * base);
        case PowShortcut::kNone:
          break;
      }
      using acc_t = opmath_t<T>;
      return static_cast<T>(std::pow(static_cast<acc_t>(base), static_cast<acc_t>(exp)));
    }
  }
};

void pow_tensor_tensor_kernel_cuda(TensorIteratorBase& iter) {
  if (c10::isComplexType(iter.common_dtype())) return pow_tensor_tensor_complex_cuda(iter);
  AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "pow_cuda", [&] {
    using F = PowFunctor<scalar_t>;
    gpu_kernel_with_scalars(iter, F{PowShortcut::kNone, false}, F{PowShortcut::kNone, true});
  });
}

// The CPU kernel's choices, exponent rounding included: float and double compare the exponent
// as a double and raise to it in their own type; BFloat16 compares it rounded to BFloat16
// (2.001 takes x * x); Half has no shortcuts. The exponent is bound as pow(t, cpu_scalar)'s
// kernels bind it (Note [One kernel for both operand orders]).
void pow_tensor_scalar_kernel_cuda(TensorIteratorBase& iter, const c10::Scalar& exp_scalar) {
  const c10::ScalarType dtype = iter.common_dtype();
  if (dtype != kHalf && (c10::isFloatingType(dtype) || c10::isComplexType(dtype))) {
    if (exp_scalar.equal(0.5)) return sqrt_stub(iter.device_type(), iter);
    if (exp_scalar.equal(-0.5)) return rsqrt_stub(iter.device_type(), iter);
    if (exp_scalar.equal(-1.0)) return reciprocal_stub(iter.device_type(), iter);
  }
  if (c10::isComplexType(dtype)) return pow_tensor_scalar_complex_cuda(iter, exp_scalar);
  AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16, dtype, "pow_cuda", [&] {
    scalar_t exp;
    PowShortcut shortcut = PowShortcut::kNone;
    if constexpr (std::is_integral<scalar_t>::value || std::is_same<scalar_t, c10::Half>::value) {
      exp = exp_scalar.to<scalar_t>();
    } else {
      double d = 0;
      if constexpr (std::is_same<scalar_t, c10::BFloat16>::value) {
        d = static_cast<double>(exp_scalar.to<scalar_t>());
      } else {
        d = exp_scalar.to<double>();
      }
      exp = static_cast<scalar_t>(d);
      if (d == 2.0) {
        shortcut = PowShortcut::kSquare;
      } else if (d == 3.0) {
        shortcut = PowShortcut::kCube;
      } else if (d == -2.0) {
        shortcut = PowShortcut::kInvSquare;
      }
    }
    using F = PowFunctor<scalar_t>;
    using Bound = gpu::BindSecond<F, scalar_t, scalar_t, scalar_t>;
    gpu_kernel_nocast(iter, Bound{F{shortcut, false}, exp});
  });
}

// ---- atan2, hypot ------------------------------------------------------------------------------

template <typename T>
struct Atan2Functor {
  bool swap;  // Note [One kernel for both operand orders]
  C10_HOST_DEVICE T operator()(T a, T b) const {
    using acc_t = opmath_t<T>;
    const acc_t y = static_cast<acc_t>(swap ? b : a);
    const acc_t x = static_cast<acc_t>(swap ? a : b);
    return static_cast<T>(std::atan2(y, x));
  }
};

// Commutes: its own mirror.
template <typename T>
struct HypotFunctor {
  C10_HOST_DEVICE T operator()(T a, T b) const {
    using acc_t = opmath_t<T>;
    return static_cast<T>(std::hypot(static_cast<acc_t>(a), static_cast<acc_t>(b)));
  }
};

// Integer inputs were promoted to float by binary_float_op.
void atan2_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "atan2_cuda", [&] {
    using F = Atan2Functor<scalar_t>;
    gpu_kernel_with_scalars(iter, F{false}, F{true});
  });
}

void hypot_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "hypot_cuda", [&] {
    gpu_kernel_with_scalars(iter, HypotFunctor<scalar_t>{}, HypotFunctor<scalar_t>{});
  });
}

// ---- fmod, remainder ---------------------------------------------------------------------------

// fmod (the dividend's sign), or remainder (the divisor's: fmod's, moved by one divisor when the
// signs differ). A signed divisor of -1 gives 0 (Note [Integer division by -1] in DivRounding.h);
// an integer divisor of 0 gives the hardware's answer on the GPU (Note [Integer division by zero
// on the GPU]) and the CPU's "ZeroDivisionError" on the host, where the functor runs once when
// both inputs are CPU scalars and where dividing by zero would end the process.
template <typename T>
struct ModFunctor {
  bool divisor_sign;  // remainder
  bool swap;          // Note [One kernel for both operand orders]
  C10_HOST_DEVICE T operator()(T a, T b) const {
    const T x = swap ? b : a;
    const T y = swap ? a : b;
    if constexpr (std::is_integral<T>::value) {
#if !defined(__CUDA_ARCH__)
      TORCH_CHECK(y != 0, "ZeroDivisionError");
#endif
      if constexpr (std::is_signed<T>::value) {
        if (y == T(-1)) return 0;
        T r = static_cast<T>(x % y);
        if (divisor_sign && r != 0 && (r < 0) != (y < 0)) r = static_cast<T>(r + y);
        return r;
      } else {
        return static_cast<T>(x % y);
      }
    } else {
      using acc_t = opmath_t<T>;
      const acc_t divisor = static_cast<acc_t>(y);
      acc_t mod = std::fmod(static_cast<acc_t>(x), divisor);
      if (divisor_sign && mod != 0 && (divisor < 0) != (mod < 0)) mod += divisor;
      return static_cast<T>(mod);
    }
  }
};

// Bool is "\"fmod_cuda\" not implemented for 'Bool'", as the CPU's.
void mod_kernel_cuda(TensorIteratorBase& iter, bool divisor_sign, const char* name) {
  AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), name, [&] {
    using F = ModFunctor<scalar_t>;
    gpu_kernel_with_scalars(iter, F{divisor_sign, false}, F{divisor_sign, true});
  });
}
void fmod_kernel_cuda(TensorIteratorBase& iter) {
  mod_kernel_cuda(iter, /*divisor_sign=*/false, "fmod_cuda");
}
void remainder_kernel_cuda(TensorIteratorBase& iter) {
  mod_kernel_cuda(iter, /*divisor_sign=*/true, "remainder_cuda");
}

// ---- bitwise and, or, xor ----------------------------------------------------------------------

enum class BitwiseOp : uint8_t { kAnd, kOr, kXor };

// Bool as the CPU's: logical and/or/xor. Commutes: its own mirror.
template <typename T>
struct BitwiseFunctor {
  BitwiseOp op;
  C10_HOST_DEVICE T operator()(T a, T b) const {
    if constexpr (std::is_same<T, bool>::value) {
      return op == BitwiseOp::kAnd ? (a && b) : op == BitwiseOp::kOr ? (a || b) : (a != b);
    } else {
      return static_cast<T>(op == BitwiseOp::kAnd  ? (a & b)
                            : op == BitwiseOp::kOr ? (a | b)
                                                   : (a ^ b));
    }
  }
};

template <BitwiseOp kOp>
void bitwise_kernel_cuda(TensorIteratorBase& iter) {
  const char* name = kOp == BitwiseOp::kAnd  ? "bitwise_and_cuda"
                     : kOp == BitwiseOp::kOr ? "bitwise_or_cuda"
                                             : "bitwise_xor_cuda";
  AT_DISPATCH_INTEGRAL_TYPES_AND(kBool, iter.common_dtype(), name, [&] {
    using F = BitwiseFunctor<scalar_t>;
    gpu_kernel_with_scalars(iter, F{kOp}, F{kOp});
  });
}

// ---- addcmul, addcdiv --------------------------------------------------------------------------

// self + value * t1 * t2, or self + value * t1 / t2, in opmath (Note [No fused multiply-add where
// the CPU has none]); integers (addcmul only) wrap.
template <typename T>
struct AddcFunctor {
  opmath_t<T> value;
  bool divide;  // addcdiv
  C10_HOST_DEVICE T operator()(T self, T t1, T t2) const {
    if constexpr (std::is_integral<T>::value) {
      using W = wrap_t<T>;
      return static_cast<T>(static_cast<W>(self) +
                            static_cast<W>(value) * static_cast<W>(t1) * static_cast<W>(t2));
    } else {
      using acc_t = opmath_t<T>;
      const acc_t scaled = mul_rn(value, static_cast<acc_t>(t1));
      const acc_t term =
          divide ? scaled / static_cast<acc_t>(t2) : mul_rn(scaled, static_cast<acc_t>(t2));
      return static_cast<T>(static_cast<acc_t>(self) + term);
    }
  }
};

// Note [addcmul's CPU scalars]
// PointwiseOps.cpp's iterator lets a 0-dim CPU tensor join CUDA operands, as a binary op's does,
// but a three-input functor has no bound forms: each would be more kernels per dtype for a call
// libtorch 1.13 refuses (its ternary iterator does not allow CPU scalars). It is refused here,
// in the words the iterator uses for any other tensor on the wrong device.
void check_no_cpu_scalars(const TensorIteratorBase& iter) {
  for (int arg = iter.noutputs(); arg < iter.ntensors(); ++arg) {
    TORCH_CHECK(!iter.is_cpu_scalar(arg),
                "Expected all tensors to be on the same device, but found at least two devices, ",
                iter.device(0), " and ", iter.device(arg), "!");
  }
}

void addcmul_kernel_cuda(TensorIteratorBase& iter, const c10::Scalar& value) {
  check_no_cpu_scalars(iter);
  if (c10::isComplexType(iter.common_dtype())) return addc_complex_cuda(iter, value, false);
  AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "addcmul_cuda", [&] {
    gpu_kernel_nocast(iter, AddcFunctor<scalar_t>{value.to<opmath_t<scalar_t>>(), false});
  });
}

// Integer t1 and t2 are refused before the kernel, and a floating one makes the common dtype
// floating: only the floating types can arrive.
void addcdiv_kernel_cuda(TensorIteratorBase& iter, const c10::Scalar& value) {
  check_no_cpu_scalars(iter);
  if (c10::isComplexType(iter.common_dtype())) return addc_complex_cuda(iter, value, true);
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "addcdiv_cuda", [&] {
    gpu_kernel_nocast(iter, AddcFunctor<scalar_t>{value.to<opmath_t<scalar_t>>(), true});
  });
}

// ---- lerp --------------------------------------------------------------------------------------

// See Note [Two-sided lerp] in cpu/PointwiseOpsKernel.cpp; in opmath, products unfused.
template <typename T>
C10_HOST_DEVICE T lerp_value(T start, T end, opmath_t<T> weight) {
  using acc_t = opmath_t<T>;
  const acc_t s = static_cast<acc_t>(start);
  const acc_t e = static_cast<acc_t>(end);
  const acc_t diff = e - s;
  return static_cast<T>(std::fabs(weight) < acc_t(0.5) ? s + mul_rn(weight, diff)
                                                       : e - mul_rn(diff, acc_t(1) - weight));
}

template <typename T>
struct LerpScalarFunctor {
  opmath_t<T> weight;
  C10_HOST_DEVICE T operator()(T start, T end) const { return lerp_value(start, end, weight); }
};

template <typename T>
struct LerpTensorFunctor {
  C10_HOST_DEVICE T operator()(T start, T end, T weight) const {
    return lerp_value(start, end, static_cast<opmath_t<T>>(weight));
  }
};

// All operands on the device: lerp's iterator allows no CPU scalars.
void lerp_scalar_kernel_cuda(TensorIteratorBase& iter, const c10::Scalar& weight) {
  if (c10::isComplexType(iter.common_dtype())) return lerp_scalar_complex_cuda(iter, weight);
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "lerp_cuda", [&] {
    gpu_kernel_nocast(iter, LerpScalarFunctor<scalar_t>{weight.to<opmath_t<scalar_t>>()});
  });
}

void lerp_tensor_kernel_cuda(TensorIteratorBase& iter) {
  if (c10::isComplexType(iter.common_dtype())) return lerp_tensor_complex_cuda(iter);
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "lerp_cuda",
                                  [&] { gpu_kernel_nocast(iter, LerpTensorFunctor<scalar_t>{}); });
}

// ---- silu, gelu --------------------------------------------------------------------------------

// x / (1 + exp(-x))
template <typename T>
struct SiluFunctor {
  C10_HOST_DEVICE T operator()(T a) const {
    using acc_t = opmath_t<T>;
    const acc_t x = static_cast<acc_t>(a);
    return static_cast<T>(x / (acc_t(1) + std::exp(-x)));
  }
};

// "none": x * 0.5 * (1 + erf(x / sqrt(2)));
// "tanh": 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3))), the CPU kernel's formulas.
template <typename T>
struct GeluFunctor {
  bool tanh_form;
  C10_HOST_DEVICE T operator()(T a) const {
    using acc_t = opmath_t<T>;
    const acc_t x = static_cast<acc_t>(a);
    if (tanh_form) {
      const acc_t beta = static_cast<acc_t>(M_SQRT2 * M_2_SQRTPI * 0.5);
      const acc_t kappa = static_cast<acc_t>(0.044715);
      const acc_t inner = beta * (x + kappa * (x * x * x));
      return static_cast<T>(acc_t(0.5) * x * (acc_t(1) + std::tanh(inner)));
    }
    return static_cast<T>(x * acc_t(0.5) *
                          (acc_t(1) + std::erf(x * static_cast<acc_t>(M_SQRT1_2))));
  }
};

void silu_kernel_cuda(TensorIteratorBase& iter) {
  if (c10::isComplexType(iter.dtype())) return silu_complex_cuda(iter);
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.dtype(), "silu_cuda",
                                  [&] { gpu_kernel_nocast(iter, SiluFunctor<scalar_t>{}); });
}

void gelu_kernel_cuda(TensorIteratorBase& iter, GeluType approximate) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.dtype(), "GeluCUDAKernelImpl", [&] {
    gpu_kernel_nocast(iter, GeluFunctor<scalar_t>{approximate == GeluType::Tanh});
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(pow_tensor_tensor_stub, &pow_tensor_tensor_kernel_cuda);
REGISTER_CUDA_DISPATCH(pow_tensor_scalar_stub, &pow_tensor_scalar_kernel_cuda);
REGISTER_CUDA_DISPATCH(atan2_stub, &atan2_kernel_cuda);
REGISTER_CUDA_DISPATCH(hypot_stub, &hypot_kernel_cuda);
REGISTER_CUDA_DISPATCH(fmod_stub, &fmod_kernel_cuda);
REGISTER_CUDA_DISPATCH(remainder_stub, &remainder_kernel_cuda);
REGISTER_CUDA_DISPATCH(bitwise_and_stub, &bitwise_kernel_cuda<BitwiseOp::kAnd>);
REGISTER_CUDA_DISPATCH(bitwise_or_stub, &bitwise_kernel_cuda<BitwiseOp::kOr>);
REGISTER_CUDA_DISPATCH(bitwise_xor_stub, &bitwise_kernel_cuda<BitwiseOp::kXor>);
REGISTER_CUDA_DISPATCH(addcmul_stub, &addcmul_kernel_cuda);
REGISTER_CUDA_DISPATCH(addcdiv_stub, &addcdiv_kernel_cuda);
REGISTER_CUDA_DISPATCH(lerp_scalar_stub, &lerp_scalar_kernel_cuda);
REGISTER_CUDA_DISPATCH(lerp_tensor_stub, &lerp_tensor_kernel_cuda);
REGISTER_CUDA_DISPATCH(silu_stub, &silu_kernel_cuda);
REGISTER_CUDA_DISPATCH(gelu_stub, &gelu_kernel_cuda);

}  // namespace native
}  // namespace at
