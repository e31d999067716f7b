#pragma once
// What the indexing kernels that add share (IndexingScatter.cpp's scatter_add_,
// IndexingAdvanced.cpp's index_put_ with accumulate).

#include <type_traits>

#include "aten/OpMathType.h"
#include "c10/util/WrappingArithmetic.h"

namespace at {
namespace native {

// a + b in the op-math type; integers wrap (these files are not built with -fwrapv), Bool is an
// or.
template <typename T>
T add_values(T a, T b) {
  if constexpr (std::is_same<T, bool>::value) {
    return a || b;
  } else if constexpr (std::is_integral<T>::value) {
    return c10::wrapping_add(a, b);
  } else {
    using opmath_t = at::opmath_type<T>;
    return static_cast<T>(static_cast<opmath_t>(a) + static_cast<opmath_t>(b));
  }
}

}  // namespace native
}  // namespace at
