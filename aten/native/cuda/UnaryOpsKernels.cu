// The GPU kernels of the unary elementwise ops: neg, abs, sign, bitwise_not, logical_not, the
// floating-point functions (exp ... erfc, sqrt, rsqrt, reciprocal, sigmoid) and rounding, each
// through gpu_kernel_nocast (the iterator has converted any operand of another dtype).
// UnaryOps.cpp has already chosen the output dtype (unary_float_op promotes integers to float)
// and handled what needs no kernel (rounding an integer tensor is a copy).
//
// Note [GPU unary dtypes]
// The floating-point functions take Float, Double, Half and BFloat16 here, as PyTorch's CUDA
// kernels do (libtorch 1.13's CPU kernels leave Half out of most: "exp_vml_cpu" not implemented
// for 'Half'); Half and BFloat16 compute in float and round once. The values are CUDA's libm
// (expf is within 2 ulp, SLEEF's within 1), so a GPU result may differ from the CPU's in the
// last bit or two: the tests compare with a tolerance, as PyTorch's do. Complex inputs go to
// ComplexKernels.cu for the functions the CPU takes them in (exp, log, log2, log10, the
// trigonometric and hyperbolic functions, sqrt, rsqrt, reciprocal, sigmoid; neg, abs,
// logical_not); the others raise the dispatch macro's "\"expm1_cuda\" not implemented for
// 'ComplexFloat'", as the CPU's do.

#include <cmath>
#include <type_traits>

#include "aten/Dispatch.h"
#include "aten/OpMathType.h"
#include "aten/native/BinaryOps.h"  // bitwise_not_stub
#include "aten/native/UnaryOps.h"
#include "aten/native/cuda/ComplexKernels.h"
#include "aten/native/cuda/Loops.cuh"

namespace at {
namespace native {

namespace {

template <typename T>
using opmath_t = at::opmath_type<T>;

template <typename T>
struct NegFunctor {
  C10_HOST_DEVICE T operator()(T a) const {
    if constexpr (std::is_integral<T>::value) {
      // Wraps for the most negative value, as the CPU's negate.
      return static_cast<T>(T(0) - static_cast<std::make_unsigned_t<T>>(a));
    } else {
      return static_cast<T>(-static_cast<opmath_t<T>>(a));
    }
  }
};

template <typename T>
struct AbsFunctor {
  C10_HOST_DEVICE T operator()(T a) const {
    if constexpr (std::is_unsigned<T>::value) {
      return a;
    } else if constexpr (std::is_integral<T>::value) {
      return a < 0 ? NegFunctor<T>{}(a) : a;
    } else {
      return static_cast<T>(std::fabs(static_cast<opmath_t<T>>(a)));
    }
  }
};

// (0 < a) - (a < 0): 0 for ±0 and NaN, as the CPU's.
template <typename T>
struct SignFunctor {
  C10_HOST_DEVICE T operator()(T a) const {
    if constexpr (std::is_same<T, bool>::value) {
      return a;
    } else if constexpr (std::is_unsigned<T>::value) {
      return static_cast<T>(a != T(0));
    } else {
      return static_cast<T>((T(0) < a) - (a < T(0)));
    }
  }
};

template <typename T>
struct BitwiseNotFunctor {
  C10_HOST_DEVICE T operator()(T a) const {
    if constexpr (std::is_same<T, bool>::value) {
      return !a;
    } else {
      return static_cast<T>(~a);
    }
  }
};

// Operands (out, self): a Bool out is true where self is zero; any other out has self's dtype
// and gets 1 or 0 (the CPU's logical_not_kernel).
template <typename T>
struct LogicalNotFunctor {
  C10_HOST_DEVICE bool operator()(T a) const { return static_cast<opmath_t<T>>(a) == 0; }
};
template <typename T>
struct LogicalNotValueFunctor {
  C10_HOST_DEVICE T operator()(T a) const { return T(static_cast<opmath_t<T>>(a) == 0 ? 1 : 0); }
};

void logical_not_kernel_cuda(TensorIteratorBase& iter) {
  if (c10::isComplexType(iter.input_dtype(0))) return logical_not_complex_cuda(iter);
  AT_DISPATCH_ALL_MINIATEN_TYPES(iter.input_dtype(0), "logical_not_cuda", [&] {
    if (iter.dtype() == c10::kBool) {
      gpu_kernel_nocast(iter, LogicalNotFunctor<scalar_t>{});
    } else {
      gpu_kernel_nocast(iter, LogicalNotValueFunctor<scalar_t>{});
    }
  });
}

void neg_kernel_cuda(TensorIteratorBase& iter) {
  if (c10::isComplexType(iter.dtype())) return neg_complex_cuda(iter);
  AT_DISPATCH_ALL_TYPES_AND2(c10::kHalf, c10::kBFloat16, iter.dtype(), "neg_cuda",
                             [&] { gpu_kernel_nocast(iter, NegFunctor<scalar_t>{}); });
}

void abs_kernel_cuda(TensorIteratorBase& iter) {
  if (c10::isComplexType(iter.input_dtype())) return abs_complex_cuda(iter);
  AT_DISPATCH_ALL_TYPES_AND2(c10::kHalf, c10::kBFloat16, iter.input_dtype(), "abs_cuda",
                             [&] { gpu_kernel_nocast(iter, AbsFunctor<scalar_t>{}); });
}

void sign_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_ALL_MINIATEN_TYPES(iter.dtype(), "sign_cuda",
                                 [&] { gpu_kernel_nocast(iter, SignFunctor<scalar_t>{}); });
}

void bitwise_not_kernel_cuda(TensorIteratorBase& iter) {
  if (iter.dtype() == c10::kBool) return gpu_kernel_nocast(iter, BitwiseNotFunctor<bool>{});
  AT_DISPATCH_INTEGRAL_TYPES(iter.dtype(), "bitwise_not_cuda",
                             [&] { gpu_kernel_nocast(iter, BitwiseNotFunctor<scalar_t>{}); });
}

// ---- The floating-point functions (Note [GPU unary dtypes]) -------------------------------------
// Each a functor computing `expr` on x, the input in float (Half, BFloat16, Float) or double.
#define MINIATEN_FLOAT_FUNCTOR(Name, expr)    \
  template <typename T>                       \
  struct Name {                               \
    C10_HOST_DEVICE T operator()(T a) const { \
      using acc_t = opmath_t<T>;              \
      const acc_t x = static_cast<acc_t>(a);  \
      return static_cast<T>(expr);            \
    }                                         \
  };

MINIATEN_FLOAT_FUNCTOR(ExpFunctor, std::exp(x))
MINIATEN_FLOAT_FUNCTOR(Expm1Functor, std::expm1(x))
MINIATEN_FLOAT_FUNCTOR(Exp2Functor, std::exp2(x))
MINIATEN_FLOAT_FUNCTOR(LogFunctor, std::log(x))
MINIATEN_FLOAT_FUNCTOR(Log2Functor, std::log2(x))
MINIATEN_FLOAT_FUNCTOR(Log10Functor, std::log10(x))
MINIATEN_FLOAT_FUNCTOR(Log1pFunctor, std::log1p(x))
MINIATEN_FLOAT_FUNCTOR(SinFunctor, std::sin(x))
MINIATEN_FLOAT_FUNCTOR(CosFunctor, std::cos(x))
MINIATEN_FLOAT_FUNCTOR(TanFunctor, std::tan(x))
MINIATEN_FLOAT_FUNCTOR(AsinFunctor, std::asin(x))
MINIATEN_FLOAT_FUNCTOR(AcosFunctor, std::acos(x))
MINIATEN_FLOAT_FUNCTOR(AtanFunctor, std::atan(x))
MINIATEN_FLOAT_FUNCTOR(SinhFunctor, std::sinh(x))
MINIATEN_FLOAT_FUNCTOR(CoshFunctor, std::cosh(x))
MINIATEN_FLOAT_FUNCTOR(TanhFunctor, std::tanh(x))
MINIATEN_FLOAT_FUNCTOR(ErfFunctor, std::erf(x))
MINIATEN_FLOAT_FUNCTOR(ErfcFunctor, std::erfc(x))
MINIATEN_FLOAT_FUNCTOR(SqrtFunctor, std::sqrt(x))
MINIATEN_FLOAT_FUNCTOR(RsqrtFunctor, acc_t(1) / std::sqrt(x))
MINIATEN_FLOAT_FUNCTOR(ReciprocalFunctor, acc_t(1) / x)
// 1 / (1 + exp(-x)), the CPU kernel's formula.
MINIATEN_FLOAT_FUNCTOR(SigmoidFunctor, acc_t(1) / (acc_t(1) + std::exp(-x)))
MINIATEN_FLOAT_FUNCTOR(FloorFunctor, std::floor(x))
MINIATEN_FLOAT_FUNCTOR(CeilFunctor, std::ceil(x))
MINIATEN_FLOAT_FUNCTOR(TruncFunctor, std::trunc(x))
MINIATEN_FLOAT_FUNCTOR(RoundFunctor, std::nearbyint(x))  // halfway cases to even
#undef MINIATEN_FLOAT_FUNCTOR

template <template <typename> class Functor>
void float_kernel_cuda(TensorIteratorBase& iter, const char* name) {
  AT_DISPATCH_FLOATING_TYPES_AND2(c10::kHalf, c10::kBFloat16, iter.dtype(), name,
                                  [&] { gpu_kernel_nocast(iter, Functor<scalar_t>{}); });
}

#define MINIATEN_FLOAT_KERNEL(op, Functor)          \
  void op##_kernel_cuda(TensorIteratorBase& iter) { \
    float_kernel_cuda<Functor>(iter, #op "_cuda");  \
  }                                                 \
  REGISTER_CUDA_DISPATCH(op##_stub, &op##_kernel_cuda);
// The functions the CPU takes complex numbers in: those go to ComplexKernels.cu.
#define MINIATEN_FLOAT_COMPLEX_KERNEL(op, Functor, Fn)            \
  void op##_kernel_cuda(TensorIteratorBase& iter) {               \
    if (c10::isComplexType(iter.dtype())) {                       \
      return math_complex_cuda(iter, ComplexFn::Fn, #op "_cuda"); \
    }                                                             \
    float_kernel_cuda<Functor>(iter, #op "_cuda");                \
  }                                                               \
  REGISTER_CUDA_DISPATCH(op##_stub, &op##_kernel_cuda);

MINIATEN_FLOAT_COMPLEX_KERNEL(exp, ExpFunctor, Exp)
MINIATEN_FLOAT_KERNEL(expm1, Expm1Functor)
MINIATEN_FLOAT_KERNEL(exp2, Exp2Functor)
MINIATEN_FLOAT_COMPLEX_KERNEL(log, LogFunctor, Log)
MINIATEN_FLOAT_COMPLEX_KERNEL(log2, Log2Functor, Log2)
MINIATEN_FLOAT_COMPLEX_KERNEL(log10, Log10Functor, Log10)
MINIATEN_FLOAT_KERNEL(log1p, Log1pFunctor)
MINIATEN_FLOAT_COMPLEX_KERNEL(sin, SinFunctor, Sin)
MINIATEN_FLOAT_COMPLEX_KERNEL(cos, CosFunctor, Cos)
MINIATEN_FLOAT_COMPLEX_KERNEL(tan, TanFunctor, Tan)
MINIATEN_FLOAT_COMPLEX_KERNEL(asin, AsinFunctor, Asin)
MINIATEN_FLOAT_COMPLEX_KERNEL(acos, AcosFunctor, Acos)
MINIATEN_FLOAT_COMPLEX_KERNEL(atan, AtanFunctor, Atan)
MINIATEN_FLOAT_COMPLEX_KERNEL(sinh, SinhFunctor, Sinh)
MINIATEN_FLOAT_COMPLEX_KERNEL(cosh, CoshFunctor, Cosh)
MINIATEN_FLOAT_COMPLEX_KERNEL(tanh, TanhFunctor, Tanh)
MINIATEN_FLOAT_KERNEL(erf, ErfFunctor)
MINIATEN_FLOAT_KERNEL(erfc, ErfcFunctor)
MINIATEN_FLOAT_COMPLEX_KERNEL(sqrt, SqrtFunctor, Sqrt)
MINIATEN_FLOAT_COMPLEX_KERNEL(rsqrt, RsqrtFunctor, Rsqrt)
MINIATEN_FLOAT_COMPLEX_KERNEL(reciprocal, ReciprocalFunctor, Reciprocal)
MINIATEN_FLOAT_COMPLEX_KERNEL(sigmoid, SigmoidFunctor, Sigmoid)
MINIATEN_FLOAT_KERNEL(floor, FloorFunctor)
MINIATEN_FLOAT_KERNEL(ceil, CeilFunctor)
MINIATEN_FLOAT_KERNEL(trunc, TruncFunctor)
MINIATEN_FLOAT_KERNEL(round, RoundFunctor)
#undef MINIATEN_FLOAT_COMPLEX_KERNEL
#undef MINIATEN_FLOAT_KERNEL

}  // namespace

REGISTER_CUDA_DISPATCH(neg_stub, &neg_kernel_cuda);
REGISTER_CUDA_DISPATCH(abs_stub, &abs_kernel_cuda);
REGISTER_CUDA_DISPATCH(sign_stub, &sign_kernel_cuda);
REGISTER_CUDA_DISPATCH(bitwise_not_stub, &bitwise_not_kernel_cuda);
REGISTER_CUDA_DISPATCH(logical_not_stub, &logical_not_kernel_cuda);

}  // namespace native
}  // namespace at
