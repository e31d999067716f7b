// tril and triu (out of place, in place, out=), with libtorch 1.13's checks (TriangularOps.cpp).
//
// Note [Zeroing a triangle]
// The last two dims are the matrices, the others a batch. The result starts as a copy of self
// (or is self, in place) and each matrix row then has the columns outside the kept triangle set
// to zero bytes, which is zero in every dtype: tril(k) keeps column j of row i where j - i <= k,
// triu(k) where j - i >= k. A row's columns are a memset when they are adjacent in memory, and
// element by element otherwise.

#include <algorithm>
#include <cstring>
#include <vector>

#include "aten/ATen.h"
#include "aten/generated/NativeFunctions.h"
#include "aten/native/Resize.h"

namespace at {
namespace native {

namespace {

void zero_columns(char* row, int64_t col_stride, int64_t itemsize, int64_t begin, int64_t end) {
  if (begin >= end) return;
  if (col_stride == 1) {
    std::memset(row + begin * itemsize, 0, static_cast<size_t>((end - begin) * itemsize));
    return;
  }
  for (int64_t j = begin; j < end; ++j) std::memset(row + j * col_stride * itemsize, 0, itemsize);
}

// Zeroes what lies outside the triangle of each matrix of `t` (Note [Zeroing a triangle]).
void zero_outside_triangle(const Tensor& t, int64_t k, bool lower) {
  if (t.numel() == 0 || t.is_meta()) return;
  const int64_t ndim = t.dim();
  const int64_t rows = t.size(ndim - 2), cols = t.size(ndim - 1);
  const int64_t row_stride = t.stride(ndim - 2), col_stride = t.stride(ndim - 1);
  // Past these bounds k changes nothing (everything kept, or nothing): clamped, so that
  // i + k + 1 below cannot overflow.
  k = std::min(std::max(k, -rows - 1), cols + 1);
  if (!t.device().is_cpu()) {
    // On a device: the outside as a [rows, cols] mask of the device's own operators, broadcast
    // over the matrices by masked_fill_. tril keeps j - i <= k, triu keeps j - i >= k.
    const TensorOptions index = t.options().dtype(kLong);
    const Tensor j_minus_i = at::arange(cols, index) - at::arange(rows, index).unsqueeze(1);
    t.masked_fill_(lower ? j_minus_i.gt(k) : j_minus_i.lt(k), 0);
    return;
  }
  const auto itemsize = static_cast<int64_t>(t.element_size());
  const int64_t matrices = t.numel() / (rows * cols);
  std::vector<int64_t> counter(static_cast<size_t>(ndim - 2), 0);
  char* base = static_cast<char*>(t.data_ptr());
  for (int64_t m = 0; m < matrices; ++m) {
    int64_t offset = 0;
    for (int64_t d = 0; d < ndim - 2; ++d) offset += counter[static_cast<size_t>(d)] * t.stride(d);
    for (int64_t i = 0; i < rows; ++i) {
      char* row = base + (offset + i * row_stride) * itemsize;
      // tril keeps j <= i + k: zero [i + k + 1, cols); triu keeps j >= i + k: zero [0, i + k).
      const int64_t edge = std::min(std::max(i + k + (lower ? 1 : 0), int64_t{0}), cols);
      if (lower) {
        zero_columns(row, col_stride, itemsize, edge, cols);
      } else {
        zero_columns(row, col_stride, itemsize, 0, edge);
      }
    }
    for (int64_t d = ndim - 3; d >= 0; --d) {
      if (++counter[static_cast<size_t>(d)] < t.size(d)) break;
      counter[static_cast<size_t>(d)] = 0;
    }
  }
}

// libtorch 1.13 has no message of its own here: a tensor of fewer than 2 dims fails at
// self.size(-2), with the dim-wrapping error.
void check_matrix(const Tensor& self) {
  (void)self.size(-2);
}

Tensor triangle(const Tensor& self, int64_t k, bool lower) {
  check_matrix(self);
  Tensor result = at::empty(self.sizes(), self.options());
  if (result.is_meta()) return result;
  result.copy_(self);
  zero_outside_triangle(result, k, lower);
  return result;
}

Tensor& triangle_out(const Tensor& self, int64_t k, bool lower, Tensor& out) {
  check_matrix(self);
  if (out.is_same(self)) {
    zero_outside_triangle(out, k, lower);
    return out;
  }
  // Computed aside first: out may overlap self.
  const Tensor value = triangle(self, k, lower);
  resize_out(out, self.sizes(), self, self.scalar_type());
  if (!out.is_meta()) out.copy_(value);
  return out;
}

}  // namespace

Tensor tril(const Tensor& self, int64_t diagonal) {
  return triangle(self, diagonal, /*lower=*/true);
}

Tensor triu(const Tensor& self, int64_t diagonal) {
  return triangle(self, diagonal, /*lower=*/false);
}

Tensor& tril_(Tensor& self, int64_t diagonal) {
  return triangle_out(self, diagonal, /*lower=*/true, self);
}

Tensor& triu_(Tensor& self, int64_t diagonal) {
  return triangle_out(self, diagonal, /*lower=*/false, self);
}

Tensor& tril_out(const Tensor& self, int64_t diagonal, Tensor& out) {
  return triangle_out(self, diagonal, /*lower=*/true, out);
}

Tensor& triu_out(const Tensor& self, int64_t diagonal, Tensor& out) {
  return triangle_out(self, diagonal, /*lower=*/false, out);
}

}  // namespace native
}  // namespace at
