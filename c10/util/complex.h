#pragma once
// c10::complex<T>: the complex number type of complex tensors and complex Scalars, laid out as
// two Ts (real, imag) and aligned to their total size like libtorch's, so a kComplexDouble
// buffer is an array of them.
//
//   c10::complex<double> z(3, 4);
//   std::abs(z);               // 5
//   z * 2;  2 * z;  z / z;     // integers mix in, as libtorch allows (std::complex does not)
//   std::cout << z;            // (3,4), as std::complex prints
//
// The functions in std:: (abs, arg, norm, conj, exp, log, sqrt, pow, sin, ...) compute through
// std::complex, whose layout is the same.

#include <cmath>
#include <complex>
#include <iosfwd>
#include <type_traits>

// Note [A complex product is rounded as written]
// libtorch's vectorized complex kernels multiply as the textbook does: the four products
// rounded, then a*c - b*d and a*d + b*c each rounded (mul, mul, addsub). GCC 12 recognizes that
// pair of lines as a complex multiply and vectorizes it with vfmaddsub, which fuses one product
// into the sum, even under -ffp-contract=off, so the last bit could differ from libtorch's. A
// product passed through C10_AS_ROUNDED (__builtin_assoc_barrier) stays its own rounded value,
// and GCC emits mul, mul, addsub, as libtorch does. libtorch 1.13 itself is not consistent: the
// scalar tail of its AVX2 and AVX512 loops (the last elements that fill no vector) is compiled
// with -mfma and contracted, so there a product is fused; its default capability and its vector
// bodies are not. miniaten rounds as written at every position. Clang and the CUDA compilers
// honour -ffp-contract=off and have no such pattern; nvcc's front end does not know the builtin.
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__) && __GNUC__ >= 12
#define C10_AS_ROUNDED(x) __builtin_assoc_barrier(x)
#else
#define C10_AS_ROUNDED(x) (x)
#endif

namespace c10 {

template <typename T>
struct alignas(sizeof(T) * 2) complex {
  using value_type = T;

  T real_ = T(0);
  T imag_ = T(0);

  constexpr complex() = default;
  constexpr complex(const T& re, const T& im = T()) : real_(re), imag_(im) {}  // NOLINT
  template <typename U>
  constexpr complex(const std::complex<U>& other)  // NOLINT
      : complex(static_cast<T>(other.real()), static_cast<T>(other.imag())) {}
  // Widening (float -> double) is implicit, narrowing explicit, as in libtorch.
  template <typename U, std::enable_if_t<(sizeof(U) < sizeof(T)), int> = 0>
  constexpr complex(const complex<U>& other)  // NOLINT
      : complex(static_cast<T>(other.real()), static_cast<T>(other.imag())) {}
  template <typename U, std::enable_if_t<(sizeof(U) > sizeof(T)), int> = 0>
  explicit constexpr complex(const complex<U>& other)
      : complex(static_cast<T>(other.real()), static_cast<T>(other.imag())) {}

  template <typename U>
  explicit constexpr operator std::complex<U>() const {
    return std::complex<U>(static_cast<U>(real_), static_cast<U>(imag_));
  }
  explicit constexpr operator bool() const { return real_ || imag_; }

  constexpr T real() const { return real_; }
  constexpr void real(T value) { real_ = value; }
  constexpr T imag() const { return imag_; }
  constexpr void imag(T value) { imag_ = value; }

  constexpr complex& operator=(T re) {
    real_ = re;
    imag_ = T(0);
    return *this;
  }
  constexpr complex& operator+=(T re) {
    real_ += re;
    return *this;
  }
  constexpr complex& operator-=(T re) {
    real_ -= re;
    return *this;
  }
  constexpr complex& operator*=(T re) {
    real_ *= re;
    imag_ *= re;
    return *this;
  }
  constexpr complex& operator/=(T re) {
    real_ /= re;
    imag_ /= re;
    return *this;
  }
  template <typename U>
  constexpr complex& operator+=(const complex<U>& rhs) {
    real_ += rhs.real();
    imag_ += rhs.imag();
    return *this;
  }
  template <typename U>
  constexpr complex& operator-=(const complex<U>& rhs) {
    real_ -= rhs.real();
    imag_ -= rhs.imag();
    return *this;
  }
  template <typename U>
  constexpr complex& operator*=(const complex<U>& rhs) {
    const T a = real_, b = imag_;
    const T c = rhs.real(), d = rhs.imag();
    // Note [A complex product is rounded as written]
    real_ = C10_AS_ROUNDED(a * c) - C10_AS_ROUNDED(b * d);
    imag_ = C10_AS_ROUNDED(a * d) + C10_AS_ROUNDED(b * c);
    return *this;
  }
  // libtorch 1.13's textbook formula, not std::complex's scaled one, so that quotients agree
  // with libtorch to the last bit (its vectorized kernels compute the same formula); like
  // libtorch's, it overflows for parts beyond about sqrt(max).
  template <typename U>
  constexpr complex& operator/=(const complex<U>& rhs) {
    const T a = real_, b = imag_;
    const U c = rhs.real(), d = rhs.imag();
    const auto denominator = c * c + d * d;
    real_ = (a * c + b * d) / denominator;
    imag_ = (b * c - a * d) / denominator;
    return *this;
  }
};

// libtorch's traits (c10/util/complex_utils.h): whether T is a complex type, and the type of
// its parts (T itself for a real T).
//   c10::is_complex<c10::complex<float>>::value        // true
//   c10::scalar_value_type<c10::complex<double>>::type  // double
template <typename T>
struct is_complex : std::false_type {};
template <typename T>
struct is_complex<std::complex<T>> : std::true_type {};
template <typename T>
struct is_complex<complex<T>> : std::true_type {};

template <typename T>
struct scalar_value_type {
  using type = T;
};
template <typename T>
struct scalar_value_type<std::complex<T>> {
  using type = T;
};
template <typename T>
struct scalar_value_type<complex<T>> {
  using type = T;
};

static_assert(sizeof(complex<double>) == 16 && alignof(complex<double>) == 16,
              "c10::complex<double> is two doubles, aligned as a pair");

template <typename T>
constexpr complex<T> operator+(const complex<T>& v) {
  return v;
}
template <typename T>
constexpr complex<T> operator-(const complex<T>& v) {
  return complex<T>(-v.real(), -v.imag());
}

#define C10_COMPLEX_BINARY_OP(op)                                              \
  template <typename T>                                                        \
  constexpr complex<T> operator op(const complex<T>& a, const complex<T>& b) { \
    complex<T> r = a;                                                          \
    return r op## = b;                                                         \
  }                                                                            \
  template <typename T>                                                        \
  constexpr complex<T> operator op(const complex<T>& a, const T& b) {          \
    complex<T> r = a;                                                          \
    return r op## = b;                                                         \
  }                                                                            \
  template <typename T>                                                        \
  constexpr complex<T> operator op(const T& a, const complex<T>& b) {          \
    complex<T> r(a);                                                           \
    return r op## = b;                                                         \
  }
C10_COMPLEX_BINARY_OP(+)
C10_COMPLEX_BINARY_OP(-)
C10_COMPLEX_BINARY_OP(*)
C10_COMPLEX_BINARY_OP(/)
#undef C10_COMPLEX_BINARY_OP

// Integers mix with complex numbers of either precision (2 * z), as in libtorch.
#define C10_COMPLEX_INTEGER_OP(op)                                                         \
  template <typename T, typename I, std::enable_if_t<std::is_integral<I>::value, int> = 0> \
  constexpr complex<T> operator op(const complex<T>& a, const I& b) {                      \
    return a op static_cast<T>(b);                                                         \
  }                                                                                        \
  template <typename T, typename I, std::enable_if_t<std::is_integral<I>::value, int> = 0> \
  constexpr complex<T> operator op(const I& a, const complex<T>& b) {                      \
    return static_cast<T>(a) op b;                                                         \
  }
C10_COMPLEX_INTEGER_OP(+)
C10_COMPLEX_INTEGER_OP(-)
C10_COMPLEX_INTEGER_OP(*)
C10_COMPLEX_INTEGER_OP(/)
#undef C10_COMPLEX_INTEGER_OP

template <typename T>
constexpr bool operator==(const complex<T>& a, const complex<T>& b) {
  return a.real() == b.real() && a.imag() == b.imag();
}
template <typename T>
constexpr bool operator==(const complex<T>& a, const T& b) {
  return a.real() == b && a.imag() == T(0);
}
template <typename T>
constexpr bool operator==(const T& a, const complex<T>& b) {
  return b == a;
}
template <typename T>
constexpr bool operator!=(const complex<T>& a, const complex<T>& b) {
  return !(a == b);
}
template <typename T>
constexpr bool operator!=(const complex<T>& a, const T& b) {
  return !(a == b);
}
template <typename T>
constexpr bool operator!=(const T& a, const complex<T>& b) {
  return !(a == b);
}

template <typename T>
std::ostream& operator<<(std::ostream& out, const complex<T>& v) {
  return out << static_cast<std::complex<T>>(v);
}
template <typename T>
std::istream& operator>>(std::istream& in, complex<T>& v) {
  std::complex<T> tmp;
  in >> tmp;
  v = tmp;
  return in;
}

namespace detail {
template <typename T>
std::complex<T> to_std(const complex<T>& v) {
  return std::complex<T>(v.real(), v.imag());
}
}  // namespace detail

}  // namespace c10

namespace std {

template <typename T>
constexpr T real(const c10::complex<T>& z) {
  return z.real();
}
template <typename T>
constexpr T imag(const c10::complex<T>& z) {
  return z.imag();
}
template <typename T>
T abs(const c10::complex<T>& z) {
  return std::abs(c10::detail::to_std(z));
}
template <typename T>
T arg(const c10::complex<T>& z) {
  return std::atan2(z.imag(), z.real());
}
template <typename T>
constexpr T norm(const c10::complex<T>& z) {
  return z.real() * z.real() + z.imag() * z.imag();
}
template <typename T>
constexpr c10::complex<T> conj(const c10::complex<T>& z) {
  return c10::complex<T>(z.real(), -z.imag());
}
template <typename T>
c10::complex<T> polar(const T& r, const T& theta = T()) {
  return c10::complex<T>(std::polar(r, theta));
}

#define C10_COMPLEX_UNARY_FN(fn)                             \
  template <typename T>                                      \
  c10::complex<T> fn(const c10::complex<T>& z) {             \
    return c10::complex<T>(std::fn(c10::detail::to_std(z))); \
  }
C10_COMPLEX_UNARY_FN(exp)
C10_COMPLEX_UNARY_FN(log)
C10_COMPLEX_UNARY_FN(log10)
C10_COMPLEX_UNARY_FN(sqrt)
C10_COMPLEX_UNARY_FN(sin)
C10_COMPLEX_UNARY_FN(cos)
C10_COMPLEX_UNARY_FN(tan)
C10_COMPLEX_UNARY_FN(asin)
C10_COMPLEX_UNARY_FN(acos)
C10_COMPLEX_UNARY_FN(atan)
C10_COMPLEX_UNARY_FN(sinh)
C10_COMPLEX_UNARY_FN(cosh)
C10_COMPLEX_UNARY_FN(tanh)
C10_COMPLEX_UNARY_FN(asinh)
C10_COMPLEX_UNARY_FN(acosh)
C10_COMPLEX_UNARY_FN(atanh)
#undef C10_COMPLEX_UNARY_FN

template <typename T>
c10::complex<T> log2(const c10::complex<T>& z) {
  return c10::complex<T>(std::log(c10::detail::to_std(z)) / std::log(T(2)));
}
template <typename T>
c10::complex<T> pow(const c10::complex<T>& base, const c10::complex<T>& exponent) {
  return c10::complex<T>(std::pow(c10::detail::to_std(base), c10::detail::to_std(exponent)));
}
template <typename T>
c10::complex<T> pow(const c10::complex<T>& base, const T& exponent) {
  return c10::complex<T>(std::pow(c10::detail::to_std(base), exponent));
}
template <typename T>
c10::complex<T> pow(const T& base, const c10::complex<T>& exponent) {
  return c10::complex<T>(std::pow(base, c10::detail::to_std(exponent)));
}
template <typename T>
bool isnan(const c10::complex<T>& z) {
  return std::isnan(z.real()) || std::isnan(z.imag());
}

}  // namespace std
