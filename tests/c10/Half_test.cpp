// c10::Half and c10::BFloat16: conversions bit by bit against naive references and hand-worked
// cases, then arithmetic, limits and printing.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>
#include <type_traits>
#include <vector>

#include "c10/util/BFloat16.h"
#include "c10/util/Half.h"

namespace {

using c10::BFloat16;
using c10::Half;

float float_from_bits(uint32_t w) {
  float f;
  std::memcpy(&f, &w, sizeof(f));
  return f;
}

uint32_t bits_of(float f) {
  uint32_t w;
  std::memcpy(&w, &f, sizeof(w));
  return w;
}

uint16_t half_bits(float f) {
  return Half(f).x;
}
uint16_t bf16_bits(float f) {
  return BFloat16(f).x;
}
Half half_from_bits(uint16_t bits) {
  return Half(bits, Half::from_bits());
}
BFloat16 bf16_from_bits(uint16_t bits) {
  return BFloat16(bits, BFloat16::from_bits());
}

std::string printed(float f) {
  std::ostringstream ss;
  ss << f;
  return ss.str();
}

// The value of a half bit pattern by its definition, computed in double.
double half_reference_value(uint16_t bits) {
  const int sign = (bits & 0x8000) ? -1 : 1;
  const int exponent = (bits >> 10) & 0x1F;
  const int mantissa = bits & 0x3FF;
  if (exponent == 0x1F) return mantissa ? NAN : sign * INFINITY;
  if (exponent == 0) return sign * std::ldexp(mantissa, -24);
  return sign * std::ldexp(1024 + mantissa, exponent - 25);
}

// Nearest half to a finite non-negative float by search over all non-negative halves; a tie
// goes to the even bit pattern. 65536 (one step past the largest half) stands for Inf, so
// values from 65520 up round to Inf as IEEE prescribes.
uint16_t half_reference_round(float f) {
  static const std::vector<double> values = [] {
    std::vector<double> v;
    for (uint32_t bits = 0; bits < 0x7C00; ++bits) v.push_back(half_reference_value(bits));
    v.push_back(65536.0);
    return v;
  }();
  const double x = f;
  const auto upper = std::lower_bound(values.begin(), values.end(), x);
  if (upper == values.end()) return 0x7C00;
  const auto hi = static_cast<uint16_t>(upper - values.begin());
  if (hi == 0 || *upper == x) return hi;
  const auto lo = static_cast<uint16_t>(hi - 1);
  const double below = x - values[lo];
  const double above = values[hi] - x;
  if (below < above) return lo;
  if (above < below) return hi;
  return (lo & 1) ? hi : lo;
}

TEST(HalfTest, IsTwoTriviallyCopyableBytes) {
  EXPECT_EQ(sizeof(Half), 2u);
  EXPECT_EQ(alignof(Half), 2u);
  EXPECT_TRUE(std::is_trivially_copyable<Half>::value);
  EXPECT_TRUE(std::is_trivially_default_constructible<Half>::value);
  constexpr Half h(0x3C00, Half::from_bits());
  static_assert(h.x == 0x3C00, "from_bits keeps the bits");
}

TEST(HalfTest, ExactValuesConvertToTheirBits) {
  EXPECT_EQ(half_bits(0.0f), 0x0000);
  EXPECT_EQ(half_bits(-0.0f), 0x8000);
  EXPECT_EQ(half_bits(1.0f), 0x3C00);
  EXPECT_EQ(half_bits(-2.0f), 0xC000);
  EXPECT_EQ(half_bits(0.5f), 0x3800);
  EXPECT_EQ(half_bits(1.5f), 0x3E00);
  EXPECT_EQ(half_bits(65504.0f), 0x7BFF);  // largest finite
  EXPECT_EQ(half_bits(-65504.0f), 0xFBFF);
  EXPECT_EQ(half_bits(0x1p-14f), 0x0400);  // smallest normal
  EXPECT_EQ(half_bits(0x1p-24f), 0x0001);  // smallest subnormal
  EXPECT_EQ(half_bits(-0x1p-24f), 0x8001);
  EXPECT_EQ(half_bits(1023 * 0x1p-24f), 0x03FF);  // largest subnormal
}

TEST(HalfTest, RoundsToNearestTiesToEven) {
  struct Case {
    float value;
    uint16_t bits;
  };
  // Near 1 the half step is 2^-10; near 1024 it is 1; near 2048 it is 2; subnormals step 2^-24.
  const Case cases[] = {
      {1.0f + 0x1p-11f, 0x3C00},             // tie, 1.0 is even
      {1.0f + 3 * 0x1p-11f, 0x3C02},         // tie, 1 + 2^-10 is odd -> 1 + 2^-9
      {1.0f + 0x1p-11f + 0x1p-20f, 0x3C01},  // just above the tie
      {1.0f + 0x1p-11f - 0x1p-20f, 0x3C00},  // just below the tie
      {-(1.0f + 3 * 0x1p-11f), 0xBC02},      // symmetric for negatives
      {1024.5f, 0x6400},                     // tie -> 1024
      {1025.5f, 0x6402},                     // tie -> 1026
      {2049.0f, 0x6800},                     // tie -> 2048
      {2051.0f, 0x6802},                     // tie -> 2052
      {2050.9f, 0x6801},                     // nearest is 2050
      {0x1p-25f, 0x0000},                    // half of the smallest subnormal -> 0
      {-0x1p-25f, 0x8000},                   // ... -> -0
      {0x1p-25f + 0x1p-40f, 0x0001},         // above half of it -> the smallest subnormal
      {3 * 0x1p-25f, 0x0002},                // tie between 1 and 2 steps -> 2
      {5 * 0x1p-25f, 0x0002},                // tie between 2 and 3 steps -> 2
      {1023.5f * 0x1p-24f, 0x0400},          // largest subnormal + half step -> normal
      {0x1p-30f, 0x0000},                    // far below: zero
      {0.1f, 0x2E66},                        // 0.0999755859375
      {1.0f / 3.0f, 0x3555},                 // 0.333251953125
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(printed(c.value));
    EXPECT_EQ(half_bits(c.value), c.bits);
  }
}

TEST(HalfTest, OverflowsToInfinityFromHalfwayPastMax) {
  EXPECT_EQ(half_bits(65519.99f), 0x7BFF);  // below the midpoint to 65536: largest finite
  EXPECT_EQ(half_bits(65520.0f), 0x7C00);   // the midpoint, 65504's mantissa is odd: Inf
  EXPECT_EQ(half_bits(-65520.0f), 0xFC00);
  EXPECT_EQ(half_bits(1e10f), 0x7C00);
  EXPECT_EQ(half_bits(3.4e38f), 0x7C00);
  EXPECT_EQ(half_bits(INFINITY), 0x7C00);
  EXPECT_EQ(half_bits(-INFINITY), 0xFC00);
  EXPECT_TRUE(std::isinf(static_cast<float>(Half(65520.0f))));
}

TEST(HalfTest, NaNStaysNaN) {
  EXPECT_EQ(half_bits(NAN), 0x7E00);
  EXPECT_EQ(half_bits(-NAN), 0xFE00);                         // the sign is kept
  EXPECT_EQ(half_bits(float_from_bits(0x7F800001)), 0x7E00);  // signaling, tiny payload
  EXPECT_EQ(half_bits(float_from_bits(0x7FFFFFFF)), 0x7E00);
  // Half NaNs come back as quiet float NaNs with their payload.
  EXPECT_EQ(bits_of(half_from_bits(0x7E00)), 0x7FC00000u);
  EXPECT_EQ(bits_of(half_from_bits(0x7D00)), 0x7FE00000u);
  EXPECT_EQ(bits_of(half_from_bits(0xFC01)), 0xFFC02000u);
}

TEST(HalfTest, EveryBitPatternConvertsExactlyAndRoundTrips) {
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    const auto h = static_cast<uint16_t>(bits);
    const float f = half_from_bits(h);
    const double expected = half_reference_value(h);
    if (std::isnan(expected)) {
      ASSERT_TRUE(std::isnan(f)) << std::hex << bits;
      continue;
    }
    ASSERT_EQ(static_cast<double>(f), expected) << std::hex << bits;
    ASSERT_EQ(std::signbit(f), (bits & 0x8000) != 0) << std::hex << bits;
    ASSERT_EQ(half_bits(f), h) << std::hex << bits;
  }
}

TEST(HalfTest, MatchesNaiveRoundingAcrossTheFloatRange) {
  // Every 4099th positive float (a prime stride, so every mantissa pattern class is hit), plus
  // the floats around each half and each midpoint between halves.
  std::vector<float> inputs;
  for (uint64_t w = 0; w < 0x7F800000u; w += 4099) inputs.push_back(float_from_bits(uint32_t(w)));
  for (uint32_t bits = 0; bits < 0x7C00; ++bits) {
    const double v = half_reference_value(static_cast<uint16_t>(bits));
    const double next = bits + 1 == 0x7C00 ? 65536.0 : half_reference_value(uint16_t(bits + 1));
    const double mid = (v + next) / 2;
    for (double x : {v, mid}) {
      const float f = static_cast<float>(x);  // exact: midpoints need at most 12 bits
      inputs.push_back(f);
      inputs.push_back(std::nextafter(f, 0.0f));
      inputs.push_back(std::nextafter(f, INFINITY));
    }
  }
  for (float f : inputs) {
    const uint16_t expected = half_reference_round(f);
    ASSERT_EQ(half_bits(f), expected) << "float bits " << std::hex << bits_of(f);
    ASSERT_EQ(half_bits(-f), expected | 0x8000) << "float bits " << std::hex << bits_of(-f);
  }
}

TEST(HalfTest, ArithmeticRunsInFloatAndRoundsBack) {
  const Half a = 1.5f;
  const Half b = 2.25f;
  EXPECT_EQ((a + b).x, half_bits(3.75f));
  EXPECT_EQ((a - b).x, half_bits(-0.75f));
  EXPECT_EQ((a * b).x, half_bits(3.375f));
  EXPECT_EQ((Half(1.0f) / Half(3.0f)).x, 0x3555);
  EXPECT_EQ((Half(1.0f) + Half(0x1p-11f)).x, 0x3C00);  // 2^-11 is a half, the sum ties to 1
  EXPECT_EQ((Half(65504.0f) + Half(65504.0f)).x, 0x7C00);
  EXPECT_EQ((-a).x, 0xBE00);
  EXPECT_EQ((-Half(0.0f)).x, 0x8000);

  Half c = 1.0f;
  c += Half(2.0f);
  EXPECT_EQ(static_cast<float>(c), 3.0f);
  c -= Half(0.5f);
  EXPECT_EQ(static_cast<float>(c), 2.5f);
  c *= Half(4.0f);
  EXPECT_EQ(static_cast<float>(c), 10.0f);
  c /= Half(8.0f);
  EXPECT_EQ(static_cast<float>(c), 1.25f);
}

TEST(HalfTest, MixedOperandsFollowLibtorchResultTypes) {
  const Half h = 1.5f;
  static_assert(std::is_same<decltype(h + h), Half>::value, "");
  static_assert(std::is_same<decltype(h * 2.0f), float>::value, "");
  static_assert(std::is_same<decltype(2.0f - h), float>::value, "");
  static_assert(std::is_same<decltype(h / 2.0), double>::value, "");
  static_assert(std::is_same<decltype(2.0 + h), double>::value, "");
  static_assert(std::is_same<decltype(h + 2), Half>::value, "");
  static_assert(std::is_same<decltype(int64_t{2} * h), Half>::value, "");

  // With float the result is not rounded to half: 1.5 + 2^-12 is exact in float.
  EXPECT_EQ(h + 0x1p-12f, 1.5f + 0x1p-12f);
  EXPECT_EQ(3.0f / h, 2.0f);
  EXPECT_EQ(h * 0.1, 1.5 * static_cast<double>(0.1));
  EXPECT_EQ((h + 2).x, half_bits(3.5f));
  EXPECT_EQ((7 - h).x, half_bits(5.5f));
  EXPECT_EQ((h * int64_t{4}).x, half_bits(6.0f));
  EXPECT_EQ((int64_t{3} / h).x, half_bits(2.0f));
  // The integer is rounded to half first: 2049 becomes 2048.
  EXPECT_EQ(static_cast<float>(Half(0.0f) + 2049), 2048.0f);

  float f = 1.0f;
  f += h;
  EXPECT_EQ(f, 2.5f);
  f *= h;
  EXPECT_EQ(f, 3.75f);
}

TEST(HalfTest, ComparesThroughFloat) {
  const Half one = 1.0f;
  const Half two = 2.0f;
  EXPECT_TRUE(one < two);
  EXPECT_TRUE(two >= one);
  EXPECT_TRUE(one == 1.0f);
  EXPECT_TRUE(one != two);
  EXPECT_TRUE(Half(0.0f) == Half(-0.0f));  // different bits, equal values
  const Half nan = std::numeric_limits<Half>::quiet_NaN();
  EXPECT_FALSE(nan == nan);
  EXPECT_EQ(std::max(one, two).x, two.x);
}

TEST(HalfTest, NumericLimits) {
  using L = std::numeric_limits<Half>;
  EXPECT_TRUE(L::is_specialized);
  EXPECT_EQ(L::digits, 11);
  EXPECT_EQ(static_cast<float>(L::max()), 65504.0f);
  EXPECT_EQ(static_cast<float>(L::lowest()), -65504.0f);
  EXPECT_EQ(static_cast<float>(L::min()), 0x1p-14f);
  EXPECT_EQ(static_cast<float>(L::denorm_min()), 0x1p-24f);
  EXPECT_EQ(static_cast<float>(L::epsilon()), 0x1p-10f);
  EXPECT_EQ(static_cast<float>(L::round_error()), 0.5f);
  EXPECT_EQ(static_cast<float>(L::infinity()), INFINITY);
  EXPECT_TRUE(std::isnan(static_cast<float>(L::quiet_NaN())));
  EXPECT_TRUE(std::isnan(static_cast<float>(L::signaling_NaN())));
  EXPECT_EQ(static_cast<float>(Half(1.0f) + L::epsilon()), 1.0f + 0x1p-10f);
}

TEST(HalfTest, PrintsItsFloatValue) {
  std::ostringstream ss;
  ss << Half(1.5f) << ' ' << Half(65504.0f) << ' ' << Half(0.1f) << ' ' << Half(-0.0f) << ' '
     << Half(1e6f);
  EXPECT_EQ(ss.str(), "1.5 65504 0.0999756 -0 inf");
}

TEST(HalfTest, AtAlias) {
  static_assert(std::is_same<at::Half, c10::Half>::value, "");
}

// Naive BFloat16 rounding: the two candidates that bracket f, compared by distance in double;
// ties go to the even pattern. A candidate past the largest finite value is Inf, valued 2^128.
uint16_t bf16_reference_round(float f) {
  const uint32_t w = bits_of(f);
  const auto lo = static_cast<uint16_t>(w >> 16);
  const auto hi = static_cast<uint16_t>(lo + 1);
  const auto value = [](uint16_t bits) {
    return (bits & 0x7FFF) == 0x7F80 ? std::ldexp(1.0, 128) * ((bits & 0x8000) ? -1 : 1)
                                     : static_cast<double>(float_from_bits(uint32_t(bits) << 16));
  };
  const double below = std::fabs(static_cast<double>(f) - value(lo));
  const double above = std::fabs(value(hi) - static_cast<double>(f));
  if (below < above) return lo;
  if (above < below) return hi;
  return (lo & 1) ? hi : lo;
}

TEST(BFloat16Test, IsTwoTriviallyCopyableBytes) {
  EXPECT_EQ(sizeof(BFloat16), 2u);
  EXPECT_EQ(alignof(BFloat16), 2u);
  EXPECT_TRUE(std::is_trivially_copyable<BFloat16>::value);
  static_assert(std::is_same<at::BFloat16, c10::BFloat16>::value, "");
}

TEST(BFloat16Test, RoundsToNearestTiesToEven) {
  struct Case {
    uint32_t float_bits;
    uint16_t bits;
  };
  const Case cases[] = {
      {0x3F800000, 0x3F80},  // 1.0, exact
      {0x3F808000, 0x3F80},  // tie, kept part even -> down
      {0x3F818000, 0x3F82},  // tie, kept part odd -> up
      {0x3F808001, 0x3F81},  // just above the tie
      {0x3F807FFF, 0x3F80},  // just below the tie
      {0xBF818000, 0xBF82},  // negatives mirror
      {0x3FFF8000, 0x4000},  // rounding up carries into the exponent: 2.0
      {0x00008000, 0x0000},  // subnormal tie -> 0
      {0x00018000, 0x0002},  // subnormal tie -> even
      {0x80000000, 0x8000},  // -0
      {0x7F7F7FFF, 0x7F7F},  // below the midpoint past the largest finite
      {0x7F7F8000, 0x7F80},  // at it (0x7F7F is odd) -> Inf
      {0x7F7FFFFF, 0x7F80},  // float max -> Inf
      {0x7F800000, 0x7F80},  // Inf
      {0xFF800000, 0xFF80},  // -Inf
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.float_bits);
    EXPECT_EQ(bf16_bits(float_from_bits(c.float_bits)), c.bits);
  }
  EXPECT_EQ(bf16_bits(0.1f), 0x3DCD);  // 0.10009765625
  EXPECT_EQ(bf16_bits(3.14159265f), 0x4049);
}

TEST(BFloat16Test, EveryNaNBecomesThePositiveQuietNaN) {
  for (uint32_t w : {0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0x7FFFFFFFu, 0xFF80FFFFu}) {
    SCOPED_TRACE(w);
    EXPECT_EQ(bf16_bits(float_from_bits(w)), 0x7FC0);
  }
}

TEST(BFloat16Test, EveryBitPatternConvertsExactlyAndRoundTrips) {
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    const auto b = static_cast<uint16_t>(bits);
    const float f = bf16_from_bits(b);
    ASSERT_EQ(bits_of(f), bits << 16) << std::hex << bits;
    const bool nan = (bits & 0x7F80) == 0x7F80 && (bits & 0x7F) != 0;
    ASSERT_EQ(bf16_bits(f), nan ? 0x7FC0 : b) << std::hex << bits;
  }
}

TEST(BFloat16Test, MatchesNaiveRoundingAcrossTheFloatRange) {
  for (uint64_t w = 0; w < 0x7F800000u; w += 1031) {
    const float f = float_from_bits(static_cast<uint32_t>(w));
    ASSERT_EQ(bf16_bits(f), bf16_reference_round(f)) << std::hex << w;
    ASSERT_EQ(bf16_bits(-f), bf16_reference_round(-f)) << std::hex << w;
  }
}

TEST(BFloat16Test, Arithmetic) {
  const BFloat16 a = 1.5f;
  const BFloat16 b = 2.25f;
  EXPECT_EQ((a + b).x, bf16_bits(3.75f));
  EXPECT_EQ((a - b).x, bf16_bits(-0.75f));
  EXPECT_EQ((a * b).x, bf16_bits(3.375f));
  EXPECT_EQ((BFloat16(1.0f) / BFloat16(3.0f)).x, 0x3EAB);     // 0.333984375
  EXPECT_EQ((BFloat16(1.0f) + BFloat16(0x1p-8f)).x, 0x3F80);  // tie -> 1.0
  EXPECT_EQ((BFloat16(256.0f) + 1).x, 0x4380);                // 257 ties to 256
  EXPECT_EQ((-a).x, 0xBFC0);

  BFloat16 c = 1.0f;
  c += BFloat16(2.0f);
  c *= BFloat16(4.0f);
  c -= BFloat16(2.0f);
  c /= BFloat16(5.0f);
  EXPECT_EQ(static_cast<float>(c), 2.0f);

  static_assert(std::is_same<decltype(a + 1.0f), float>::value, "");
  static_assert(std::is_same<decltype(1.0 * a), double>::value, "");
  static_assert(std::is_same<decltype(a - 1), BFloat16>::value, "");
  static_assert(std::is_same<decltype(int64_t{1} / a), BFloat16>::value, "");
  EXPECT_EQ(a + 0x1p-20f, 1.5f + 0x1p-20f);
  EXPECT_EQ(a * 0.5, 0.75);
  float f = 2.0f;
  f /= b;
  EXPECT_EQ(f, 2.0f / 2.25f);
  EXPECT_TRUE(a < b);
  EXPECT_TRUE(a == 1.5f);
}

TEST(BFloat16Test, NumericLimits) {
  using L = std::numeric_limits<BFloat16>;
  EXPECT_EQ(L::digits, 8);
  EXPECT_EQ(bits_of(L::max()), 0x7F7F0000u);
  EXPECT_EQ(static_cast<float>(L::lowest()), -static_cast<float>(L::max()));
  EXPECT_EQ(static_cast<float>(L::min()), 0x1p-126f);
  EXPECT_EQ(static_cast<float>(L::denorm_min()), 0x1p-133f);
  EXPECT_EQ(static_cast<float>(L::epsilon()), 0x1p-7f);
  EXPECT_EQ(static_cast<float>(L::infinity()), INFINITY);
  EXPECT_TRUE(std::isnan(static_cast<float>(L::quiet_NaN())));
  EXPECT_TRUE(std::isnan(static_cast<float>(L::signaling_NaN())));
}

TEST(BFloat16Test, PrintsItsFloatValue) {
  std::ostringstream ss;
  ss << BFloat16(1.5f) << ' ' << BFloat16(0.1f) << ' ' << BFloat16(-3e38f);
  EXPECT_EQ(ss.str(), "1.5 0.100098 -3.00406e+38");
}

}  // namespace
