#pragma once
// c10::SmallVector: a vector with N elements stored inline, backed by absl::InlinedVector.
//
// Note [Hot loops index raw pointers]
// Debian builds Abseil hardened (ABSL_OPTION_HARDENED 1): every InlinedVector operator[] checks
// its bound, and every access tests whether the elements are inline or on the heap. In a loop
// over dims and operands that run on every op call (TensorIterator's build, DimCounter, view
// geometry), take `.data()` once and index the pointer.

#include <absl/container/inlined_vector.h>

#include <cstdint>

namespace c10 {

template <typename T, size_t N>
using SmallVector = absl::InlinedVector<T, N>;

}  // namespace c10
