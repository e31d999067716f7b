#pragma once
// Geometry helpers shared by kernels.

#include <cstddef>
#include <utility>
#include <vector>

#include "aten/core/Tensor.h"

namespace at {

// Dense strides that keep the order of `strides` (the permutation TensorIterator would pick:
// Note [Why perm_ starts reversed]); dims with stride 0 stay where they are. empty_like uses it
// for strided inputs that are not dense.
TORCH_API std::vector<int64_t> infer_dense_strides(IntArrayRef sizes, IntArrayRef strides);

// The insertion sort of Note [Why perm_ starts reversed], shared by TensorIterator's
// reorder_dimensions and infer_dense_strides: orders perm[0, n) fastest dim first by
// should_swap(dim0, dim1) (1: dim0 goes after dim1; -1: before; 0: cannot tell), stepping over
// the pairs nothing can order.
template <typename Index, typename ShouldSwap>
void sort_dims_fastest_first(Index* perm, size_t n, const ShouldSwap& should_swap) {
  for (size_t i = 1; i < n; ++i) {
    size_t dim1 = i;
    for (size_t j = 1; j <= i; ++j) {
      const size_t dim0 = i - j;
      const int comparison = should_swap(perm[dim0], perm[dim1]);
      if (comparison > 0) {
        std::swap(perm[dim0], perm[dim1]);
        dim1 = dim0;
      } else if (comparison < 0) {
        break;
      }
    }
  }
}

}  // namespace at
