// The contiguous chain (DESIGN.md): contiguous -> clone -> empty_like -> copy_, and to /
// _to_copy / type_as / resize_ / set_, with libtorch's early returns, layouts and errors.

#include <gtest/gtest.h>

#include "aten/ATen.h"
#include "aten/cuda/CUDAQueries.h"
#include "tests/TestUtils.h"

namespace {

using test_util::error_of;

// Layouts the chain must handle, each with its data set to distinct values.
struct Layout {
  const char* name;
  std::function<at::Tensor()> make;
};

at::Tensor seq(std::vector<int64_t> sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return at::arange(n, at::kFloat).view(sizes);
}

const Layout kLayouts[] = {
    {"contiguous", [] { return seq({2, 3, 4, 5}); }},
    {"channels_last", [] { return seq({2, 3, 4, 5}).contiguous(at::MemoryFormat::ChannelsLast); }},
    {"permuted", [] { return seq({2, 3, 4, 5}).permute({3, 1, 0, 2}); }},
    {"sliced", [] { return seq({4, 6, 8}).slice(2, 1, 8, 2); }},
    {"expanded", [] { return seq({3, 1, 4}).expand({2, 3, 5, 4}); }},
    {"ambiguous_c1", [] { return seq({2, 1, 4, 4}); }},
    {"ambiguous_hw1", [] { return seq({2, 4, 1, 1}); }},
    {"zero_size", [] { return at::empty({2, 0, 3}); }},
    {"zero_dim", [] { return at::scalar_tensor(7.5); }},
};

class Chain : public ::testing::TestWithParam<Layout> {};

void expect_same_values(const at::Tensor& a, const at::Tensor& b) {
  ASSERT_EQ(a.sizes(), b.sizes());
  // Walk both through their strides.
  std::vector<int64_t> idx(a.dim(), 0);
  for (int64_t k = 0; k < a.numel(); ++k) {
    int64_t oa = 0, ob = 0;
    for (int64_t d = 0; d < a.dim(); ++d) {
      oa += idx[d] * a.stride(d);
      ob += idx[d] * b.stride(d);
    }
    ASSERT_EQ(a.data_ptr<float>()[oa], b.data_ptr<float>()[ob]) << "element " << k;
    for (int64_t d = a.dim() - 1; d >= 0; --d) {
      if (++idx[d] < a.size(d)) break;
      idx[d] = 0;
    }
  }
}

TEST_P(Chain, ContiguousAndCloneKeepValuesAndFollowTheRules) {
  at::Tensor t = GetParam().make();
  at::Tensor c = t.contiguous();
  if (t.is_contiguous()) {
    EXPECT_TRUE(c.is_same(t));  // returned as is
  } else {
    EXPECT_TRUE(c.is_contiguous());
    EXPECT_FALSE(c.is_alias_of(t));
  }
  expect_same_values(c, t);
  at::Tensor via_op = at::contiguous(t);
  EXPECT_TRUE(via_op.is_contiguous());
  expect_same_values(via_op, t);

  // clone defaults to Preserve: dense sources keep their exact strides.
  at::Tensor k = t.clone();
  if (t.is_non_overlapping_and_dense()) {
    EXPECT_EQ(k.strides(), t.strides());
  }
  EXPECT_FALSE(k.is_alias_of(t) && t.numel() > 0);
  expect_same_values(k, t);
  at::Tensor kc = t.clone(at::MemoryFormat::Contiguous);
  EXPECT_TRUE(kc.is_contiguous());
  expect_same_values(kc, t);
}

INSTANTIATE_TEST_SUITE_P(Layouts, Chain, ::testing::ValuesIn(kLayouts),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(Chain, ContiguousErrors) {
  at::Tensor t = seq({2, 3}).t();
  EXPECT_EQ(error_of([&] { at::contiguous(t, at::MemoryFormat::Preserve); }),
            "preserve memory format is unsupported by the contiguous operator");
  EXPECT_EQ(error_of([&] { t.contiguous(at::MemoryFormat::ChannelsLast); }),
            "required rank 4 tensor to use channels_last format");
  EXPECT_EQ(error_of([&] { seq({2, 3, 4, 5}).contiguous(at::MemoryFormat::ChannelsLast3d); }),
            "required rank 5 tensor to use channels_last_3d format");
}

// REFERENCE.md section 4: contiguous(cl) returns early on an ambiguous tensor, to(cl) re-strides.
TEST(Chain, AmbiguousShapesContiguousVersusTo) {
  at::Tensor a = seq({2, 1, 4, 4});
  EXPECT_EQ(a.strides(), c10::IntArrayRef({16, 16, 4, 1}));
  EXPECT_TRUE(a.is_contiguous(at::MemoryFormat::ChannelsLast));
  at::Tensor c = a.contiguous(at::MemoryFormat::ChannelsLast);
  EXPECT_TRUE(c.is_same(a));
  EXPECT_EQ(c.strides(), c10::IntArrayRef({16, 16, 4, 1}));
  at::Tensor t = a.to(at::TensorOptions(), false, false, at::MemoryFormat::ChannelsLast);
  EXPECT_FALSE(t.is_same(a));
  EXPECT_EQ(t.strides(), c10::IntArrayRef({16, 1, 4, 1}));
  expect_same_values(t, a);
  at::Tensor b = seq({2, 4, 1, 1});
  EXPECT_TRUE(b.contiguous(at::MemoryFormat::ChannelsLast).is_same(b));
  EXPECT_EQ(b.suggest_memory_format(), at::MemoryFormat::Contiguous);
  EXPECT_EQ(b.to(at::TensorOptions(), false, false, at::MemoryFormat::ChannelsLast).strides(),
            c10::IntArrayRef({4, 1, 4, 4}));
}

TEST(Chain, ToAndTypeAs) {
  at::Tensor f = seq({2, 3});
  EXPECT_TRUE(f.to(at::kFloat).is_same(f));  // nothing to do: the same tensor
  at::Tensor copy = f.to(at::kFloat, false, /*copy=*/true);
  EXPECT_FALSE(copy.is_same(f));
  at::Tensor l = f.to(at::kLong);
  EXPECT_EQ(l.scalar_type(), at::kLong);
  EXPECT_EQ(l.data_ptr<int64_t>()[5], 5);
  EXPECT_TRUE(f.to(at::kCPU).is_same(f));
  EXPECT_EQ(f.type_as(l).scalar_type(), at::kLong);
  EXPECT_EQ(f.to(l).scalar_type(), at::kLong);
  at::Tensor d = at::_to_copy(f.t(), at::kDouble);
  EXPECT_EQ(d.strides(), c10::IntArrayRef({1, 3}));  // Preserve keeps a dense layout
  EXPECT_EQ(d.scalar_type(), at::kDouble);
  // Without a usable CUDA device, to(kCUDA) is an error (its text: tests/aten/cuda).
  if (!torch::cuda::is_available()) {
    EXPECT_THROW(f.to(at::kCUDA), c10::Error);
  }
}

TEST(Chain, ResizeAndSet) {
  at::Tensor t = at::empty({2, 3});
  t.resize_({4, 5});
  EXPECT_EQ(t.sizes(), c10::IntArrayRef({4, 5}));
  EXPECT_EQ(t.strides(), c10::IntArrayRef({5, 1}));
  EXPECT_GE(t.storage().nbytes(), 80u);
  t.resize_({2, 3, 4, 5}, at::MemoryFormat::ChannelsLast);
  EXPECT_EQ(t.strides(), c10::IntArrayRef({60, 1, 15, 3}));
  EXPECT_EQ(error_of([&] { t.resize_({2}, at::MemoryFormat::Preserve); }),
            "Unsupported memory formatPreserve");
  at::Tensor src = seq({6});
  at::Tensor dst = at::empty({0});
  dst.set_(src);
  EXPECT_TRUE(dst.is_alias_of(src));
  EXPECT_EQ(dst.sizes(), c10::IntArrayRef({6}));
  dst.set_(src, 2, {2, 2}, {1, 2});
  EXPECT_EQ(dst.storage_offset(), 2);
  EXPECT_EQ(dst.data_ptr<float>()[2], 4.f);
  EXPECT_NE(error_of([&] { dst.set_(src, 2, {4, 4}, {1, 2}); }).find("setStorage: sizes [4, 4]"),
            std::string::npos);
  dst.set_();
  EXPECT_EQ(dst.numel(), 0);
}

}  // namespace
