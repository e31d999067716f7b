#pragma once
// c10::Half: IEEE 754 binary16 (1 sign, 5 exponent, 10 mantissa bits), stored as its bits.
//
//   c10::Half h = 1.5f;                  // float -> Half rounds to nearest, ties to even
//   float f = h;                         // Half -> float is exact
//   c10::Half s = h + h;                 // arithmetic runs in float, rounds back to Half
//   float g = h * 2.0f;                  // mixing with float (double) gives float (double)
//   auto inf = c10::Half(0x7C00, c10::Half::from_bits());
//
// Note [Half and BFloat16 comparisons]
// There are no comparison operators: `a < b`, `h == 1.0f` use the implicit conversion to float,
// as libtorch does. Declaring operator==(Half, Half) as well would make `h == 1.0f` ambiguous
// (convert h to float, or 1.0f to Half?).

#include <cstdint>
#include <cstring>
#include <limits>
#include <ostream>

#include "c10/util/Macros.h"  // C10_HOST_DEVICE: kernels use these types in device code

namespace c10 {
namespace detail {

C10_HOST_DEVICE inline float fp32_from_bits(uint32_t w) {
  float f;
  std::memcpy(&f, &w, sizeof(f));
  return f;
}

C10_HOST_DEVICE inline uint32_t fp32_to_bits(float f) {
  uint32_t w;
  std::memcpy(&w, &f, sizeof(w));
  return w;
}

// Exact: every half value is a float. Float subnormals are never formed, so this stays right
// when the CPU flushes denormals.
C10_HOST_DEVICE inline float fp16_ieee_to_fp32_value(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t rest = h & 0x7FFFu;  // exponent and mantissa
  if (rest >= 0x7C00u) {
    // Inf stays Inf; a NaN keeps its payload and comes back quiet, as libtorch's does.
    const uint32_t quiet = rest > 0x7C00u ? 0x00400000u : 0u;
    return fp32_from_bits(sign | 0x7F800000u | quiet | ((rest & 0x3FFu) << 13));
  }
  if (rest >= 0x0400u) {
    // Normal: widen the mantissa and rebias the exponent from 15 to 127 (+112).
    return fp32_from_bits(sign | ((rest << 13) + (112u << 23)));
  }
  // Subnormal or zero: mantissa * 2^-24, a normal float (or zero), computed exactly.
  return fp32_from_bits(sign | fp32_to_bits(static_cast<float>(rest) * 0x1p-24f));
}

// Rounds to nearest, ties to even. |f| >= 65520 (halfway past the largest half, 65504) becomes
// Inf; every NaN becomes the quiet NaN 0x7E00 with f's sign.
C10_HOST_DEVICE inline uint16_t fp16_ieee_from_fp32_value(float f) {
  const uint32_t w = fp32_to_bits(f);
  const uint32_t sign = (w >> 16) & 0x8000u;
  const uint32_t a = w & 0x7FFFFFFFu;  // |f|
  if (a >= 0x477FF000u) {              // 65520 and above, Inf, NaN
    return static_cast<uint16_t>(sign | (a > 0x7F800000u ? 0x7E00u : 0x7C00u));
  }
  if (a < 0x38800000u) {  // below 2^-14, the smallest normal half
    // In [0.5, 1) float's spacing is 2^-24, the half subnormal step, so the float adder does
    // the rounding (ties to even) for us; what lands above 0.5 is the half's bit pattern.
    // Rounding up to 2^-14 carries into the exponent field and yields the smallest normal.
    const float rounded = fp32_from_bits(a) + 0.5f;
    return static_cast<uint16_t>(sign | (fp32_to_bits(rounded) - 0x3F000000u));
  }
  // Normal: rebias the exponent (-112), then drop 13 mantissa bits, rounding to nearest even.
  // A carry out of the mantissa correctly bumps the exponent.
  const uint32_t rebiased = a - (112u << 23);
  const uint32_t round_bias = 0xFFFu + ((a >> 13) & 1u);
  return static_cast<uint16_t>(sign | ((rebiased + round_bias) >> 13));
}

}  // namespace detail

struct alignas(2) Half {
  uint16_t x;

  struct from_bits_t {};
  C10_HOST_DEVICE static constexpr from_bits_t from_bits() { return from_bits_t(); }

  // Uninitialized, like float: keeps Half trivial so buffers of it need no constructor calls.
  Half() = default;
  C10_HOST_DEVICE constexpr Half(uint16_t bits, from_bits_t) : x(bits) {}
  C10_HOST_DEVICE Half(float value) : x(detail::fp16_ieee_from_fp32_value(value)) {}
  C10_HOST_DEVICE operator float() const { return detail::fp16_ieee_to_fp32_value(x); }
};

// Half op Half: computed in float, rounded back to Half.
C10_HOST_DEVICE inline Half operator+(const Half& a, const Half& b) {
  return static_cast<float>(a) + static_cast<float>(b);
}
C10_HOST_DEVICE inline Half operator-(const Half& a, const Half& b) {
  return static_cast<float>(a) - static_cast<float>(b);
}
C10_HOST_DEVICE inline Half operator*(const Half& a, const Half& b) {
  return static_cast<float>(a) * static_cast<float>(b);
}
C10_HOST_DEVICE inline Half operator/(const Half& a, const Half& b) {
  return static_cast<float>(a) / static_cast<float>(b);
}
C10_HOST_DEVICE inline Half operator-(const Half& a) {
  return -static_cast<float>(a);
}

C10_HOST_DEVICE inline Half& operator+=(Half& a, const Half& b) {
  return a = a + b;
}
C10_HOST_DEVICE inline Half& operator-=(Half& a, const Half& b) {
  return a = a - b;
}
C10_HOST_DEVICE inline Half& operator*=(Half& a, const Half& b) {
  return a = a * b;
}
C10_HOST_DEVICE inline Half& operator/=(Half& a, const Half& b) {
  return a = a / b;
}

// Half with float: float.
C10_HOST_DEVICE inline float operator+(Half a, float b) {
  return static_cast<float>(a) + b;
}
C10_HOST_DEVICE inline float operator-(Half a, float b) {
  return static_cast<float>(a) - b;
}
C10_HOST_DEVICE inline float operator*(Half a, float b) {
  return static_cast<float>(a) * b;
}
C10_HOST_DEVICE inline float operator/(Half a, float b) {
  return static_cast<float>(a) / b;
}
C10_HOST_DEVICE inline float operator+(float a, Half b) {
  return a + static_cast<float>(b);
}
C10_HOST_DEVICE inline float operator-(float a, Half b) {
  return a - static_cast<float>(b);
}
C10_HOST_DEVICE inline float operator*(float a, Half b) {
  return a * static_cast<float>(b);
}
C10_HOST_DEVICE inline float operator/(float a, Half b) {
  return a / static_cast<float>(b);
}

C10_HOST_DEVICE inline float& operator+=(float& a, const Half& b) {
  return a += static_cast<float>(b);
}
C10_HOST_DEVICE inline float& operator-=(float& a, const Half& b) {
  return a -= static_cast<float>(b);
}
C10_HOST_DEVICE inline float& operator*=(float& a, const Half& b) {
  return a *= static_cast<float>(b);
}
C10_HOST_DEVICE inline float& operator/=(float& a, const Half& b) {
  return a /= static_cast<float>(b);
}

// Half with double: double.
C10_HOST_DEVICE inline double operator+(Half a, double b) {
  return static_cast<double>(a) + b;
}
C10_HOST_DEVICE inline double operator-(Half a, double b) {
  return static_cast<double>(a) - b;
}
C10_HOST_DEVICE inline double operator*(Half a, double b) {
  return static_cast<double>(a) * b;
}
C10_HOST_DEVICE inline double operator/(Half a, double b) {
  return static_cast<double>(a) / b;
}
C10_HOST_DEVICE inline double operator+(double a, Half b) {
  return a + static_cast<double>(b);
}
C10_HOST_DEVICE inline double operator-(double a, Half b) {
  return a - static_cast<double>(b);
}
C10_HOST_DEVICE inline double operator*(double a, Half b) {
  return a * static_cast<double>(b);
}
C10_HOST_DEVICE inline double operator/(double a, Half b) {
  return a / static_cast<double>(b);
}

// Half with int / int64_t: the integer is converted to Half first, the result is Half.
C10_HOST_DEVICE inline Half operator+(Half a, int b) {
  return a + static_cast<Half>(b);
}
C10_HOST_DEVICE inline Half operator-(Half a, int b) {
  return a - static_cast<Half>(b);
}
C10_HOST_DEVICE inline Half operator*(Half a, int b) {
  return a * static_cast<Half>(b);
}
C10_HOST_DEVICE inline Half operator/(Half a, int b) {
  return a / static_cast<Half>(b);
}
C10_HOST_DEVICE inline Half operator+(int a, Half b) {
  return static_cast<Half>(a) + b;
}
C10_HOST_DEVICE inline Half operator-(int a, Half b) {
  return static_cast<Half>(a) - b;
}
C10_HOST_DEVICE inline Half operator*(int a, Half b) {
  return static_cast<Half>(a) * b;
}
C10_HOST_DEVICE inline Half operator/(int a, Half b) {
  return static_cast<Half>(a) / b;
}
C10_HOST_DEVICE inline Half operator+(Half a, int64_t b) {
  return a + static_cast<Half>(b);
}
C10_HOST_DEVICE inline Half operator-(Half a, int64_t b) {
  return a - static_cast<Half>(b);
}
C10_HOST_DEVICE inline Half operator*(Half a, int64_t b) {
  return a * static_cast<Half>(b);
}
C10_HOST_DEVICE inline Half operator/(Half a, int64_t b) {
  return a / static_cast<Half>(b);
}
C10_HOST_DEVICE inline Half operator+(int64_t a, Half b) {
  return static_cast<Half>(a) + b;
}
C10_HOST_DEVICE inline Half operator-(int64_t a, Half b) {
  return static_cast<Half>(a) - b;
}
C10_HOST_DEVICE inline Half operator*(int64_t a, Half b) {
  return static_cast<Half>(a) * b;
}
C10_HOST_DEVICE inline Half operator/(int64_t a, Half b) {
  return static_cast<Half>(a) / b;
}

inline std::ostream& operator<<(std::ostream& out, const Half& value) {
  return out << static_cast<float>(value);
}

}  // namespace c10

namespace at {
using c10::Half;
}  // namespace at

namespace std {

template <>
class numeric_limits<c10::Half> {
 public:
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool is_exact = false;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr bool has_signaling_NaN = true;
  static constexpr auto has_denorm = numeric_limits<float>::has_denorm;
  static constexpr auto has_denorm_loss = numeric_limits<float>::has_denorm_loss;
  static constexpr auto round_style = numeric_limits<float>::round_style;
  static constexpr bool is_iec559 = true;
  static constexpr bool is_bounded = true;
  static constexpr bool is_modulo = false;
  static constexpr int digits = 11;
  static constexpr int digits10 = 3;
  static constexpr int max_digits10 = 5;
  static constexpr int radix = 2;
  static constexpr int min_exponent = -13;
  static constexpr int min_exponent10 = -4;
  static constexpr int max_exponent = 16;
  static constexpr int max_exponent10 = 4;
  static constexpr auto traps = numeric_limits<float>::traps;
  static constexpr auto tinyness_before = numeric_limits<float>::tinyness_before;

  static constexpr c10::Half min() { return c10::Half(0x0400, c10::Half::from_bits()); }
  static constexpr c10::Half lowest() { return c10::Half(0xFBFF, c10::Half::from_bits()); }
  static constexpr c10::Half max() { return c10::Half(0x7BFF, c10::Half::from_bits()); }
  static constexpr c10::Half epsilon() { return c10::Half(0x1400, c10::Half::from_bits()); }
  static constexpr c10::Half round_error() { return c10::Half(0x3800, c10::Half::from_bits()); }
  static constexpr c10::Half infinity() { return c10::Half(0x7C00, c10::Half::from_bits()); }
  static constexpr c10::Half quiet_NaN() { return c10::Half(0x7E00, c10::Half::from_bits()); }
  static constexpr c10::Half signaling_NaN() { return c10::Half(0x7D00, c10::Half::from_bits()); }
  static constexpr c10::Half denorm_min() { return c10::Half(0x0001, c10::Half::from_bits()); }
};

}  // namespace std
