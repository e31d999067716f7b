// Tensor::register_hook / remove_hook on leaves and non-leaves, and create_graph: second
// derivatives of the elementwise ops and mm, checked against finite differences of the first
// derivative (gradgradcheck).

#include <gtest/gtest.h>

#include <ostream>
#include <vector>

#include "GradCheck.h"
#include "aten/autograd/GradMode.h"

namespace {

using miniaten_test::Fn;
using miniaten_test::gradcheck;
using miniaten_test::leaf;
using miniaten_test::TensorList;

// ---- register_hook ------------------------------------------------------------------------------

TEST(RegisterHook, LeafHookReplacesTheGradientBeforeItIsAccumulated) {
  at::Tensor x = leaf({3});
  at::Tensor seen;
  x.register_hook([&](at::Tensor grad) { seen = grad.clone(); });  // observes
  x.register_hook([](at::Tensor grad) { return grad * 10; });      // replaces
  (x * 2).sum().backward();
  EXPECT_TRUE(at::allclose(seen, at::full({3}, 2.0, at::kDouble)));
  EXPECT_TRUE(at::allclose(x.grad(), at::full({3}, 20.0, at::kDouble)));
}

TEST(RegisterHook, NonLeafHookChangesWhatFlowsOn) {
  at::Tensor x = leaf({2, 2});
  at::Tensor y = x * 3;
  int calls = 0;
  const unsigned pos = y.register_hook([&](at::Tensor grad) {
    ++calls;
    return grad.neg();
  });
  EXPECT_EQ(pos, 0u);
  y.sum().backward(at::Tensor(), /*retain_graph=*/true);
  EXPECT_EQ(calls, 1);
  EXPECT_TRUE(at::allclose(x.grad(), at::full({2, 2}, -3.0, at::kDouble)));
  // Removed: the next backward is plain.
  y.remove_hook(pos);
  x.mutable_grad().reset();
  y.sum().backward();
  EXPECT_EQ(calls, 1);
  EXPECT_TRUE(at::allclose(x.grad(), at::full({2, 2}, 3.0, at::kDouble)));
}

TEST(RegisterHook, RetainGradSeesTheHookedGradient) {
  at::Tensor x = leaf({2});
  at::Tensor y = x.exp();
  y.register_hook([](at::Tensor grad) { return grad * 2; });
  y.retain_grad();
  y.sum().backward();
  EXPECT_TRUE(at::allclose(y.grad(), at::full({2}, 2.0, at::kDouble)));
  EXPECT_TRUE(at::allclose(x.grad(), x.detach().exp() * 2));
}

TEST(RegisterHook, Errors) {
  const at::Tensor plain = at::ones({2});
  try {
    plain.register_hook([](at::Tensor) {});
    FAIL();
  } catch (const c10::Error& e) {
    EXPECT_EQ(std::string(e.what_without_backtrace()),
              "cannot register a hook on a variable that doesn't require gradient");
  }
  at::Tensor x = leaf({2});
  EXPECT_THROW(x.remove_hook(3), c10::Error);
}

// ---- create_graph -------------------------------------------------------------------------------

// The first derivative of fn (with create_graph), weighted by v, as a function of the inputs:
// gradcheck of it checks the second derivative.
Fn first_derivative(Fn fn) {
  return [fn](const TensorList& in) {
    at::AutoGradMode enable(true);  // gradcheck's finite differences run it under no_grad
    const at::Tensor out = fn(in);
    const at::Tensor v =
        at::arange(out.numel(), at::kDouble).div(out.numel()).add(0.5).view(out.sizes());
    TensorList wrt;
    for (const at::Tensor& t : in) {
      if (t.requires_grad()) wrt.push_back(t);
    }
    TensorList grads = torch::autograd::grad({out}, wrt, {v}, /*retain_graph=*/true,
                                             /*create_graph=*/true);
    std::vector<at::Tensor> flat;
    for (const at::Tensor& g : grads) flat.push_back(g.reshape({-1}));
    return at::cat(flat);
  };
}

TEST(CreateGraph, SecondDerivativeOfCubeIsSixX) {
  at::Tensor x = leaf({3});
  at::Tensor y = (x * x * x).sum();
  TensorList g = torch::autograd::grad({y}, {x}, {}, c10::nullopt, /*create_graph=*/true);
  EXPECT_TRUE(g[0].requires_grad());
  EXPECT_TRUE(at::allclose(g[0], x.detach().pow(2) * 3));
  g[0].sum().backward();
  EXPECT_TRUE(at::allclose(x.grad(), x.detach() * 6));
}

struct SecondOrderCase {
  const char* label;
  std::function<TensorList()> inputs;
  Fn fn;
};

std::ostream& operator<<(std::ostream& os, const SecondOrderCase& c) {
  return os << c.label;
}

class SecondDerivative : public ::testing::TestWithParam<SecondOrderCase> {};
TEST_P(SecondDerivative, MatchesFiniteDifferencesOfTheFirst) {
  const SecondOrderCase& c = GetParam();
  EXPECT_TRUE(gradcheck(first_derivative(c.fn), c.inputs()));
}

const SecondOrderCase kSecondOrder[] = {
    {"mul",
     [] {
       return TensorList{leaf({2, 3}), leaf({2, 3}, 1.0)};
     },
     [](const TensorList& in) { return in[0] * in[1] * in[0]; }},
    {"div",
     [] {
       return TensorList{leaf({4}), leaf({4}, 1.0)};
     },
     [](const TensorList& in) { return in[0] / in[1]; }},
    {"sin_cos", [] { return TensorList{leaf({5})}; },
     [](const TensorList& in) { return in[0].sin() * in[0].cos(); }},
    {"exp_saved_output", [] { return TensorList{leaf({4})}; },
     [](const TensorList& in) { return in[0].exp(); }},
    {"tanh_sigmoid", [] { return TensorList{leaf({4})}; },
     [](const TensorList& in) { return in[0].tanh() + in[0].sigmoid(); }},
    {"relu", [] { return TensorList{leaf({4}, -0.15)}; },
     [](const TensorList& in) { return in[0].relu() * in[0]; }},
    {"pow_sqrt_log", [] { return TensorList{leaf({4})}; },
     [](const TensorList& in) { return in[0].pow(3) + in[0].sqrt() + in[0].log(); }},
    {"mm",
     [] {
       return TensorList{leaf({2, 3}), leaf({3, 2}, 1.0)};
     },
     [](const TensorList& in) { return in[0].mm(in[1]).pow(2); }},
    {"mm_transposed",
     [] {
       return TensorList{leaf({3, 2}), leaf({3, 2}, 1.0)};
     },
     [](const TensorList& in) { return in[0].t().mm(in[1]).exp(); }},
    {"sum_mean_broadcast",
     [] {
       return TensorList{leaf({2, 3}), leaf({3}, 1.0)};
     },
     [](const TensorList& in) { return (in[0] * in[1]).pow(2).mean(0); }},
};
INSTANTIATE_TEST_SUITE_P(Ops, SecondDerivative, ::testing::ValuesIn(kSecondOrder),
                         [](const ::testing::TestParamInfo<SecondOrderCase>& info) {
                           return std::string(info.param.label);
                         });

// relu's second derivative goes through threshold_backward's own (ThresholdBackwardBackward0):
// libtorch 1.13 gives x.grad = [2, 0] here.
TEST(CreateGraph, ThroughRelu) {
  at::Tensor x = at::tensor({0.5, -1.0}, at::kDouble).requires_grad_();
  at::Tensor y = x.relu().pow(2).sum();
  TensorList g = torch::autograd::grad({y}, {x}, {}, c10::nullopt, /*create_graph=*/true);
  g[0].sum().backward();
  EXPECT_TRUE(at::allclose(x.grad(), at::tensor({2.0, 0.0}, at::kDouble)));
}

// A formula that calls a backward operator without a derivative yet says so at that call.
TEST(CreateGraph, ThroughSoftmaxSaysWhatIsMissing) {
  at::Tensor x = leaf({3});
  at::Tensor y = x.softmax(0).pow(2).sum();
  try {
    torch::autograd::grad({y}, {x}, {}, c10::nullopt, /*create_graph=*/true);
    FAIL();
  } catch (const c10::Error& e) {
    EXPECT_EQ(std::string(e.what_without_backtrace()),
              "derivative for aten::_softmax_backward_data is not implemented");
  }
}

TEST(CreateGraph, TheGradientsNodeIsLibtorchs) {
  at::Tensor x = at::tensor({0.5, 1.0}, at::kDouble).requires_grad_();
  TensorList g = torch::autograd::grad({(x * x * x).sum()}, {x}, {}, c10::nullopt, true);
  EXPECT_EQ(g[0].grad_fn()->name(), "AddBackward0");  // as libtorch 1.13 names it
  EXPECT_TRUE(at::allclose(g[0], at::tensor({0.75, 3.0}, at::kDouble)));
}

}  // namespace
