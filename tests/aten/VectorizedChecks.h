#pragma once
// Every Vectorized<T> operation, lane by lane, against the scalar code a kernel's basic loop
// would run. Shared by Vectorized_test.cpp (the DEFAULT build) and DispatchStubTestKernel.cpp
// (compiled once per capability), so the AVX2 and AVX-512 instantiations are checked too.
// Returns failure messages instead of using gtest, so per-capability copies need no gtest.

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "aten/cpu/vec/Vectorized.h"
#include "c10/core/ScalarType.h"

namespace miniaten_test {
// Per-capability like Vectorized itself. See Note [Vectorized lives in namespace CPU_CAPABILITY].
inline namespace CPU_CAPABILITY {

template <typename T>
constexpr bool is_reduced_float() {
  return std::is_same<T, c10::Half>::value || std::is_same<T, c10::BFloat16>::value;
}

// The type scalar code computes T's arithmetic in: float for Half/BFloat16, int for types that
// C++ promotes, T otherwise.
template <typename T>
using Calc = std::conditional_t<
    is_reduced_float<T>(), float,
    std::conditional_t<std::is_integral<T>::value && (sizeof(T) < sizeof(int)), int, T>>;

template <typename T>
constexpr bool is_floating() {
  return is_reduced_float<T>() || std::is_floating_point<T>::value;
}

template <typename T>
Calc<T> calc(T x) {
  return static_cast<Calc<T>>(x);
}

template <typename T>
bool is_nan(T x) {
  if constexpr (is_floating<T>()) {
    return std::isnan(static_cast<double>(calc(x)));
  } else {
    return false;
  }
}

// Inputs: a, b cover signs, zeros, NaN and infinities where T has them; d is a safe divisor.
template <typename T>
T input(int which, int i) {
  if constexpr (std::is_same<T, bool>::value) {
    return which == 0 ? (i % 3 != 0) : which == 1 ? (i % 2 == 0) : true;
  } else if constexpr (is_floating<T>()) {
    static const float as[] = {-2.5f, 1.0f,  -0.0f, 0.0f,   0.5f, 3.0f,
                               7.25f, -1.0f, 2.0f,  100.0f, -3.0f};
    static const float bs[] = {1.5f,  1.0f,  0.0f, -0.0f,  -4.0f, 3.0f,
                               0.25f, -1.0f, 9.0f, 0.125f, 6.0f};
    if (which == 0 && i == 13) return static_cast<T>(std::numeric_limits<float>::quiet_NaN());
    if (which == 1 && i == 6) return static_cast<T>(std::numeric_limits<float>::quiet_NaN());
    if (which == 1 && i == 15) return static_cast<T>(std::numeric_limits<float>::infinity());
    return static_cast<T>((which == 0 ? as : bs)[i % 11]);
  } else if constexpr (std::is_signed<T>::value) {
    const int v = which == 0 ? (i * 7) % 41 - 20 : which == 1 ? (i * 5) % 23 - 11 : (i % 7) - 3;
    return static_cast<T>(which == 2 && v == 0 ? 5 : v);
  } else {
    return static_cast<T>(which == 0 ? (i * 37) % 200 : which == 1 ? (i * 11) % 60 : i % 9 + 1);
  }
}

template <typename T>
std::string show(T x) {
  return std::to_string(static_cast<double>(calc(x)));
}

template <typename T>
class VecChecker {
  using Vec = at::vec::Vectorized<T>;
  static constexpr int N = Vec::size();

 public:
  explicit VecChecker(std::vector<std::string>& failures) : failures_(failures) {
    for (int i = 0; i < N; ++i) {
      a_[i] = input<T>(0, i);
      b_[i] = input<T>(1, i);
      d_[i] = input<T>(2, i);
    }
  }

  void run() {
    const Vec a = Vec::loadu(a_), b = Vec::loadu(b_), d = Vec::loadu(d_);
    expect_size();
    lanes(
        "operator[]", a, [&](int i) { return a_[i]; }, /*via_index=*/true);
    lanes("broadcast", Vec(a_[3]), [&](int) { return a_[3]; });
    lanes("add", a + b, [&](int i) { return T(calc(a_[i]) + calc(b_[i])); });
    lanes("sub", a - b, [&](int i) { return T(calc(a_[i]) - calc(b_[i])); });
    lanes("mul", a * b, [&](int i) { return T(calc(a_[i]) * calc(b_[i])); });
    lanes("div", a / d, [&](int i) { return T(calc(a_[i]) / calc(d_[i])); });
    lanes("neg", -a, [&](int i) { return T(-calc(a_[i])); });
    lanes("abs", a.abs(), [&](int i) { return scalar_abs(a_[i]); });
    lanes("fmadd", fmadd(a, b, d),
          [&](int i) { return T(calc(a_[i]) * calc(b_[i]) + calc(d_[i])); });
    lanes("maximum", maximum(a, b), [&](int i) { return extreme(a_[i], b_[i], true); });
    lanes("minimum", minimum(a, b), [&](int i) { return extreme(a_[i], b_[i], false); });
    lanes("blendv", Vec::blendv(a, b, a < b),
          [&](int i) { return calc(a_[i]) < calc(b_[i]) ? b_[i] : a_[i]; });
    compare("eq", a == b, a.eq(b), [](Calc<T> x, Calc<T> y) { return x == y; });
    compare("ne", a != b, a.ne(b), [](Calc<T> x, Calc<T> y) { return x != y; });
    compare("lt", a < b, a.lt(b), [](Calc<T> x, Calc<T> y) { return x < y; });
    compare("le", a <= b, a.le(b), [](Calc<T> x, Calc<T> y) { return x <= y; });
    compare("gt", a > b, a.gt(b), [](Calc<T> x, Calc<T> y) { return x > y; });
    compare("ge", a >= b, a.ge(b), [](Calc<T> x, Calc<T> y) { return x >= y; });
    bitwise(a, b);
    if constexpr (is_floating<T>()) {
      using F = Calc<T>;
      lanes("exp", a.exp(), [&](int i) { return T(std::exp(calc(a_[i]))); });
      lanes("log", a.log(), [&](int i) { return T(std::log(calc(a_[i]))); });
      lanes("sqrt", a.sqrt(), [&](int i) { return T(std::sqrt(calc(a_[i]))); });
      lanes("reciprocal", a.reciprocal(), [&](int i) { return T(F(1) / calc(a_[i])); });
      lanes("map", a.map([](F x) { return x * F(3) + F(1); }),
            [&](int i) { return T(calc(a_[i]) * F(3) + F(1)); });
      signed_zeros();
    }
    partial_loads_and_stores();
  }

 private:
  static T scalar_abs(T x) {
    if constexpr (is_floating<T>()) {
      return T(std::abs(calc(x)));
    } else if constexpr (std::is_signed<T>::value) {
      return T(calc(x) < 0 ? -calc(x) : calc(x));
    } else {
      return x;
    }
  }
  // torch.maximum / torch.minimum: NaN if either is NaN.
  static T extreme(T x, T y, bool max) {
    if (is_nan(x)) return x;
    if (is_nan(y)) return y;
    const bool take_x = max ? calc(x) > calc(y) : calc(x) < calc(y);
    return take_x ? x : y;
  }
  static bool same(T got, T want) {
    if (is_nan(got) || is_nan(want)) return is_nan(got) && is_nan(want);
    return calc(got) == calc(want);
  }

  void fail(const char* op, int lane, const std::string& got, const std::string& want) {
    failures_.push_back(std::string(c10::toString(c10::CppTypeToScalarType<T>::value)) + " " + op +
                        " lane " + std::to_string(lane) + ": got " + got + ", want " + want);
  }

  void expect_size() {
    if (N != at::vec::kVectorBytes / static_cast<int>(sizeof(T)))
      fail("size", 0, std::to_string(N), "");
  }

  template <typename Ref>
  void lanes(const char* op, const Vec& got, const Ref& ref, bool via_index = false) {
    T out[N];
    got.store(out);
    for (int i = 0; i < N; ++i) {
      const T g = via_index ? got[i] : out[i];
      const T w = ref(i);
      if (!same(g, w)) fail(op, i, show(g), show(w));
    }
  }

  // The mask has every bit of a lane set exactly where pred holds; the values version is 1/0.
  template <typename Pred>
  void compare(const char* op, const Vec& mask, const Vec& values, const Pred& pred) {
    unsigned char bytes[sizeof(T) * N];
    mask.store(bytes);
    for (int i = 0; i < N; ++i) {
      const bool want = pred(calc(a_[i]), calc(b_[i]));
      for (size_t k = 0; k < sizeof(T); ++k) {
        const unsigned char byte = bytes[i * sizeof(T) + k];
        // A bool vector stores valid bools: the mask lane comes out as 1.
        const unsigned char set = std::is_same<T, bool>::value ? 1 : 0xFF;
        if (byte != (want ? set : 0)) {
          fail(op, i, "mask byte " + std::to_string(byte), want ? "all set" : "0");
          break;
        }
      }
    }
    lanes(op, values,
          [&](int i) { return static_cast<T>(pred(calc(a_[i]), calc(b_[i])) ? 1 : 0); });
  }

  void bitwise(const Vec& a, const Vec& b) {
    using U = std::conditional_t<
        sizeof(T) == 1, uint8_t,
        std::conditional_t<sizeof(T) == 2, uint16_t,
                           std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;
    auto check = [&](const char* op, const Vec& got, auto f) {
      T out[N];
      got.store(out);
      for (int i = 0; i < N; ++i) {
        U x, y, g;
        std::memcpy(&x, &a_[i], sizeof(T));
        std::memcpy(&y, &b_[i], sizeof(T));
        std::memcpy(&g, &out[i], sizeof(T));
        const U w = static_cast<U>(f(x, y));
        if (g != w) fail(op, i, std::to_string(g), std::to_string(w));
      }
    };
    check("and", a & b, [](U x, U y) { return x & y; });
    check("or", a | b, [](U x, U y) { return x | y; });
    check("xor", a ^ b, [](U x, U y) { return x ^ y; });
  }

  void signed_zeros() {
    const Vec zero(T(0.0f));
    const Vec negzero = -zero;
    if (!std::signbit(static_cast<double>(calc(negzero[0])))) fail("neg(+0)", 0, "+0", "-0");
    if (std::signbit(static_cast<double>(calc(negzero.abs()[0])))) fail("abs(-0)", 0, "-0", "+0");
    if (!std::signbit(static_cast<double>(calc(Vec(T(-0.0f))[1]))))
      fail("broadcast(-0)", 1, "+0", "-0");
  }

  void partial_loads_and_stores() {
    for (int count : {0, 1, N / 2, N - 1, N}) {
      const Vec v = Vec::loadu(a_, count);
      for (int i = 0; i < N; ++i) {
        const T want = i < count ? a_[i] : T(0);
        if (!same(v[i], want)) fail("loadu(count)", i, show(v[i]), show(want));
      }
      T out[N];
      for (int i = 0; i < N; ++i) out[i] = b_[i];
      Vec::loadu(a_).store(out, count);
      for (int i = 0; i < N; ++i) {
        const T want = i < count ? a_[i] : b_[i];
        if (!same(out[i], want)) fail("store(count)", i, show(out[i]), show(want));
      }
    }
  }

  std::vector<std::string>& failures_;
  T a_[N], b_[N], d_[N];
};

template <typename T>
void check_vectorized(std::vector<std::string>& failures) {
  VecChecker<T>(failures).run();
}

inline std::vector<std::string> check_vectorized_all_types() {
  std::vector<std::string> failures;
  check_vectorized<uint8_t>(failures);
  check_vectorized<int8_t>(failures);
  check_vectorized<int16_t>(failures);
  check_vectorized<int32_t>(failures);
  check_vectorized<int64_t>(failures);
  check_vectorized<float>(failures);
  check_vectorized<double>(failures);
  check_vectorized<bool>(failures);
  check_vectorized<c10::Half>(failures);
  check_vectorized<c10::BFloat16>(failures);
  return failures;
}

}  // namespace CPU_CAPABILITY
}  // namespace miniaten_test
