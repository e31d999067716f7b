// Shaping ops whose result is a fresh tensor made of views and copy_: repeat, diag and
// constant_pad_nd, with libtorch 1.13's checks and texts (TensorShape.cpp, PadNd.cpp). Each is
// CompositeExplicitAutograd: empty + view + copy_ (+ fill_) serve every device, and the
// Autograd kernel gives libtorch's node (RepeatBackward0, DiagBackward0, ConstantPadNdBackward0).
//
// Note [repeat as one broadcast copy]
// repeat(self, r) with self of sizes s (padded with leading 1s to r's length) fills a
// contiguous result of sizes r_i * s_i. Viewed as [r_0, s_0, r_1, s_1, ...], that result is
// self viewed as [1, s_0, 1, s_1, ...] broadcast over the r_i dims: one copy_ writes it, with
// the copy kernel's layouts and dtypes (libtorch reaches the same copy through unfold).

#include <cstdint>
#include <limits>
#include <vector>

#include "aten/ATen.h"
#include "aten/generated/NativeFunctions.h"

namespace at {
namespace native {

Tensor repeat(const Tensor& self, IntArrayRef repeats) {
  TORCH_CHECK(repeats.size() >= static_cast<size_t>(self.dim()),
              "Number of dimensions of repeat dims can not be smaller than number of dimensions "
              "of tensor");
  const size_t ndim = repeats.size();
  const size_t new_dims = ndim - static_cast<size_t>(self.dim());
  std::vector<int64_t> padded(new_dims, 1);
  padded.insert(padded.end(), self.sizes().begin(), self.sizes().end());
  std::vector<int64_t> target(ndim);
  bool zero = false;
  for (size_t i = 0; i < ndim; ++i) {
    zero = zero || repeats[i] == 0;
    TORCH_CHECK(!__builtin_mul_overflow(padded[i], repeats[i], &target[i]),
                "repeat(): the size of dim ", i, " overflows (", padded[i], " * ", repeats[i], ")");
  }
  Tensor result = at::empty(target, self.options());
  if (zero || result.numel() == 0) return result;
  std::vector<int64_t> pairs, one_per_pair;
  for (size_t i = 0; i < ndim; ++i) {
    pairs.insert(pairs.end(), {repeats[i], padded[i]});
    one_per_pair.insert(one_per_pair.end(), {1, padded[i]});
  }
  result.view(pairs).copy_(self.reshape(one_per_pair).expand(pairs));
  return result;
}

// A vector becomes a square matrix with it on the `diagonal`-th diagonal; a matrix gives a copy
// of that diagonal (empty when the diagonal lies outside it).
Tensor diag(const Tensor& self, int64_t diagonal) {
  TORCH_CHECK(self.dim() == 1 || self.dim() == 2, "matrix or a vector expected");
  if (self.dim() == 2) {
    const int64_t rows = self.size(0), cols = self.size(1);
    // libtorch 1.13 fails with "numel: integer multiplication overflow" once the offset
    // passes the other side of the matrix (3x4, diagonal 10); any diagonal outside is empty here.
    const bool outside = diagonal >= 0 ? diagonal >= cols : diagonal <= -rows;
    if (outside) return at::empty({0}, self.options());
    return self.diagonal(diagonal).clone(MemoryFormat::Contiguous);
  }
  // |diagonal| in unsigned arithmetic: -INT64_MIN does not fit an int64_t.
  const uint64_t offset = diagonal >= 0 ? static_cast<uint64_t>(diagonal)
                                        : uint64_t{0} - static_cast<uint64_t>(diagonal);
  int64_t n = 0;
  TORCH_CHECK(offset <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) &&
                  !__builtin_add_overflow(self.size(0), static_cast<int64_t>(offset), &n),
              "diag(): the matrix for diagonal ", diagonal, " has more rows than int64 counts");
  Tensor result = at::zeros({n, n}, self.options());
  result.diagonal(diagonal).copy_(self);
  return result;
}

// pad holds (before, after) pairs from the last dim backwards. Negative pads crop: self is
// narrowed first, then copied into its place in a result filled with `value`.
Tensor constant_pad_nd(const Tensor& self, IntArrayRef pad, const Scalar& value) {
  TORCH_CHECK(pad.size() % 2 == 0, "Length of pad must be even but instead it equals ", pad.size());
  const int64_t ndim = self.dim();
  const int64_t padded_dims = static_cast<int64_t>(pad.size() / 2);
  const int64_t first = ndim - padded_dims;
  TORCH_CHECK(ndim >= padded_dims,
              "Length of pad should be no more than twice the number of dimensions of the "
              "input. Pad length is ",
              pad.size(), "while the input has ", ndim, "dimensions.");
  auto before = [&](int64_t d) { return pad[static_cast<size_t>(2 * (ndim - d - 1))]; };
  auto after = [&](int64_t d) { return pad[static_cast<size_t>(2 * (ndim - d - 1) + 1)]; };
  // A pad past +-2^62 cannot give a tensor, and its negation or sum could overflow int64 below
  // (where libtorch's arithmetic is undefined): refused here.
  constexpr int64_t kLargestPad = int64_t{1} << 62;
  for (int64_t p : pad) {
    TORCH_CHECK(p > -kLargestPad && p < kLargestPad, "constant_pad_nd(): the pad ", p,
                " is out of range");
  }

  Tensor cropped = self;
  bool grows = false;
  for (int64_t d = first; d < ndim; ++d) {
    if (before(d) < 0) {
      cropped = cropped.narrow(d, -before(d), cropped.size(d) + before(d));
    } else {
      grows = grows || before(d) != 0;
    }
    if (after(d) < 0) {
      cropped = cropped.narrow(d, 0, cropped.size(d) + after(d));
    } else {
      grows = grows || after(d) != 0;
    }
  }
  if (!grows) return cropped.clone();

  std::vector<int64_t> shape(self.sizes().begin(), self.sizes().begin() + first);
  for (int64_t d = first; d < ndim; ++d) {
    int64_t size = 0;
    TORCH_CHECK(!__builtin_add_overflow(self.size(d), before(d) + after(d), &size),
                "constant_pad_nd(): the padded size of dim ", d, " overflows");
    TORCH_CHECK(size > 0, "The input size ", self.size(d), ", plus negative padding ", before(d),
                " and ", after(d),
                " resulted in a negative output size, which is invalid. Check dimension ", d,
                " of your input.");
    shape.push_back(size);
  }
  Tensor result = at::empty(shape, self.options().memory_format(self.suggest_memory_format()));
  result.fill_(value);
  Tensor inner = result;
  for (int64_t d = first; d < ndim; ++d) {
    if (before(d) > 0) inner = inner.narrow(d, before(d), inner.size(d) - before(d));
    if (after(d) > 0) inner = inner.narrow(d, 0, inner.size(d) - after(d));
  }
  inner.copy_(cropped);
  return result;
}

}  // namespace native
}  // namespace at
