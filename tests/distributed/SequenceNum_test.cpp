// c10d::SequenceNum and its store encoding (sequence_num.h), against libtorch 1.13's: the
// bytes least significant first, the errors of an unset number.
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "distributed/c10d/ProcessGroup.h"
#include "distributed/c10d/sequence_num.h"
#include "tests/TestUtils.h"

namespace {

const char* kUnset =
    "Expected num_ != c10::nullopt to be true, but got false.  (Could this error message be "
    "improved?  If so, please report an enhancement request to PyTorch.)";

TEST(SequenceNum, BytesAreLeastSignificantFirst) {
  const std::vector<char> bytes = c10d::toVec<char>(0x0102030405060708ull, 8);
  EXPECT_EQ(bytes, (std::vector<char>{8, 7, 6, 5, 4, 3, 2, 1}));
  EXPECT_EQ(c10d::fromVec(bytes), 0x0102030405060708ull);
  // High bytes survive a signed char; fewer bytes keep the low ones.
  const uint64_t big = 0xfedcba9876543210ull;
  EXPECT_EQ(c10d::fromVec(c10d::toVec<char>(big, 8)), big);
  EXPECT_EQ(c10d::fromVec(c10d::toVec<uint8_t>(big, 8)), big);
  EXPECT_EQ(c10d::fromVec(c10d::toVec<uint8_t>(big, 2)), 0x3210u);
}

TEST(SequenceNum, CountsOnceSet) {
  c10d::SequenceNum n(5);
  EXPECT_TRUE(n.isSet());
  EXPECT_EQ(n.getAndIncrement(), 5u);
  EXPECT_EQ(n.get(), 6u);
  n.increment();
  EXPECT_EQ(n.get(), 7u);
  c10d::SequenceNum copy(n);
  n.set(100);
  EXPECT_EQ(copy.get(), 7u);  // a copy is its own number
  copy = n;
  EXPECT_EQ(copy.get(), 100u);
}

TEST(SequenceNum, AnUnsetNumberRefusesToCount) {
  c10d::SequenceNum n;
  EXPECT_FALSE(n.isSet());
  EXPECT_EQ(test_util::error_of([&] { n.increment(); }), kUnset);
  EXPECT_EQ(test_util::error_of([&] { n.getAndIncrement(); }), kUnset);
  // libtorch reads an unset number without a check (undefined); here it is the same error.
  EXPECT_EQ(test_util::error_of([&] { n.get(); }), kUnset);
  c10d::SequenceNum copy(n);
  EXPECT_FALSE(copy.isSet());
  n.set(c10d::kUnsetSeqNum);
  EXPECT_TRUE(n.isSet());
}

TEST(SequenceNum, IncrementsFromManyThreadsAreAllCounted) {
  c10d::SequenceNum n(0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 1000; ++i) n.increment();
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(n.get(), 4000u);
}

}  // namespace
