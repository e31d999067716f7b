#pragma once
// c10::BFloat16: the top 16 bits of a float (1 sign, 8 exponent, 7 mantissa bits).
//
//   c10::BFloat16 b = 1.5f;              // float -> BFloat16 rounds to nearest, ties to even
//   float f = b;                         // BFloat16 -> float is exact (append 16 zero bits)
//   c10::BFloat16 s = b + b;             // arithmetic runs in float, rounds back
//   auto inf = c10::BFloat16(0x7F80, c10::BFloat16::from_bits());
//
// Comparisons go through float; see Note [Half and BFloat16 comparisons] in c10/util/Half.h.

#include <cstdint>
#include <cstring>
#include <limits>
#include <ostream>

#include "c10/util/Macros.h"  // C10_HOST_DEVICE: kernels use these types in device code

namespace c10 {
namespace detail {

C10_HOST_DEVICE inline float f32_from_bits(uint16_t src) {
  const uint32_t w = static_cast<uint32_t>(src) << 16;
  float f;
  std::memcpy(&f, &w, sizeof(f));
  return f;
}

// Truncates (no rounding): the top half of the float's bits.
C10_HOST_DEVICE inline uint16_t bits_from_f32(float src) {
  uint32_t w;
  std::memcpy(&w, &src, sizeof(w));
  return static_cast<uint16_t>(w >> 16);
}

// Adding 0x7FFF, plus 1 when the kept part is odd, carries into bit 16 exactly when the dropped
// half is above the midpoint, or at it with an odd kept part: ties to even. Large finite values
// carry into the exponent and become Inf. NaN needs its own case (the carry could make it Inf),
// and, as in libtorch, every NaN becomes the positive quiet NaN 0x7FC0.
C10_HOST_DEVICE inline uint16_t round_to_nearest_even(float src) {
  uint32_t w;
  std::memcpy(&w, &src, sizeof(w));
  if ((w & 0x7FFFFFFFu) > 0x7F800000u) {
    return 0x7FC0;
  }
  const uint32_t rounding_bias = 0x7FFFu + ((w >> 16) & 1u);
  return static_cast<uint16_t>((w + rounding_bias) >> 16);
}

}  // namespace detail

struct alignas(2) BFloat16 {
  uint16_t x;

  struct from_bits_t {};
  C10_HOST_DEVICE static constexpr from_bits_t from_bits() { return from_bits_t(); }

  // Uninitialized, like float: keeps BFloat16 trivial.
  BFloat16() = default;
  C10_HOST_DEVICE constexpr BFloat16(uint16_t bits, from_bits_t) : x(bits) {}
  C10_HOST_DEVICE BFloat16(float value) : x(detail::round_to_nearest_even(value)) {}
  C10_HOST_DEVICE operator float() const { return detail::f32_from_bits(x); }
};

// BFloat16 op BFloat16: computed in float, rounded back to BFloat16.
C10_HOST_DEVICE inline BFloat16 operator+(const BFloat16& a, const BFloat16& b) {
  return static_cast<float>(a) + static_cast<float>(b);
}
C10_HOST_DEVICE inline BFloat16 operator-(const BFloat16& a, const BFloat16& b) {
  return static_cast<float>(a) - static_cast<float>(b);
}
C10_HOST_DEVICE inline BFloat16 operator*(const BFloat16& a, const BFloat16& b) {
  return static_cast<float>(a) * static_cast<float>(b);
}
C10_HOST_DEVICE inline BFloat16 operator/(const BFloat16& a, const BFloat16& b) {
  return static_cast<float>(a) / static_cast<float>(b);
}
C10_HOST_DEVICE inline BFloat16 operator-(const BFloat16& a) {
  return -static_cast<float>(a);
}

C10_HOST_DEVICE inline BFloat16& operator+=(BFloat16& a, const BFloat16& b) {
  return a = a + b;
}
C10_HOST_DEVICE inline BFloat16& operator-=(BFloat16& a, const BFloat16& b) {
  return a = a - b;
}
C10_HOST_DEVICE inline BFloat16& operator*=(BFloat16& a, const BFloat16& b) {
  return a = a * b;
}
C10_HOST_DEVICE inline BFloat16& operator/=(BFloat16& a, const BFloat16& b) {
  return a = a / b;
}

// BFloat16 with float: float.
C10_HOST_DEVICE inline float operator+(BFloat16 a, float b) {
  return static_cast<float>(a) + b;
}
C10_HOST_DEVICE inline float operator-(BFloat16 a, float b) {
  return static_cast<float>(a) - b;
}
C10_HOST_DEVICE inline float operator*(BFloat16 a, float b) {
  return static_cast<float>(a) * b;
}
C10_HOST_DEVICE inline float operator/(BFloat16 a, float b) {
  return static_cast<float>(a) / b;
}
C10_HOST_DEVICE inline float operator+(float a, BFloat16 b) {
  return a + static_cast<float>(b);
}
C10_HOST_DEVICE inline float operator-(float a, BFloat16 b) {
  return a - static_cast<float>(b);
}
C10_HOST_DEVICE inline float operator*(float a, BFloat16 b) {
  return a * static_cast<float>(b);
}
C10_HOST_DEVICE inline float operator/(float a, BFloat16 b) {
  return a / static_cast<float>(b);
}

C10_HOST_DEVICE inline float& operator+=(float& a, const BFloat16& b) {
  return a += static_cast<float>(b);
}
C10_HOST_DEVICE inline float& operator-=(float& a, const BFloat16& b) {
  return a -= static_cast<float>(b);
}
C10_HOST_DEVICE inline float& operator*=(float& a, const BFloat16& b) {
  return a *= static_cast<float>(b);
}
C10_HOST_DEVICE inline float& operator/=(float& a, const BFloat16& b) {
  return a /= static_cast<float>(b);
}

// BFloat16 with double: double.
C10_HOST_DEVICE inline double operator+(BFloat16 a, double b) {
  return static_cast<double>(a) + b;
}
C10_HOST_DEVICE inline double operator-(BFloat16 a, double b) {
  return static_cast<double>(a) - b;
}
C10_HOST_DEVICE inline double operator*(BFloat16 a, double b) {
  return static_cast<double>(a) * b;
}
C10_HOST_DEVICE inline double operator/(BFloat16 a, double b) {
  return static_cast<double>(a) / b;
}
C10_HOST_DEVICE inline double operator+(double a, BFloat16 b) {
  return a + static_cast<double>(b);
}
C10_HOST_DEVICE inline double operator-(double a, BFloat16 b) {
  return a - static_cast<double>(b);
}
C10_HOST_DEVICE inline double operator*(double a, BFloat16 b) {
  return a * static_cast<double>(b);
}
C10_HOST_DEVICE inline double operator/(double a, BFloat16 b) {
  return a / static_cast<double>(b);
}

// BFloat16 with int / int64_t: the integer is converted to BFloat16 first, the result is BFloat16.
C10_HOST_DEVICE inline BFloat16 operator+(BFloat16 a, int b) {
  return a + static_cast<BFloat16>(b);
}
C10_HOST_DEVICE inline BFloat16 operator-(BFloat16 a, int b) {
  return a - static_cast<BFloat16>(b);
}
C10_HOST_DEVICE inline BFloat16 operator*(BFloat16 a, int b) {
  return a * static_cast<BFloat16>(b);
}
C10_HOST_DEVICE inline BFloat16 operator/(BFloat16 a, int b) {
  return a / static_cast<BFloat16>(b);
}
C10_HOST_DEVICE inline BFloat16 operator+(int a, BFloat16 b) {
  return static_cast<BFloat16>(a) + b;
}
C10_HOST_DEVICE inline BFloat16 operator-(int a, BFloat16 b) {
  return static_cast<BFloat16>(a) - b;
}
C10_HOST_DEVICE inline BFloat16 operator*(int a, BFloat16 b) {
  return static_cast<BFloat16>(a) * b;
}
C10_HOST_DEVICE inline BFloat16 operator/(int a, BFloat16 b) {
  return static_cast<BFloat16>(a) / b;
}
C10_HOST_DEVICE inline BFloat16 operator+(BFloat16 a, int64_t b) {
  return a + static_cast<BFloat16>(b);
}
C10_HOST_DEVICE inline BFloat16 operator-(BFloat16 a, int64_t b) {
  return a - static_cast<BFloat16>(b);
}
C10_HOST_DEVICE inline BFloat16 operator*(BFloat16 a, int64_t b) {
  return a * static_cast<BFloat16>(b);
}
C10_HOST_DEVICE inline BFloat16 operator/(BFloat16 a, int64_t b) {
  return a / static_cast<BFloat16>(b);
}
C10_HOST_DEVICE inline BFloat16 operator+(int64_t a, BFloat16 b) {
  return static_cast<BFloat16>(a) + b;
}
C10_HOST_DEVICE inline BFloat16 operator-(int64_t a, BFloat16 b) {
  return static_cast<BFloat16>(a) - b;
}
C10_HOST_DEVICE inline BFloat16 operator*(int64_t a, BFloat16 b) {
  return static_cast<BFloat16>(a) * b;
}
C10_HOST_DEVICE inline BFloat16 operator/(int64_t a, BFloat16 b) {
  return static_cast<BFloat16>(a) / b;
}

inline std::ostream& operator<<(std::ostream& out, const BFloat16& value) {
  return out << static_cast<float>(value);
}

}  // namespace c10

namespace at {
using c10::BFloat16;
}  // namespace at

namespace std {

template <>
class numeric_limits<c10::BFloat16> {
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
  static constexpr bool is_iec559 = false;
  static constexpr bool is_bounded = true;
  static constexpr bool is_modulo = false;
  static constexpr int digits = 8;
  static constexpr int digits10 = 2;
  static constexpr int max_digits10 = 4;
  static constexpr int radix = 2;
  static constexpr int min_exponent = -125;
  static constexpr int min_exponent10 = -37;
  static constexpr int max_exponent = 128;
  static constexpr int max_exponent10 = 38;
  static constexpr auto traps = numeric_limits<float>::traps;
  static constexpr auto tinyness_before = numeric_limits<float>::tinyness_before;

  static constexpr c10::BFloat16 min() { return c10::BFloat16(0x0080, c10::BFloat16::from_bits()); }
  static constexpr c10::BFloat16 lowest() {
    return c10::BFloat16(0xFF7F, c10::BFloat16::from_bits());
  }
  static constexpr c10::BFloat16 max() { return c10::BFloat16(0x7F7F, c10::BFloat16::from_bits()); }
  static constexpr c10::BFloat16 epsilon() {
    return c10::BFloat16(0x3C00, c10::BFloat16::from_bits());
  }
  static constexpr c10::BFloat16 round_error() {
    return c10::BFloat16(0x3F00, c10::BFloat16::from_bits());
  }
  static constexpr c10::BFloat16 infinity() {
    return c10::BFloat16(0x7F80, c10::BFloat16::from_bits());
  }
  static constexpr c10::BFloat16 quiet_NaN() {
    return c10::BFloat16(0x7FC0, c10::BFloat16::from_bits());
  }
  // libtorch 1.13 returns 0x7F80 here, which is Inf; 0x7FA0 is an actual signaling NaN.
  static constexpr c10::BFloat16 signaling_NaN() {
    return c10::BFloat16(0x7FA0, c10::BFloat16::from_bits());
  }
  static constexpr c10::BFloat16 denorm_min() {
    return c10::BFloat16(0x0001, c10::BFloat16::from_bits());
  }
};

}  // namespace std
