#pragma once
// base ** exp for the integer dtypes, by squaring: one definition for pow's CPU kernels
// (cpu/PowKernel.cpp) and GPU kernels (cuda/BinaryMathKernels.cu).
//
// In a CPU kernel file (compiled once per capability) these land in its CPU_CAPABILITY
// namespace, as DivRounding.h's do: a template compiled with -mavx512f in one copy must not be
// the one the baseline copy links to.

#include <cstdint>
#include <type_traits>

#include "c10/util/Macros.h"

namespace at {
namespace native {
#ifdef CPU_CAPABILITY
inline namespace CPU_CAPABILITY {
#endif

// An unsigned type at least as wide as int: integer arithmetic in it wraps modulo 2^N, which is
// what the CPU's -fwrapv code gives (Note [Integer tensor arithmetic wraps] in
// aten/CMakeLists.txt) and what signed overflow in plain C++ (or CUDA) does not promise.
template <typename T>
using wrap_t = std::conditional_t<(sizeof(T) > 4), uint64_t, uint32_t>;

template <typename T>
C10_HOST_DEVICE T wrapping_mul(T a, T b) {
  return static_cast<T>(static_cast<wrap_t<T>>(a) * static_cast<wrap_t<T>>(b));
}

// A negative exp gives what the exact value truncates to: 1 for base == 1, ±1 for base == -1,
// else 0 (libtorch's powi).
template <typename T>
C10_HOST_DEVICE T integer_pow(T base, T exp) {
  if constexpr (std::is_signed<T>::value) {
    if (exp < 0) {
      if (base == 1) return 1;
      if (base == -1) return (exp % 2) != 0 ? T(-1) : T(1);
      return 0;
    }
  }
  T result = 1;
  while (exp) {
    if (exp & 1) result = wrapping_mul(result, base);
    exp = static_cast<T>(exp / 2);
    base = wrapping_mul(base, base);
  }
  return result;
}

#ifdef CPU_CAPABILITY
}  // namespace CPU_CAPABILITY
#endif
}  // namespace native
}  // namespace at
