// The engine and the tensor-level API: graph structure, accumulation, retain_graph, grad(),
// no_grad, detach, retain_grad, and libtorch's error texts (checked against libtorch 1.13).

#include <gtest/gtest.h>

#include <functional>
#include <stdexcept>
#include <string>

#include "GradCheck.h"
#include "tests/TestUtils.h"

namespace {

using miniaten_test::same_values;
using miniaten_test::gradcheck;

using test_util::error_of;

TEST(GradCheck, DetectsAWrongGradient) {
  auto x = miniaten_test::leaf({3});
  EXPECT_FALSE(gradcheck([](const auto& in) { return at::mul(in[0], in[0].detach()); }, {x}));
}

TEST(Graph, NodesEdgesAndSequenceNumbers) {
  auto x = torch::ones({2, 3}, torch::requires_grad());
  auto w = torch::ones({2, 3});
  EXPECT_TRUE(x.is_leaf());
  EXPECT_EQ(x.grad_fn(), nullptr);
  auto y = at::mul(x, w);
  auto z = y.clone();
  EXPECT_FALSE(z.is_leaf());
  EXPECT_EQ(z.output_nr(), 0);
  const auto& edges = y.grad_fn()->next_edges();
  ASSERT_EQ(edges.size(), 2u);
  EXPECT_EQ(edges[0].function->name(), "torch::autograd::AccumulateGrad");
  EXPECT_FALSE(edges[1].is_valid());  // w does not require grad
  EXPECT_EQ(edges[0].function->sequence_nr(), UINT64_MAX);
  EXPECT_GT(z.grad_fn()->sequence_nr(), y.grad_fn()->sequence_nr());
  EXPECT_EQ(z.grad_fn()->next_edges()[0].function, y.grad_fn());
  // One AccumulateGrad per leaf, shared by every use.
  EXPECT_EQ(x.clone().grad_fn()->next_edges()[0].function, edges[0].function);
}

TEST(Graph, NoNodesWithoutRequiresGrad) {
  auto a = torch::ones({2});
  EXPECT_FALSE(a.requires_grad());
  auto b = at::mul(a.clone(), 2);
  EXPECT_FALSE(b.requires_grad());
  EXPECT_EQ(b.grad_fn(), nullptr);
}

TEST(Backward, AccumulatesAcrossCallsAndPaths) {
  auto x = torch::ones({2, 3}, torch::requires_grad());
  // A diamond: x feeds y twice; its gradient arrives from both paths before AccumulateGrad runs.
  auto y = at::mul(x, 3);
  auto out = at::add(at::mul(y, y), y).sum();
  out.backward(/*gradient=*/{}, /*retain_graph=*/true);
  EXPECT_TRUE(same_values(x.grad(), at::full({2, 3}, 21.0)));  // (2*y + 1) * 3 with y = 3
  out.backward();
  EXPECT_TRUE(same_values(x.grad(), at::full({2, 3}, 42.0)));
  EXPECT_EQ(x.grad().grad_fn(), nullptr);
  EXPECT_FALSE(x.grad().requires_grad());
}

TEST(Backward, SecondBackwardThroughFreedGraph) {
  auto x = torch::ones({2, 3}, torch::requires_grad());
  auto y = at::mul(x, x).sum();
  y.backward();
  EXPECT_EQ(
      error_of([&] { y.backward(); }),
      "Trying to backward through the graph a second time (or directly access saved tensors "
      "after they have already been freed). Saved intermediate values of the graph are freed "
      "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
      "backward through the graph a second time or if you need to access saved tensors after "
      "calling backward.");
  // A graph that saved nothing can be run again, as in libtorch.
  auto z = x.clone().sum();
  z.backward();
  EXPECT_EQ(error_of([&] { z.backward(); }), "no error");
}

TEST(Backward, Errors) {
  auto x = torch::ones({2, 3}, torch::requires_grad());
  EXPECT_EQ(error_of([&] { at::mul(x, 2).backward(); }),
            "grad can be implicitly created only for scalar outputs");
  EXPECT_EQ(error_of([&] { torch::ones({2}).sum().backward(); }),
            "element 0 of tensors does not require grad and does not have a grad_fn");
  EXPECT_EQ(error_of([&] { at::mul(x, 2).backward(torch::ones({3})); }),
            "invalid gradient at index 0 - got [3] but expected shape compatible with [2, 3]");
}

TEST(Backward, GradientIsCastToTheInputDtype) {
  auto x = torch::ones({2, 3}, torch::requires_grad());
  at::mul(x, 2).backward(torch::ones({2, 3}, at::kDouble));
  EXPECT_EQ(x.grad().scalar_type(), at::kFloat);
  EXPECT_TRUE(same_values(x.grad(), at::full({2, 3}, 2.0)));
}

TEST(Backward, OnlyIntoInputs) {
  auto x = torch::ones({2}, torch::requires_grad());
  auto w = torch::ones({2}, torch::requires_grad());
  std::vector<at::Tensor> inputs{w};
  at::mul(x, w).sum().backward({}, c10::nullopt, false, inputs);
  EXPECT_FALSE(x.grad().defined());
  EXPECT_TRUE(same_values(w.grad(), torch::ones({2})));
}

TEST(Grad, ReturnsGradientsWithoutAccumulating) {
  auto x = torch::ones({2, 3}, torch::requires_grad());
  auto g = torch::autograd::grad({at::mul(x, 2).sum()}, {x});
  ASSERT_EQ(g.size(), 1u);
  EXPECT_TRUE(same_values(g[0], at::full({2, 3}, 2.0)));
  EXPECT_FALSE(x.grad().defined());
  // With respect to an intermediate result.
  auto y = at::mul(x, 3);
  auto gy = torch::autograd::grad({at::mul(y, y).sum()}, {y});
  EXPECT_TRUE(same_values(gy[0], at::full({2, 3}, 6.0)));
}

TEST(Grad, Errors) {
  auto x = torch::ones({2, 3}, torch::requires_grad());
  auto z = torch::ones({3}, torch::requires_grad());
  EXPECT_EQ(error_of([&] { torch::autograd::grad({at::mul(x, 2).sum()}, {torch::ones({2})}); }),
            "One of the differentiated Tensors does not require grad");
  EXPECT_EQ(error_of([&] { torch::autograd::grad({at::mul(x, 2).sum()}, {z}); }),
            "One of the differentiated Tensors appears to not have been used in the graph. Set "
            "allow_unused=True if this is the desired behavior.");
  auto g = torch::autograd::grad({at::mul(x, 2).sum()}, {z}, {}, c10::nullopt, false, true);
  EXPECT_FALSE(g[0].defined());
}

TEST(GradMode, NoGradGuardRecordsNothing) {
  auto x = torch::ones({2}, torch::requires_grad());
  EXPECT_TRUE(at::GradMode::is_enabled());
  {
    torch::NoGradGuard no_grad;
    EXPECT_FALSE(at::GradMode::is_enabled());
    auto y = at::mul(x, 2);
    EXPECT_FALSE(y.requires_grad());
    EXPECT_EQ(y.grad_fn(), nullptr);
  }
  EXPECT_TRUE(at::GradMode::is_enabled());
  EXPECT_TRUE(at::mul(x, 2).requires_grad());
}

TEST(RequiresGrad, SettersAndErrors) {
  EXPECT_EQ(error_of([] { torch::ones({2}, at::kLong).set_requires_grad(true); }),
            "Only Tensors of floating point and complex dtype can require gradients");
  auto x = torch::ones({2}, torch::requires_grad());
  EXPECT_EQ(error_of([&] { at::mul(x, 2).requires_grad_(false); }),
            "you can only change requires_grad flags of leaf variables. If you want to use a "
            "computed variable in a subgraph that doesn't require differentiation use var_no_grad "
            "= var.detach().");
  auto y = torch::ones({2});
  EXPECT_TRUE(y.requires_grad_().requires_grad());
  EXPECT_FALSE(y.requires_grad_(false).requires_grad());
}

TEST(Detach, SharesDataAndVersionButNotHistory) {
  auto x = torch::ones({2, 3}, torch::requires_grad());
  auto y = at::mul(x, 2);
  auto d = y.detach();
  EXPECT_FALSE(d.requires_grad());
  EXPECT_TRUE(d.is_leaf());
  EXPECT_FALSE(d.is_view());
  EXPECT_TRUE(d.is_alias_of(y));
  d.add_(1);
  EXPECT_EQ(y._version(), d._version());
  y.detach_();
  EXPECT_FALSE(y.requires_grad());
  EXPECT_EQ(y.grad_fn(), nullptr);
}

TEST(RetainGrad, KeepsANonLeafGradient) {
  auto x = torch::ones({2, 3}, torch::requires_grad());
  auto y = x.clone();
  EXPECT_FALSE(y.retains_grad());
  y.retain_grad();
  EXPECT_TRUE(y.retains_grad());
  at::mul(y, 3).sum().backward();
  EXPECT_TRUE(same_values(y.grad(), at::full({2, 3}, 3.0)));
  EXPECT_TRUE(same_values(x.grad(), at::full({2, 3}, 3.0)));
  auto z = x.clone();
  at::mul(z, 3).sum().backward();
  EXPECT_FALSE(z.grad().defined());
}

TEST(SavedVariable, ModifiedInPlaceErrors) {
  auto x = torch::ones({2, 3}, torch::requires_grad());
  auto a = at::mul(x, 2);
  auto b = at::mul(a, a);
  a.mul_(2);
  EXPECT_EQ(error_of([&] { b.sum().backward(); }),
            "one of the variables needed for gradient computation has been modified by an inplace "
            "operation: [CPUFloatType [2, 3]], which is output 0 of MulBackward1, is at version 1; "
            "expected version 0 instead. Hint: enable anomaly detection to find the operation "
            "that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True).");
  // A leaf at version 0 (at::ones is at version 1, as in libtorch: its fill_ is a write).
  auto plain = at::empty({2, 3});
  ASSERT_EQ(plain._version(), 0);
  auto c = at::mul(plain, x);
  plain.mul_(2);
  EXPECT_EQ(error_of([&] { c.sum().backward(); }),
            "one of the variables needed for gradient computation has been modified by an inplace "
            "operation: [CPUFloatType [2, 3]] is at version 1; expected version 0 instead. Hint: "
            "enable anomaly detection to find the operation that failed to compute its gradient, "
            "with torch.autograd.set_detect_anomaly(True).");
  auto e = x.exp();
  e.mul_(2);
  EXPECT_NE(error_of([&] { e.sum().backward(); }).find("which is output 0 of ExpBackward0"),
            std::string::npos);
}

TEST(Inplace, LeafErrors) {
  auto x = torch::ones({2, 3}, torch::requires_grad());
  EXPECT_EQ(error_of([&] { x.mul_(2); }),
            "a leaf Variable that requires grad is being used in an in-place operation.");
  EXPECT_EQ(error_of([&] { x.view({6}).mul_(2); }),
            "a view of a leaf Variable that requires grad is being used in an in-place operation.");
  {
    torch::NoGradGuard no_grad;
    EXPECT_EQ(error_of([&] { x.mul_(2); }), "no error");  // not tracked: allowed
  }
  at::Tensor v;
  {
    torch::NoGradGuard no_grad;
    v = x.clone().view({6});
  }
  EXPECT_EQ(error_of([&] { v.mul_(2); }), "no error");  // the clone did not require grad
  auto y = x.clone();
  {
    torch::NoGradGuard no_grad;
    v = y.view({6});
  }
  EXPECT_EQ(error_of([&] { v.mul_(2); }),
            "A view was created in no_grad mode and is being modified inplace with grad mode "
            "enabled. Given that this use case is ambiguous and error-prone, it is forbidden. You "
            "can clarify your code by moving both the view and the inplace either both inside the "
            "no_grad block (if you don't want the inplace to be tracked) or both outside (if you "
            "want the inplace to be tracked).");
  EXPECT_EQ(error_of([&] { x.view({6}).detach_(); }),
            "Can't detach views in-place. Use detach() instead. If you are using "
            "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set as "
            "True, gradients are views of DDP buckets, and hence detach_() cannot be called on "
            "these gradients. To fix this error, please refer to the Optimizer.zero_grad() "
            "function in torch/optim/optimizer.py as the solution.");
}

TEST(Inplace, APlainTensorJoinsTheGraph) {
  auto x = torch::ones({2, 3}, torch::requires_grad());
  auto w = torch::ones({2, 3});
  w.copy_(x);
  EXPECT_EQ(w.grad_fn()->name(), "torch::autograd::CopyBackwards");
  EXPECT_TRUE(w.requires_grad());
  EXPECT_FALSE(w.is_leaf());
  auto w2 = torch::ones({2, 3});
  w2.add_(x);
  EXPECT_EQ(w2.grad_fn()->name(), "AddBackward0");
}

}  // namespace

// Note [out= variants under autograd]: libtorch 1.13's texts, checked against it.
TEST(OutVariants, RefuseArgumentsThatRequireGrad) {
  auto x = torch::ones({2}, torch::requires_grad());
  at::Tensor out = at::empty({2});
  const std::string expected =
      "(): functions with out=... arguments don't support automatic differentiation, but one of "
      "the arguments requires grad.";
  EXPECT_EQ(error_of([&] { at::add_out(out, x, x); }), "add" + expected);
  EXPECT_EQ(error_of([&] { at::mul_out(out, x, at::ones({2})); }), "mul" + expected);
  EXPECT_EQ(error_of([&] { at::sum_out(out, x, {0}); }), "sum" + expected);
  // An out that requires grad counts too.
  auto out_grad = torch::empty({2}, torch::requires_grad());
  EXPECT_EQ(error_of([&] { at::add_out(out_grad, at::ones({2}), at::ones({2})); }),
            "add" + expected);
  // Nothing requires grad, or grad mode is off: it runs, and bumps out once.
  at::add_out(out, at::ones({2}), at::ones({2}));
  EXPECT_EQ(out._version(), 1);
  {
    torch::NoGradGuard no_grad;
    at::add_out(out, x, x);
  }
  EXPECT_FALSE(out.requires_grad());
  EXPECT_EQ(out._version(), 2);
  EXPECT_EQ(out.data_ptr<float>()[0], 2.f);
}
