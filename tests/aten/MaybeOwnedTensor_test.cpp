// MaybeOwned<at::Tensor> (a borrow holds the same TensorImpl without a count) and
// Tensor::expect_contiguous, which borrows a contiguous tensor and owns a contiguous copy of
// any other.
#include <gtest/gtest.h>

#include "aten/ATen.h"
#include "c10/util/MaybeOwned.h"
#include "dispatcher/IValue.h"

namespace {

using MaybeTensor = c10::MaybeOwned<at::Tensor>;

TEST(MaybeOwnedTensor, BorrowKeepsTheUseCount) {
  at::Tensor t = at::zeros({2, 2});
  {
    MaybeTensor b = MaybeTensor::borrowed(t);
    EXPECT_TRUE(b->is_same(t));
    EXPECT_EQ(t.use_count(), 1u);
    MaybeTensor copies[] = {b, b};
    EXPECT_TRUE(copies[1]->is_same(t));
    EXPECT_EQ(t.use_count(), 1u);
    MaybeTensor o = MaybeTensor::owned(c10::in_place, t);
    EXPECT_EQ(t.use_count(), 2u);
    b = o;  // borrowed <- owned: b owns a reference now
    EXPECT_FALSE(b.unsafeIsBorrowed());
    EXPECT_EQ(t.use_count(), 3u);
  }
  EXPECT_EQ(t.use_count(), 1u);
}

TEST(MaybeOwnedTensor, BorrowOfAnUndefinedTensor) {
  at::Tensor undefined;
  MaybeTensor b = MaybeTensor::borrowed(undefined);
  EXPECT_FALSE(b->defined());
  MaybeTensor d;  // default: a borrow of nothing, to be assigned
  d = b;
  EXPECT_FALSE(d->defined());
}

TEST(MaybeOwnedTensor, ExpectContiguousBorrowsOrOwns) {
  at::Tensor c = at::arange(6).view({2, 3});
  auto borrowed = c.expect_contiguous();
  EXPECT_TRUE(borrowed.unsafeIsBorrowed());
  EXPECT_TRUE(borrowed->is_same(c));
  EXPECT_EQ(c.use_count(), 1u);

  at::Tensor t = c.t();
  auto owned = t.expect_contiguous();
  EXPECT_FALSE(owned.unsafeIsBorrowed());
  EXPECT_FALSE(owned->is_same(t));
  EXPECT_TRUE(owned->is_contiguous());
  EXPECT_EQ(owned->sizes(), c10::IntArrayRef({3, 2}));
  EXPECT_EQ(owned->strides(), c10::IntArrayRef({2, 1}));
  EXPECT_EQ((*owned)[1][0].item<int64_t>(), 1);
}

TEST(MaybeOwnedTensor, IValueBorrowsThroughAPointer) {
  c10::IValue v(at::ones({2}));
  auto b = c10::MaybeOwned<c10::IValue>::borrowed(v);
  EXPECT_EQ(&*b, &v);
  EXPECT_TRUE(v.isPtrType());
  EXPECT_EQ(b->internalToPointer(), v.toTensor().unsafeGetTensorImpl());
  EXPECT_EQ(v.use_count(), 1u);
  auto o = c10::MaybeOwned<c10::IValue>::owned(c10::in_place, v);
  EXPECT_EQ(v.use_count(), 2u);
  EXPECT_FALSE(c10::IValue(3).isPtrType());
  EXPECT_EQ(c10::IValue(3).use_count(), 1u);  // libtorch 1.13 answers 1 for an inline value
  EXPECT_TRUE(c10::IValue("s").isPtrType());
  EXPECT_FALSE(c10::IValue(at::Tensor()).isPtrType());
}

}  // namespace
