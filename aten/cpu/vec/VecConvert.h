#pragma once
// at::vec::convert(src, dst, n): dst[i] = c10::convert<D>(src[i]) for n contiguous elements with
// vector conversions, for the pairs whose conversion is one rounding (or exact):
//   float <-> double, integers -> float or double   (GCC's __builtin_convertvector: cvtps2pd,
//                                                     cvtdq2ps, ...)
//   Half / BFloat16 <-> float                        (Vectorized's lane-parallel conversions,
//                                                     which round as c10's scalar ones)
// Floating -> integer conversions are not among them: c10::convert defines out-of-range values
// its own way (Note [Out-of-range floating-point to integer conversions] in c10/util/TypeCast.h).
// can_convert<D, S>() says which pairs; the caller keeps its scalar loop for the rest. Included
// by per-capability kernels only (Note [Vectorized lives in namespace CPU_CAPABILITY]).

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "aten/cpu/vec/Vectorized.h"

namespace at {
namespace vec {
inline namespace CPU_CAPABILITY {

namespace detail {
template <typename T>
constexpr bool is_reduced_float_v =
    std::is_same<T, c10::Half>::value || std::is_same<T, c10::BFloat16>::value;
template <typename T>
constexpr bool is_native_number_v = std::is_arithmetic<T>::value && !std::is_same<T, bool>::value;
}  // namespace detail

template <typename D, typename S>
constexpr bool can_convert() {
  if constexpr (std::is_same<D, S>::value) {
    return false;
  } else if constexpr (detail::is_reduced_float_v<S> || detail::is_reduced_float_v<D>) {
    return (detail::is_reduced_float_v<S> && std::is_same<D, float>::value) ||
           (detail::is_reduced_float_v<D> && std::is_same<S, float>::value);
  } else {
    return detail::is_native_number_v<S> && std::is_floating_point<D>::value;
  }
}

template <typename D, typename S>
void convert(const S* src, D* dst, int64_t n) {
  static_assert(can_convert<D, S>(), "vec::convert: no vector conversion for this pair");
  if constexpr (detail::is_reduced_float_v<S>) {
    // Half / BFloat16 -> float: one Vectorized<S> is two float vectors.
    using V = Vectorized<S>;
    using F = Vectorized<float>;
    int64_t i = 0;
    for (; i + V::size() <= n; i += V::size()) {
      const auto halves = V::loadu(src + i).to_float();
      halves.first.store(dst + i);
      halves.second.store(dst + i + F::size());
    }
    for (; i < n; ++i) dst[i] = static_cast<float>(src[i]);
  } else if constexpr (detail::is_reduced_float_v<D>) {
    using V = Vectorized<D>;
    using F = Vectorized<float>;
    int64_t i = 0;
    for (; i + V::size() <= n; i += V::size()) {
      V::from_float(F::loadu(src + i), F::loadu(src + i + F::size())).store(dst + i);
    }
    for (; i < n; ++i) dst[i] = static_cast<D>(src[i]);
  } else {
    // As many lanes as the wider type fills one Vectorized with.
    constexpr int kLanes =
        kVectorBytes / static_cast<int>(sizeof(S) > sizeof(D) ? sizeof(S) : sizeof(D));
    typedef S SrcVec __attribute__((vector_size(sizeof(S) * kLanes), aligned(1), may_alias));
    typedef D DstVec __attribute__((vector_size(sizeof(D) * kLanes), aligned(1), may_alias));
    int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes) {
      *reinterpret_cast<DstVec*>(dst + i) =
          __builtin_convertvector(*reinterpret_cast<const SrcVec*>(src + i), DstVec);
    }
    for (; i < n; ++i) dst[i] = static_cast<D>(src[i]);
  }
}

}  // namespace CPU_CAPABILITY
}  // namespace vec
}  // namespace at
