// at::mt19937 and at::Philox4_32 against libtorch 1.13's sequences.
//
// Every expected number was read off libtorch 1.13 by a throwaway program (/tmp/genref/ref2.cpp:
// at::mt19937 / at::Philox4_32 from libtorch's headers, outputs printed); none is computed by the
// code under test.

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "aten/core/MT19937RNGEngine.h"
#include "aten/core/PhiloxRNGEngine.h"

namespace {

template <typename Engine>
std::vector<uint32_t> draw(Engine& e, int n) {
  std::vector<uint32_t> v;
  for (int i = 0; i < n; ++i) v.push_back(e());
  return v;
}

struct MTCase {
  uint64_t seed;
  std::vector<uint32_t> first5;
  uint32_t at999;  // the 1000th draw: past the first state refill at 624
};

TEST(MT19937, LibtorchsSequences) {
  const std::vector<MTCase> cases{
      {0, {2357136044u, 2546248239u, 3071714933u, 3626093760u, 2588848963u}, 3043451800u},
      {42, {1608637542u, 3421126067u, 4083286876u, 787846414u, 3143890026u}, 1946654618u},
      {5489, {3499211612u, 581869302u, 3890346734u, 3586334585u, 545404204u}, 1341017984u},
      // c10::default_rng_seed_val
      {67280421310721ull,
       {2353294710u, 1155489284u, 4015379837u, 3295095820u, 2815000749u},
       620198153u},
  };
  for (const MTCase& c : cases) {
    at::mt19937 e(c.seed);
    EXPECT_EQ(e.seed(), c.seed);
    EXPECT_EQ(draw(e, 5), c.first5) << "seed " << c.seed;
    for (int i = 5; i < 999; ++i) e();
    EXPECT_EQ(e(), c.at999) << "seed " << c.seed;
  }
}

TEST(MT19937, DefaultSeedIs5489) {
  at::mt19937 e;
  EXPECT_EQ(e.seed(), 5489u);
  EXPECT_EQ(e(), 3499211612u);
}

TEST(MT19937, A64BitSeedSeedsWithItsLow32BitsButIsReportedWhole) {
  const uint64_t seed = (uint64_t{1} << 40) + 5;
  at::mt19937 e(seed);
  EXPECT_EQ(e.seed(), 1099511627781u);
  EXPECT_EQ(e(), 953453411u);  // seed 5's first draw
}

TEST(MT19937, TheStateRoundTripsThroughItsPod) {
  at::mt19937 e(42);
  for (int i = 0; i < 700; ++i) e();
  at::mt19937_data_pod pod = e.data();
  EXPECT_EQ(pod.seed_, 42u);
  EXPECT_TRUE(pod.seeded_);
  EXPECT_EQ(pod.next_, 700u - 624u);
  at::mt19937 copy;
  copy.set_data(pod);
  EXPECT_TRUE(copy.is_valid());
  EXPECT_EQ(draw(copy, 3), draw(e, 3));
  pod.left_ = 0;
  copy.set_data(pod);
  EXPECT_FALSE(copy.is_valid());
}

TEST(Philox4_32, LibtorchsSequences) {
  at::Philox4_32 zero(0);
  EXPECT_EQ(draw(zero, 8),
            (std::vector<uint32_t>{1713891541u, 3781805453u, 3159862348u, 2600524760u, 4175744164u,
                                   1555169499u, 2980410603u, 159317863u}));
  at::Philox4_32 e42(42);
  EXPECT_EQ(draw(e42, 8),
            (std::vector<uint32_t>{2632642643u, 2012563771u, 314527917u, 1463989207u, 4242219303u,
                                   1404726525u, 2207210094u, 1951270651u}));
  at::philox_engine def;  // default seed 67280421310721
  EXPECT_EQ(draw(def, 8), (std::vector<uint32_t>{1688461558u, 3610125739u, 199308923u, 1408028461u,
                                                 623720234u, 3607975949u, 358698524u, 234508473u}));
}

TEST(Philox4_32, SubsequenceOffsetAndSkips) {
  at::Philox4_32 e(42, /*subsequence=*/1, /*offset=*/2);
  EXPECT_EQ(draw(e, 4), (std::vector<uint32_t>{913916025u, 527477511u, 1889204166u, 1458235836u}));

  // incr_n(2) skips two blocks: draws 8..11 of the plain sequence.
  at::Philox4_32 skip(42);
  skip.incr_n(2);
  EXPECT_EQ(draw(skip, 4),
            (std::vector<uint32_t>{3547071013u, 2827443659u, 2588765593u, 3322520921u}));

  // incr() moves the counter past the next block, but the current block's remaining outputs
  // are still served first.
  at::Philox4_32 partial(42);
  partial();
  partial();
  partial.incr();
  EXPECT_EQ(draw(partial, 4),
            (std::vector<uint32_t>{314527917u, 1463989207u, 3547071013u, 2827443659u}));

  // An offset of 2^32 - 1 carries into the counter's second word.
  at::Philox4_32 carry(0, 0, (uint64_t{1} << 32) - 1);
  EXPECT_EQ(draw(carry, 8),
            (std::vector<uint32_t>{3316779677u, 1144319054u, 297526523u, 706672549u, 1792067052u,
                                   3928187465u, 1940150773u, 122242227u}));
}

TEST(Philox4_32, RoundsAndRandn) {
  at::Philox4_32 e(42);
  EXPECT_EQ(e(7), 2462826906u);
  // libtorch's randn resets to the default seed first: the value does not depend on the seed.
  at::Philox4_32 a(42);
  at::Philox4_32 b(0);
  EXPECT_EQ(a.randn(10), 1.756675f);
  EXPECT_EQ(b.randn(10), 1.756675f);
}

}  // namespace
