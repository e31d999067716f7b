#pragma once
// The GCC-vector plumbing under at::vec::Vectorized (Vectorized.h): the vector width of the
// capability being compiled, vector types, bit casts, and comparisons and selects that GCC
// compiles to native vector instructions at any width.
//
// Note [Comparisons are made register-wide]
// GCC 12 compiles a comparison (`a < b`) or a `?:` on a generic vector wider than the target's
// registers (every 32-byte vector in the baseline SSE2 build, the 16 float lanes of a Half
// vector under AVX2) into a scalar compare and branch per lane, ten times slower than the
// arithmetic around it; arithmetic, shifts and conversions it splits into registers fine. So
// Vectorized writes neither directly: detail::compare halves its operands with
// __builtin_shufflevector until they fit a register, and detail::select blends with and/or,
// which needs no comparison at all.

#include <cstdint>
#include <type_traits>
#include <utility>

#include "c10/util/Macros.h"

// Files not compiled per capability (tests, ordinary sources) get the baseline flavour.
// See Note [Kernels are compiled once per CPU capability] in aten/native/DispatchStub.h.
#ifndef CPU_CAPABILITY
#define CPU_CAPABILITY DEFAULT
#define CPU_CAPABILITY_DEFAULT
#endif

// GCC warns that returning a vector wider than the enabled ISA "changes the ABI". The helpers
// returning raw vectors are inline and per-capability, so no call crosses between ABIs. The
// warning is reported at the end of the including file, hence no push/pop around this header.
#pragma GCC diagnostic ignored "-Wpsabi"

namespace at {
namespace vec {
// See Note [Vectorized lives in namespace CPU_CAPABILITY] in Vectorized.h.
inline namespace CPU_CAPABILITY {

// Vectorized's width (libtorch's: 32 bytes unless AVX-512), and the registers' width.
#if defined(CPU_CAPABILITY_AVX512)
constexpr int kVectorBytes = 64;
constexpr int kRegisterBytes = 64;
#elif defined(CPU_CAPABILITY_AVX2)
constexpr int kVectorBytes = 32;
constexpr int kRegisterBytes = 32;
#else
constexpr int kVectorBytes = 32;
constexpr int kRegisterBytes = 16;
#endif

namespace detail {

// `Lanes` lanes of E as a GCC vector, aligned only as E is: Vectorized is loaded and stored
// with loadu/store anyway, and a 32- or 64-byte aligned class passed by value would make GCC
// note an ABI change at every kernel lambda taking a Vectorized.
//
// Note [Vector helpers take their operands by value]
// A template parameter deduced from a GccVec is the plain vector type, naturally aligned (32 or
// 64 bytes): the typedef's smaller alignment does not survive deduction. A `const V&` would then
// bind a 64-byte-aligned reference to an object that may sit on a 4-byte boundary (undefined
// behaviour that UBSan reports and clang's -Walign-mismatch warns of). By value the operand is
// copied with its own alignment into a properly aligned parameter; the helpers are always
// inlined, so the copy costs nothing.
template <typename E, int Lanes>
struct GccVec {
  typedef E type __attribute__((vector_size(sizeof(E) * Lanes), aligned(sizeof(E))));
};

template <int Bytes>
struct IntOfSize;
template <>
struct IntOfSize<1> {
  using type = int8_t;
};
template <>
struct IntOfSize<2> {
  using type = int16_t;
};
template <>
struct IntOfSize<4> {
  using type = int32_t;
};
template <>
struct IntOfSize<8> {
  using type = int64_t;
};

// Signed integer lanes as wide as E's: what comparisons yield and what masks are made of.
template <typename E, int Lanes>
using MaskVec = typename GccVec<typename IntOfSize<sizeof(E)>::type, Lanes>::type;

template <typename To, typename From>
C10_ALWAYS_INLINE To bitcast(From from) {
  static_assert(sizeof(To) == sizeof(From), "bitcast: sizes differ");
  return __builtin_bit_cast(To, from);
}

template <typename V>
constexpr int lanes_of() {
  return static_cast<int>(sizeof(V) / sizeof(std::declval<V>()[0]));
}

template <typename V, std::size_t... I>
C10_ALWAYS_INLINE auto shuffle(V a, V b, std::index_sequence<I...>) {
  return __builtin_shufflevector(a, b, static_cast<int>(I)...);
}
template <std::size_t Offset, std::size_t... I>
constexpr auto offset_by(std::index_sequence<I...>) {
  return std::index_sequence<(Offset + I)...>{};
}

// -1 in lane i where pred(a[i], b[i]), else 0. pred must take vectors (a generic lambda, or
// Less/Greater/...). See Note [Comparisons are made register-wide].
template <typename M, typename V, typename Pred>
C10_ALWAYS_INLINE M compare(V a, V b, Pred pred) {
  static_assert(sizeof(M) == sizeof(V), "compare: the mask must be as wide as the operands");
  constexpr std::size_t kLanes = lanes_of<V>();
  if constexpr (sizeof(V) <= kRegisterBytes || kLanes == 1) {
    return pred(a, b);
  } else {
    constexpr auto lo = std::make_index_sequence<kLanes / 2>{};
    constexpr auto hi = offset_by<kLanes / 2>(lo);
    using HalfM = decltype(shuffle(std::declval<M>(), std::declval<M>(), lo));
    const HalfM m_lo = compare<HalfM>(shuffle(a, a, lo), shuffle(b, b, lo), pred);
    const HalfM m_hi = compare<HalfM>(shuffle(a, a, hi), shuffle(b, b, hi), pred);
    return shuffle(m_lo, m_hi, std::make_index_sequence<kLanes>{});
  }
}
// The same against one value for every lane.
template <typename M, typename V, typename E, typename Pred,
          typename = std::enable_if_t<std::is_arithmetic<E>::value>>
C10_ALWAYS_INLINE M compare(V a, E b, Pred pred) {
  using Elem = std::remove_cv_t<std::remove_reference_t<decltype(std::declval<V>()[0])>>;
  return compare<M>(a, V{} + static_cast<Elem>(b), pred);
}

// x in the lanes where m is -1, y where it is 0 (m as compare makes it).
template <typename M, typename V>
C10_ALWAYS_INLINE V select(M m, V x, V y) {
  return bitcast<V>((m & bitcast<M>(x)) | (~m & bitcast<M>(y)));
}

struct Less {
  template <typename T>
  auto operator()(T a, T b) const {
    return a < b;
  }
};
struct Greater {
  template <typename T>
  auto operator()(T a, T b) const {
    return a > b;
  }
};
struct NotEqual {
  template <typename T>
  auto operator()(T a, T b) const {
    return a != b;
  }
};

}  // namespace detail
}  // namespace CPU_CAPABILITY
}  // namespace vec
}  // namespace at
