// The layout of a matrix product as a column-major library (cuBLAS) is called with
// (cpublas::column_major_call, Note [A row-major product in a column-major library]), checked on
// the CPU: each call is run through a plain column-major gemm that reads memory only through
// the call's pointers, transposes and leading dimensions, for every pairing of operand and
// result layouts BLAS reads without a copy. The GPU runs the same calls through cuBLAS.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "aten/ATen.h"
#include "aten/native/Blas.h"

namespace {

using at::native::cpublas::ColumnMajorCall;
using at::native::cpublas::matrix_of;

// c = op(first) op(second), column-major, as BLAS defines the call.
void reference_column_major_gemm(const ColumnMajorCall& call) {
  const auto* x = static_cast<const double*>(call.first);
  const auto* y = static_cast<const double*>(call.second);
  auto* c = static_cast<double*>(call.c);
  const auto at = [](const double* p, bool trans, int ld, int r, int col) {
    return trans ? p[col + static_cast<int64_t>(r) * ld] : p[r + static_cast<int64_t>(col) * ld];
  };
  for (int i = 0; i < call.m; ++i) {
    for (int j = 0; j < call.n; ++j) {
      double sum = 0;
      for (int l = 0; l < call.k; ++l) {
        sum += at(x, call.trans_first, call.ld_first, i, l) *
               at(y, call.trans_second, call.ld_second, l, j);
      }
      c[i + static_cast<int64_t>(j) * call.ldc] = sum;
    }
  }
}

// rows x cols matrices BLAS reads as they are: row-major, column-major (a transpose), either
// with a padded leading dimension (a slice of a wider matrix), and a single row or column.
std::vector<std::pair<std::string, at::Tensor>> layouts(int64_t rows, int64_t cols) {
  const auto o = at::TensorOptions().dtype(at::kDouble);
  return {
      {"row-major", at::randn({rows, cols}, o)},
      {"column-major", at::randn({cols, rows}, o).t()},
      {"row-major padded", at::randn({rows, cols + 3}, o).narrow(1, 1, cols)},
      {"column-major padded", at::randn({cols, rows + 2}, o).narrow(1, 0, rows).t()},
  };
}

TEST(BlasLayout, ColumnMajorCallsComputeTheProductForEveryLayout) {
  at::manual_seed(0);
  for (const auto& [m, k, n] :
       std::vector<std::array<int64_t, 3>>{{5, 4, 3}, {1, 4, 3}, {5, 1, 3}, {5, 4, 1}}) {
    for (const auto& [a_name, a] : layouts(m, k)) {
      for (const auto& [b_name, b] : layouts(k, n)) {
        for (const auto& [c_name, c_like] : layouts(m, n)) {
          SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n) +
                       ": " + a_name + " @ " + b_name + " -> " + c_name);
          const at::Tensor c = c_like.zero_();
          ASSERT_TRUE(at::native::cpublas::blas_can_read(matrix_of(a)));
          ASSERT_TRUE(at::native::cpublas::blas_can_read(matrix_of(c)));
          const ColumnMajorCall call =
              at::native::cpublas::column_major_call(matrix_of(a), matrix_of(b), matrix_of(c));
          reference_column_major_gemm(call);
          EXPECT_TRUE(at::allclose(c, at::mm(a, b), 1e-12, 1e-12)) << c << at::mm(a, b);
        }
      }
    }
  }
}

}  // namespace
