#pragma once
// in_float(a, f): f(a) computed on float vectors for Half and BFloat16, rounded once, and on
// a's own vectors otherwise. For a compound expression (sigmoid's 1 / (1 + exp(-x))) that
// libtorch computes in float: Vectorized<Half/BFloat16>'s operators would round after each step.
// Per-capability kernels only (namespace CPU_CAPABILITY, as Vectorized).

#include <type_traits>

#include "aten/cpu/vec/Vectorized.h"

namespace at {
namespace native {
inline namespace CPU_CAPABILITY {

template <typename T, typename F>
vec::Vectorized<T> in_float(const vec::Vectorized<T>& a, const F& f) {
  if constexpr (std::is_same<T, c10::Half>::value || std::is_same<T, c10::BFloat16>::value) {
    const auto halves = a.to_float();
    return vec::Vectorized<T>::from_float(f(halves.first), f(halves.second));
  } else {
    return f(a);
  }
}

}  // namespace CPU_CAPABILITY
}  // namespace native
}  // namespace at
