#pragma once
// The rounding divisions of div(a, b, rounding_mode="trunc" / "floor"), element by element:
// shared by the CPU kernels (cpu/BinaryOpsKernel.cpp) and the GPU ones (cuda/BinaryOpsKernels.cu),
// so both round alike. Integers: C++ division truncates; floor steps down when the signs differ
// and there is a remainder. Floats: libtorch's div_floor_floating, which rounds the quotient
// computed from fmod so that it agrees with Python's // (and keeps the sign of a zero). The
// callers deal with an integer divisor of zero (the CPU raises; see Note [Integer division by
// zero on the GPU] in cuda/BinaryOpsKernels.cu).
//
// In a CPU kernel file (compiled once per capability) these land in its CPU_CAPABILITY
// namespace, as everything it instantiates must: a template compiled with -mavx512f in one copy
// must not be the one the baseline copy links to.

#include <cmath>
#include <type_traits>

#include "c10/util/Macros.h"

namespace at {
namespace native {
#ifdef CPU_CAPABILITY
inline namespace CPU_CAPABILITY {
#endif

// Note [Integer division by -1]
// INT_MIN / -1 does not fit, and x86's idiv traps on it: SIGFPE ends the process (libtorch 1.13
// too: div(full({1}, INT64_MIN), full({1}, -1), "floor") dies there). A signed division by -1
// is negation, wrapped modulo 2^N as the other integer arithmetic wraps: INT_MIN stays INT_MIN.
template <typename T>
C10_HOST_DEVICE T div_trunc_integer(T a, T b) {
  if constexpr (std::is_signed<T>::value) {
    if (b == T(-1)) return static_cast<T>(T(0) - static_cast<std::make_unsigned_t<T>>(a));
  }
  return static_cast<T>(a / b);
}

template <typename T>
C10_HOST_DEVICE T div_floor_integer(T a, T b) {
  if constexpr (std::is_unsigned<T>::value) {
    return static_cast<T>(a / b);
  } else {
    const T quot = div_trunc_integer(a, b);  // exact when b is -1
    return (a < 0) != (b < 0) && quot * b != a ? static_cast<T>(quot - 1) : quot;
  }
}

template <typename T>
C10_HOST_DEVICE T div_floor_floating(T a, T b) {
  if (b == T(0)) return a / b;
  const T mod = std::fmod(a, b);
  T div = (a - mod) / b;
  if (mod != T(0) && (b < T(0)) != (mod < T(0))) div -= T(1);
  if (div == T(0)) return std::copysign(T(0), a / b);
  T floordiv = std::floor(div);
  if (div - floordiv > T(0.5)) floordiv += T(1);
  return floordiv;
}

#ifdef CPU_CAPABILITY
}  // namespace CPU_CAPABILITY
#endif
}  // namespace native
}  // namespace at
