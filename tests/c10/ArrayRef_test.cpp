#include <gtest/gtest.h>

#include <sstream>

#include "c10/util/ArrayRef.h"
#include "c10/util/irange.h"

namespace {

TEST(ArrayRef, ViewsEveryContainer) {
  std::vector<int64_t> v{2, 3};
  c10::DimVector dv{2, 3};
  std::array<int64_t, 2> a{2, 3};
  const int64_t c[] = {2, 3};
  const std::vector<int64_t> expected{2, 3};
  c10::IntArrayRef from_list(expected);
  EXPECT_EQ(c10::IntArrayRef(v), from_list);
  EXPECT_EQ(c10::IntArrayRef(dv), from_list);
  EXPECT_EQ(c10::IntArrayRef(a), from_list);
  EXPECT_EQ(c10::IntArrayRef(c), from_list);
  EXPECT_EQ(from_list.vec(), v);
  EXPECT_TRUE(v == c10::IntArrayRef(a));
  int64_t one = 7;
  EXPECT_EQ(c10::IntArrayRef(one).size(), 1u);
  EXPECT_TRUE(c10::IntArrayRef().empty());
}

TEST(ArrayRef, PrintsLikeLibtorch) {
  std::ostringstream ss;
  ss << c10::IntArrayRef({2, 3}) << " " << c10::IntArrayRef() << " " << c10::IntArrayRef({-1});
  EXPECT_EQ(ss.str(), "[2, 3] [] [-1]");
}

TEST(ArrayRef, SliceAndBoundsAreChecked) {
  std::vector<int64_t> v{1, 2, 3, 4};
  c10::IntArrayRef r(v);
  EXPECT_EQ(r.slice(1, 2), c10::IntArrayRef({2, 3}));
  EXPECT_EQ(r.slice(2), c10::IntArrayRef({3, 4}));
  EXPECT_EQ(r.front(), 1);
  EXPECT_EQ(r.back(), 4);
  EXPECT_THROW(r.slice(3, 2), c10::Error);
  EXPECT_THROW(r.at(4), c10::Error);
  EXPECT_THROW(c10::IntArrayRef().front(), c10::Error);
}

TEST(SmallVector, KeepsFiveDimsInline) {
  c10::DimVector dv(5, 1);
  EXPECT_EQ(dv.capacity(), 5u);
  dv.push_back(2);
  EXPECT_EQ(dv.size(), 6u);
  EXPECT_EQ(dv.back(), 2);
}

TEST(Irange, CountsAndHandlesEmptyRanges) {
  std::vector<int> seen;
  for (const auto i : c10::irange(3)) seen.push_back(i);
  for (const auto i : c10::irange(5, 7)) seen.push_back(i);
  for (const auto i : c10::irange(4, 2)) seen.push_back(i);  // empty
  EXPECT_EQ(seen, (std::vector<int>{0, 1, 2, 5, 6}));
}

}  // namespace
