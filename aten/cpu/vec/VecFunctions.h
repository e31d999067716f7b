#pragma once
// Free functions over Vectorized<T>: libtorch's spellings of the member math (at::vec::exp(v),
// ...) and the clamp family. Included at the end of Vectorized.h, which kernels include.

#include "aten/cpu/vec/Vectorized.h"

namespace at {
namespace vec {
inline namespace CPU_CAPABILITY {

// libtorch's free-function spellings.
template <typename T>
inline Vectorized<T> abs(const Vectorized<T>& a) {
  return a.abs();
}
template <typename T>
inline Vectorized<T> exp(const Vectorized<T>& a) {
  return a.exp();
}
template <typename T>
inline Vectorized<T> log(const Vectorized<T>& a) {
  return a.log();
}
template <typename T>
inline Vectorized<T> sqrt(const Vectorized<T>& a) {
  return a.sqrt();
}
template <typename T>
inline Vectorized<T> tanh(const Vectorized<T>& a) {
  return a.tanh();
}
template <typename T>
inline Vectorized<T> pow(const Vectorized<T>& a, const Vectorized<T>& b) {
  return a.pow(b);
}

// std::max(a, lo) then std::min(., hi), lane by lane exactly as the scalar code: a NaN `a`
// stays NaN, a NaN bound is ignored (libtorch's clamp kernels). min/max instructions would
// agree on these lanes; the selects keep the rule visible.
template <typename T>
inline Vectorized<T> clamp_min(const Vectorized<T>& a, const Vectorized<T>& lo) {
  return Vectorized<T>::blendv(a, lo, a < lo);
}
template <typename T>
inline Vectorized<T> clamp_max(const Vectorized<T>& a, const Vectorized<T>& hi) {
  return Vectorized<T>::blendv(a, hi, hi < a);
}
template <typename T>
inline Vectorized<T> clamp(const Vectorized<T>& a, const Vectorized<T>& lo,
                           const Vectorized<T>& hi) {
  return clamp_max(clamp_min(a, lo), hi);
}

}  // namespace CPU_CAPABILITY
}  // namespace vec
}  // namespace at
