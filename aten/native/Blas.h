#pragma once
// Matrix products on the CPU: one gemm over strided matrices, run by the BLAS library
// (OpenBLAS, found by CMake's FindBLAS) for float, double and the complex types, and by a plain
// loop for the other dtypes libtorch multiplies (integers, BFloat16). mm, addmm, bmm, mv and dot
// (LinearAlgebra.cpp) are built on it.
//
// Note [Matrices as BLAS sees them]
// BLAS reads a matrix through a pointer and one leading dimension: element (i, j) of a row-major
// matrix is at i * ld + j, of a column-major one at i + j * ld. So a 2-D tensor goes in without a
// copy when one of its strides is 1 and the other is at least the extent along the unit stride:
// strides (ld, 1) read as a row-major matrix, strides (1, ld) as a column-major one, that is, as
// the transpose of a row-major matrix (a.t() of a contiguous tensor goes in as "transposed", as
// in libtorch). A dim of size 1 never steps, so its stride does not matter. The result decides
// the order of the call (row-major when its columns are contiguous, column-major when its rows
// are), and each operand goes in as itself or as its transpose in that order. An operand or
// result that fits neither (expanded, sliced with a step) is copied contiguous first, the result
// copied back after.

#include <cstdint>

#include "aten/core/Tensor.h"
#include "aten/native/DispatchStub.h"

namespace at {
namespace native {
namespace cpublas {

// A matrix in memory: rows x cols elements, (i, j) at data + i * row_stride + j * col_stride.
struct Matrix {
  void* data = nullptr;
  int64_t rows = 0, cols = 0;
  int64_t row_stride = 0, col_stride = 0;
};

// The matrix `t` (2-D) is, starting at its first element.
Matrix matrix_of(const Tensor& t);

// Whether BLAS can read `m` as it is (Note [Matrices as BLAS sees them]).
bool blas_can_read(const Matrix& m);
// Whether a contiguous rows x cols matrix fits BLAS's int sizes (else gemm runs its loop).
bool fits_blas(int64_t rows, int64_t cols);

// c = beta * c + alpha * (a @ b), in dtype `type`; with beta == 0, c's old values (NaN
// included) are not read, and with alpha == 0 the product is not computed, as BLAS defines.
// a is m x k, b is k x n, c is m x n. The BLAS dtypes go to BLAS when all three satisfy
// blas_can_read (callers copy those that do not) and to the loop otherwise (sizes past int);
// the loop takes any strides.
void gemm(ScalarType type, const Matrix& a, const Matrix& b, const Matrix& c,
          const c10::Scalar& alpha, const c10::Scalar& beta);

// Whether `type` is multiplied by BLAS (float, double, complex) rather than the plain loop.
bool uses_blas(ScalarType type);

// How c = a @ b goes into one BLAS call (Note [Matrices as BLAS sees them]): the call's order
// (row-major when c's columns are contiguous), c's leading dimension, and each operand as itself
// or transposed in that order with its leading dimension. All three must satisfy blas_can_read.
// cuBLAS (column-major only) takes a row-major call as the column-major product b^T a^T:
// the same layout with a and b swapped.
struct GemmLayout {
  bool row_major = true;
  bool trans_a = false, trans_b = false;
  int lda = 0, ldb = 0, ldc = 0;
};
GemmLayout gemm_layout(const Matrix& a, const Matrix& b, const Matrix& c);

// The same product as one call of a column-major library (cuBLAS): c (m x n, leading dimension
// ldc) = op(first) op(second), op the transpose where trans_*. A row-major layout becomes
// b^T a^T (Note [A row-major product in a column-major library], aten/native/cuda/Blas.cpp).
struct ColumnMajorCall {
  bool swapped = false;  // first is b, second is a
  bool trans_first = false, trans_second = false;
  int m = 0, n = 0, k = 0;
  const void* first = nullptr;
  int ld_first = 0;
  const void* second = nullptr;
  int ld_second = 0;
  void* c = nullptr;
  int ldc = 0;
};
ColumnMajorCall column_major_call(const Matrix& a, const Matrix& b, const Matrix& c);

}  // namespace cpublas

// The product on a device: c = beta * c + alpha * (a @ b) for matrices the library can read
// (cpublas::blas_can_read), c not empty. CUDA: cuBLAS (aten/native/cuda/Blas.cpp); a device
// without a kernel is DispatchStub's "missing ... kernel" error.
using gemm_fn = void (*)(ScalarType type, const cpublas::Matrix& a, const cpublas::Matrix& b,
                         const cpublas::Matrix& c, const c10::Scalar& alpha,
                         const c10::Scalar& beta);
DECLARE_DISPATCH(gemm_fn, gemm_stub);

// `batch` products at once: matrix i of a, b and c starts stride_* elements after matrix i - 1
// (each matrix laid out as a, b, c describe the first); bmm's one library call on a device.
struct BatchStrides {
  int64_t batch = 1;
  int64_t a = 0, b = 0, c = 0;
};
using gemm_batched_fn = void (*)(ScalarType type, const cpublas::Matrix& a,
                                 const cpublas::Matrix& b, const cpublas::Matrix& c,
                                 const BatchStrides& strides, const c10::Scalar& alpha,
                                 const c10::Scalar& beta);
DECLARE_DISPATCH(gemm_batched_fn, gemm_batched_stub);

namespace cpublas {}  // namespace cpublas
}  // namespace native
}  // namespace at
