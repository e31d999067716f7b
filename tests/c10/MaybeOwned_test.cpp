// c10::MaybeOwned over intrusive_ptr (borrowed without a count) and shared_ptr (borrowed through
// a pointer): which object each state refers to, and the use counts after every operation.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "c10/util/MaybeOwned.h"
#include "c10/util/intrusive_ptr.h"

namespace {

struct Name : c10::intrusive_ptr_target {
  explicit Name(std::string s) : text(std::move(s)) {}
  std::string text;
};
using NamePtr = c10::intrusive_ptr<Name>;
using MaybeName = c10::MaybeOwned<NamePtr>;

TEST(MaybeOwned, BorrowedRefersToTheOriginalWithoutCounting) {
  NamePtr original = c10::make_intrusive<Name>("a");
  {
    MaybeName b = MaybeName::borrowed(original);
    EXPECT_TRUE(b.unsafeIsBorrowed());
    EXPECT_EQ(b->get(), original.get());
    EXPECT_EQ((*b)->text, "a");
    EXPECT_EQ(original.use_count(), 1u);
    MaybeName copy = b;  // a copy of a borrow borrows the same object
    EXPECT_TRUE(copy.unsafeIsBorrowed());
    EXPECT_EQ(copy->get(), original.get());
    EXPECT_EQ(original.use_count(), 1u);
  }
  EXPECT_EQ(original.use_count(), 1u);  // destroying borrows released nothing
}

TEST(MaybeOwned, OwnedHoldsItsOwnReference) {
  NamePtr original = c10::make_intrusive<Name>("b");
  {
    MaybeName o = MaybeName::owned(NamePtr(original));
    EXPECT_FALSE(o.unsafeIsBorrowed());
    EXPECT_EQ(o->get(), original.get());
    EXPECT_NE(&*o, &original);
    EXPECT_EQ(original.use_count(), 2u);
    MaybeName copy = o;  // a copy of an owned value owns another reference
    EXPECT_FALSE(copy.unsafeIsBorrowed());
    EXPECT_EQ(original.use_count(), 3u);
    MaybeName moved = std::move(copy);  // a move keeps the count
    EXPECT_EQ(original.use_count(), 3u);
  }
  EXPECT_EQ(original.use_count(), 1u);
}

TEST(MaybeOwned, InPlaceConstructsTheOwnedValue) {
  auto s = c10::MaybeOwned<std::shared_ptr<std::string>>::owned(
      c10::in_place, std::make_shared<std::string>("built"));
  EXPECT_FALSE(s.unsafeIsBorrowed());
  EXPECT_EQ(**s, "built");
  auto empty = MaybeName::owned(c10::in_place);
  EXPECT_FALSE(empty.unsafeIsBorrowed());
  EXPECT_FALSE(empty->defined());
}

TEST(MaybeOwned, AssignmentTakesTheStateOfTheSource) {
  NamePtr x = c10::make_intrusive<Name>("x");
  NamePtr y = c10::make_intrusive<Name>("y");
  MaybeName target = MaybeName::owned(NamePtr(x));
  EXPECT_EQ(x.use_count(), 2u);

  target = MaybeName::borrowed(y);  // owned <- borrowed: drops the owned reference
  EXPECT_TRUE(target.unsafeIsBorrowed());
  EXPECT_EQ(x.use_count(), 1u);
  EXPECT_EQ(y.use_count(), 1u);
  EXPECT_EQ(target->get(), y.get());

  MaybeName source = MaybeName::owned(NamePtr(x));
  target = source;  // borrowed <- owned (copy): a new reference
  EXPECT_FALSE(target.unsafeIsBorrowed());
  EXPECT_EQ(x.use_count(), 3u);
  target = std::move(source);  // owned <- owned (move): source keeps a moved-from pointer
  EXPECT_EQ(x.use_count(), 2u);
  EXPECT_FALSE(source.unsafeIsBorrowed());
  EXPECT_FALSE(source->defined());

  MaybeName& alias = target;
  target = alias;  // self-assignment changes nothing
  EXPECT_EQ(x.use_count(), 2u);
  EXPECT_EQ(target->get(), x.get());
}

TEST(MaybeOwned, RvalueDereferenceCopiesABorrowAndMovesAnOwnedValue) {
  NamePtr x = c10::make_intrusive<Name>("x");
  MaybeName b = MaybeName::borrowed(x);
  NamePtr from_borrow = *std::move(b);
  EXPECT_EQ(x.use_count(), 2u);
  EXPECT_TRUE(b.unsafeIsBorrowed());
  EXPECT_EQ(b->get(), x.get());

  MaybeName o = MaybeName::owned(NamePtr(x));
  EXPECT_EQ(x.use_count(), 3u);
  NamePtr from_owned = *std::move(o);
  EXPECT_EQ(x.use_count(), 3u);  // moved out, not copied
  EXPECT_FALSE(o.unsafeIsBorrowed());
  EXPECT_FALSE(o->defined());
}

TEST(MaybeOwned, SharedPtrBorrowsThroughAPointer) {
  auto p = std::make_shared<int>(7);
  auto b = c10::MaybeOwned<std::shared_ptr<int>>::borrowed(p);
  EXPECT_EQ(&*b, &p);  // the generic borrow is the original object itself
  EXPECT_EQ(p.use_count(), 1);
  auto o = c10::MaybeOwned<std::shared_ptr<int>>::owned(std::shared_ptr<int>(p));
  EXPECT_EQ(p.use_count(), 2);
  EXPECT_EQ(**o, 7);
}

TEST(MaybeOwned, NoexceptFollowsTheOwnedType) {
  EXPECT_TRUE(std::is_nothrow_move_constructible<MaybeName>::value);
  EXPECT_TRUE(std::is_nothrow_move_assignable<MaybeName>::value);
  EXPECT_FALSE((std::is_constructible<MaybeName, const NamePtr&>::value));  // borrowed() only
}

}  // namespace
