#pragma once
// c10::convert<To>(from): one element converted between any two of miniaten's dtypes, with
// libtorch's rules: floating -> integer truncates toward zero, -> Half/BFloat16 rounds to nearest
// even (through float), -> bool is `x != 0`; complex -> real keeps the real part (a complex is
// true when either part is nonzero), real -> complex has a zero imaginary part.

#include <type_traits>

#include "c10/core/ScalarType.h"
#include "c10/util/BFloat16.h"
#include "c10/util/Half.h"
#include "c10/util/complex.h"

namespace c10 {

template <typename T>
struct is_reduced_float
    : std::integral_constant<bool, std::is_same<T, Half>::value || std::is_same<T, BFloat16>::value> {};

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
    return static_cast<float>(f) != 0;
  } else if constexpr (is_reduced_float<From>::value) {
    return static_cast<To>(static_cast<float>(f));
  } else if constexpr (is_reduced_float<To>::value) {
    return To(static_cast<float>(f));
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
