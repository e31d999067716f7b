#include <gtest/gtest.h>

#include "aten/ATen.h"

namespace {

TEST(Tensor, EmptyCpuHasContiguousGeometry) {
  at::Tensor t = at::detail::empty_cpu({2, 3}, at::kFloat);
  EXPECT_TRUE(t.defined());
  EXPECT_EQ(t.sizes(), c10::IntArrayRef({2, 3}));
  EXPECT_EQ(t.strides(), c10::IntArrayRef({3, 1}));
  EXPECT_EQ(t.dim(), 2);
  EXPECT_EQ(t.numel(), 6);
  EXPECT_EQ(t.storage_offset(), 0);
  EXPECT_EQ(t.scalar_type(), at::kFloat);
  EXPECT_EQ(t.dtype(), at::kFloat);
  EXPECT_EQ(t.element_size(), 4);
  EXPECT_EQ(t.nbytes(), 24u);
  EXPECT_EQ(t.device(), c10::Device(c10::kCPU));
  EXPECT_TRUE(t.is_cpu());
  EXPECT_EQ(t.options().dtype(), at::kFloat);
  EXPECT_EQ(t.toString(), "CPUFloatType");
  EXPECT_EQ(t.use_count(), 1u);
  EXPECT_EQ(t.key_set(), c10::keysetForBackend(c10::DispatchKey::CPU));
  EXPECT_EQ(t.storage().nbytes(), 24u);
}

TEST(Tensor, ChannelsLastAllocation) {
  // Seed 003's example: [1,64,5,4] restrided to NHWC.
  at::Tensor t = at::detail::empty_cpu({1, 64, 5, 4}, at::kFloat, at::MemoryFormat::ChannelsLast);
  EXPECT_EQ(t.strides(), c10::IntArrayRef({1280, 1, 256, 64}));
  EXPECT_TRUE(t.is_contiguous(at::MemoryFormat::ChannelsLast));
  EXPECT_EQ(t.suggest_memory_format(), at::MemoryFormat::ChannelsLast);
  at::Tensor t3 = at::detail::empty_cpu({2, 3, 4, 5, 6}, at::kHalf,
                                        at::MemoryFormat::ChannelsLast3d);
  EXPECT_EQ(t3.strides(), c10::IntArrayRef({360, 1, 90, 18, 3}));
  EXPECT_EQ(t3.suggest_memory_format(), at::MemoryFormat::ChannelsLast3d);
}

TEST(Tensor, DataPtrChecksTheType) {
  at::Tensor t = at::detail::empty_cpu({2, 3}, at::kFloat);
  EXPECT_NE(t.data_ptr<float>(), nullptr);
  EXPECT_EQ(t.data_ptr(), static_cast<void*>(t.data_ptr<float>()));
  try {
    t.data_ptr<int64_t>();
    FAIL();
  } catch (const c10::Error& e) {
    EXPECT_STREQ(e.what_without_backtrace(), "expected scalar type Long but found Float");
  }
  at::Tensor l = at::detail::empty_cpu({2}, at::kLong);
  try {
    l.data_ptr<float>();
    FAIL();
  } catch (const c10::Error& e) {
    EXPECT_STREQ(e.what_without_backtrace(), "expected scalar type Float but found Long");
  }
}

TEST(Tensor, NegativeSizesAreRejected) {
  try {
    at::detail::empty_cpu({-1, 2}, at::kFloat);
    FAIL();
  } catch (const c10::Error& e) {
    EXPECT_STREQ(e.what_without_backtrace(),
                 "Trying to create tensor with negative dimension -1: [-1, 2]");
  }
}

TEST(Tensor, IdentityAliasingAndUseCount) {
  at::Tensor a = at::detail::empty_cpu({4}, at::kFloat);
  at::Tensor b = a;
  EXPECT_TRUE(a.is_same(b));
  EXPECT_EQ(a.use_count(), 2u);
  at::Tensor c = at::detail::empty_cpu({4}, at::kFloat);
  EXPECT_FALSE(a.is_same(c));
  EXPECT_FALSE(a.is_alias_of(c));
  EXPECT_TRUE(a.is_alias_of(b));
  auto view_impl = c10::make_intrusive<c10::TensorImpl>(c10::Storage(a.storage()), a.key_set(),
                                                        a.dtype());
  view_impl->set_sizes_and_strides({2}, {2}, 1);
  at::Tensor view(std::move(view_impl));
  EXPECT_TRUE(view.is_alias_of(a));
  EXPECT_FALSE(view.is_same(a));
  EXPECT_EQ(view.data_ptr<float>(), a.data_ptr<float>() + 1);
}

TEST(Tensor, UndefinedTensorAccessIsAnErrorNotACrash) {
  at::Tensor u;
  EXPECT_FALSE(u.defined());
  EXPECT_EQ(u.use_count(), 0u);
  try {
    u.sizes();
    FAIL();
  } catch (const c10::Error& e) {
    EXPECT_STREQ(e.what_without_backtrace(), "sizes() called on an undefined Tensor");
  }
  EXPECT_THROW(u.dim(), c10::Error);
  EXPECT_FALSE(u.is_alias_of(u));
}

TEST(Tensor, ZeroDimTensor) {
  at::Tensor s = at::detail::empty_cpu({}, at::kDouble);
  EXPECT_EQ(s.dim(), 0);
  EXPECT_EQ(s.numel(), 1);
  EXPECT_TRUE(s.is_contiguous());
  EXPECT_TRUE(s.is_non_overlapping_and_dense());
  EXPECT_EQ(s.nbytes(), 8u);
}

}  // namespace
