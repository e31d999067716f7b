#pragma once
// Scalar: a number that is not a tensor — int64, double, complex<double> or bool — as operator
// arguments (add(t, 2.5), alpha=1) carry them.
//
//   c10::Scalar s = 2.5;
//   s.isFloatingPoint();   // true
//   s.to<int64_t>();       // 2 (truncates); to<uint8_t>() of 300 raises an overflow error

#include <cstdint>
#include <iosfwd>
#include <limits>
#include <type_traits>

#include "c10/core/ScalarType.h"
#include "c10/util/BFloat16.h"
#include "c10/util/Exception.h"
#include "c10/util/Half.h"
#include "c10/util/complex.h"

namespace c10 {

namespace detail {
[[noreturn]] C10_API void throw_scalar_overflow(const char* type_name);

// libtorch's overflow rule for Scalar::to<T>: integer sources only overflow past T's range
// in the way c10::overflows defines (negative values into unsigned types wrap silently);
// floating sources overflow when finite and out of range.
template <typename T>
struct is_complex : std::false_type {};
template <typename T>
struct is_complex<c10::complex<T>> : std::true_type {};

// A floating value (as double) that To cannot hold; infinities fit a To that has them.
template <typename To>
bool overflows_floating(double d) {
  using limit = std::numeric_limits<To>;
  if (limit::has_infinity && (d == std::numeric_limits<double>::infinity() ||
                              d == -std::numeric_limits<double>::infinity())) {
    return false;
  }
  if (!limit::has_quiet_NaN && d != d) return true;
  return d < static_cast<double>(limit::lowest()) || d > static_cast<double>(limit::max());
}

template <typename To, typename From>
bool overflows(From f) {
  using limit = std::numeric_limits<To>;
  // if constexpr: the integral branch must not be instantiated for a floating To (nvcc warns
  // that limit::max() "does not fit" in the casts below even where they cannot run).
  if constexpr (std::is_same<To, bool>::value) {
    return false;
  } else if constexpr (std::is_integral<From>::value) {
    // float, double and BFloat16 hold every int64 magnitude; Half stops at 65504.
    if constexpr (std::is_floating_point<To>::value || std::is_same<To, BFloat16>::value) {
      return false;
    } else if constexpr (std::is_same<To, Half>::value) {
      const double d = static_cast<double>(f);
      return d < static_cast<double>(limit::lowest()) || d > static_cast<double>(limit::max());
    } else {
      const bool negative = f < From(0);
      if (negative) {
        if (std::is_unsigned<To>::value) {
          return static_cast<uint64_t>(-static_cast<int64_t>(f)) >
                 static_cast<uint64_t>(limit::max());
        }
        return static_cast<int64_t>(f) < static_cast<int64_t>(limit::lowest());
      }
      return static_cast<uint64_t>(f) > static_cast<uint64_t>(limit::max());
    }
  } else {
    return overflows_floating<To>(static_cast<double>(f));
  }
}
}  // namespace detail

class C10_API Scalar {
 public:
  enum class Tag : uint8_t { HAS_i, HAS_d, HAS_b, HAS_z };

  Scalar() : Scalar(int64_t(0)) {}
  Scalar(double v) : tag_(Tag::HAS_d) { v_.d = v; }  // NOLINT
  Scalar(float v) : Scalar(static_cast<double>(v)) {}  // NOLINT
  Scalar(Half v) : Scalar(static_cast<double>(static_cast<float>(v))) {}  // NOLINT
  Scalar(BFloat16 v) : Scalar(static_cast<double>(static_cast<float>(v))) {}  // NOLINT
  Scalar(bool v) : tag_(Tag::HAS_b) { v_.i = v; }  // NOLINT
  Scalar(c10::complex<double> v) : tag_(Tag::HAS_z) { v_.z = v; }  // NOLINT
  Scalar(c10::complex<float> v) : Scalar(c10::complex<double>(v)) {}  // NOLINT
  template <typename T,
            typename std::enable_if_t<std::is_integral<T>::value && !std::is_same<T, bool>::value,
                                      int> = 0>
  Scalar(T v) : tag_(Tag::HAS_i) {  // NOLINT
    v_.i = static_cast<int64_t>(v);
  }

  bool isFloatingPoint() const { return tag_ == Tag::HAS_d; }
  bool isIntegral(bool includeBool) const {
    return tag_ == Tag::HAS_i || (includeBool && tag_ == Tag::HAS_b);
  }
  bool isBoolean() const { return tag_ == Tag::HAS_b; }
  bool isComplex() const { return tag_ == Tag::HAS_z; }

  // The value as T, raising "value cannot be converted to type T without overflow" (a complex
  // value with a nonzero imaginary part overflows every real T, as in libtorch).
  template <typename T>
  T to() const {
    if constexpr (detail::is_complex<T>::value) {
      using R = typename T::value_type;
      if (tag_ == Tag::HAS_z) return T(static_cast<R>(v_.z.real()), static_cast<R>(v_.z.imag()));
      if (tag_ == Tag::HAS_d) return T(static_cast<R>(v_.d));
      return T(static_cast<R>(v_.i));
    } else {
      if (tag_ == Tag::HAS_z) {
        if (v_.z.imag() != 0) detail::throw_scalar_overflow(type_name<T>());
        return checked<T>(v_.z.real());
      }
      return to_real<T>();
    }
  }
  c10::complex<double> toComplexDouble() const { return to<c10::complex<double>>(); }
  c10::complex<float> toComplexFloat() const { return to<c10::complex<float>>(); }

 private:
  template <typename T>
  T to_real() const {
    switch (tag_) {
      case Tag::HAS_d:
        return checked<T>(v_.d);
      case Tag::HAS_b:
        return checked<T>(static_cast<bool>(v_.i));
      case Tag::HAS_i:
      default:
        return checked<T>(v_.i);
    }
  }

 public:
  double toDouble() const { return to<double>(); }
  float toFloat() const { return to<float>(); }
  int64_t toLong() const { return to<int64_t>(); }
  int toInt() const { return to<int>(); }
  int16_t toShort() const { return to<int16_t>(); }
  int8_t toChar() const { return to<int8_t>(); }
  uint8_t toByte() const { return to<uint8_t>(); }
  bool toBool() const { return to<bool>(); }
  Half toHalf() const { return to<Half>(); }
  BFloat16 toBFloat16() const { return to<BFloat16>(); }

  // Long, Double, ComplexDouble or Bool: the type a Scalar argument contributes to type promotion.
  ScalarType type() const {
    switch (tag_) {
      case Tag::HAS_z:
        return ScalarType::ComplexDouble;
      case Tag::HAS_d:
        return ScalarType::Double;
      case Tag::HAS_b:
        return ScalarType::Bool;
      case Tag::HAS_i:
      default:
        return ScalarType::Long;
    }
  }

  Scalar operator-() const;
  bool equal(double num) const;
  bool equal(bool num) const;
  bool equal(int64_t num) const;
  bool equal(c10::complex<double> num) const;

 private:
  template <typename T, typename From>
  static T checked(From f) {
    if (detail::overflows<T, From>(f)) detail::throw_scalar_overflow(type_name<T>());
    return static_cast<T>(f);
  }
  template <typename T>
  static const char* type_name();

  Tag tag_;
  union Value {
    double d;
    int64_t i;
    c10::complex<double> z;
    Value() : i(0) {}
  } v_;
};

template <typename T>
const char* Scalar::type_name() {
  if (std::is_same<T, double>::value) return "double";
  if (std::is_same<T, float>::value) return "float";
  if (std::is_same<T, Half>::value) return "at::Half";
  if (std::is_same<T, BFloat16>::value) return "at::BFloat16";
  if (std::is_same<T, bool>::value) return "bool";
  if (std::is_same<T, uint8_t>::value) return "uint8_t";
  if (std::is_same<T, int8_t>::value) return "int8_t";
  if (std::is_same<T, int16_t>::value) return "int16_t";
  if (std::is_same<T, int32_t>::value) return "int";
  if (std::is_same<T, int64_t>::value) return "int64_t";
  if (std::is_same<T, c10::complex<float>>::value) return "c10::complex<float>";
  if (std::is_same<T, c10::complex<double>>::value) return "c10::complex<double>";
  return "unknown";
}

// Printed as libtorch prints Scalars: 3, 2.5, true, (2,-3).
C10_API std::ostream& operator<<(std::ostream& out, const Scalar& s);

}  // namespace c10

namespace at {
using c10::Scalar;
}  // namespace at
