#pragma once
// The GPU kernels of complex dtypes (ComplexKernels.cu), called by the op kernels of
// BinaryOpsKernels.cu, BinaryMathKernels.cu and UnaryOpsKernels.cu when the dtype is complex, so
// that those files compile no complex code and this one nothing else. Which ops take complex
// numbers, and the names in their errors, are the CPU's (Note [Complex math on the GPU] in
// ComplexMath.h).

#include "aten/native/TensorIterator.h"
#include "aten/native/cuda/ComplexMath.h"

namespace at {
namespace native {

void add_complex_cuda(TensorIteratorBase& iter, const c10::Scalar& alpha);
void mul_complex_cuda(TensorIteratorBase& iter);
void div_true_complex_cuda(TensorIteratorBase& iter);
void pow_tensor_tensor_complex_cuda(TensorIteratorBase& iter);
void pow_tensor_scalar_complex_cuda(TensorIteratorBase& iter, const c10::Scalar& exponent);
void addc_complex_cuda(TensorIteratorBase& iter, const c10::Scalar& value, bool divide);
void lerp_scalar_complex_cuda(TensorIteratorBase& iter, const c10::Scalar& weight);
void lerp_tensor_complex_cuda(TensorIteratorBase& iter);
void silu_complex_cuda(TensorIteratorBase& iter);
// eq, ne, logical_and/or/xor into a Bool output.
void predicate_complex_cuda(TensorIteratorBase& iter, ComplexPredicate p, const char* name);
void logical_not_complex_cuda(TensorIteratorBase& iter);
void neg_complex_cuda(TensorIteratorBase& iter);
void abs_complex_cuda(TensorIteratorBase& iter);
void math_complex_cuda(TensorIteratorBase& iter, ComplexFn fn, const char* name);

}  // namespace native
}  // namespace at
