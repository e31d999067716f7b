#pragma once
// Geometry helpers shared by kernels.

#include <vector>

#include "aten/core/Tensor.h"

namespace at {

// Dense strides that keep the order of `strides` (the permutation TensorIterator would pick:
// Note [Why perm_ starts reversed]); dims with stride 0 stay where they are. empty_like uses it
// for strided inputs that are not dense.
TORCH_API std::vector<int64_t> infer_dense_strides(IntArrayRef sizes, IntArrayRef strides);

}  // namespace at
