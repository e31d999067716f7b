// Gradient layouts and view tracking, as libtorch 1.13 gives them: a leaf's first gradient is
// laid out like the leaf (Note [Gradient layout contract] in AccumulateGrad.h); views record
// their root base and share its version counter (Note [Views and in-place]).

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "tests/TestUtils.h"
#include "GradCheck.h"

namespace {

using IntList = std::vector<int64_t>;
using miniaten_test::gradcheck;
using miniaten_test::leaf;
using miniaten_test::TensorList;

IntList grad_strides(const at::Tensor& t) {
  return t.grad().strides().vec();
}

TEST(GradLayout, FollowsTheLeaf) {
  // The gradient of a channels-last contiguous() flows back in the input's layout.
  auto nchw = torch::ones({2, 3, 4, 5}, torch::requires_grad());
  nchw.contiguous(at::MemoryFormat::ChannelsLast).sum().backward();
  EXPECT_EQ(grad_strides(nchw), (IntList{60, 20, 5, 1}));

  auto nhwc = torch::ones({2, 3, 4, 5}).contiguous(at::MemoryFormat::ChannelsLast);
  nhwc.requires_grad_();
  nhwc.contiguous().sum().backward();
  EXPECT_EQ(grad_strides(nhwc), (IntList{60, 1, 15, 3}));

  auto nhwc2 = torch::ones({2, 3, 4, 5}).contiguous(at::MemoryFormat::ChannelsLast);
  nhwc2.requires_grad_();
  at::mul(nhwc2.contiguous(), 2).backward(torch::ones({2, 3, 4, 5}));
  EXPECT_EQ(grad_strides(nhwc2), (IntList{60, 1, 15, 3}));

  auto transposed = torch::ones({3, 2}).t();
  transposed.requires_grad_();
  at::mul(transposed, 2).sum().backward();
  EXPECT_EQ(grad_strides(transposed), (IntList{1, 2}));
}

TEST(GradLayout, ContiguousForLeavesThatAreNotDense) {
  auto sliced = torch::ones({4, 6}).slice(1, 0, 3);
  sliced.requires_grad_();
  at::mul(sliced, 2).sum().backward();
  EXPECT_EQ(sliced.grad().sizes().vec(), (IntList{4, 3}));
  EXPECT_EQ(grad_strides(sliced), (IntList{3, 1}));

  auto expanded = torch::ones({1, 3}).expand({2, 3});
  expanded.requires_grad_();
  at::mul(expanded, 2).sum().backward();
  EXPECT_EQ(grad_strides(expanded), (IntList{3, 1}));
}

TEST(GradLayout, CopiesAGradientSomeoneElseHolds) {
  auto x = torch::ones({2, 3}, torch::requires_grad());
  auto g = torch::ones({3, 2}).t();  // held by the caller, transposed
  x.clone().backward(g);
  EXPECT_EQ(grad_strides(x), (IntList{3, 1}));
  EXPECT_FALSE(x.grad().is_alias_of(g));
  auto y = torch::ones({2, 3}, torch::requires_grad());
  auto h = torch::ones({2, 3});
  y.clone().backward(h);
  EXPECT_FALSE(y.grad().is_alias_of(h));  // h is still the caller's
}

TEST(ViewTracking, BaseAndVersionCounter) {
  auto base = torch::ones({2, 3});
  EXPECT_FALSE(base.is_view());
  auto v = base.view({6});
  EXPECT_TRUE(v.is_view());
  EXPECT_TRUE(v._base().is_same(base));
  auto vv = v.select(0, 1);
  EXPECT_TRUE(vv._base().is_same(base));  // the root base, not v
  EXPECT_FALSE(base.detach().is_view());
  EXPECT_TRUE(torch::ones({2}, at::kLong).view({2}).is_view());
  const int64_t before = base._version();
  vv.add_(1);
  EXPECT_EQ(base._version(), before + 1);
  EXPECT_EQ(v._version(), base._version());
  try {
    base._base();
    FAIL() << "expected an error";
  } catch (const c10::Error& e) {  // libtorch 1.13: std::runtime_error, the same text
    EXPECT_STREQ(e.what_without_backtrace(), "Can't get base of non-view Tensor");
  }
}

TEST(ViewTracking, InplaceThroughAViewRewritesTheBaseHistory) {
  auto x = torch::ones({2, 3}, torch::requires_grad());
  auto y = x.clone();
  auto v = y.select(0, 0);
  EXPECT_EQ(v.grad_fn()->name(), "SelectBackward0");
  v.mul_(2);
  EXPECT_EQ(v.grad_fn()->name(), "AsStridedBackward0");
  EXPECT_EQ(y.grad_fn()->name(), "torch::autograd::CopySlices");
  y.sum().backward();
  EXPECT_TRUE(
      miniaten_test::same_values(x.grad(), at::tensor({2.f, 2.f, 2.f, 1.f, 1.f, 1.f}).view({2, 3})));
}

TEST(ViewTracking, InplaceOnTheBaseRegeneratesTheView) {
  auto x = torch::ones({2, 3}, torch::requires_grad());
  auto y = x.clone();
  auto v = y.select(1, 0);
  y.mul_(3);
  EXPECT_EQ(v.grad_fn()->name(), "AsStridedBackward0");
  EXPECT_EQ(y.grad_fn()->name(), "MulBackward1");
  v.sum().backward();
  EXPECT_TRUE(
      miniaten_test::same_values(x.grad(), at::tensor({3.f, 0.f, 0.f, 3.f, 0.f, 0.f}).view({2, 3})));
}

TEST(ViewTracking, ViewOfATensorThatLaterRequiresGrad) {
  auto base = torch::ones({2, 3});
  auto v = base.view({6});
  EXPECT_FALSE(v.requires_grad());
  auto x = torch::ones({2, 3}, torch::requires_grad());
  base.copy_(x);  // the base joins the graph: the view follows
  EXPECT_TRUE(v.requires_grad());
  EXPECT_EQ(v.grad_fn()->name(), "AsStridedBackward0");
  at::mul(v, 2).sum().backward();
  EXPECT_TRUE(miniaten_test::same_values(x.grad(), at::full({2, 3}, 2.0)));
}

// reshape as libtorch 1.13 splits it: a view through _reshape_alias when computeStride finds
// strides, else _unsafe_view of a contiguous clone, which is no view at all.
TEST(ViewTracking, ReshapeAliasOrUnsafeView) {
  auto x = torch::ones({2, 3}, torch::requires_grad());
  at::Tensor alias = x.reshape({6});
  EXPECT_EQ(alias.grad_fn()->name(), "ReshapeAliasBackward0");
  EXPECT_TRUE(alias.is_view());
  EXPECT_TRUE(alias._base().is_same(x));
  EXPECT_EQ(x.reshape({2, 3}).grad_fn()->name(), "ReshapeAliasBackward0");

  at::Tensor copy = x.t().reshape({6});
  EXPECT_EQ(copy.grad_fn()->name(), "UnsafeViewBackward0");
  EXPECT_FALSE(copy.is_view());
  EXPECT_FALSE(copy.is_alias_of(x));
  EXPECT_EQ(copy.strides().vec(), (IntList{1}));
  EXPECT_EQ(x.t().flatten().grad_fn()->name(), "UnsafeViewBackward0");

  copy.sum().backward();
  EXPECT_EQ(x.grad().sizes().vec(), (IntList{2, 3}));
  EXPECT_EQ(x.grad().sum().item().toDouble(), 6.0);

  // Without grad the same split shows in is_view().
  auto y = torch::ones({2, 3});
  EXPECT_TRUE(y.reshape({6}).is_view());
  EXPECT_FALSE(y.t().reshape({6}).is_view());
  EXPECT_EQ(y.t().reshape({6})._version(), 0);
}

// split, split_with_sizes, chunk and unbind: one node owns all the pieces (output i is piece i),
// every piece is a view of the input, and none may be written in place while tracked. The
// texts are libtorch 1.13's.
const char* const kMultiOutput =
    " is a view and is being modified inplace. This view is the output of a function that "
    "returns multiple views. Such functions do not allow the output views to be modified "
    "inplace. You should replace the inplace operation by an out-of-place one.";

TEST(ViewTracking, MultiOutputViews) {
  auto x = torch::ones({4, 3}, torch::requires_grad());
  std::vector<at::Tensor> pieces = x.split(2);
  ASSERT_EQ(pieces.size(), 2u);
  EXPECT_EQ(pieces[0].grad_fn()->name(), "SplitBackward0");
  EXPECT_EQ(pieces[0].grad_fn(), pieces[1].grad_fn());
  EXPECT_EQ(pieces[1].output_nr(), 1u);
  EXPECT_TRUE(pieces[1].is_view());
  EXPECT_TRUE(pieces[1]._base().is_same(x));
  EXPECT_EQ(x.split_with_sizes({1, 3})[1].grad_fn()->name(), "SplitWithSizesBackward0");
  EXPECT_EQ(x.chunk(2)[0].grad_fn()->name(), "SplitBackward0");
  EXPECT_EQ(x.split({3, 1})[0].grad_fn()->name(), "SplitWithSizesBackward0");
  EXPECT_EQ(x.unbind(1)[2].grad_fn()->name(), "UnbindBackward0");

  // Gradients: pieces that are not used contribute zeros.
  (pieces[1] * 3).sum().backward();
  const at::Tensor g = x.grad().contiguous();
  EXPECT_EQ(std::vector<float>(g.data_ptr<float>(), g.data_ptr<float>() + g.numel()),
            (std::vector<float>{0, 0, 0, 0, 0, 0, 3, 3, 3, 3, 3, 3}));
  EXPECT_TRUE(gradcheck([](const TensorList& in) { return in[0].split_with_sizes({1, 2}, 1)[1]; },
                        {leaf({2, 3})}));
  EXPECT_TRUE(gradcheck(
      [](const TensorList& in) {
        auto rows = in[0].unbind(0);
        return rows[0] * 2 + rows[2];
      },
      {leaf({3, 2})}));

  // No in-place writes into a tracked piece, nor into a view of one.
  at::Tensor y = x.clone();
  std::vector<at::Tensor> parts = y.split(2);
  EXPECT_EQ(test_util::error_of([&] { parts[1].mul_(2); }),
            std::string("Output 1 of SplitBackward0") + kMultiOutput);
  EXPECT_EQ(test_util::error_of([&] { parts[0].view({-1}).mul_(2); }),
            std::string("Output 0 of ViewBackward0") + kMultiOutput);
  {
    torch::NoGradGuard no_grad;
    EXPECT_EQ(test_util::error_of([&] { parts[0].mul_(2); }), "no error");
  }
  // Nothing requires grad: nothing is tracked, the write goes through to the base.
  at::Tensor z = torch::ones({4, 3});
  std::vector<at::Tensor> columns = z.unbind(1);
  columns[2].add_(1);
  EXPECT_EQ(z.sum().item<float>(), 16.f);
  // ... unless the other operand requires grad: the piece has no node to name.
  EXPECT_EQ(test_util::error_of([&] { columns[2].add_(x.select(1, 0)); }),
            "A view was created in no_grad mode and is being modified inplace with grad mode "
            "enabled. This view is the output of a function that returns multiple views. Such "
            "functions do not allow the output views to be modified inplace. You should replace "
            "the inplace operation by an out-of-place one.");
}

}  // namespace
