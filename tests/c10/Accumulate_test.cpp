// c10/util/accumulate.h over vectors, ArrayRefs and iterator ranges, with the edge cases
// (no dims, k past the end, reversed bounds).
#include <gtest/gtest.h>

#include <vector>

#include "c10/util/ArrayRef.h"
#include "c10/util/accumulate.h"

namespace {

TEST(Accumulate, SumsAndProducts) {
  const std::vector<int64_t> dims{2, 3, 4};
  EXPECT_EQ(c10::sum_integers(dims), 9);
  EXPECT_EQ(c10::multiply_integers(dims), 24);
  EXPECT_EQ(c10::multiply_integers(c10::IntArrayRef(dims)), 24);
  EXPECT_EQ(c10::multiply_integers(dims.begin() + 1, dims.end()), 12);
  EXPECT_EQ(c10::sum_integers(std::vector<int>{}), 0);
  EXPECT_EQ(c10::multiply_integers(std::vector<int>{}), 1);  // a 0-dim tensor has one element
  // int32 elements accumulate in int64.
  EXPECT_EQ(c10::multiply_integers(std::vector<int>{65536, 65536}), int64_t{1} << 32);
}

TEST(Accumulate, NumelementsOverDimRanges) {
  const std::vector<int64_t> dims{2, 3, 4, 5};
  EXPECT_EQ(c10::numelements_from_dim(1, dims), 60);
  EXPECT_EQ(c10::numelements_from_dim(4, dims), 1);
  EXPECT_EQ(c10::numelements_from_dim(9, dims), 1);
  EXPECT_EQ(c10::numelements_to_dim(2, dims), 6);
  EXPECT_EQ(c10::numelements_to_dim(0, dims), 1);
  EXPECT_EQ(c10::numelements_between_dim(1, 3, dims), 12);
  EXPECT_EQ(c10::numelements_between_dim(3, 1, dims), 12);
  EXPECT_THROW(c10::numelements_to_dim(5, dims), c10::Error);
}

}  // namespace
