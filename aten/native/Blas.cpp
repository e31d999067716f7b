// gemm: BLAS for float, double and the complex types, a plain loop for the rest. See Blas.h.

#include "aten/native/Blas.h"

#include <algorithm>
#include <climits>

#include "aten/Dispatch.h"
#include "aten/OpMathType.h"
#include "aten/Parallel.h"
#include "c10/util/WrappingArithmetic.h"
#include "c10/util/complex.h"

// The CBLAS functions miniaten calls, declared here rather than through a cblas.h: Debian has
// several (netlib's, OpenBLAS's), and these prototypes are the standard's, whichever library
// CMake's FindBLAS links.
extern "C" {
enum CBLAS_ORDER { CblasRowMajor = 101, CblasColMajor = 102 };
enum CBLAS_TRANSPOSE { CblasNoTrans = 111, CblasTrans = 112, CblasConjTrans = 113 };
void cblas_sgemm(CBLAS_ORDER order, CBLAS_TRANSPOSE transa, CBLAS_TRANSPOSE transb, int m, int n,
                 int k, float alpha, const float* a, int lda, const float* b, int ldb, float beta,
                 float* c, int ldc);
void cblas_dgemm(CBLAS_ORDER order, CBLAS_TRANSPOSE transa, CBLAS_TRANSPOSE transb, int m, int n,
                 int k, double alpha, const double* a, int lda, const double* b, int ldb,
                 double beta, double* c, int ldc);
void cblas_cgemm(CBLAS_ORDER order, CBLAS_TRANSPOSE transa, CBLAS_TRANSPOSE transb, int m, int n,
                 int k, const void* alpha, const void* a, int lda, const void* b, int ldb,
                 const void* beta, void* c, int ldc);
void cblas_zgemm(CBLAS_ORDER order, CBLAS_TRANSPOSE transa, CBLAS_TRANSPOSE transb, int m, int n,
                 int k, const void* alpha, const void* a, int lda, const void* b, int ldb,
                 const void* beta, void* c, int ldc);
}

namespace at {
namespace native {
namespace cpublas {

namespace {

// The leading dimension of `m` read row-major, or -1 when it cannot be (Blas.h).
int64_t row_major_ld(int64_t rows, int64_t cols, int64_t row_stride, int64_t col_stride) {
  const int64_t min_ld = std::max<int64_t>(1, cols);
  if (cols > 1 && col_stride != 1) return -1;
  if (rows <= 1) return min_ld;
  return row_stride >= min_ld ? row_stride : -1;
}
int64_t row_major_ld(const Matrix& m) {
  return row_major_ld(m.rows, m.cols, m.row_stride, m.col_stride);
}
int64_t col_major_ld(const Matrix& m) {
  return row_major_ld(m.cols, m.rows, m.col_stride, m.row_stride);
}

bool fits_int(int64_t v) {
  return v <= INT_MAX;
}

template <typename T>
void blas_gemm(const Matrix& a, const Matrix& b, const Matrix& c, T alpha, T beta) {
  const GemmLayout l = gemm_layout(a, b, c);
  const CBLAS_ORDER order = l.row_major ? CblasRowMajor : CblasColMajor;
  const CBLAS_TRANSPOSE ta = l.trans_a ? CblasTrans : CblasNoTrans;
  const CBLAS_TRANSPOSE tb = l.trans_b ? CblasTrans : CblasNoTrans;
  const int m = static_cast<int>(c.rows), n = static_cast<int>(c.cols),
            k = static_cast<int>(a.cols);
  if constexpr (std::is_same_v<T, float>) {
    cblas_sgemm(order, ta, tb, m, n, k, alpha, static_cast<const float*>(a.data), l.lda,
                static_cast<const float*>(b.data), l.ldb, beta, static_cast<float*>(c.data), l.ldc);
  } else if constexpr (std::is_same_v<T, double>) {
    cblas_dgemm(order, ta, tb, m, n, k, alpha, static_cast<const double*>(a.data), l.lda,
                static_cast<const double*>(b.data), l.ldb, beta, static_cast<double*>(c.data),
                l.ldc);
  } else if constexpr (std::is_same_v<T, c10::complex<float>>) {
    cblas_cgemm(order, ta, tb, m, n, k, &alpha, a.data, l.lda, b.data, l.ldb, &beta, c.data, l.ldc);
  } else {
    static_assert(std::is_same_v<T, c10::complex<double>>);
    cblas_zgemm(order, ta, tb, m, n, k, &alpha, a.data, l.lda, b.data, l.ldb, &beta, c.data, l.ldc);
  }
}

// Integer products wrap, as libtorch's compiled loops do (Note [Integer tensor arithmetic wraps]
// in aten/CMakeLists.txt); this file is not compiled with -fwrapv, so the wrapping is explicit.
template <typename T>
T mul_add(T acc, T x, T y) {
  if constexpr (std::is_integral_v<T>) {
    return c10::wrapping_add(acc, c10::wrapping_mul(x, y));
  } else {
    return acc + x * y;
  }
}

// The loop for the dtypes BLAS does not have: rows in parallel, each dot product accumulated in
// the op-math type (float for BFloat16).
template <typename T>
void loop_gemm(const Matrix& a, const Matrix& b, const Matrix& c, const c10::Scalar& alpha_s,
               const c10::Scalar& beta_s) {
  using opmath_t = at::opmath_type<T>;
  const auto alpha = alpha_s.to<opmath_t>();
  const auto beta = beta_s.to<opmath_t>();
  const bool beta_is_zero = beta == opmath_t(0), alpha_is_zero = alpha == opmath_t(0);
  const T* pa = static_cast<const T*>(a.data);
  const T* pb = static_cast<const T*>(b.data);
  T* pc = static_cast<T*>(c.data);
  const int64_t k = a.cols;
  const int64_t grain =
      std::max<int64_t>(1, at::internal::GRAIN_SIZE / std::max<int64_t>(1, k * c.cols));
  at::parallel_for(0, c.rows, grain, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      for (int64_t j = 0; j < c.cols; ++j) {
        opmath_t acc(0);
        if (!alpha_is_zero) {
          for (int64_t l = 0; l < k; ++l) {
            acc = mul_add<opmath_t>(acc,
                                    static_cast<opmath_t>(pa[i * a.row_stride + l * a.col_stride]),
                                    static_cast<opmath_t>(pb[l * b.row_stride + j * b.col_stride]));
          }
        }
        T& out = pc[i * c.row_stride + j * c.col_stride];
        opmath_t value = mul_add<opmath_t>(opmath_t(0), alpha, acc);
        if (!beta_is_zero) value = mul_add<opmath_t>(value, beta, static_cast<opmath_t>(out));
        out = static_cast<T>(value);
      }
    }
  });
}

}  // namespace

Matrix matrix_of(const Tensor& t) {
  return Matrix{t.data_ptr(), t.size(0), t.size(1), t.stride(0), t.stride(1)};
}

bool blas_can_read(const Matrix& m) {
  return fits_int(m.rows) && fits_int(m.cols) &&
         ((row_major_ld(m) >= 0 && fits_int(row_major_ld(m))) ||
          (col_major_ld(m) >= 0 && fits_int(col_major_ld(m))));
}

bool fits_blas(int64_t rows, int64_t cols) {
  return fits_int(rows) && fits_int(cols);
}

GemmLayout gemm_layout(const Matrix& a, const Matrix& b, const Matrix& c) {
  GemmLayout l;
  const int64_t c_row_ld = row_major_ld(c);
  l.row_major = c_row_ld >= 0;
  l.ldc = static_cast<int>(l.row_major ? c_row_ld : col_major_ld(c));
  // Each operand as itself when it reads in the call's order, else as its transpose.
  const auto place = [&](const Matrix& m, bool& trans, int& ld) {
    const int64_t own = l.row_major ? row_major_ld(m) : col_major_ld(m);
    trans = own < 0;
    ld = static_cast<int>(trans ? (l.row_major ? col_major_ld(m) : row_major_ld(m)) : own);
  };
  place(a, l.trans_a, l.lda);
  place(b, l.trans_b, l.ldb);
  return l;
}

ColumnMajorCall column_major_call(const Matrix& a, const Matrix& b, const Matrix& c) {
  const GemmLayout l = gemm_layout(a, b, c);
  const int m = static_cast<int>(c.rows), n = static_cast<int>(c.cols),
            k = static_cast<int>(a.cols);
  if (l.row_major) {
    return ColumnMajorCall{true,   l.trans_b, l.trans_a, n,     m,      k,
                           b.data, l.ldb,     a.data,    l.lda, c.data, l.ldc};
  }
  return ColumnMajorCall{false,  l.trans_a, l.trans_b, m,     n,      k,
                         a.data, l.lda,     b.data,    l.ldb, c.data, l.ldc};
}

bool uses_blas(ScalarType type) {
  return type == kFloat || type == kDouble || type == kComplexFloat || type == kComplexDouble;
}

void gemm(ScalarType type, const Matrix& a, const Matrix& b, const Matrix& c,
          const c10::Scalar& alpha, const c10::Scalar& beta) {
  if (c.rows == 0 || c.cols == 0) return;
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND(kBFloat16, type, "addmm_impl_cpu_", [&] {
    if constexpr (std::is_floating_point_v<scalar_t> || c10::is_complex<scalar_t>::value) {
      // Note [alpha == 0 never reaches BLAS]
      // BLAS's contract is that alpha == 0 leaves the product out (NaN in a or b included), but
      // OpenBLAS 0.3.21's Cooper Lake kernels multiply anyway: addmm(ones, a * NaN, b, 1, 0)
      // gave NaN. The loop below computes beta * c alone then, without reading a or b.
      const bool alpha_is_zero = alpha.to<scalar_t>() == scalar_t(0);
      if (!alpha_is_zero && blas_can_read(a) && blas_can_read(b) && blas_can_read(c)) {
        blas_gemm<scalar_t>(a, b, c, alpha.to<scalar_t>(), beta.to<scalar_t>());
      } else {
        loop_gemm<scalar_t>(a, b, c, alpha, beta);
      }
    } else {
      loop_gemm<scalar_t>(a, b, c, alpha, beta);
    }
  });
}

}  // namespace cpublas
}  // namespace native
}  // namespace at
