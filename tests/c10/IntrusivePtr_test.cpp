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

namespace {

TEST(WeakIntrusivePtr, LocksWhileAliveAndDeletesAfterTheLastObserver) {
  int destroyed = 0;
  auto strong = c10::make_intrusive<Counted>(&destroyed);
  c10::weak_intrusive_ptr<Counted> weak(strong);
  EXPECT_EQ(weak.use_count(), 1u);
  {
    auto locked = weak.lock();
    EXPECT_TRUE(locked == strong);
    EXPECT_EQ(strong.use_count(), 2u);
  }
  strong.reset();
  // release_resources() ran; the object itself lives until its last observer goes.
  EXPECT_TRUE(weak.expired());
  EXPECT_FALSE(weak.lock().defined());
  EXPECT_EQ(destroyed, 0);
  { auto gone = std::move(weak); }
  EXPECT_EQ(destroyed, 1);
}

}  // namespace
