#pragma once
// The complex-number functors of the GPU kernels (ComplexKernels.cu), and the complex functions
// they call: __host__ __device__, so the CPU tests run the same functors through the GPU loops'
// bodies on the host (tests/aten/cuda/GpuComplex_test.cpp).
//
// Note [Complex math on the GPU]
// c10::complex's arithmetic (+, -, *, /, ==) is constexpr, which nvcc compiles for the device
// (--expt-relaxed-constexpr): the GPU multiplies and divides with the CPU's textbook formulas.
// nvcc fuses their products into fmas (C10_AS_ROUNDED keeps them apart only for GCC: Note [A
// complex product is rounded as written]), so on the device a product agrees with the CPU's to
// the last bit or two rather than bit for bit; the host pass, which the CPU tests run, agrees
// bit for bit.
// c10::complex's std:: functions (exp, log, sqrt, sin, ...) compute through std::complex, which
// has no device code. Here each function takes libcu++'s cuda::std::complex in the device pass
// (same layout, __host__ __device__ functions; PyTorch's CUDA kernels take thrust::complex, its
// predecessor) and c10::complex's std:: overloads in the host pass, the CPU kernels' own. The
// two libraries' formulas differ in the last bits, as CUDA's real libm differs from SLEEF's: GPU
// tests compare with a tolerance.

#include <cmath>

#include "c10/util/Macros.h"
#include "c10/util/complex.h"

#if defined(__CUDACC__)
#include <cuda/std/complex>
#endif

namespace at {
namespace native {
namespace complex_math {

// Both of nvcc's passes see the same declarations; only the bodies differ (__CUDA_ARCH__ is the
// device pass). ::cuda, not at::cuda or c10::cuda, which a .cu file may have declared.
#if defined(__CUDACC__)
template <typename T>
C10_HOST_DEVICE ::cuda::std::complex<T> to_device(c10::complex<T> z) {
  return ::cuda::std::complex<T>(z.real(), z.imag());
}
template <typename T>
C10_HOST_DEVICE c10::complex<T> from_device(::cuda::std::complex<T> z) {
  return c10::complex<T>(z.real(), z.imag());
}
#endif
#if defined(__CUDA_ARCH__)
#define MINIATEN_COMPLEX_CALL(fn, ...) from_device(::cuda::std::fn(__VA_ARGS__))
#define MINIATEN_COMPLEX_ARG(z) to_device(z)
#else
#define MINIATEN_COMPLEX_CALL(fn, ...) std::fn(__VA_ARGS__)
#define MINIATEN_COMPLEX_ARG(z) z
#endif

#define MINIATEN_COMPLEX_FN(fn)                                \
  template <typename T>                                        \
  C10_HOST_DEVICE c10::complex<T> fn(c10::complex<T> z) {      \
    return MINIATEN_COMPLEX_CALL(fn, MINIATEN_COMPLEX_ARG(z)); \
  }
MINIATEN_COMPLEX_FN(exp)
MINIATEN_COMPLEX_FN(log)
MINIATEN_COMPLEX_FN(log10)
MINIATEN_COMPLEX_FN(sqrt)
MINIATEN_COMPLEX_FN(sin)
MINIATEN_COMPLEX_FN(cos)
MINIATEN_COMPLEX_FN(tan)
MINIATEN_COMPLEX_FN(asin)
MINIATEN_COMPLEX_FN(acos)
MINIATEN_COMPLEX_FN(atan)
MINIATEN_COMPLEX_FN(sinh)
MINIATEN_COMPLEX_FN(cosh)
MINIATEN_COMPLEX_FN(tanh)
#undef MINIATEN_COMPLEX_FN

// |z|, with hypot's care for large and small parts on both sides.
template <typename T>
C10_HOST_DEVICE T abs(c10::complex<T> z) {
#if defined(__CUDA_ARCH__)
  return ::cuda::std::abs(to_device(z));
#else
  return std::abs(z);
#endif
}

// The CPU's formula: log(z) / log(2).
template <typename T>
C10_HOST_DEVICE c10::complex<T> log2(c10::complex<T> z) {
  return complex_math::log(z) / static_cast<T>(std::log(T(2)));
}

template <typename T>
C10_HOST_DEVICE c10::complex<T> pow(c10::complex<T> base, c10::complex<T> exponent) {
  return MINIATEN_COMPLEX_CALL(pow, MINIATEN_COMPLEX_ARG(base), MINIATEN_COMPLEX_ARG(exponent));
}
#undef MINIATEN_COMPLEX_CALL
#undef MINIATEN_COMPLEX_ARG

}  // namespace complex_math

// ---- The functors (T is c10::complex<float> or c10::complex<double>) ----------------------------

// a + alpha * b, alpha in the dtype: the CPU kernel's a + b when alpha is 1 (no multiply, so an
// infinite or NaN part of b is not smeared into the other part by alpha's zero imaginary part).
template <typename T>
struct ComplexAddFunctor {
  T alpha;
  bool alpha_is_one;
  C10_HOST_DEVICE T operator()(T a, T b) const { return alpha_is_one ? a + b : a + alpha * b; }
};

template <typename T>
struct ComplexMulFunctor {
  C10_HOST_DEVICE T operator()(T a, T b) const { return a * b; }
};

template <typename T>
struct ComplexDivFunctor {
  C10_HOST_DEVICE T operator()(T a, T b) const { return a / b; }
};

// One type for both operand orders (Note [One kernel for both operand orders] in
// BinaryMathKernels.cu).
template <typename T>
struct ComplexPowFunctor {
  bool swap;
  C10_HOST_DEVICE T operator()(T a, T b) const {
    return swap ? complex_math::pow(b, a) : complex_math::pow(a, b);
  }
};

// self + value * t1 * t2 (addcmul) or self + value * t1 / t2 (addcdiv), in the CPU's order.
template <typename T>
struct ComplexAddcFunctor {
  T value;
  bool divide;
  C10_HOST_DEVICE T operator()(T self, T t1, T t2) const {
    return divide ? self + value * t1 / t2 : self + value * t1 * t2;
  }
};

// The CPU's two-sided lerp (Note [Two-sided lerp] in cpu/PointwiseOpsKernel.cpp), the side
// chosen by |weight|.
template <typename T>
C10_HOST_DEVICE T complex_lerp(T start, T end, T weight) {
  using real_t = typename T::value_type;
  return complex_math::abs(weight) < real_t(0.5) ? start + weight * (end - start)
                                                 : end - (end - start) * (T(1) - weight);
}
template <typename T>
struct ComplexLerpScalarFunctor {
  T weight;
  C10_HOST_DEVICE T operator()(T start, T end) const { return complex_lerp(start, end, weight); }
};
template <typename T>
struct ComplexLerpTensorFunctor {
  C10_HOST_DEVICE T operator()(T start, T end, T weight) const {
    return complex_lerp(start, end, weight);
  }
};

// x / (1 + exp(-x)), the CPU's.
template <typename T>
struct ComplexSiluFunctor {
  C10_HOST_DEVICE T operator()(T x) const { return x / (T(1) + complex_math::exp(-x)); }
};

// eq and ne, the only comparisons complex numbers have, and the logical ops (a number is true
// when either part is nonzero), as the CPU's.
enum class ComplexPredicate { Eq, Ne, And, Or, Xor };

template <typename T, ComplexPredicate p>
struct ComplexPredicateFunctor {
  C10_HOST_DEVICE bool operator()(T a, T b) const {
    switch (p) {
      case ComplexPredicate::Eq:
        return a == b;
      case ComplexPredicate::Ne:
        return a != b;
      case ComplexPredicate::And:
        return a != T(0) && b != T(0);
      case ComplexPredicate::Or:
        return a != T(0) || b != T(0);
      case ComplexPredicate::Xor:
        return (a != T(0)) != (b != T(0));
    }
    return false;
  }
};

// Operands (out, self): a Bool out is true where self is 0 + 0i.
template <typename T>
struct ComplexLogicalNotFunctor {
  C10_HOST_DEVICE bool operator()(T a) const { return a == T(0); }
};
// ... any other out has self's dtype and gets 1 or 0.
template <typename T>
struct ComplexLogicalNotValueFunctor {
  C10_HOST_DEVICE T operator()(T a) const { return T(a == T(0) ? 1 : 0); }
};

template <typename T>
struct ComplexNegFunctor {
  C10_HOST_DEVICE T operator()(T a) const { return -a; }
};

template <typename T>
struct ComplexConjFunctor {
  C10_HOST_DEVICE T operator()(T a) const { return T(a.real(), -a.imag()); }
};

// |z| into a real out (abs's result dtype), or (|z|, 0) into a complex out= (the CPU's).
template <typename T>
struct ComplexAbsFunctor {
  C10_HOST_DEVICE typename T::value_type operator()(T a) const { return complex_math::abs(a); }
};
template <typename T>
struct ComplexAbsAsComplexFunctor {
  C10_HOST_DEVICE T operator()(T a) const { return T(complex_math::abs(a)); }
};

// The floating-point functions that take complex numbers, as on the CPU (UnaryOpsKernel.cpp's
// kComplexToo): one functor template, the function chosen at compile time.
enum class ComplexFn {
  Exp,
  Log,
  Log2,
  Log10,
  Sin,
  Cos,
  Tan,
  Asin,
  Acos,
  Atan,
  Sinh,
  Cosh,
  Tanh,
  Sqrt,
  Rsqrt,
  Reciprocal,
  Sigmoid
};

template <typename T, ComplexFn fn>
struct ComplexMathFunctor {
  C10_HOST_DEVICE T operator()(T z) const {
    namespace m = complex_math;
    switch (fn) {
      case ComplexFn::Exp:
        return m::exp(z);
      case ComplexFn::Log:
        return m::log(z);
      case ComplexFn::Log2:
        return m::log2(z);
      case ComplexFn::Log10:
        return m::log10(z);
      case ComplexFn::Sin:
        return m::sin(z);
      case ComplexFn::Cos:
        return m::cos(z);
      case ComplexFn::Tan:
        return m::tan(z);
      case ComplexFn::Asin:
        return m::asin(z);
      case ComplexFn::Acos:
        return m::acos(z);
      case ComplexFn::Atan:
        return m::atan(z);
      case ComplexFn::Sinh:
        return m::sinh(z);
      case ComplexFn::Cosh:
        return m::cosh(z);
      case ComplexFn::Tanh:
        return m::tanh(z);
      case ComplexFn::Sqrt:
        return m::sqrt(z);
      case ComplexFn::Rsqrt:
        return T(1) / m::sqrt(z);
      case ComplexFn::Reciprocal:
        return T(1) / z;
      case ComplexFn::Sigmoid:  // the CPU's 1 / (1 + exp(-z))
        return T(1) / (T(1) + m::exp(-z));
    }
    return z;
  }
};

}  // namespace native
}  // namespace at
