#pragma once
// c10::SmallVector: a vector with N elements stored inline, backed by absl::InlinedVector.

#include <absl/container/inlined_vector.h>

#include <cstdint>

namespace c10 {

template <typename T, size_t N>
using SmallVector = absl::InlinedVector<T, N>;

}  // namespace c10
