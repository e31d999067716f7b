#pragma once
// The layout predicates TensorImpl caches (REFERENCE.md section 1), as pure functions of
// sizes and strides so they can be tested and reused (TensorIterator, empty_like).

#include "c10/util/ArrayRef.h"

namespace c10 {

// Walking dims from last to first, every dim of size != 1 has stride == product of the sizes
// after it. An empty tensor (numel 0) is contiguous.
C10_API bool compute_contiguous(IntArrayRef sizes, IntArrayRef strides);
// The walk alone, for a caller that knows the tensor has elements (TensorImpl, whose numel is
// cached): compute_contiguous first scans the sizes for a 0.
C10_API bool compute_contiguous_nonempty(IntArrayRef sizes, IntArrayRef strides);

// The same walk in the order (1, 3, 2, 0) for rank 4; false for any other rank.
C10_API bool compute_channels_last_contiguous_2d(IntArrayRef sizes, IntArrayRef strides);
// The same walk in the order (1, 4, 3, 2, 0) for rank 5; false for any other rank.
C10_API bool compute_channels_last_contiguous_3d(IntArrayRef sizes, IntArrayRef strides);

// Note [Non-overlapping and dense]
// Some permutation of the dims makes the tensor contiguous: sorting the dims of size >= 2 by
// stride, their strides must be 1, s0, s0*s1, ... Dims of size 0 or 1 impose nothing. Rank 1 is
// special-cased as size < 2 or stride 1. [3,4] with strides [1,3] is dense but not contiguous.
C10_API bool compute_non_overlapping_and_dense(IntArrayRef sizes, IntArrayRef strides);

}  // namespace c10
