#include "c10/core/Contiguity.h"

#include <vector>
#include "c10/util/WrappingArithmetic.h"

namespace c10 {

namespace {
// Walks `order` (fastest dim first) requiring dense strides, skipping size-1 dims.
template <size_t N>
bool dense_in_order(IntArrayRef sizes, IntArrayRef strides, const int (&order)[N]) {
  int64_t expected = 1;
  for (int d : order) {
    const int64_t size_d = sizes[d];
    if (size_d != 1) {
      if (strides[d] != expected) return false;
      expected = wrapping_mul(expected, size_d);  // the last product may pass int64 unused
    }
  }
  return true;
}
}  // namespace

bool compute_contiguous(IntArrayRef sizes, IntArrayRef strides) {
  for (int64_t s : sizes) {
    if (s == 0) return true;
  }
  return compute_contiguous_nonempty(sizes, strides);
}

bool compute_contiguous_nonempty(IntArrayRef sizes, IntArrayRef strides) {
  int64_t expected = 1;
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; d--) {
    const int64_t size_d = sizes[d];
    if (size_d != 1) {
      if (strides[d] != expected) return false;
      expected = wrapping_mul(expected, size_d);  // the last product may pass int64 unused
    }
  }
  return true;
}

bool compute_channels_last_contiguous_2d(IntArrayRef sizes, IntArrayRef strides) {
  static const int order[] = {1, 3, 2, 0};
  return sizes.size() == 4 && dense_in_order(sizes, strides, order);
}

bool compute_channels_last_contiguous_3d(IntArrayRef sizes, IntArrayRef strides) {
  static const int order[] = {1, 4, 3, 2, 0};
  return sizes.size() == 5 && dense_in_order(sizes, strides, order);
}

bool compute_non_overlapping_and_dense(IntArrayRef sizes, IntArrayRef strides) {
  const size_t dim = sizes.size();
  if (dim == 1) return sizes[0] < 2 || strides[0] == 1;
  // See Note [Non-overlapping and dense]. Only dims of size >= 2 take part; sorting them by
  // stride is equivalent to libtorch's sort that pushes small dims to the end. An insertion
  // sort into a plain stack array: ranks are small, and this runs for every new view, where
  // std::stable_sort would allocate a merge buffer. The dims go in last first, so the usual
  // row-major-like strides arrive already in order and nothing shifts. Ties need no stable
  // order: two dims of size >= 2 with one stride overlap, and fail the check either way.
  constexpr size_t kMaxFast = 16;
  int64_t fast[kMaxFast];
  std::vector<int64_t> slow;
  int64_t* perm = fast;
  if (dim > kMaxFast) {
    slow.resize(dim);
    perm = slow.data();
  }
  size_t n = 0;
  for (size_t d = dim; d-- > 0;) {
    if (sizes[d] < 2) continue;
    const int64_t stride = strides[d];
    size_t pos = n++;
    for (; pos > 0 && strides[perm[pos - 1]] > stride; --pos) perm[pos] = perm[pos - 1];
    perm[pos] = static_cast<int64_t>(d);
  }
  int64_t require_stride = 1;
  for (size_t i = 0; i < n; i++) {
    if (strides[perm[i]] != require_stride) return false;
    require_stride = wrapping_mul(require_stride, sizes[perm[i]]);  // see compute_contiguous
  }
  return true;
}

}  // namespace c10
