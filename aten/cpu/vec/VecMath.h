#pragma once
// The math functions under at::vec::Vectorized (exp, log, sin, pow, sqrt, floor, ...), on the
// GCC vectors of compute lanes that Vectorized hands them (float or double; see Note [Storage
// lanes and compute lanes] in Vectorized.h). Included by Vectorized.h only.
//
// Note [Which function computes each lane]
// The AVX2 and AVX512 copies of a kernel call SLEEF's vector functions (Debian's libsleef, the
// library libtorch links) for the transcendentals, in the accuracy libtorch's Vectorized picks:
// the 1-ulp `_u10` variants, erfc's `_u15`, hypot's `_u05`, and fmod, which is exact. They call
// the variant for their own instruction set (Sleef_expf8_u10avx2, Sleef_expf16_u10avx512f)
// directly: the kernel copy already knows the CPU has it, so SLEEF's run-time dispatch is not
// needed. sqrt, floor, ceil, round (to nearest even, as torch.round) and trunc are single
// instructions and exact. The DEFAULT copy runs on any x86-64 and keeps, as libtorch's scalar
// Vectorized does, the std:: function lane by lane (sqrt with SSE2's exact instruction).
//
// So a transcendental may differ between capabilities in its last bits, within SLEEF's
// documented bound (1 ulp for `_u10`), and from std:: by as much: tests compare against a
// long-double reference with that bound, not lanes against std::. Within one capability a value
// never depends on its position: see Note [Vector math runs on partial vectors] in
// aten/native/cpu/Loops.h.

#include <cmath>
#include <type_traits>

#include "aten/cpu/vec/VecBase.h"

#if defined(CPU_CAPABILITY_AVX2) || defined(CPU_CAPABILITY_AVX512)
#include <immintrin.h>
#include <sleef.h>
#else
#include <emmintrin.h>
#endif

namespace at {
namespace vec {
inline namespace CPU_CAPABILITY {
namespace detail {

template <typename V>
using lane_t = std::remove_cv_t<std::remove_reference_t<decltype(std::declval<V>()[0])>>;

// The intrinsics' register type for lanes of E in this capability.
template <typename E>
struct Register;
#if defined(CPU_CAPABILITY_AVX512)
template <>
struct Register<float> {
  using type = __m512;
};
template <>
struct Register<double> {
  using type = __m512d;
};
#elif defined(CPU_CAPABILITY_AVX2)
template <>
struct Register<float> {
  using type = __m256;
};
template <>
struct Register<double> {
  using type = __m256d;
};
#else
template <>
struct Register<float> {
  using type = __m128;
};
template <>
struct Register<double> {
  using type = __m128d;
};
#endif

// f(register) for each register-wide piece of x (and y): a Half vector's float lanes span two
// registers under AVX2. See Note [Comparisons are made register-wide] in VecBase.h for the
// halving.
template <typename V, typename F>
C10_ALWAYS_INLINE V per_register(V x, V y, F f) {
  constexpr std::size_t kLanes = lanes_of<V>();
  if constexpr (sizeof(V) == kRegisterBytes) {
    using R = typename Register<lane_t<V>>::type;
    return bitcast<V>(f(bitcast<R>(x), bitcast<R>(y)));
  } else {
    static_assert(sizeof(V) > kRegisterBytes, "per_register: a vector narrower than a register");
    constexpr auto lo = std::make_index_sequence<kLanes / 2>{};
    constexpr auto hi = offset_by<kLanes / 2>(lo);
    const auto r_lo = per_register(shuffle(x, x, lo), shuffle(y, y, lo), f);
    const auto r_hi = per_register(shuffle(x, x, hi), shuffle(y, y, hi), f);
    return shuffle(r_lo, r_hi, std::make_index_sequence<kLanes>{});
  }
}
template <typename V, typename F>
C10_ALWAYS_INLINE V per_register(V x, F f) {
  return per_register(x, x, [&](auto a, auto) { return f(a); });
}

// f(lane) for each lane: the DEFAULT capability's transcendentals.
template <typename V, typename F>
C10_ALWAYS_INLINE V per_lane(V x, F f) {
  for (int i = 0; i < lanes_of<V>(); ++i) x[i] = f(x[i]);
  return x;
}
template <typename V, typename F>
C10_ALWAYS_INLINE V per_lane(V x, V y, F f) {
  for (int i = 0; i < lanes_of<V>(); ++i) x[i] = f(x[i], y[i]);
  return x;
}

// SLEEF's name for a function of this capability: Sleef_<name>f8<variant>avx2, ...
#if defined(CPU_CAPABILITY_AVX512)
#define MINIATEN_SLEEF_FLOAT(name, variant) Sleef_##name##f16##variant##avx512f
#define MINIATEN_SLEEF_DOUBLE(name, variant) Sleef_##name##d8##variant##avx512f
#elif defined(CPU_CAPABILITY_AVX2)
#define MINIATEN_SLEEF_FLOAT(name, variant) Sleef_##name##f8##variant##avx2
#define MINIATEN_SLEEF_DOUBLE(name, variant) Sleef_##name##d4##variant##avx2
#endif

// vname(x): SLEEF's <name><variant> in AVX2/AVX512, std_fn lane by lane in DEFAULT.
#if defined(MINIATEN_SLEEF_FLOAT)
#define MINIATEN_VEC_UNARY(name, variant, std_fn)                                             \
  template <typename V>                                                                       \
  C10_ALWAYS_INLINE V v##name(V x) {                                                          \
    if constexpr (std::is_same<lane_t<V>, float>::value) {                                    \
      return per_register(x, [](auto r) { return MINIATEN_SLEEF_FLOAT(name, variant)(r); });  \
    } else {                                                                                  \
      return per_register(x, [](auto r) { return MINIATEN_SLEEF_DOUBLE(name, variant)(r); }); \
    }                                                                                         \
  }
#define MINIATEN_VEC_BINARY(name, variant, std_fn)                                          \
  template <typename V>                                                                     \
  C10_ALWAYS_INLINE V v##name(V x, V y) {                                                   \
    if constexpr (std::is_same<lane_t<V>, float>::value) {                                  \
      return per_register(                                                                  \
          x, y, [](auto a, auto b) { return MINIATEN_SLEEF_FLOAT(name, variant)(a, b); });  \
    } else {                                                                                \
      return per_register(                                                                  \
          x, y, [](auto a, auto b) { return MINIATEN_SLEEF_DOUBLE(name, variant)(a, b); }); \
    }                                                                                       \
  }
#else
#define MINIATEN_VEC_UNARY(name, variant, std_fn)         \
  template <typename V>                                   \
  C10_ALWAYS_INLINE V v##name(V x) {                      \
    return per_lane(x, [](auto a) { return std_fn(a); }); \
  }
#define MINIATEN_VEC_BINARY(name, variant, std_fn)                      \
  template <typename V>                                                 \
  C10_ALWAYS_INLINE V v##name(V x, V y) {                               \
    return per_lane(x, y, [](auto a, auto b) { return std_fn(a, b); }); \
  }
#endif

MINIATEN_VEC_UNARY(exp, _u10, std::exp)
MINIATEN_VEC_UNARY(expm1, _u10, std::expm1)
MINIATEN_VEC_UNARY(exp2, _u10, std::exp2)
MINIATEN_VEC_UNARY(log, _u10, std::log)
MINIATEN_VEC_UNARY(log2, _u10, std::log2)
MINIATEN_VEC_UNARY(log10, _u10, std::log10)
MINIATEN_VEC_UNARY(log1p, _u10, std::log1p)
// Note [SLEEF's trigonometric functions couple their lanes]
// SLEEF's sin, cos and tan reduce the argument by pi/2 one of three ways (a short Cody-Waite
// reduction, a longer one, Payne-Hanek), and choose the way for the whole vector from its
// largest lane: cosf(-87.5) came out 0.894003391 beside small values and 0.894003451 beside
// 1e30 (AVX2), both within 1 ulp. A value would then depend on its neighbours (libtorch's does).
// vsin/vcos/vtan sort the lanes into the three magnitude classes first: a vector of one class
// is one call; a mixed one takes a call per class present, every other lane replaced by a
// value of that class, so each lane is reduced the way its own magnitude picks. The bounds are
// SLEEF 3.5's TRIGRANGEMAX2 / TRIGRANGEMAX (sleefsimdsp.c, sleefsimddp.c); NaN and infinities
// fall in the largest class.
namespace coupled {
MINIATEN_VEC_UNARY(sin, _u10, std::sin)
MINIATEN_VEC_UNARY(cos, _u10, std::cos)
MINIATEN_VEC_UNARY(tan, _u10, std::tan)
}  // namespace coupled

// Whether any lane of a mask (as compare makes it) is set: one test instruction per register.
template <typename M>
C10_ALWAYS_INLINE bool any_set(M m) {
#if defined(CPU_CAPABILITY_DEFAULT)
  for (int i = 0; i < lanes_of<M>(); ++i) {
    if (m[i] != 0) return true;
  }
  return false;
#else
  constexpr std::size_t kLanes = lanes_of<M>();
  if constexpr (sizeof(M) > kRegisterBytes) {
    constexpr auto lo = std::make_index_sequence<kLanes / 2>{};
    constexpr auto hi = offset_by<kLanes / 2>(lo);
    return any_set(shuffle(m, m, lo)) || any_set(shuffle(m, m, hi));
  } else {
#if defined(CPU_CAPABILITY_AVX512)
    const __m512i r = bitcast<__m512i>(m);
    return _mm512_test_epi64_mask(r, r) != 0;
#else
    const __m256i r = bitcast<__m256i>(m);
    return _mm256_testz_si256(r, r) == 0;
#endif
  }
#endif
}

#if !defined(CPU_CAPABILITY_DEFAULT)
// Whether every lane of x has |x| < bound (NaN has not): one compare into a mask register and one
// test per register. per_magnitude_class asks it of every vector, beside a SLEEF call of a few
// dozen cycles; the generic compare + any_set took 5-7% of sin's time.
template <typename V>
C10_ALWAYS_INLINE bool all_magnitudes_below(V x, lane_t<V> bound) {
  using E = lane_t<V>;
  constexpr std::size_t kLanes = lanes_of<V>();
  if constexpr (sizeof(V) > kRegisterBytes) {
    constexpr auto lo = std::make_index_sequence<kLanes / 2>{};
    constexpr auto hi = offset_by<kLanes / 2>(lo);
    return all_magnitudes_below(shuffle(x, x, lo), bound) &&
           all_magnitudes_below(shuffle(x, x, hi), bound);
  } else {
    using R = typename Register<E>::type;
    const R r = bitcast<R>(x);
#if defined(CPU_CAPABILITY_AVX512)
    if constexpr (std::is_same<E, float>::value) {
      return _mm512_cmp_ps_mask(_mm512_abs_ps(r), _mm512_set1_ps(bound), _CMP_LT_OQ) == 0xffff;
    } else {
      return _mm512_cmp_pd_mask(_mm512_abs_pd(r), _mm512_set1_pd(bound), _CMP_LT_OQ) == 0xff;
    }
#else
    if constexpr (std::is_same<E, float>::value) {
      const __m256 magnitude = _mm256_andnot_ps(_mm256_set1_ps(-0.0f), r);
      return _mm256_movemask_ps(_mm256_cmp_ps(magnitude, _mm256_set1_ps(bound), _CMP_LT_OQ)) ==
             0xff;
    } else {
      const __m256d magnitude = _mm256_andnot_pd(_mm256_set1_pd(-0.0), r);
      return _mm256_movemask_pd(_mm256_cmp_pd(magnitude, _mm256_set1_pd(bound), _CMP_LT_OQ)) == 0xf;
    }
#endif
  }
}
#endif

// f(x) with each lane computed in a vector of its own magnitude class.
template <typename V, typename F>
C10_ALWAYS_INLINE V per_magnitude_class(V x, F f) {
#if defined(CPU_CAPABILITY_DEFAULT)
  return f(x);  // std:: lane by lane: nothing couples
#else
  using E = lane_t<V>;
  using M = MaskVec<E, lanes_of<V>()>;
  constexpr E kShort = std::is_same<E, float>::value ? E(125) : E(15);
  constexpr E kLong = std::is_same<E, float>::value ? E(39000) : E(1e14);
  if (all_magnitudes_below(x, kShort)) return f(x);  // the usual case
  const M sign_bit = bitcast<M>(-V{});
  const V magnitude = bitcast<V>(bitcast<M>(x) & ~sign_bit);
  const M is_short = compare<M>(magnitude, kShort, Less());
  const M is_long = ~compare<M>(magnitude, kLong, Less());  // NaN and inf too
  const M is_middle = ~(is_short | is_long);
  const int classes = int(any_set(is_short)) + int(any_set(is_middle)) + int(any_set(is_long));
  if (classes == 1) return f(x);
  V r = f(select(is_short, x, V{}));
  r = select(is_middle, f(select(is_middle, x, V{} + kShort)), r);
  return select(is_long, f(select(is_long, x, V{} + kLong)), r);
#endif
}

template <typename V>
C10_ALWAYS_INLINE V vsin(V x) {
  return per_magnitude_class(x, [](V v) { return coupled::vsin(v); });
}
template <typename V>
C10_ALWAYS_INLINE V vcos(V x) {
  return per_magnitude_class(x, [](V v) { return coupled::vcos(v); });
}
template <typename V>
C10_ALWAYS_INLINE V vtan(V x) {
  return per_magnitude_class(x, [](V v) { return coupled::vtan(v); });
}

MINIATEN_VEC_UNARY(asin, _u10, std::asin)
MINIATEN_VEC_UNARY(acos, _u10, std::acos)
MINIATEN_VEC_UNARY(atan, _u10, std::atan)
MINIATEN_VEC_UNARY(sinh, _u10, std::sinh)
MINIATEN_VEC_UNARY(cosh, _u10, std::cosh)
MINIATEN_VEC_UNARY(tanh, _u10, std::tanh)
MINIATEN_VEC_UNARY(erf, _u10, std::erf)
MINIATEN_VEC_UNARY(erfc, _u15, std::erfc)
MINIATEN_VEC_BINARY(atan2, _u10, std::atan2)
MINIATEN_VEC_BINARY(pow, _u10, std::pow)
MINIATEN_VEC_BINARY(fmod, _, std::fmod)
MINIATEN_VEC_BINARY(hypot, _u05, std::hypot)

#undef MINIATEN_VEC_UNARY
#undef MINIATEN_VEC_BINARY
#undef MINIATEN_SLEEF_FLOAT
#undef MINIATEN_SLEEF_DOUBLE

// ---- Single instructions: exact in every capability --------------------------------------

// Whether an intrinsics register holds floats (else doubles).
template <typename R>
constexpr bool is_float_register = sizeof(std::declval<R>()[0]) == sizeof(float);

template <typename V>
C10_ALWAYS_INLINE V vsqrt(V x) {
  return per_register(x, [](auto r) {
#if defined(CPU_CAPABILITY_AVX512)
    if constexpr (is_float_register<decltype(r)>)
      return _mm512_mask_sqrt_ps(r, __mmask16(-1), r);
    else
      return _mm512_mask_sqrt_pd(r, __mmask8(-1), r);
#elif defined(CPU_CAPABILITY_AVX2)
    if constexpr (is_float_register<decltype(r)>) return _mm256_sqrt_ps(r);
    else return _mm256_sqrt_pd(r);
#else
    if constexpr (is_float_register<decltype(r)>) return _mm_sqrt_ps(r);
    else return _mm_sqrt_pd(r);
#endif
  });
}

// Rounding in the direction of an _MM_FROUND_* mode; DEFAULT (SSE2 has no rounding
// instruction) rounds lane by lane with std_fn. (The masked roundscale and sqrt: GCC 12's unmasked
// ones pass an uninitialized source that -Wuninitialized reports.)
#if defined(CPU_CAPABILITY_AVX512)
#define MINIATEN_VEC_ROUND(name, mode, std_fn)                                             \
  template <typename V>                                                                    \
  C10_ALWAYS_INLINE V v##name(V x) {                                                       \
    return per_register(x, [](auto r) {                                                    \
      if constexpr (is_float_register<decltype(r)>) {                                      \
        return _mm512_mask_roundscale_ps(r, __mmask16(-1), r, (mode) | _MM_FROUND_NO_EXC); \
      } else {                                                                             \
        return _mm512_mask_roundscale_pd(r, __mmask8(-1), r, (mode) | _MM_FROUND_NO_EXC);  \
      }                                                                                    \
    });                                                                                    \
  }
#elif defined(CPU_CAPABILITY_AVX2)
#define MINIATEN_VEC_ROUND(name, mode, std_fn)                 \
  template <typename V>                                        \
  C10_ALWAYS_INLINE V v##name(V x) {                           \
    return per_register(x, [](auto r) {                        \
      if constexpr (is_float_register<decltype(r)>) {          \
        return _mm256_round_ps(r, (mode) | _MM_FROUND_NO_EXC); \
      } else {                                                 \
        return _mm256_round_pd(r, (mode) | _MM_FROUND_NO_EXC); \
      }                                                        \
    });                                                        \
  }
#else
#define MINIATEN_VEC_ROUND(name, mode, std_fn)            \
  template <typename V>                                   \
  C10_ALWAYS_INLINE V v##name(V x) {                      \
    return per_lane(x, [](auto a) { return std_fn(a); }); \
  }
#endif

MINIATEN_VEC_ROUND(floor, 0x01 /* _MM_FROUND_TO_NEG_INF */, std::floor)
MINIATEN_VEC_ROUND(ceil, 0x02 /* _MM_FROUND_TO_POS_INF */, std::ceil)
MINIATEN_VEC_ROUND(trunc, 0x03 /* _MM_FROUND_TO_ZERO */, std::trunc)
// Halfway cases to even, as torch.round (std::nearbyint in the default rounding mode).
MINIATEN_VEC_ROUND(round, 0x00 /* _MM_FROUND_TO_NEAREST_INT */, std::nearbyint)

#undef MINIATEN_VEC_ROUND

}  // namespace detail
}  // namespace CPU_CAPABILITY
}  // namespace vec
}  // namespace at
