// c10::optional: std::optional's behaviour, with the copies of Note [Optionals that travel in
// memory] for the trivially copyable optionals of more than 8 bytes.

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <type_traits>

#include "aten/ATen.h"
#include "c10/util/Optional.h"

namespace {

// Which optionals are passed in memory (non-trivial copies) and which in a register.
static_assert(!std::is_trivially_copyable<c10::optional<int64_t>>::value, "");
static_assert(!std::is_trivially_copyable<c10::optional<double>>::value, "");
static_assert(std::is_trivially_copyable<c10::optional<int32_t>>::value, "");
static_assert(std::is_trivially_copyable<c10::optional<bool>>::value, "");
static_assert(std::is_trivially_copyable<c10::optional<c10::ScalarType>>::value, "");
static_assert(std::is_trivially_copyable<c10::optional<c10::MemoryFormat>>::value, "");
static_assert(sizeof(c10::optional<int64_t>) == sizeof(std::optional<int64_t>), "");
static_assert(std::is_nothrow_copy_constructible<c10::optional<int64_t>>::value, "");

TEST(Optional, CopiesKeepValueAndEmptiness) {
  const c10::optional<int64_t> full = 5;
  const c10::optional<int64_t> empty;
  c10::optional<int64_t> a = full, b = empty;
  EXPECT_EQ(a, full);
  EXPECT_FALSE(b.has_value());
  a = empty;
  EXPECT_FALSE(a.has_value());
  b = full;
  EXPECT_EQ(*b, 5);
  c10::optional<int64_t> moved = std::move(b);
  EXPECT_EQ(moved.value(), 5);
  c10::optional<double> d = 1.5, e = d;
  EXPECT_EQ(e.value_or(0.0), 1.5);
}

TEST(Optional, AssignsLikeStdOptional) {
  c10::optional<int64_t> a;
  a = 3;  // an int into an optional<int64_t>
  EXPECT_EQ(a, 3);
  a = int64_t{7};
  EXPECT_EQ(*a, 7);
  a = {};  // empties, as std::optional does, rather than storing 0
  EXPECT_FALSE(a.has_value());
  a = 4;
  a = c10::nullopt;
  EXPECT_EQ(a, c10::nullopt);
  c10::optional<int32_t> n;
  n = static_cast<int32_t>(3);
  EXPECT_EQ(n, 3);
  c10::optional<at::Tensor> t;
  t = at::ones({2});
  EXPECT_EQ(t->numel(), 2);
}

TEST(Optional, ConvertsToAndFromStdOptional) {
  const std::optional<int64_t> s = 9;
  c10::optional<int64_t> c = s;
  EXPECT_EQ(c, 9);
  c = std::make_optional<int64_t>(2);
  EXPECT_EQ(c, 2);
  const std::optional<int64_t> back = c;
  EXPECT_EQ(back, 2);
  auto made = c10::make_optional(int64_t{4});
  static_assert(std::is_same<decltype(made), c10::optional<int64_t>>::value, "");
  EXPECT_EQ(made, 4);
}

TEST(Optional, Compares) {
  const c10::optional<int64_t> one = 1, two = 2, none;
  EXPECT_TRUE(one < two);
  EXPECT_TRUE(none < one);  // empty orders first, as in std
  EXPECT_TRUE(one != two && one == 1 && 2 == two && none == c10::nullopt);
  EXPECT_TRUE(two >= one && two > none && one <= one);
  const c10::optional<int32_t> narrow_one = 1;
  EXPECT_TRUE(one == narrow_one);
}

// The optionals passed in memory reach kernels intact through every layer (slice's start and
// end go through the public wrapper, three dispatcher hops and narrow's redispatch).
TEST(Optional, ThroughTheDispatcher) {
  const at::Tensor t = at::arange(10, at::kFloat);
  const at::Tensor s = at::slice(t, 0, c10::optional<int64_t>(2), c10::optional<int64_t>(7), 2);
  EXPECT_EQ(s.sizes(), c10::IntArrayRef({3}));
  EXPECT_EQ(s.storage_offset(), 2);
  EXPECT_EQ(s.strides(), c10::IntArrayRef({2}));
  const at::Tensor open = at::slice(t, 0, c10::nullopt, c10::optional<int64_t>(-3));
  EXPECT_EQ(open.sizes(), c10::IntArrayRef({7}));
  EXPECT_EQ(t.narrow(0, 3, 4).storage_offset(), 3);
}

}  // namespace
