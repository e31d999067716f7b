#pragma once
// at::vec::convert(src, dst, n): dst[i] = c10::convert<D>(src[i]) for n contiguous elements with
// vector conversions, for the pairs whose vector conversion gives c10::convert's bits:
//   float <-> double, integers -> float or double,   (GCC's __builtin_convertvector: cvtps2pd,
//   integers -> integers (modulo 2^bits)              cvtdq2ps, vpmovqd, ...)
//   Half / BFloat16 <-> float                        (Vectorized's lane-parallel conversions,
//                                                     which round as c10's scalar ones)
//   float / double -> integers                       (the truncating instructions: see
//                                                     Note [Vector float-to-integer conversions])
//   numbers -> Bool (x != 0), Bool -> numbers (0, 1) (a compare, then bytes widened or narrowed)
// can_convert<D, S>() says which pairs; the caller keeps its scalar loop for the rest (complex,
// Half/BFloat16 with anything but float, float -> int64 without AVX-512). Included by
// per-capability kernels only (Note [Vectorized lives in namespace CPU_CAPABILITY]).
//
// Note [Vector float-to-integer conversions]
// c10::convert truncates toward zero into int32 (int64 for an int64 target) and makes every
// value outside that range, NaN included, the range's minimum, then narrows modulo 2^bits
// (Note [Out-of-range floating-point to integer conversions] in c10/util/TypeCast.h). That is
// exactly what x86's truncating conversions do: cvttps2dq / cvttpd2dq (AVX2, AVX-512) and
// cvttps2qq / cvttpd2qq (AVX-512DQ) return the "integer indefinite" value, INT32_MIN or
// INT64_MIN, for such lanes. So the vector path is those instructions (intrinsics, not
// __builtin_convertvector, whose out-of-range lanes C++ leaves undefined) and an integer
// narrowing. AVX2 has no packed conversion to int64, and the DEFAULT copy none of the 32-byte
// width it works in: those keep the scalar loop.

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "aten/cpu/vec/Vectorized.h"
#include "c10/util/TypeCast.h"

#if defined(CPU_CAPABILITY_AVX2) || defined(CPU_CAPABILITY_AVX512)
#include <immintrin.h>
#endif

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
  } else if constexpr (std::is_same<D, bool>::value) {
    return detail::is_native_number_v<S>;
  } else if constexpr (std::is_same<S, bool>::value) {
    return detail::is_native_number_v<D>;
  } else if constexpr (std::is_floating_point<S>::value && std::is_integral<D>::value) {
#if defined(CPU_CAPABILITY_AVX512)
    return true;
#elif defined(CPU_CAPABILITY_AVX2)
    return sizeof(D) <= 4;
#else
    return false;
#endif
  } else {
    return detail::is_native_number_v<S> && detail::is_native_number_v<D>;
  }
}

namespace detail {

// As many lanes of S and D as the wider of them fills one Vectorized with, and at least 16 bytes
// of S: GCC 12 widens an 8-byte vector (8 uint8 -> 8 int64) lane by lane.
template <typename D, typename S>
constexpr int convert_lanes() {
  constexpr int wide =
      kVectorBytes / static_cast<int>(sizeof(S) > sizeof(D) ? sizeof(S) : sizeof(D));
  constexpr int narrow = 16 / static_cast<int>(sizeof(S));
  return wide > narrow ? wide : narrow;
}

// An unaligned, aliasing view of `Lanes` elements of E in memory.
template <typename E, int Lanes>
struct MemVec {
  typedef E type __attribute__((vector_size(sizeof(E) * Lanes), aligned(1), may_alias));
};

#if defined(CPU_CAPABILITY_AVX2) || defined(CPU_CAPABILITY_AVX512)
// Lanes of S truncated toward zero to Wide (int32 or int64), out-of-range and NaN lanes the
// minimum. See Note [Vector float-to-integer conversions]. (The AVX-512 forms with an all-ones
// zeroing mask: GCC 12's unmasked ones pass an undefined source that -Wmaybe-uninitialized
// reports.)
template <typename Wide, typename S, int Lanes>
C10_ALWAYS_INLINE typename GccVec<Wide, Lanes>::type truncate_to(
    typename GccVec<S, Lanes>::type x) {
  using Out = typename GccVec<Wide, Lanes>::type;
#if defined(CPU_CAPABILITY_AVX512)
  if constexpr (std::is_same<Wide, int64_t>::value) {
    if constexpr (std::is_same<S, float>::value) {
      return bitcast<Out>(_mm512_maskz_cvttps_epi64(__mmask8(-1), bitcast<__m256>(x)));
    } else {
      return bitcast<Out>(_mm512_maskz_cvttpd_epi64(__mmask8(-1), bitcast<__m512d>(x)));
    }
  } else if constexpr (std::is_same<S, float>::value) {
    return bitcast<Out>(_mm512_maskz_cvttps_epi32(__mmask16(-1), bitcast<__m512>(x)));
  } else {
    return bitcast<Out>(_mm512_maskz_cvttpd_epi32(__mmask8(-1), bitcast<__m512d>(x)));
  }
#else
  static_assert(std::is_same<Wide, int32_t>::value, "AVX2 converts to int32 only");
  if constexpr (std::is_same<S, float>::value) {
    return bitcast<Out>(_mm256_cvttps_epi32(bitcast<__m256>(x)));
  } else {
    return bitcast<Out>(_mm256_cvttpd_epi32(bitcast<__m256d>(x)));
  }
#endif
}
#endif

// __builtin_convertvector(x, To), except that 8- and 16-bit integer lanes going to a type of 4 or
// more bytes are first widened to int32 (vpmovsxbd, vpmovzxwd): GCC 12 turns int8 -> float in one
// step into a scalar loop of extracts. (To 8-byte lanes even this is not enough: widen_to_64.)
template <typename To, typename From>
C10_ALWAYS_INLINE To widen_then_convert(From x) {
  using S = std::remove_cv_t<std::remove_reference_t<decltype(x[0])>>;
  using T = std::remove_cv_t<std::remove_reference_t<decltype(std::declval<To>()[0])>>;
  if constexpr (std::is_integral<S>::value && sizeof(S) < 4 && sizeof(T) >= 4 &&
                !std::is_same<S, T>::value) {
    using I32 = typename GccVec<int32_t, lanes_of<From>()>::type;
    return __builtin_convertvector(__builtin_convertvector(x, I32), To);
  } else {
    return __builtin_convertvector(x, To);
  }
}

#if defined(CPU_CAPABILITY_AVX2) || defined(CPU_CAPABILITY_AVX512)
// Whether convert<D, S> widens 8- or 16-bit integers (or bools) to int64 or double: GCC 12
// builds those vectors lane by lane from memory whatever the source code says (even through an
// int32 step), so widen_to_64 spells the widening instructions out.
template <typename D, typename S>
constexpr bool widens_to_64() {
  return (std::is_integral<S>::value && sizeof(S) <= 2) &&
         (std::is_same<D, int64_t>::value || std::is_same<D, double>::value);
}

// One register of D (8 lanes under AVX-512, 4 under AVX2) from src[0, lanes).
template <typename D, typename S>
C10_ALWAYS_INLINE void widen_to_64(const S* src, D* dst) {
  constexpr int kLanes = kVectorBytes / 8;
  constexpr int kBytes = kLanes * static_cast<int>(sizeof(S));  // 4, 8 or 16
  __m128i v;
  if constexpr (kBytes == 16) {
    v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src));
  } else if constexpr (kBytes == 8) {
    v = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(src));
  } else {
    int32_t word;
    std::memcpy(&word, src, sizeof(word));
    v = _mm_cvtsi32_si128(word);
  }
  if constexpr (std::is_same<S, bool>::value) v = _mm_min_epu8(v, _mm_set1_epi8(1));  // 0 or 1
  constexpr bool kSigned = std::is_signed<S>::value;
#if defined(CPU_CAPABILITY_AVX512)
  // Zeroing forms with an all-ones mask: GCC 12's unmasked ones pass an undefined source that
  // -Wmaybe-uninitialized reports.
  constexpr __mmask8 kAll = 0xFF;
  __m512i w;
  if constexpr (sizeof(S) == 2) {
    w = kSigned ? _mm512_maskz_cvtepi16_epi64(kAll, v) : _mm512_maskz_cvtepu16_epi64(kAll, v);
  } else {
    w = kSigned ? _mm512_maskz_cvtepi8_epi64(kAll, v) : _mm512_maskz_cvtepu8_epi64(kAll, v);
  }
  if constexpr (std::is_same<D, double>::value) {
    _mm512_storeu_pd(dst, _mm512_maskz_cvtepi64_pd(kAll, w));
  } else {
    _mm512_storeu_si512(dst, w);
  }
#else
  if constexpr (std::is_same<D, double>::value) {
    // No int64 -> double instruction in AVX2: through int32.
    __m128i w32;
    if constexpr (sizeof(S) == 2) {
      w32 = kSigned ? _mm_cvtepi16_epi32(v) : _mm_cvtepu16_epi32(v);
    } else {
      w32 = kSigned ? _mm_cvtepi8_epi32(v) : _mm_cvtepu8_epi32(v);
    }
    _mm256_storeu_pd(dst, _mm256_cvtepi32_pd(w32));
  } else {
    __m256i w;
    if constexpr (sizeof(S) == 2) {
      w = kSigned ? _mm256_cvtepi16_epi64(v) : _mm256_cvtepu16_epi64(v);
    } else {
      w = kSigned ? _mm256_cvtepi8_epi64(v) : _mm256_cvtepu8_epi64(v);
    }
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst), w);
  }
#endif
}
#endif

}  // namespace detail

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
#if defined(CPU_CAPABILITY_AVX2) || defined(CPU_CAPABILITY_AVX512)
  } else if constexpr (detail::widens_to_64<D, S>()) {
    constexpr int kLanes = kVectorBytes / 8;
    int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes) detail::widen_to_64(src + i, dst + i);
    for (; i < n; ++i) dst[i] = c10::convert<D>(src[i]);
#endif
  } else {
    constexpr int kLanes = detail::convert_lanes<D, S>();
    // bool lanes are read and written as bytes (a bool vector type does not exist).
    using SE = std::conditional_t<std::is_same<S, bool>::value, uint8_t, S>;
    using DE = std::conditional_t<std::is_same<D, bool>::value, uint8_t, D>;
    using SrcVec = typename detail::MemVec<SE, kLanes>::type;
    using DstVec = typename detail::MemVec<DE, kLanes>::type;
    using Dst = typename detail::GccVec<DE, kLanes>::type;
    int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes) {
      const auto x = *reinterpret_cast<const SrcVec*>(src + i);
      Dst y;
      if constexpr (std::is_same<D, bool>::value || std::is_same<S, bool>::value) {
        // x != 0 as a mask of S's width (NaN is nonzero), narrowed or widened to D: 1 or 0.
        using M = detail::MaskVec<SE, kLanes>;
        const M set = detail::compare<M>(x, SE(0), detail::NotEqual());
        y = detail::widen_then_convert<Dst>(set & 1);
      } else if constexpr (std::is_floating_point<S>::value && std::is_integral<D>::value) {
#if defined(CPU_CAPABILITY_AVX2) || defined(CPU_CAPABILITY_AVX512)
        using Wide = std::conditional_t<(sizeof(D) > 4), int64_t, int32_t>;
        y = __builtin_convertvector(detail::truncate_to<Wide, S, kLanes>(x), Dst);
#endif
      } else {
        y = detail::widen_then_convert<Dst>(x);
      }
      *reinterpret_cast<DstVec*>(dst + i) = y;
    }
    for (; i < n; ++i) dst[i] = c10::convert<D>(src[i]);
  }
}

}  // namespace CPU_CAPABILITY
}  // namespace vec
}  // namespace at
