#pragma once
// at::vec::Vectorized<T>: one SIMD register's worth of T, for the vectorized loops of CPU kernels.
//
//   using Vec = at::vec::Vectorized<float>;
//   for (int64_t i = 0; i + Vec::size() <= n; i += Vec::size()) {
//     Vec a = Vec::loadu(x + i), b = Vec::loadu(y + i);
//     (a * b + Vec(1.f)).store(out + i);                 // Vec(T) broadcasts
//   }
//   Vec tail = Vec::loadu(x + i, n - i);                 // partial load, other lanes are 0
//   Vec m = at::vec::maximum(a, b);                      // NaN-propagating, as torch.maximum
//   Vec r = Vec::blendv(a, b, a < b);                    // a < b is a mask; r takes b there
//   Vec e = a.eq(b);                                     // 1 where equal, else 0 (values of T)
//
// Types: uint8, int8, int16, int32, int64, float, double, bool, c10::Half, c10::BFloat16.
// size() is 32 bytes' worth of lanes (8 floats) in the DEFAULT and AVX2 copies of a kernel and
// 64 bytes' worth (16 floats) in the AVX512 copy, as libtorch's.
//
// Note [Vectorized is written with GCC vector extensions]
// libtorch writes one specialization per ISA and type with intrinsics (vec256_float.h, ...).
// Here every type shares one template over `T __attribute__((vector_size(N)))`: the same source
// compiles for baseline x86-64, AVX2 and AVX-512 and the compiler picks the instructions of
// whatever -m flags the file is compiled with. The math functions (exp, sin, pow, floor, ...)
// are SLEEF's vector functions or single instructions (VecMath.h, Note [Which function computes
// each lane]); integer division is computed lane by lane, as the scalar code does. (One GCC
// weakness needs working around: see Note [Comparisons are made register-wide] in VecBase.h.)
//
// Note [Storage lanes and compute lanes]
// A vector stores its lanes as `storage` and computes on them as `compute` (detail::Lane):
//   native types       storage = compute = T
//   bool               storage = compute = uint8_t, arithmetic results normalized to 0/1
//   Half, BFloat16     storage = uint16_t (the bits), compute = float (as libtorch does)
// Every operation is to_compute -> the operation on compute lanes -> from_compute, so each
// operation is written once; for native types both conversions are the identity. Half and
// BFloat16 round to T after every operation, exactly as their scalar operators do.
//
// Note [Masks]
// The comparison operators (==, !=, <, <=, >, >=) return masks, as libtorch's do: every bit of
// a lane set where the predicate holds, clear elsewhere (for float a set lane reads as NaN).
// Masks feed blendv and the bitwise operators. eq/ne/lt/le/gt/ge return 1 or 0 as values of T,
// what a comparison kernel stores. A bool vector stores any non-zero lane as true.
//
// Note [Vectorized lives in namespace CPU_CAPABILITY]
// Kernel files are compiled once per capability (DEFAULT, AVX2, AVX512; see DispatchStub.h).
// Vectorized's inline functions are emitted into each copy, compiled with different -m flags;
// were they in one namespace the linker would keep one copy for all three and the DEFAULT
// kernel could end up running AVX-512 code. The inline namespace gives each copy its own names.

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "aten/cpu/vec/VecBase.h"
#include "aten/cpu/vec/VecMath.h"
#include "c10/util/BFloat16.h"
#include "c10/util/Half.h"

namespace at {
namespace vec {
inline namespace CPU_CAPABILITY {

namespace detail {
// See Note [Storage lanes and compute lanes].
template <typename T>
struct Lane {
  static_assert(std::is_arithmetic<T>::value, "Vectorized<T>: unsupported lane type");
  using storage = T;
  using compute = T;
};
template <>
struct Lane<bool> {
  using storage = uint8_t;
  using compute = uint8_t;
};
template <>
struct Lane<c10::Half> {
  using storage = uint16_t;
  using compute = float;
};
template <>
struct Lane<c10::BFloat16> {
  using storage = uint16_t;
  using compute = float;
};
}  // namespace detail

// Half <-> float, one register at a time, with F16C: see Note [Half conversions in the vector
// copies] below.
#if defined(CPU_CAPABILITY_AVX2) || defined(CPU_CAPABILITY_AVX512)
namespace detail {
// Register-wide conversions: kRegisterBytes / 4 lanes. (The AVX-512 forms with an all-ones
// zeroing mask: GCC 12's unmasked ones pass an undefined source that -Wmaybe-uninitialized
// reports.)
template <typename H, typename F>
C10_ALWAYS_INLINE F half_bits_to_float(H h) {
#if defined(CPU_CAPABILITY_AVX512)
  return bitcast<F>(_mm512_maskz_cvtph_ps(__mmask16(-1), bitcast<__m256i>(h)));
#else
  return bitcast<F>(_mm256_cvtph_ps(bitcast<__m128i>(h)));
#endif
}
template <typename H, typename F>
C10_ALWAYS_INLINE H float_to_half_bits(F f) {
  constexpr int kRound = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;
#if defined(CPU_CAPABILITY_AVX512)
  const __m512 x = bitcast<__m512>(f);
  const __m512i sign = _mm512_and_si512(_mm512_castps_si512(x), _mm512_set1_epi32(INT32_MIN));
  const __m512 quiet = _mm512_castsi512_ps(_mm512_or_si512(sign, _mm512_set1_epi32(0x7FC00000)));
  const __m512 fixed = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q), x, quiet);
  return bitcast<H>(_mm512_maskz_cvtps_ph(__mmask16(-1), fixed, kRound));
#else
  const __m256 x = bitcast<__m256>(f);
  const __m256 sign = _mm256_and_ps(x, _mm256_set1_ps(-0.0f));
  const __m256 quiet = _mm256_or_ps(sign, _mm256_castsi256_ps(_mm256_set1_epi32(0x7FC00000)));
  const __m256 fixed = _mm256_blendv_ps(x, quiet, _mm256_cmp_ps(x, x, _CMP_UNORD_Q));
  return bitcast<H>(_mm256_cvtps_ph(fixed, kRound));
#endif
}
}  // namespace detail
#endif

template <typename T>
class Vectorized {
  using storage_t = typename detail::Lane<T>::storage;
  using compute_t = typename detail::Lane<T>::compute;
  static constexpr int kLanes = kVectorBytes / static_cast<int>(sizeof(T));
  using StorageVec = typename detail::GccVec<storage_t, kLanes>::type;
  using ComputeVec = typename detail::GccVec<compute_t, kLanes>::type;
  using StorageMask = detail::MaskVec<storage_t, kLanes>;
  using ComputeMask = detail::MaskVec<compute_t, kLanes>;
  // What loadu/store access memory through: any alignment, may alias T (GCC's _mm256_loadu_ps
  // idiom; a memcpy here makes GCC 12 bounce AVX2 vectors through the stack).
  typedef storage_t UnalignedVec
      __attribute__((vector_size(sizeof(storage_t) * kLanes), aligned(1), may_alias));

 public:
  template <typename U>
  friend class Vectorized;
  using value_type = T;
  using size_type = int;
  static constexpr size_type size() { return kLanes; }

  // All lanes zero.
  Vectorized() : v_{} {}
  // Broadcast: every lane is `value`.
  Vectorized(T value) {  // NOLINT: implicit, so `a * 2.f` reads as in libtorch
    const storage_t s = detail::bitcast<storage_t>(value);
    for (int i = 0; i < kLanes; ++i) v_[i] = s;
  }

  static Vectorized loadu(const void* ptr) {
    return from_storage(*static_cast<const UnalignedVec*>(ptr));
  }
  // Loads the first `count` lanes (0 <= count <= size()); the rest are zero. AVX-512 (and AVX2
  // for 4- and 8-byte lanes) loads under a mask, which never touches the memory past the
  // count: a tail, or a one-element tensor, is one instruction instead of a memcpy call.
  static Vectorized loadu(const void* ptr, int64_t count) {
#if defined(CPU_CAPABILITY_AVX512)
    return from_storage(detail::bitcast<StorageVec>(masked_load(ptr, count)));
#elif defined(CPU_CAPABILITY_AVX2)
    if constexpr (sizeof(storage_t) >= 4) {
      return from_storage(detail::bitcast<StorageVec>(
          _mm256_maskload_epi32(static_cast<const int*>(ptr), lane_mask(count))));
    }
#endif
    Vectorized r;
    std::memcpy(&r.v_, ptr, static_cast<size_t>(count) * sizeof(T));
    return r;
  }
  void store(void* ptr) const { *static_cast<UnalignedVec*>(ptr) = stored(); }
  // Stores the first `count` lanes (masked, as loadu(ptr, count) loads).
  void store(void* ptr, int64_t count) const {
    const StorageVec s = stored();
#if defined(CPU_CAPABILITY_AVX512)
    return masked_store(ptr, count, detail::bitcast<__m512i>(s));
#elif defined(CPU_CAPABILITY_AVX2)
    if constexpr (sizeof(storage_t) >= 4) {
      return _mm256_maskstore_epi32(static_cast<int*>(ptr), lane_mask(count),
                                    detail::bitcast<__m256i>(s));
    }
#endif
    std::memcpy(ptr, &s, static_cast<size_t>(count) * sizeof(T));
  }

  T operator[](int i) const {
    if constexpr (std::is_same<T, bool>::value) {
      return v_[i] != 0;
    } else {
      return detail::bitcast<T>(static_cast<storage_t>(v_[i]));
    }
  }

  // Lanes of `b` where `mask` is set, of `a` elsewhere. See Note [Masks].
  static Vectorized blendv(const Vectorized& a, const Vectorized& b, const Vectorized& mask) {
    const StorageMask set = detail::compare<StorageMask>(mask.bits(), 0, detail::NotEqual());
    return from_storage(detail::select(set, b.v_, a.v_));
  }

  // f applied to each lane (in compute precision: float for Half and BFloat16).
  template <typename F>
  Vectorized map(const F& f) const {
    ComputeVec c = to_compute();
    for (int i = 0; i < kLanes; ++i) c[i] = f(c[i]);
    return from_compute(c);
  }

  // ---- Arithmetic -------------------------------------------------------------------------
  friend Vectorized operator+(const Vectorized& a, const Vectorized& b) {
    return from_compute(a.to_compute() + b.to_compute());
  }
  friend Vectorized operator-(const Vectorized& a, const Vectorized& b) {
    return from_compute(a.to_compute() - b.to_compute());
  }
  friend Vectorized operator*(const Vectorized& a, const Vectorized& b) {
    return from_compute(a.to_compute() * b.to_compute());
  }
  // Integer lanes divide one by one, so a zero divisor traps exactly as scalar code does.
  friend Vectorized operator/(const Vectorized& a, const Vectorized& b) {
    return from_compute(a.to_compute() / b.to_compute());
  }
  friend Vectorized operator-(const Vectorized& a) { return from_compute(-a.to_compute()); }
  Vectorized neg() const { return -*this; }

  Vectorized abs() const {
    const ComputeVec c = to_compute();
    if constexpr (std::is_floating_point<compute_t>::value) {
      // Clearing the sign bit gets -0.0 and NaN right, as std::abs does.
      const ComputeMask sign_bit = detail::bitcast<ComputeMask>(-ComputeVec{});
      return from_compute(detail::bitcast<ComputeVec>(detail::bitcast<ComputeMask>(c) & ~sign_bit));
    } else if constexpr (std::is_signed<compute_t>::value) {
      return from_compute(
          detail::select(detail::compare<ComputeMask>(c, compute_t(0), detail::Less()), -c, c));
    } else {
      return *this;
    }
  }

  // ---- Math, floating types only (integer tensors are promoted to float before these ops) ----
  // SLEEF or one instruction in AVX2/AVX512, std:: lane by lane in DEFAULT: see
  // Note [Which function computes each lane] in VecMath.h. Half and BFloat16 compute in float.
#define MINIATEN_VEC_MATH_UNARY(name)                    \
  Vectorized name() const {                              \
    return from_compute(detail::v##name(float_lanes())); \
  }
#define MINIATEN_VEC_MATH_BINARY(name)                                    \
  Vectorized name(const Vectorized& o) const {                            \
    return from_compute(detail::v##name(float_lanes(), o.float_lanes())); \
  }
  MINIATEN_VEC_MATH_UNARY(exp)
  MINIATEN_VEC_MATH_UNARY(expm1)
  MINIATEN_VEC_MATH_UNARY(exp2)
  MINIATEN_VEC_MATH_UNARY(log)
  MINIATEN_VEC_MATH_UNARY(log2)
  MINIATEN_VEC_MATH_UNARY(log10)
  MINIATEN_VEC_MATH_UNARY(log1p)
  MINIATEN_VEC_MATH_UNARY(sin)
  MINIATEN_VEC_MATH_UNARY(cos)
  MINIATEN_VEC_MATH_UNARY(tan)
  MINIATEN_VEC_MATH_UNARY(asin)
  MINIATEN_VEC_MATH_UNARY(acos)
  MINIATEN_VEC_MATH_UNARY(atan)
  MINIATEN_VEC_MATH_UNARY(sinh)
  MINIATEN_VEC_MATH_UNARY(cosh)
  MINIATEN_VEC_MATH_UNARY(tanh)
  MINIATEN_VEC_MATH_UNARY(erf)
  MINIATEN_VEC_MATH_UNARY(erfc)
  MINIATEN_VEC_MATH_UNARY(sqrt)
  MINIATEN_VEC_MATH_UNARY(floor)
  MINIATEN_VEC_MATH_UNARY(ceil)
  MINIATEN_VEC_MATH_UNARY(trunc)
  MINIATEN_VEC_MATH_UNARY(round)  // halfway cases to even
  MINIATEN_VEC_MATH_BINARY(atan2)
  MINIATEN_VEC_MATH_BINARY(pow)
  MINIATEN_VEC_MATH_BINARY(fmod)
  MINIATEN_VEC_MATH_BINARY(hypot)
#undef MINIATEN_VEC_MATH_UNARY
#undef MINIATEN_VEC_MATH_BINARY
  // (ComputeVec{} + 1) is a vector of ones; 0 + 1 / x would turn 1 / -inf = -0 into +0.
  Vectorized reciprocal() const {
    return from_compute((ComputeVec{} + 1) / float_lanes());
  }
  // 1 / sqrt(x), as libtorch: not the approximate rsqrt instruction.
  Vectorized rsqrt() const {
    return from_compute((ComputeVec{} + 1) / detail::vsqrt(float_lanes()));
  }

  // ---- Half and BFloat16 in float (libtorch's convert_bfloat16_float / convert_float_bfloat16)
  // The lanes as two float vectors (first half, second half), and back, rounding once: for a
  // compound expression (sigmoid's 1 / (1 + exp(-x))) computed in float and rounded at the end,
  // where the operators on Vectorized<T> would round after each step.
  std::pair<Vectorized<float>, Vectorized<float>> to_float() const {
    static_assert(sizeof(storage_t) == 2 && std::is_same<compute_t, float>::value,
                  "Vectorized::to_float is for Half and BFloat16");
    constexpr auto lo = std::make_index_sequence<kLanes / 2>{};
    constexpr auto hi = detail::offset_by<kLanes / 2>(lo);
#if defined(CPU_CAPABILITY_AVX2) || defined(CPU_CAPABILITY_AVX512)
    if constexpr (std::is_same<T, c10::Half>::value) {
      // Register by register (Note [Half conversions in the vector copies]): GCC 12 builds the
      // two-register ComputeVec lane by lane through memory.
      using F = typename Vectorized<float>::StorageVec;
      return {Vectorized<float>::from_storage(
                  detail::half_bits_to_float<decltype(detail::shuffle(v_, v_, lo)), F>(
                      detail::shuffle(v_, v_, lo))),
              Vectorized<float>::from_storage(
                  detail::half_bits_to_float<decltype(detail::shuffle(v_, v_, hi)), F>(
                      detail::shuffle(v_, v_, hi)))};
    }
#endif
    const ComputeVec c = to_compute();
    return {Vectorized<float>::from_storage(detail::shuffle(c, c, lo)),
            Vectorized<float>::from_storage(detail::shuffle(c, c, hi))};
  }
  static Vectorized from_float(const Vectorized<float>& lo, const Vectorized<float>& hi) {
    static_assert(sizeof(storage_t) == 2 && std::is_same<compute_t, float>::value,
                  "Vectorized::from_float is for Half and BFloat16");
#if defined(CPU_CAPABILITY_AVX2) || defined(CPU_CAPABILITY_AVX512)
    if constexpr (std::is_same<T, c10::Half>::value) {
      using H = typename detail::GccVec<uint16_t, kLanes / 2>::type;
      using F = typename Vectorized<float>::StorageVec;
      const H h_lo = detail::float_to_half_bits<H, F>(lo.v_);
      const H h_hi = detail::float_to_half_bits<H, F>(hi.v_);
      return from_storage(detail::bitcast<StorageVec>(
          detail::shuffle(h_lo, h_hi, std::make_index_sequence<kLanes>{})));
    }
#endif
    return from_compute(detail::shuffle(lo.v_, hi.v_, std::make_index_sequence<kLanes>{}));
  }

  // ---- Comparisons: masks (see Note [Masks]) ----------------------------------------------
  friend Vectorized operator==(const Vectorized& a, const Vectorized& b) {
    return a.mask_where(b, [](auto x, auto y) { return x == y; });
  }
  friend Vectorized operator!=(const Vectorized& a, const Vectorized& b) {
    return a.mask_where(b, [](auto x, auto y) { return x != y; });
  }
  friend Vectorized operator<(const Vectorized& a, const Vectorized& b) {
    return a.mask_where(b, [](auto x, auto y) { return x < y; });
  }
  friend Vectorized operator<=(const Vectorized& a, const Vectorized& b) {
    return a.mask_where(b, [](auto x, auto y) { return x <= y; });
  }
  friend Vectorized operator>(const Vectorized& a, const Vectorized& b) {
    return a.mask_where(b, [](auto x, auto y) { return x > y; });
  }
  friend Vectorized operator>=(const Vectorized& a, const Vectorized& b) {
    return a.mask_where(b, [](auto x, auto y) { return x >= y; });
  }

  // A mask's lanes as bools, 1 where set and 0 elsewhere: size() bytes at ptr. The lanes are
  // narrowed to bytes in registers (vpmovdb and friends under AVX-512), for the comparisons whose
  // output is a Bool tensor (see Note [Predicates write bytes from masks] in
  // aten/native/cpu/PredicateLoops.h).
  void store_mask_as_bool(void* ptr) const {
    using Bytes = typename detail::GccVec<uint8_t, kLanes>::type;
    typedef uint8_t UnalignedBytes __attribute__((vector_size(kLanes), aligned(1), may_alias));
    *static_cast<UnalignedBytes*>(ptr) = __builtin_convertvector(bits(), Bytes) & 1;
  }

  // ---- Comparisons: 1 or 0 as values of T --------------------------------------------------
  Vectorized eq(const Vectorized& o) const {
    return ones_where(*this == o);
  }
  Vectorized ne(const Vectorized& o) const {
    return ones_where(*this != o);
  }
  Vectorized lt(const Vectorized& o) const {
    return ones_where(*this < o);
  }
  Vectorized le(const Vectorized& o) const {
    return ones_where(*this <= o);
  }
  Vectorized gt(const Vectorized& o) const {
    return ones_where(*this > o);
  }
  Vectorized ge(const Vectorized& o) const {
    return ones_where(*this >= o);
  }

  // ---- Bitwise, on the stored bits (for masks) ---------------------------------------------
  friend Vectorized operator&(const Vectorized& a, const Vectorized& b) {
    return from_storage(detail::bitcast<StorageVec>(a.bits() & b.bits()));
  }
  friend Vectorized operator|(const Vectorized& a, const Vectorized& b) {
    return from_storage(detail::bitcast<StorageVec>(a.bits() | b.bits()));
  }
  friend Vectorized operator^(const Vectorized& a, const Vectorized& b) {
    return from_storage(detail::bitcast<StorageVec>(a.bits() ^ b.bits()));
  }

  // ---- Elementwise extremes, NaN-propagating as torch.maximum / torch.minimum ---------------
  friend Vectorized maximum(const Vectorized& a, const Vectorized& b) {
    return extreme(a.to_compute(), b.to_compute(), detail::Greater());
  }
  friend Vectorized minimum(const Vectorized& a, const Vectorized& b) {
    return extreme(a.to_compute(), b.to_compute(), detail::Less());
  }
  // a * b + c (one rounding to T at the end for Half and BFloat16).
  friend Vectorized fmadd(const Vectorized& a, const Vectorized& b, const Vectorized& c) {
    return from_compute(a.to_compute() * b.to_compute() + c.to_compute());
  }

 private:
  // The masks of loadu(ptr, count) / store(ptr, count).
#if defined(CPU_CAPABILITY_AVX512)
  // One bit per lane, the first `count` set (count may be 64 for 1-byte lanes).
  C10_ALWAYS_INLINE static uint64_t lane_mask(int64_t count) {
    return count >= 64 ? ~uint64_t{0} : (uint64_t{1} << count) - 1;
  }
  C10_ALWAYS_INLINE static __m512i masked_load(const void* ptr, int64_t count) {
    const uint64_t m = lane_mask(count);
    if constexpr (sizeof(storage_t) == 1)
      return _mm512_maskz_loadu_epi8(m, ptr);
    else if constexpr (sizeof(storage_t) == 2)
      return _mm512_maskz_loadu_epi16(__mmask32(m), ptr);
    else if constexpr (sizeof(storage_t) == 4)
      return _mm512_maskz_loadu_epi32(__mmask16(m), ptr);
    else
      return _mm512_maskz_loadu_epi64(__mmask8(m), ptr);
  }
  C10_ALWAYS_INLINE static void masked_store(void* ptr, int64_t count, __m512i s) {
    const uint64_t m = lane_mask(count);
    if constexpr (sizeof(storage_t) == 1)
      _mm512_mask_storeu_epi8(ptr, m, s);
    else if constexpr (sizeof(storage_t) == 2)
      _mm512_mask_storeu_epi16(ptr, __mmask32(m), s);
    else if constexpr (sizeof(storage_t) == 4)
      _mm512_mask_storeu_epi32(ptr, __mmask16(m), s);
    else
      _mm512_mask_storeu_epi64(ptr, __mmask8(m), s);
  }
#elif defined(CPU_CAPABILITY_AVX2)
  // The int32 lanes of a 32-byte register that hold the first `count` lanes of T: all bits set
  // in those, clear in the rest (maskload/maskstore look at each int32's sign bit).
  C10_ALWAYS_INLINE static __m256i lane_mask(int64_t count) {
    const int64_t words = count * static_cast<int64_t>(sizeof(storage_t)) / 4;
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(words)),
                              _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  }
#endif
  C10_ALWAYS_INLINE StorageMask bits() const {
    return detail::bitcast<StorageMask>(v_);
  }
  // By value: loadu passes a 1-byte-aligned UnalignedVec, which a StorageVec& must not bind to
  // (see Note [Vector helpers take their operands by value] in VecBase.h).
  C10_ALWAYS_INLINE static Vectorized from_storage(StorageVec s) {
    Vectorized r;
    r.v_ = s;
    return r;
  }
  // The lanes as they go to memory: bools normalized to 0/1 (see Note [Masks]).
  C10_ALWAYS_INLINE StorageVec stored() const {
    if constexpr (std::is_same<T, bool>::value) {
      return detail::bitcast<StorageVec>(
          detail::compare<StorageMask>(v_, storage_t(0), detail::NotEqual()) & 1);
    } else {
      return v_;
    }
  }
  // The mask of the lanes where pred(this, o) holds, compared in compute precision.
  template <typename Pred>
  Vectorized mask_where(const Vectorized& o, Pred pred) const {
    const ComputeMask m = detail::compare<ComputeMask>(to_compute(), o.to_compute(), pred);
    // Narrow -1/0 lanes to the storage width (int32 -> int16 for Half and BFloat16).
    return from_storage(detail::bitcast<StorageVec>(__builtin_convertvector(m, StorageMask)));
  }
  static Vectorized ones_where(const Vectorized& mask) {
    return blendv(Vectorized(), Vectorized(static_cast<T>(1)), mask);
  }
  // x where better(x, y), y elsewhere, and x where x is NaN (y, when only y is, wins anyway).
  template <typename Better>
  static Vectorized extreme(const ComputeVec& x, const ComputeVec& y, Better better) {
    const ComputeVec m = detail::select(detail::compare<ComputeMask>(x, y, better), x, y);
    return from_compute(
        detail::select(detail::compare<ComputeMask>(x, x, detail::NotEqual()), x, m));
  }
  C10_ALWAYS_INLINE ComputeVec float_lanes() const {
    static_assert(std::is_floating_point<compute_t>::value,
                  "Vectorized: the math functions are for floating types");
    return to_compute();
  }

  // See Note [Storage lanes and compute lanes].
  C10_ALWAYS_INLINE ComputeVec to_compute() const;
  static Vectorized from_compute(const ComputeVec& c);

  StorageVec v_;
};

// ---- Conversions between storage and compute lanes ----------------------------------------

template <typename T>
C10_ALWAYS_INLINE typename Vectorized<T>::ComputeVec Vectorized<T>::to_compute() const {
  return v_;
}
template <typename T>
inline Vectorized<T> Vectorized<T>::from_compute(const ComputeVec& c) {
  return from_storage(c);
}

template <>
inline Vectorized<bool> Vectorized<bool>::from_compute(const ComputeVec& c) {
  // bool(a + b), bool(a - b), ...: any non-zero result is true.
  return from_storage(detail::bitcast<StorageVec>(
      detail::compare<StorageMask>(c, compute_t(0), detail::NotEqual()) & 1));
}

// Half <-> float.
//
// Note [Half conversions in the vector copies]
// The scalar conversions (c10::detail::fp16_ieee_to_fp32_value / fp16_ieee_from_fp32_value)
// are exact one way and round to nearest even the other, which is what F16C's vcvtph2ps and
// vcvtps2ph (rounding mode "nearest") compute; they differ only in NaN's payload: narrowing,
// c10 makes every NaN the quiet NaN 0x7E00 with its sign, where vcvtps2ph keeps the top payload
// bits. So the AVX2 and AVX-512 copies convert with F16C after replacing each NaN lane by a
// quiet NaN without payload (one compare and blend), and give c10's bits in every lane; a
// conversion is then one instruction per register instead of a dozen (float -> Half copy_ ran
// at a sixth of libtorch's speed). The DEFAULT copy (SSE2, no F16C) computes each lane with
// exactly the branch the scalar function takes (all branches computed, a select keeps the
// right one); bits are shifted as uint32 and compared as int32 (every compared value fits in
// 31 bits).
#if defined(CPU_CAPABILITY_AVX2) || defined(CPU_CAPABILITY_AVX512)

// Register by register, through to_float / from_float (which convert with F16C).
template <>
C10_ALWAYS_INLINE Vectorized<c10::Half>::ComputeVec Vectorized<c10::Half>::to_compute() const {
  const auto halves = to_float();
  return detail::bitcast<ComputeVec>(
      detail::shuffle(halves.first.v_, halves.second.v_, std::make_index_sequence<kLanes>{}));
}
template <>
inline Vectorized<c10::Half> Vectorized<c10::Half>::from_compute(const ComputeVec& c) {
  constexpr auto lo = std::make_index_sequence<kLanes / 2>{};
  constexpr auto hi = detail::offset_by<kLanes / 2>(lo);
  return from_float(Vectorized<float>::from_storage(detail::shuffle(c, c, lo)),
                    Vectorized<float>::from_storage(detail::shuffle(c, c, hi)));
}
#else
template <>
C10_ALWAYS_INLINE Vectorized<c10::Half>::ComputeVec Vectorized<c10::Half>::to_compute() const {
  using U32 = detail::GccVec<uint32_t, kLanes>::type;
  using I32 = ComputeMask;
  const U32 h = __builtin_convertvector(v_, U32);
  const U32 sign = (h & 0x8000u) << 16;
  const U32 rest = h & 0x7FFFu;  // exponent and mantissa
  const I32 r = detail::bitcast<I32>(rest);
  const I32 is_nan = detail::compare<I32>(r, int32_t{0x7C00}, detail::Greater());
  const I32 is_inf_nan = detail::compare<I32>(r, int32_t{0x7BFF}, detail::Greater());
  const I32 is_normal = detail::compare<I32>(r, int32_t{0x03FF}, detail::Greater());
  const U32 inf_nan =
      0x7F800000u | (detail::bitcast<U32>(is_nan) & 0x00400000u) | ((rest & 0x3FFu) << 13);
  const U32 normal = (rest << 13) + (112u << 23);
  const U32 subnormal = detail::bitcast<U32>(__builtin_convertvector(r, ComputeVec) * 0x1p-24f);
  const U32 bits =
      detail::select(is_inf_nan, inf_nan, detail::select(is_normal, normal, subnormal));
  return detail::bitcast<ComputeVec>(sign | bits);
}
template <>
inline Vectorized<c10::Half> Vectorized<c10::Half>::from_compute(const ComputeVec& c) {
  using U32 = detail::GccVec<uint32_t, kLanes>::type;
  using I32 = ComputeMask;
  const U32 w = detail::bitcast<U32>(c);
  const U32 sign = (w >> 16) & 0x8000u;
  const U32 a = w & 0x7FFFFFFFu;  // |f|
  const I32 ia = detail::bitcast<I32>(a);
  const I32 is_nan = detail::compare<I32>(ia, int32_t{0x7F800000}, detail::Greater());
  const I32 is_big = detail::compare<I32>(ia, int32_t{0x477FEFFF}, detail::Greater());
  const I32 is_tiny = detail::compare<I32>(ia, int32_t{0x38800000}, detail::Less());
  const U32 inf_nan = 0x7C00u | (detail::bitcast<U32>(is_nan) & 0x0200u);  // Inf or 0x7E00
  const U32 subnormal = detail::bitcast<U32>(detail::bitcast<ComputeVec>(a) + 0.5f) - 0x3F000000u;
  const U32 normal = (a - (112u << 23) + 0xFFFu + ((a >> 13) & 1u)) >> 13;
  const U32 bits = detail::select(is_big, inf_nan, detail::select(is_tiny, subnormal, normal));
  return from_storage(__builtin_convertvector(sign | bits, StorageVec));
}
#endif

// BFloat16 is the top half of a float: widening is a shift, narrowing rounds to nearest even
// exactly as c10::detail::round_to_nearest_even does, lane-parallel.
template <>
C10_ALWAYS_INLINE Vectorized<c10::BFloat16>::ComputeVec Vectorized<c10::BFloat16>::to_compute()
    const {
  using U32 = detail::GccVec<uint32_t, kLanes>::type;
  return detail::bitcast<ComputeVec>(__builtin_convertvector(v_, U32) << 16);
}
template <>
inline Vectorized<c10::BFloat16> Vectorized<c10::BFloat16>::from_compute(const ComputeVec& c) {
  using U32 = detail::GccVec<uint32_t, kLanes>::type;
  using I32 = ComputeMask;
  const U32 w = detail::bitcast<U32>(c);
  const U32 rounded = (w + (0x7FFFu + ((w >> 16) & 1u))) >> 16;
  const I32 magnitude = detail::bitcast<I32>(w & 0x7FFFFFFFu);
  const I32 is_nan = detail::compare<I32>(magnitude, int32_t{0x7F800000}, detail::Greater());
  const U32 bits = detail::select(is_nan, U32{} + 0x7FC0u, rounded);
  return from_storage(__builtin_convertvector(bits, StorageVec));
}

}  // namespace CPU_CAPABILITY
}  // namespace vec
}  // namespace at

// The free functions over Vectorized (at::vec::exp(v), clamp(v, lo, hi), ...).
#include "aten/cpu/vec/VecFunctions.h"
