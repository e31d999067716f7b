#include <gtest/gtest.h>

#include "c10/util/intrusive_ptr.h"

namespace {

struct Counted : c10::intrusive_ptr_target {
  explicit Counted(int* destroyed) : destroyed_(destroyed) {}
  ~Counted() override { ++*destroyed_; }
  int* destroyed_;
};

TEST(IntrusivePtr, CountsCopiesAndDestroysOnce) {
  int destroyed = 0;
  {
    auto a = c10::make_intrusive<Counted>(&destroyed);
    EXPECT_EQ(a.use_count(), 1u);
    auto b = a;
    EXPECT_EQ(a.use_count(), 2u);
    auto c = std::move(b);
    EXPECT_FALSE(b.defined());
    EXPECT_EQ(c.use_count(), 2u);
    EXPECT_TRUE(a == c);
  }
  EXPECT_EQ(destroyed, 1);
}

TEST(IntrusivePtr, ReleaseAndReclaimRoundTrip) {
  int destroyed = 0;
  auto a = c10::make_intrusive<Counted>(&destroyed);
  Counted* raw = a.release();
  EXPECT_FALSE(a.defined());
  auto b = c10::intrusive_ptr<Counted>::reclaim(raw);
  EXPECT_EQ(b.use_count(), 1u);
  auto c = c10::intrusive_ptr<Counted>::reclaim_copy(b.get());
  EXPECT_EQ(b.use_count(), 2u);
  c.reset();
  b.reset();
  EXPECT_EQ(destroyed, 1);
}

}  // namespace
