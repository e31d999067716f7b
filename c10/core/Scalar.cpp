#include "c10/core/Scalar.h"

#include <ostream>

#include "c10/util/WrappingArithmetic.h"

namespace c10 {

namespace detail {
void throw_scalar_overflow(const char* type_name) {
  TORCH_CHECK(false, "value cannot be converted to type ", type_name, " without overflow");
}
}  // namespace detail

Scalar Scalar::operator-() const {
  TORCH_CHECK(!isBoolean(), "torch boolean negative operator is not supported.");
  if (isComplex()) return Scalar(-v_.z);
  if (isFloatingPoint()) return Scalar(-v_.d);
  // -INT64_MIN is INT64_MIN, wrapped as integer tensor arithmetic wraps (Note [Integer tensor
  // arithmetic wraps]): sub(a, b, alpha) is add(a, b, -alpha) modulo 2^64 for every alpha.
  // libtorch's plain negation overflows there (found by fuzz_boxed_call under UBSan).
  return Scalar(wrapping_sub(0, v_.i));
}

bool Scalar::equal(double num) const {
  if (isComplex()) return v_.z.real() == num && v_.z.imag() == 0;
  if (isFloatingPoint()) return v_.d == num;
  if (isIntegral(/*includeBool=*/false)) return static_cast<double>(v_.i) == num;
  return false;
}

bool Scalar::equal(bool num) const { return isBoolean() && static_cast<bool>(v_.i) == num; }

bool Scalar::equal(int64_t num) const {
  if (isComplex()) return v_.z.real() == static_cast<double>(num) && v_.z.imag() == 0;
  if (isFloatingPoint()) return v_.d == static_cast<double>(num);
  if (isIntegral(/*includeBool=*/false)) return v_.i == num;
  return false;
}

bool Scalar::equal(c10::complex<double> num) const {
  if (isComplex()) return v_.z == num;
  if (num.imag() != 0) return false;
  if (isFloatingPoint()) return v_.d == num.real();
  if (isIntegral(/*includeBool=*/false)) return static_cast<double>(v_.i) == num.real();
  return false;
}

std::ostream& operator<<(std::ostream& out, const Scalar& s) {
  if (s.isComplex()) return out << s.toComplexDouble();
  if (s.isFloatingPoint()) return out << s.toDouble();
  if (s.isBoolean()) return out << (s.toBool() ? "true" : "false");
  return out << s.toLong();
}

}  // namespace c10
