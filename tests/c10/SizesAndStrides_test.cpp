// SizesAndStrides: libtorch's accessors over both storages (inline up to 5 dims, out of line
// beyond), the inline <-> out-of-line transitions of resize, and copy/move semantics (a
// moved-from object has size() 0).
#include <gtest/gtest.h>

#include <numeric>
#include <utility>
#include <vector>

#include "c10/core/impl/SizesAndStrides.h"

namespace {

using c10::IntArrayRef;
using c10::impl::SizesAndStrides;

// Sizes 1..n and strides 10, 20, ..., written through the unchecked accessors.
SizesAndStrides make(size_t n) {
  SizesAndStrides s;
  s.resize(n);
  for (size_t i = 0; i < n; ++i) {
    s.size_at_unchecked(i) = static_cast<int64_t>(i + 1);
    s.stride_at_unchecked(i) = static_cast<int64_t>(10 * (i + 1));
  }
  return s;
}

void expect_made(const SizesAndStrides& s, size_t n) {
  ASSERT_EQ(s.size(), n);
  for (size_t i = 0; i < n; ++i) {
    EXPECT_EQ(s.size_at(i), static_cast<int64_t>(i + 1));
    EXPECT_EQ(s.stride_at(i), static_cast<int64_t>(10 * (i + 1)));
  }
}

class SizesAndStridesOfRank : public ::testing::TestWithParam<size_t> {};

TEST_P(SizesAndStridesOfRank, AccessorsAgree) {
  const size_t n = GetParam();
  SizesAndStrides s = make(n);
  EXPECT_EQ(s.is_inline(), n <= c10::impl::C10_SIZES_AND_STRIDES_MAX_INLINE_SIZE);
  EXPECT_EQ(s.sizes_end() - s.sizes_begin(), static_cast<ptrdiff_t>(n));
  EXPECT_EQ(s.strides_end() - s.strides_begin(), static_cast<ptrdiff_t>(n));
  EXPECT_EQ(s.sizes_begin(), s.sizes_data());
  EXPECT_EQ(s.strides_begin(), s.strides_data());
  EXPECT_EQ(s.sizes_arrayref(), IntArrayRef(std::vector<int64_t>(s.sizes_begin(), s.sizes_end())));
  EXPECT_EQ(std::accumulate(s.strides_begin(), s.strides_end(), int64_t{0}),
            static_cast<int64_t>(5 * n * (n + 1)));
  const SizesAndStrides& c = s;
  for (size_t i = 0; i < n; ++i) {
    EXPECT_EQ(c.size_at_unchecked(i), c.sizes_arrayref()[i]);
    EXPECT_EQ(c.stride_at_unchecked(i), c.strides_arrayref()[i]);
    EXPECT_EQ(*(c.sizes_begin() + i), static_cast<int64_t>(i + 1));
  }
}

TEST_P(SizesAndStridesOfRank, CopyAndMove) {
  const size_t n = GetParam();
  SizesAndStrides s = make(n);
  SizesAndStrides copied(s);
  expect_made(copied, n);
  expect_made(s, n);
  SizesAndStrides moved(std::move(s));
  expect_made(moved, n);
  EXPECT_EQ(s.size(), 0u);  // NOLINT: libtorch's moved-from state is specified
  // Assignment across every pair of storages: small (3) and big (7) targets.
  for (size_t target_rank : {size_t{3}, size_t{7}}) {
    SizesAndStrides copy_target = make(target_rank);
    copy_target = moved;
    expect_made(copy_target, n);
    SizesAndStrides move_target = make(target_rank);
    SizesAndStrides source = make(n);
    move_target = std::move(source);
    expect_made(move_target, n);
    EXPECT_EQ(source.size(), 0u);  // NOLINT
  }
}

INSTANTIATE_TEST_SUITE_P(InlineAndOutOfLine, SizesAndStridesOfRank,
                         ::testing::Values(0, 1, 4, 5, 6, 9));

TEST(SizesAndStrides, DefaultIsOneDimOfSizeZero) {
  SizesAndStrides s;
  EXPECT_EQ(s.sizes_arrayref(), IntArrayRef({0}));
  EXPECT_EQ(s.strides_arrayref(), IntArrayRef({1}));
}

TEST(SizesAndStrides, SetSizesKeepsLeadingStridesAndZeroesNewOnes) {
  SizesAndStrides s;
  s.set_sizes({5, 6, 7});
  EXPECT_EQ(s.sizes_arrayref(), IntArrayRef({5, 6, 7}));
  EXPECT_EQ(s.strides_arrayref(), IntArrayRef({1, 0, 0}));
  s.set_strides({42, 6, 1});
  s.set_sizes({2, 3, 4, 5, 6, 7, 8});  // to out of line: strides carried over, then zeros
  EXPECT_FALSE(s.is_inline());
  EXPECT_EQ(s.strides_arrayref(), IntArrayRef({42, 6, 1, 0, 0, 0, 0}));
  s.set_sizes({9, 8});  // back inline
  EXPECT_TRUE(s.is_inline());
  EXPECT_EQ(s.sizes_arrayref(), IntArrayRef({9, 8}));
  EXPECT_EQ(s.strides_arrayref(), IntArrayRef({42, 6}));
}

TEST(SizesAndStrides, OverwriteSizesThenStrides) {
  SizesAndStrides s = make(2);
  s.overwrite_sizes({4, 3, 2});
  s.set_strides({6, 2, 1});
  EXPECT_EQ(s.sizes_arrayref(), IntArrayRef({4, 3, 2}));
  EXPECT_EQ(s.strides_arrayref(), IntArrayRef({6, 2, 1}));
}

TEST(SizesAndStrides, ResizeAcrossTheInlineLimitKeepsValues) {
  SizesAndStrides s = make(5);
  s.resize(6);
  EXPECT_EQ(s.sizes_arrayref(), IntArrayRef({1, 2, 3, 4, 5, 0}));
  EXPECT_EQ(s.strides_arrayref(), IntArrayRef({10, 20, 30, 40, 50, 0}));
  s.size_at(5) = 6;
  s.stride_at(5) = 60;
  s.resize(8);
  s.resize(6);
  expect_made(s, 6);
  s.resize(2);
  expect_made(s, 2);
}

TEST(SizesAndStrides, SelfAssignment) {
  SizesAndStrides big = make(8);
  SizesAndStrides& alias = big;
  big = alias;
  expect_made(big, 8);
  big = std::move(alias);
  expect_made(big, 8);
}

}  // namespace
