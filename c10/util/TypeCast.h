#pragma once
// c10::convert<To>(from): one element converted between any two of miniaten's dtypes, with
// libtorch's rules: floating -> integer truncates toward zero (out of range: Note [Out-of-range
// floating-point to integer conversions]), -> Half/BFloat16 rounds to nearest
// even (through float), -> bool is `x != 0`; complex -> real keeps the real part (a complex is
// true when either part is nonzero), real -> complex has a zero imaginary part.

#include <cstdint>
#include <limits>
#include <type_traits>

#include "c10/core/ScalarType.h"
#include "c10/util/BFloat16.h"
#include "c10/util/Half.h"
#include "c10/util/complex.h"

namespace c10 {

template <typename T>
struct is_reduced_float
    : std::integral_constant<bool, std::is_same<T, Half>::value || std::is_same<T, BFloat16>::value> {};

// Note [Out-of-range floating-point to integer conversions]
// C++ leaves a floating -> integer conversion undefined when the value does not fit (NaN, inf,
// -1.0 or 300.0 to uint8), UBSan reports it, and machines differ: x86's conversion instructions
// give the "integer indefinite" value (the minimum of the register's width) and GCC narrows
// through a 32-bit register, while a GPU saturates. miniaten defines the conversion as GCC's x86
// code does it, so that the CPU (scalar or vectorized, any compiler) and the GPU give the same
// bits, which are also libtorch's on x86: truncate toward zero to int32 (int64 for an int64
// target), where any value out of that range, NaN included, becomes its minimum, then narrow as
// integers narrow (modulo 2^bits): -1.0 -> uint8 is 255, 300.0 -> uint8 is 44, 3e9 -> int32 is
// INT32_MIN, NaN -> int64 is INT64_MIN.
template <typename To, typename From>
C10_HOST_DEVICE C10_ALWAYS_INLINE To floating_to_integral(From f) {
  using Wide = std::conditional_t<(sizeof(To) > 4), int64_t, int32_t>;
  constexpr From kLimit = static_cast<From>(uint64_t{1} << (8 * sizeof(Wide) - 1));  // 2^31/2^63
  const Wide w =
      (f >= -kLimit && f < kLimit) ? static_cast<Wide>(f) : std::numeric_limits<Wide>::min();
  return static_cast<To>(w);
}

// Host and device: the GPU copy kernels convert with it too, so both sides round alike.
template <typename To, typename From>
C10_HOST_DEVICE C10_ALWAYS_INLINE To convert(From f) {
  if constexpr (std::is_same<To, From>::value) {
    return f;
  } else if constexpr (is_complex<To>::value) {
    using R = typename To::value_type;
    if constexpr (is_complex<From>::value) {
      return To(static_cast<R>(f.real()), static_cast<R>(f.imag()));
    } else {
      return To(convert<R>(f));
    }
  } else if constexpr (is_complex<From>::value) {
    if constexpr (std::is_same<To, bool>::value) return f.real() != 0 || f.imag() != 0;
    return convert<To>(f.real());
  } else if constexpr (std::is_same<To, bool>::value) {
    // In the source's own precision: a double 1e-300 is true (through float it was 0).
    if constexpr (is_reduced_float<From>::value) return static_cast<float>(f) != 0;
    return f != 0;
  } else if constexpr (is_reduced_float<From>::value) {
    return convert<To>(static_cast<float>(f));
  } else if constexpr (is_reduced_float<To>::value) {
    return To(static_cast<float>(f));
  } else if constexpr (std::is_floating_point<From>::value && std::is_integral<To>::value) {
    // Note [Out-of-range floating-point to integer conversions]
    return floating_to_integral<To>(f);
  } else {
    return static_cast<To>(f);
  }
}

// libtorch's once-per-process warning when a complex tensor is copied to a real one (copy_,
// to(dtype), printing).
inline void warn_complex_to_real_once() {
  TORCH_WARN_ONCE("Casting complex values to real discards the imaginary part");
}

// Reads one element of dtype `src_type` at `ptr` as To.
template <typename To>
To fetch_and_cast(ScalarType src_type, const void* ptr) {
  switch (src_type) {
#define MINIATEN_FETCH_CASE(ctype, name) \
  case ScalarType::name:                 \
    return convert<To>(*static_cast<const ctype*>(ptr));
    C10_FORALL_SCALAR_TYPES(MINIATEN_FETCH_CASE)
#undef MINIATEN_FETCH_CASE
    default:
      TORCH_CHECK(false, "Unexpected scalar type ", src_type);
  }
}

// Writes `value` at `ptr` as dtype `dst_type`.
template <typename From>
void cast_and_store(ScalarType dst_type, void* ptr, From value) {
  switch (dst_type) {
#define MINIATEN_STORE_CASE(ctype, name)                    \
  case ScalarType::name:                                    \
    *static_cast<ctype*>(ptr) = convert<ctype>(value);      \
    return;
    C10_FORALL_SCALAR_TYPES(MINIATEN_STORE_CASE)
#undef MINIATEN_STORE_CASE
    default:
      TORCH_CHECK(false, "Unexpected scalar type ", dst_type);
  }
}

}  // namespace c10
