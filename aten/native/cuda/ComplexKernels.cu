// The GPU kernels of complex dtypes: the arithmetic, pow, addcmul/addcdiv, lerp, silu, eq/ne,
// the logical ops, neg, abs, conj_physical and the floating-point functions that take complex
// numbers, each the functor of ComplexMath.h run by gpu_kernel_nocast or gpu_kernel_with_scalars,
// as the real kernels are. The CPU kernels of the same ops (BinaryOpsKernel.cpp,
// UnaryOpsKernel.cpp, PowKernel.cpp) run the same formulas element by element (Note [Complex math
// on the GPU]).

#include "aten/Dispatch.h"
#include "aten/native/UnaryOps.h"
#include "aten/native/cuda/ComplexKernels.h"
#include "aten/native/cuda/Loops.cuh"

namespace at {
namespace native {

void add_complex_cuda(TensorIteratorBase& iter, const c10::Scalar& alpha) {
  AT_DISPATCH_COMPLEX_TYPES(iter.common_dtype(), "add_cuda", [&] {
    const auto a = alpha.to<scalar_t>();
    gpu_kernel_with_scalars(iter, ComplexAddFunctor<scalar_t>{a, a == scalar_t(1)});
  });
}

// mul commutes: its own mirror (Note [A CPU scalar rides along as a kernel argument]).
void mul_complex_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_COMPLEX_TYPES(iter.common_dtype(), "mul_cuda", [&] {
    gpu_kernel_with_scalars(iter, ComplexMulFunctor<scalar_t>{}, ComplexMulFunctor<scalar_t>{});
  });
}

void div_true_complex_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_COMPLEX_TYPES(iter.common_dtype(), "div_true_cuda",
                            [&] { gpu_kernel_with_scalars(iter, ComplexDivFunctor<scalar_t>{}); });
}

void pow_tensor_tensor_complex_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_COMPLEX_TYPES(iter.common_dtype(), "pow_cuda", [&] {
    using F = ComplexPowFunctor<scalar_t>;
    gpu_kernel_with_scalars(iter, F{false}, F{true});
  });
}

// The exponent bound as pow(t, cpu_scalar)'s kernels bind it: no kernel of its own.
void pow_tensor_scalar_complex_cuda(TensorIteratorBase& iter, const c10::Scalar& exponent) {
  AT_DISPATCH_COMPLEX_TYPES(iter.common_dtype(), "pow_cuda", [&] {
    using F = ComplexPowFunctor<scalar_t>;
    using Bound = gpu::BindSecond<F, scalar_t, scalar_t, scalar_t>;
    gpu_kernel_nocast(iter, Bound{F{false}, exponent.to<scalar_t>()});
  });
}

// CPU scalars were refused before (Note [addcmul's CPU scalars] in BinaryMathKernels.cu).
void addc_complex_cuda(TensorIteratorBase& iter, const c10::Scalar& value, bool divide) {
  AT_DISPATCH_COMPLEX_TYPES(iter.common_dtype(), divide ? "addcdiv_cuda" : "addcmul_cuda", [&] {
    gpu_kernel_nocast(iter, ComplexAddcFunctor<scalar_t>{value.to<scalar_t>(), divide});
  });
}

void lerp_scalar_complex_cuda(TensorIteratorBase& iter, const c10::Scalar& weight) {
  AT_DISPATCH_COMPLEX_TYPES(iter.common_dtype(), "lerp_cuda", [&] {
    gpu_kernel_nocast(iter, ComplexLerpScalarFunctor<scalar_t>{weight.to<scalar_t>()});
  });
}

void lerp_tensor_complex_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_COMPLEX_TYPES(iter.common_dtype(), "lerp_cuda",
                            [&] { gpu_kernel_nocast(iter, ComplexLerpTensorFunctor<scalar_t>{}); });
}

void silu_complex_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_COMPLEX_TYPES(iter.dtype(), "silu_cuda",
                            [&] { gpu_kernel_nocast(iter, ComplexSiluFunctor<scalar_t>{}); });
}

namespace {

// Each commutes: its own mirror.
template <typename T, ComplexPredicate p>
void predicate_complex_typed(TensorIteratorBase& iter) {
  using F = ComplexPredicateFunctor<T, p>;
  gpu_kernel_with_scalars(iter, F{}, F{});
}

}  // namespace

void predicate_complex_cuda(TensorIteratorBase& iter, ComplexPredicate p, const char* name) {
  AT_DISPATCH_COMPLEX_TYPES(iter.common_dtype(), name, [&] {
    switch (p) {
      case ComplexPredicate::Eq:
        return predicate_complex_typed<scalar_t, ComplexPredicate::Eq>(iter);
      case ComplexPredicate::Ne:
        return predicate_complex_typed<scalar_t, ComplexPredicate::Ne>(iter);
      case ComplexPredicate::And:
        return predicate_complex_typed<scalar_t, ComplexPredicate::And>(iter);
      case ComplexPredicate::Or:
        return predicate_complex_typed<scalar_t, ComplexPredicate::Or>(iter);
      case ComplexPredicate::Xor:
        return predicate_complex_typed<scalar_t, ComplexPredicate::Xor>(iter);
    }
  });
}

void logical_not_complex_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_COMPLEX_TYPES(iter.input_dtype(0), "logical_not_cuda", [&] {
    if (iter.dtype() == c10::kBool) {
      gpu_kernel_nocast(iter, ComplexLogicalNotFunctor<scalar_t>{});
    } else {
      gpu_kernel_nocast(iter, ComplexLogicalNotValueFunctor<scalar_t>{});
    }
  });
}

void neg_complex_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_COMPLEX_TYPES(iter.dtype(), "neg_cuda",
                            [&] { gpu_kernel_nocast(iter, ComplexNegFunctor<scalar_t>{}); });
}

// A real output (abs's dtype for a complex input, UnaryOps.cpp), or a complex out=.
void abs_complex_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_COMPLEX_TYPES(iter.input_dtype(), "abs_cuda", [&] {
    if (iter.dtype() == iter.input_dtype()) {
      gpu_kernel_nocast(iter, ComplexAbsAsComplexFunctor<scalar_t>{});
    } else {
      gpu_kernel_nocast(iter, ComplexAbsFunctor<scalar_t>{});
    }
  });
}

namespace {

template <typename T>
void math_complex_typed(TensorIteratorBase& iter, ComplexFn fn) {
  switch (fn) {
#define MINIATEN_COMPLEX_CASE(Fn) \
  case ComplexFn::Fn:             \
    return gpu_kernel_nocast(iter, ComplexMathFunctor<T, ComplexFn::Fn>{});
    MINIATEN_COMPLEX_CASE(Exp)
    MINIATEN_COMPLEX_CASE(Log)
    MINIATEN_COMPLEX_CASE(Log2)
    MINIATEN_COMPLEX_CASE(Log10)
    MINIATEN_COMPLEX_CASE(Sin)
    MINIATEN_COMPLEX_CASE(Cos)
    MINIATEN_COMPLEX_CASE(Tan)
    MINIATEN_COMPLEX_CASE(Asin)
    MINIATEN_COMPLEX_CASE(Acos)
    MINIATEN_COMPLEX_CASE(Atan)
    MINIATEN_COMPLEX_CASE(Sinh)
    MINIATEN_COMPLEX_CASE(Cosh)
    MINIATEN_COMPLEX_CASE(Tanh)
    MINIATEN_COMPLEX_CASE(Sqrt)
    MINIATEN_COMPLEX_CASE(Rsqrt)
    MINIATEN_COMPLEX_CASE(Reciprocal)
    MINIATEN_COMPLEX_CASE(Sigmoid)
#undef MINIATEN_COMPLEX_CASE
  }
}

}  // namespace

void math_complex_cuda(TensorIteratorBase& iter, ComplexFn fn, const char* name) {
  AT_DISPATCH_COMPLEX_TYPES(iter.dtype(), name, [&] { math_complex_typed<scalar_t>(iter, fn); });
}

namespace {

// Complex dtypes only: conj_physical returns a real tensor itself before the stub (UnaryOps.cpp).
void conj_physical_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_COMPLEX_TYPES(iter.dtype(), "conj_cuda",
                            [&] { gpu_kernel_nocast(iter, ComplexConjFunctor<scalar_t>{}); });
}

}  // namespace

REGISTER_CUDA_DISPATCH(conj_physical_stub, &conj_physical_kernel_cuda);

}  // namespace native
}  // namespace at
