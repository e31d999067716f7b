// Vectorized<T> in the DEFAULT build: every operation for every dtype against scalar code
// (VectorizedChecks.h; DispatchStub_test runs the same checks in the AVX2 and AVX-512 copies).

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "VectorizedChecks.h"
#include "aten/cpu/vec/Vectorized.h"

namespace {

using at::vec::Vectorized;

template <typename T>
class VectorizedTyped : public ::testing::Test {};

using AllTypes = ::testing::Types<uint8_t, int8_t, int16_t, int32_t, int64_t, float, double, bool,
                                  c10::Half, c10::BFloat16>;
TYPED_TEST_SUITE(VectorizedTyped, AllTypes);

TYPED_TEST(VectorizedTyped, EveryOpMatchesScalarCode) {
  std::vector<std::string> failures;
  miniaten_test::check_vectorized<TypeParam>(failures);
  for (const std::string& f : failures) ADD_FAILURE() << f;
}

TYPED_TEST(VectorizedTyped, IsThirtyTwoBytesInTheDefaultBuild) {
  EXPECT_EQ(Vectorized<TypeParam>::size() * static_cast<int>(sizeof(TypeParam)), 32);
  static_assert(std::is_same<typename Vectorized<TypeParam>::value_type, TypeParam>::value, "");
}

TEST(Vectorized, LaneCountsMatchLibtorchsAvx2Build) {
  EXPECT_EQ(Vectorized<float>::size(), 8);
  EXPECT_EQ(Vectorized<double>::size(), 4);
  EXPECT_EQ(Vectorized<int64_t>::size(), 4);
  EXPECT_EQ(Vectorized<uint8_t>::size(), 32);
  EXPECT_EQ(Vectorized<bool>::size(), 32);
  EXPECT_EQ(Vectorized<c10::Half>::size(), 16);
  EXPECT_EQ(Vectorized<c10::BFloat16>::size(), 16);
}

TEST(Vectorized, MasksFeedBlendvAndBitwiseOps) {
  using Vec = Vectorized<float>;
  float xs[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  const Vec x = Vec::loadu(xs);
  // where(x > 4, x, 0) as a kernel would write it, and the libtorch idiom (mask & 1.0f).
  const Vec kept = Vec::blendv(Vec(0.f), x, x > Vec(4.f));
  const Vec ones = (x > Vec(4.f)) & Vec(1.f);
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(kept[i], xs[i] > 4 ? xs[i] : 0.f);
    EXPECT_EQ(ones[i], xs[i] > 4 ? 1.f : 0.f);
  }
}

TEST(Vectorized, ScalarOperandsBroadcast) {
  using Vec = Vectorized<int32_t>;
  const Vec v = Vec(3) * 2 + 1;  // implicit Vectorized(T), as libtorch kernels write it
  for (int i = 0; i < Vec::size(); ++i) EXPECT_EQ(v[i], 7);
}

TEST(Vectorized, FreeFunctionSpellings) {
  using Vec = Vectorized<double>;
  const Vec v(4.0);
  EXPECT_EQ(at::vec::sqrt(v)[0], 2.0);
  EXPECT_EQ(at::vec::abs(Vec(-4.0))[1], 4.0);
  EXPECT_EQ(at::vec::exp(Vec(0.0))[2], 1.0);
  EXPECT_EQ(at::vec::log(Vec(1.0))[3], 0.0);
}

TEST(Vectorized, BoolStoresOnlyValidBools) {
  using Vec = Vectorized<bool>;
  bool in[32];
  for (int i = 0; i < 32; ++i) in[i] = i % 2;
  const Vec v = Vec::loadu(in);
  unsigned char out[32];
  (v == Vec(true)).store(out);  // a mask: every bit set in the register
  for (int i = 0; i < 32; ++i) EXPECT_EQ(out[i], i % 2) << i;
}

TEST(Vectorized, BFloat16RoundsToNearestEvenLikeTheScalarType) {
  using Vec = Vectorized<c10::BFloat16>;
  // 1 + 2^-8 is a tie between 1 and 1 + 2^-7: ties to even gives 1.
  const float tie = 1.0f + 0x1p-8f;
  const float above = 1.0f + 0x1p-8f + 0x1p-20f;
  const Vec r = Vec(c10::BFloat16(1.0f)) * Vec(c10::BFloat16(1.0f));  // exact
  EXPECT_EQ(static_cast<float>(r[0]), 1.0f);
  const Vec t = Vec(c10::BFloat16(tie - 1.0f)) + Vec(c10::BFloat16(1.0f));
  EXPECT_EQ(t[0].x, c10::BFloat16(tie).x);
  EXPECT_EQ(c10::BFloat16(above).x, c10::BFloat16(1.0f + 0x1p-7f).x);
}

}  // namespace
