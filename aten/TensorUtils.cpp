#include "aten/TensorUtils.h"

#include <numeric>
#include "c10/util/WrappingArithmetic.h"

namespace at {

std::vector<int64_t> infer_dense_strides(IntArrayRef sizes, IntArrayRef strides) {
  TORCH_CHECK(sizes.size() == strides.size(), "Input sizes and strides should have same size but ",
              "got ", sizes.size(), " and ", strides.size());
  const size_t ndim = sizes.size();
  if (ndim == 0) return {};
  if (ndim == 1) return {1};
  std::vector<size_t> perm(ndim);
  // perm starts as n-1, ..., 0: the last dim is the fastest unless strides say otherwise.
  std::iota(perm.rbegin(), perm.rend(), 0);
  // 1: dim0 goes after dim1; -1: before; 0: ambiguous (a zero stride, or equal strides and
  // sizes). Exactly TensorIterator's rule for one operand.
  auto should_swap = [&](size_t dim0, size_t dim1) {
    const int64_t stride0 = strides[dim0];
    const int64_t stride1 = strides[dim1];
    if (stride0 == 0 || stride1 == 0) return 0;
    if (stride0 < stride1) return -1;
    if (stride0 > stride1) return 1;
    if (sizes[dim0] > sizes[dim1]) return 1;
    return 0;
  };
  sort_dims_fastest_first(perm.data(), ndim, should_swap);
  std::vector<int64_t> out(ndim);
  int64_t current = 1;
  for (size_t i = 0; i < ndim; ++i) {
    const size_t idx = perm[i];
    out[idx] = current;
    // Size-0 dims count as 1: nothing is stored. The product wraps for an empty tensor whose
    // other sizes pass int64, as libtorch's does: Note [Geometry that wraps as libtorch's does].
    if (sizes[idx] > 1) current = c10::wrapping_mul(current, sizes[idx]);
  }
  return out;
}

}  // namespace at
