// at::from_blob / at::for_blob: every overload aliases the caller's memory (no copy), takes the
// options' dtype, and runs the deleter once, when the last tensor on the memory dies. Expected
// values and texts were printed by libtorch 1.13 running the same calls.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "aten/ATen.h"
#include "tests/TestUtils.h"

namespace {

using test_util::error_of;

TEST(FromBlob, AliasesTheMemoryContiguously) {
  float data[6] = {0, 1, 2, 3, 4, 5};
  at::Tensor t = at::from_blob(data, {2, 3});
  EXPECT_EQ(t.sizes(), c10::IntArrayRef({2, 3}));
  EXPECT_EQ(t.strides(), c10::IntArrayRef({3, 1}));
  EXPECT_EQ(t.scalar_type(), at::kFloat);
  EXPECT_EQ(t.data_ptr(), static_cast<void*>(data));
  EXPECT_EQ(t.storage().nbytes(), 24u);
  EXPECT_FALSE(t.storage().resizable());
  EXPECT_EQ(t.storage().allocator(), nullptr);
  EXPECT_TRUE(t.is_cpu());
  // Writes go both ways.
  data[4] = 40;
  EXPECT_EQ(t[1][1].item<float>(), 40);
  t[0][2].fill_(-2);
  EXPECT_EQ(data[2], -2);
}

TEST(FromBlob, StridesAndDtype) {
  float data[4] = {0, 1, 2, 3};
  at::Tensor t = at::from_blob(data, {2, 2}, {1, 2}, at::kFloat);  // a transposed view
  EXPECT_EQ(t.strides(), c10::IntArrayRef({1, 2}));
  EXPECT_EQ(t.storage().nbytes(), 16u);
  EXPECT_TRUE(t.equal(at::tensor({0.f, 2.f, 1.f, 3.f}).view({2, 2})));
  EXPECT_FALSE(t.is_contiguous());

  int64_t longs[2] = {7, 8};
  at::Tensor l = at::from_blob(longs, {2}, at::kLong);
  EXPECT_EQ(l.scalar_type(), at::kLong);
  EXPECT_EQ(l[1].item<int64_t>(), 8);

  float broadcast[3] = {1, 2, 3};
  at::Tensor b = at::from_blob(broadcast, {2, 3}, {0, 1});  // rows share memory
  EXPECT_EQ(b.storage().nbytes(), 12u);
  EXPECT_EQ(b[1][2].item<float>(), 3);
}

TEST(FromBlob, StorageOffset) {
  float data[6] = {0, 1, 2, 3, 4, 5};
  int deleted = 0;
  at::Tensor t = at::from_blob(data, {2}, {2}, /*storage_offset=*/1, [&](void*) { ++deleted; },
                               at::kFloat);
  EXPECT_EQ(t.storage_offset(), 1);
  EXPECT_EQ(t.data_ptr(), static_cast<void*>(data + 1));
  EXPECT_TRUE(t.equal(at::tensor({1.f, 3.f})));
  // See Note [from_blob's storage]: libtorch 1.13 says 13 here (bytes plus elements).
  EXPECT_EQ(t.storage().nbytes(), 16u);

  at::Tensor u = at::for_blob(data, {2, 2})
                     .strides(at::IntArrayRef{2, 1})
                     .storage_offset(2)
                     .options(at::kFloat)
                     .make_tensor();
  EXPECT_TRUE(u.equal(at::tensor({2.f, 3.f, 4.f, 5.f}).view({2, 2})));
  at::Tensor c = at::for_blob(data, {3}).storage_offset(3).make_tensor();  // contiguous
  EXPECT_EQ(c.storage().nbytes(), 24u);
  EXPECT_EQ(c[0].item<float>(), 3);
}

TEST(FromBlob, TheDeleterRunsOnceWhenTheLastTensorDies) {
  float data[3] = {1, 2, 3};
  void* seen = nullptr;
  int calls = 0;
  {
    at::Tensor t = at::from_blob(data, {3}, [&](void* p) { seen = p; ++calls; }, at::kFloat);
    at::Tensor view = t.view({1, 3});
    t.reset();
    EXPECT_EQ(calls, 0);  // the view still holds the storage
    EXPECT_EQ(view[0][2].item<float>(), 3);
  }
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(seen, static_cast<void*>(data));
}

TEST(FromBlob, ContextAndTargetDevice) {
  static int released = 0;
  float data[2] = {5, 6};
  {
    at::Tensor t = at::for_blob(data, {2})
                       .context(&released, [](void* ctx) { ++*static_cast<int*>(ctx); })
                       .target_device(at::Device(at::kCPU))
                       .make_tensor();
    EXPECT_EQ(t.data_ptr(), static_cast<void*>(data));
    EXPECT_EQ(t.storage().data_ptr().get_context(), static_cast<void*>(&released));
  }
  EXPECT_EQ(released, 1);
}

TEST(FromBlob, OptionsOtherThanDtypeAndDevice) {
  float data[2] = {1, 2};
  // libtorch's from_blob ignores requires_grad in the options.
  at::Tensor t = at::from_blob(data, {2}, at::TensorOptions().requires_grad(true));
  EXPECT_FALSE(t.requires_grad());
  EXPECT_TRUE(t.is_leaf());
}

TEST(FromBlob, Errors) {
  float data[4] = {};
  EXPECT_EQ(error_of([&] { at::from_blob(data, {-1, 2}); }),
            "Trying to create tensor with negative dimension -1: [-1, 2]");
  EXPECT_EQ(error_of([&] {
              at::for_blob(data, {2}).deleter([](void*) {}).context(data, [](void*) {}).make_tensor();
            }),
            "The deleter and context arguments are mutually exclusive.");
  EXPECT_THROW(
      at::for_blob(data, {2}).deleter([](void*) {}).context(data, [](void*) {}).make_tensor(),
      c10::ValueError);
  EXPECT_EQ(error_of([&] { at::from_blob(data, {2}, at::TensorOptions().device(at::kCPU, 0)); }),
            "Specified device cpu:0 does not match device of data cpu");
  EXPECT_THROW(at::from_blob(data, {2}, at::TensorOptions().device(at::kCPU, 0)), c10::ValueError);
  // libtorch 1.13 terminates here (a noexcept function throws); miniaten throws its text.
  EXPECT_EQ(error_of([&] { at::from_blob(data, {2, 2}, {1}); }),
            "dimensionality of sizes (2) must match dimensionality of strides (1)");
}

TEST(IsSameSize, ComparesSizesOnly) {
  at::Tensor t = at::zeros({2, 3});
  EXPECT_TRUE(t.is_same_size(at::ones({2, 3}, at::kLong)));
  EXPECT_TRUE(at::is_same_size(t, at::zeros({3, 2}).t()));
  EXPECT_FALSE(t.is_same_size(at::zeros({3, 2})));
  EXPECT_FALSE(at::zeros({}).is_same_size(at::zeros({1})));
}

}  // namespace
