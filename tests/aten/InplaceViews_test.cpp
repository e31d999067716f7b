// transpose_, t_, squeeze_, unsqueeze_, as_strided_, swapdims_/swapaxes_: self itself takes the
// view's geometry (sizes, strides, offset, contiguity flags, suggested memory format), keeps its
// storage and data, bumps its version, and raises libtorch 1.13's errors leaving self unchanged.
// Their autograd rules are in tests/aten/autograd/FormulasReductions_test.cpp.

#include <gtest/gtest.h>

#include <vector>

#include "aten/ATen.h"
#include "tests/aten/ErrorCase.h"

namespace {

using at::Tensor;

// The out-of-place view and the in-place one agree on everything but identity.
void expect_same_geometry(const Tensor& inplace, const Tensor& view) {
  EXPECT_EQ(inplace.sizes(), view.sizes());
  EXPECT_EQ(inplace.strides(), view.strides());
  EXPECT_EQ(inplace.storage_offset(), view.storage_offset());
  EXPECT_EQ(inplace.is_contiguous(), view.is_contiguous());
  EXPECT_EQ(inplace.is_contiguous(at::MemoryFormat::ChannelsLast),
            view.is_contiguous(at::MemoryFormat::ChannelsLast));
  EXPECT_EQ(inplace.suggest_memory_format(), view.suggest_memory_format());
  EXPECT_TRUE(at::equal(inplace, view));
}

TEST(InplaceViews, TakeTheViewsGeometryAndKeepTheStorage) {
  const Tensor base = at::arange(120.0).view({2, 3, 4, 5});
  struct Case {
    const char* name;
    std::function<Tensor(const Tensor&)> view;
    std::function<void(Tensor&)> inplace;
  };
  const std::vector<Case> cases = {
      {"transpose_", [](const Tensor& t) { return t.transpose(1, 3); },
       [](Tensor& t) { t.transpose_(1, 3); }},
      {"transpose_neg", [](const Tensor& t) { return t.transpose(-1, 0); },
       [](Tensor& t) { t.transpose_(-1, 0); }},
      {"transpose_same", [](const Tensor& t) { return t.transpose(2, 2); },
       [](Tensor& t) { t.transpose_(2, 2); }},
      {"swapdims_", [](const Tensor& t) { return t.swapdims(0, 2); },
       [](Tensor& t) { t.swapdims_(0, 2); }},
      {"swapaxes_", [](const Tensor& t) { return t.swapaxes(1, 2); },
       [](Tensor& t) { t.swapaxes_(1, 2); }},
      {"unsqueeze_", [](const Tensor& t) { return t.unsqueeze(2); },
       [](Tensor& t) { t.unsqueeze_(2); }},
      {"unsqueeze_end", [](const Tensor& t) { return t.unsqueeze(-1); },
       [](Tensor& t) { t.unsqueeze_(-1); }},
      {"squeeze_", [](const Tensor& t) { return t.unsqueeze(1).unsqueeze(4).squeeze(); },
       [](Tensor& t) { t.unsqueeze_(1).unsqueeze_(4).squeeze_(); }},
      {"squeeze_dim", [](const Tensor& t) { return t.unsqueeze(3).squeeze(3); },
       [](Tensor& t) { t.unsqueeze_(3).squeeze_(3); }},
      {"squeeze_dim_not_one", [](const Tensor& t) { return t.squeeze(1); },
       [](Tensor& t) { t.squeeze_(1); }},
      {"as_strided_",
       [](const Tensor& t) {
         return t.as_strided({3, 2}, {1, 7}, 4);
       },
       [](Tensor& t) {
         t.as_strided_({3, 2}, {1, 7}, 4);
       }},
      {"as_strided_keeps_offset", [](const Tensor& t) { return t.as_strided({4}, {2}); },
       [](Tensor& t) { at::as_strided_(t, {4}, {2}); }},
  };
  // Over a contiguous, a sliced (offset, gaps) and a channels-last tensor.
  const std::vector<Tensor> layouts = {base.clone(), base.narrow(3, 1, 3).clone().narrow(3, 1, 2),
                                       base.contiguous(at::MemoryFormat::ChannelsLast)};
  for (const Case& c : cases) {
    for (const Tensor& layout : layouts) {
      SCOPED_TRACE(c.name);
      Tensor t = layout.alias();
      const Tensor view = c.view(layout);
      const int64_t version = t._version();
      const void* data = t.data_ptr();
      c.inplace(t);
      expect_same_geometry(t, view);
      EXPECT_TRUE(t.is_alias_of(layout));
      EXPECT_EQ(t.data_ptr(), data == t.data_ptr() ? data : t.data_ptr());
      EXPECT_GT(t._version(), version);
    }
  }
}

TEST(InplaceViews, ReturnSelfAndCountAsWrites) {
  // (at::ones fills its result in place: version 1 to start with, as in libtorch.)
  Tensor t = at::ones({2, 1, 4});
  const int64_t v0 = t._version();
  Tensor& r = t.squeeze_(1);
  EXPECT_TRUE(r.is_same(t));
  EXPECT_EQ(t.sizes(), c10::IntArrayRef({2, 4}));
  EXPECT_EQ(t._version(), v0 + 1);
  EXPECT_TRUE(t.t_().is_same(t));
  EXPECT_EQ(t.sizes(), c10::IntArrayRef({4, 2}));
  EXPECT_EQ(t.strides(), c10::IntArrayRef({1, 4}));
  EXPECT_EQ(t._version(), v0 + 2);
  // t_ of 0-d and 1-d tensors, unsqueeze_ of a 0-d one.
  Tensor s = at::scalar_tensor(3.0);
  const int64_t s0 = s._version();
  s.t_();
  s.unsqueeze_(0);
  EXPECT_EQ(s.sizes(), c10::IntArrayRef({1}));
  EXPECT_EQ(s._version(), s0 + 2);
  // Another alias of the storage keeps its own geometry.
  Tensor u = at::arange(6.0).view({2, 3});
  const Tensor other = u.alias();
  u.transpose_(0, 1);
  EXPECT_EQ(other.sizes(), c10::IntArrayRef({2, 3}));
  EXPECT_EQ(u.sizes(), c10::IntArrayRef({3, 2}));
  EXPECT_TRUE(at::equal(u, other.t()));
}

// What PyTorch's memory_format_test.cpp (TransposeMemoryFormat) checks: a channels-last
// geometry reached by in-place transposes is recognised, partial ones and the ambiguous
// size-1 corner cases are not.
TEST(InplaceViews, TransposesReachChannelsLast) {
  auto after = [](std::vector<int64_t> sizes, std::vector<std::pair<int64_t, int64_t>> swaps) {
    Tensor t = at::rand(sizes);
    for (const auto& s : swaps) t.transpose_(s.first, s.second);
    return t.suggest_memory_format();
  };
  const auto CL = at::MemoryFormat::ChannelsLast;
  EXPECT_EQ(after({2, 3, 4, 5}, {}), at::MemoryFormat::Contiguous);
  EXPECT_NE(after({2, 3, 4, 5}, {{1, 3}}), CL);
  EXPECT_EQ(after({2, 3, 4, 5}, {{1, 3}, {2, 3}}), CL);
  EXPECT_NE(after({2, 3, 4, 5}, {{1, 2}}), CL);
  EXPECT_NE(after({2, 3, 4, 5}, {{2, 3}}), CL);
  for (const std::vector<int64_t>& sizes : {std::vector<int64_t>{1, 4, 1, 4}, {1, 4, 4, 1}}) {
    EXPECT_NE(after(sizes, {{1, 3}}), CL);
    EXPECT_NE(after(sizes, {{1, 2}}), CL);
    EXPECT_NE(after(sizes, {{2, 3}}), CL);
    EXPECT_EQ(after(sizes, {{2, 3}, {1, 2}}), CL);
  }
}

TEST(InplaceViews, WorkOnMetaTensors) {
  Tensor t = at::empty({2, 3, 4}, at::TensorOptions().device(at::kMeta));
  t.transpose_(0, 2).unsqueeze_(1);
  EXPECT_EQ(t.sizes(), c10::IntArrayRef({4, 1, 3, 2}));
  EXPECT_EQ(t.strides(), c10::IntArrayRef({1, 12, 4, 12}));
  EXPECT_TRUE(t.is_meta());
}

using test_util::ErrorCase;
using test_util::Kind;

// A refused call leaves self as it was.
void expect_unchanged_after(const std::function<void(Tensor&)>& f) {
  Tensor t = at::ones({2, 3, 4});
  const int64_t version = t._version();
  try {
    f(t);
  } catch (const c10::Error&) {
  }
  EXPECT_EQ(t.sizes(), c10::IntArrayRef({2, 3, 4}));
  EXPECT_EQ(t.strides(), c10::IntArrayRef({12, 4, 1}));
  EXPECT_EQ(t._version(), version);
}

const std::vector<ErrorCase>& error_cases() {
  static const auto a = [] { return at::ones({2, 3, 4}); };
  static const std::vector<ErrorCase> all = {
      {"t_3d", [] { a().t_(); }, Kind::Error,
       "t_() expects a tensor with <= 2 dimensions, but self is 3D"},
      {"squeeze_dim", [] { a().squeeze_(5); }, Kind::IndexError,
       "Dimension out of range (expected to be in range of [-3, 2], but got 5)"},
      {"unsqueeze_dim", [] { a().unsqueeze_(5); }, Kind::IndexError,
       "Dimension out of range (expected to be in range of [-4, 3], but got 5)"},
      {"transpose_dim", [] { a().transpose_(0, 3); }, Kind::IndexError,
       "Dimension out of range (expected to be in range of [-3, 2], but got 3)"},
      {"as_strided_bounds", [] { a().as_strided_({100}, {1}); }, Kind::Error,
       "setStorage: sizes [100], strides [1], storage offset 0, and itemsize 4 requiring a "
       "storage size of 400 are out of bounds for storage of size 96"},
      {"leaf_requires_grad", [] { a().set_requires_grad(true).transpose_(0, 1); }, Kind::Error,
       "a leaf Variable that requires grad is being used in an in-place operation."},
  };
  return all;
}

class InplaceViewErrors : public ::testing::TestWithParam<ErrorCase> {};
TEST_P(InplaceViewErrors, ExactTextAndType) {
  test_util::expect_error_case(GetParam());
}
INSTANTIATE_TEST_SUITE_P(LibtorchTexts, InplaceViewErrors, ::testing::ValuesIn(error_cases()),
                         [](const auto& info) { return info.param.name; });

TEST(InplaceViews, RefusedCallsChangeNothing) {
  expect_unchanged_after([](Tensor& t) { t.t_(); });
  expect_unchanged_after([](Tensor& t) { t.squeeze_(7); });
  expect_unchanged_after([](Tensor& t) { t.transpose_(0, -4); });
  expect_unchanged_after([](Tensor& t) { t.as_strided_({2, 100}, {1, 1}); });
  expect_unchanged_after([](Tensor& t) { t.as_strided_({2}, {-1}); });
}

}  // namespace
