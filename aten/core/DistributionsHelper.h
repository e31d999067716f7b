#pragma once
// The distributions behind at::rand, at::randn, uniform_ and normal_: how one value is made from
// a generator's raw draws, exactly as libtorch 1.13 makes it on CPU.
//
//   auto* gen = at::check_generator<at::CPUGeneratorImpl>(at::detail::createCPUGenerator(0));
//   at::uniform_real_distribution<float> uniform(0, 1);
//   float u = uniform(gen);                 // one 32-bit draw, its low 24 bits scaled to [0, 1)
//   at::normal_distribution<double> normal(0, 1);
//   double n = normal(gen);                 // Box-Muller; caches the pair's other half in gen
//
// RNG is any pointer to a generator with random() and random64() (and, for the normal cache,
// next_double_normal_sample / set_next_double_normal_sample, as CPUGeneratorImpl has).
//
// Note [libtorch's distributions fuse multiply-adds]
// libtorch's CPU kernels are built with FMA enabled and GCC contracts `x * (to - from) + from`
// and `val * std + mean` into one fused multiply-add, so the last bit of a uniform_(from, to) or
// normal_(mean, std) value depends on it. miniaten compiles kernels with -ffp-contract=off and
// writes the fused operations out as std::fma, which gives libtorch's numbers on every CPU
// (checked bit for bit against libtorch 1.13 over tens of thousands of values).

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "c10/util/BFloat16.h"
#include "c10/util/Exception.h"
#include "c10/util/Half.h"
#include "c10/util/Optional.h"

namespace at {

namespace detail {
constexpr double kPi = 3.14159265358979323846;  // c10::pi<double>
}  // namespace detail

// The type a distribution computes in: float for the reduced floating types (not double, unlike
// at::acc_type on CPU).
template <typename T>
struct DistAccumType {};
template <>
struct DistAccumType<BFloat16> {
  using type = float;
};
template <>
struct DistAccumType<Half> {
  using type = float;
};
template <>
struct DistAccumType<float> {
  using type = float;
};
template <>
struct DistAccumType<double> {
  using type = double;
};
template <typename T>
using dist_acctype = typename DistAccumType<T>::type;

namespace transformation {

// [from, to) from the low `digits` bits of a raw draw (24 for float, 53 for double, 11 for Half,
// 8 for BFloat16). See Note [libtorch's distributions fuse multiply-adds].
template <typename T, typename V>
inline dist_acctype<T> uniform_real(V val, T from, T to) {
  constexpr auto MASK =
      static_cast<V>((static_cast<uint64_t>(1) << std::numeric_limits<T>::digits) - 1);
  constexpr auto DIVISOR = static_cast<dist_acctype<T>>(1) /
                           (static_cast<uint64_t>(1) << std::numeric_limits<T>::digits);
  const dist_acctype<T> x = (val & MASK) * DIVISOR;
  return std::fma(x, static_cast<dist_acctype<T>>(to - from), static_cast<dist_acctype<T>>(from));
}

// A standard normal `val` moved to N(mean, std^2).
template <typename T>
inline T normal(T val, T mean, T std) {
  return std::fma(val, std, mean);
}

// random_(from, to): `range` is to - from, `base` is from.
template <typename T, typename V>
inline T uniform_int_from_to(V val, uint64_t range, int64_t base) {
  return static_cast<T>(static_cast<int64_t>((val % range) + base));
}

}  // namespace transformation

template <typename T>
struct uniform_real_distribution {
  uniform_real_distribution(T from, T to) : from_(from), to_(to) {
    TORCH_CHECK(from <= to);
    TORCH_CHECK(to - from <= std::numeric_limits<T>::max());
  }

  // double takes a 64-bit draw (two mt19937 outputs); the others one 32-bit draw.
  template <typename RNG>
  dist_acctype<T> operator()(RNG generator) {
    if constexpr (std::is_same<T, double>::value) {
      return transformation::uniform_real<T>(generator->random64(), from_, to_);
    } else {
      return transformation::uniform_real<T>(generator->random(), from_, to_);
    }
  }

 private:
  T from_;
  T to_;
};

// Box-Muller on two uniforms u1, u2 (in that draw order): r = sqrt(-2 log(1 - u2)),
// theta = 2 pi u1; returns r cos(theta) and caches r sin(theta) in the generator, which the next
// call of the same precision returns without drawing. Reseeding the generator drops the cache.
template <typename T>
struct normal_distribution {
  normal_distribution(T mean_in, T stdv_in) : mean_(mean_in), stdv_(stdv_in) {
    TORCH_CHECK(stdv_in >= 0, "stdv_in must be positive: ", stdv_in);
  }

  template <typename RNG>
  dist_acctype<T> operator()(RNG generator) {
    if (c10::optional<dist_acctype<T>> cached = take_cached(generator)) {
      return transformation::normal<dist_acctype<T>>(*cached, mean_, stdv_);
    }
    uniform_real_distribution<T> uniform(0.0, 1.0);
    const dist_acctype<T> u1 = uniform(generator);
    const dist_acctype<T> u2 = uniform(generator);
    const dist_acctype<T> r = std::sqrt(static_cast<T>(-2.0) * std::log(static_cast<T>(1.0) - u2));
    const dist_acctype<T> theta = static_cast<T>(2.0) * static_cast<T>(detail::kPi) * u1;
    set_cached(generator, r * std::sin(theta));
    return transformation::normal<dist_acctype<T>>(r * std::cos(theta), mean_, stdv_);
  }

 private:
  template <typename RNG>
  static c10::optional<dist_acctype<T>> take_cached(RNG generator) {
    c10::optional<dist_acctype<T>> cached;
    if constexpr (std::is_same<T, double>::value) {
      cached = generator->next_double_normal_sample();
      if (cached) generator->set_next_double_normal_sample(c10::nullopt);
    } else {
      cached = generator->next_float_normal_sample();
      if (cached) generator->set_next_float_normal_sample(c10::nullopt);
    }
    return cached;
  }
  template <typename RNG>
  static void set_cached(RNG generator, dist_acctype<T> value) {
    if constexpr (std::is_same<T, double>::value) {
      generator->set_next_double_normal_sample(value);
    } else {
      generator->set_next_float_normal_sample(value);
    }
  }

  T mean_;
  T stdv_;
};

}  // namespace at
