// Node post hooks (libtorch's FunctionPostHook) and the engine's final callbacks
// (Engine::queue_callback): what DistributedDataParallel is built on. A post hook on a leaf's
// AccumulateGrad sees the .grad() already accumulated; one on another node may replace its
// outputs; callbacks queued during backward run once the whole graph has run.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "aten/ATen.h"
#include "aten/autograd/AutogradMeta.h"
#include "aten/autograd/Engine.h"
#include "aten/autograd/autograd.h"
#include "tests/TestUtils.h"

namespace {

using torch::autograd::FunctionPostHook;
using torch::autograd::variable_list;

// A post hook made of a function.
struct Lambda final : FunctionPostHook {
  using Fn = std::function<variable_list(const variable_list&, const variable_list&)>;
  explicit Lambda(Fn fn) : fn(std::move(fn)) {}
  variable_list operator()(const variable_list& outputs, const variable_list& inputs) override {
    return fn(outputs, inputs);
  }
  Fn fn;
};

TEST(PostHooks, OnAccumulateGradTheGradIsAlreadyThere) {
  at::Tensor w = at::ones({3}).requires_grad_();
  auto accumulator = torch::autograd::impl::grad_accumulator(w);
  std::vector<std::string> seen;
  const uintptr_t first = accumulator->add_post_hook(
      std::make_unique<Lambda>([&](const variable_list& outputs, const variable_list& inputs) {
        EXPECT_TRUE(outputs.empty());
        EXPECT_EQ(inputs.size(), 1u);
        EXPECT_TRUE(at::equal(inputs[0], at::full({3}, 2.0)));  // the gradient given
        EXPECT_TRUE(at::equal(w.grad(), at::full({3}, 2.0 * (seen.size() / 2 + 1))));
        seen.push_back("first");
        return outputs;
      }));
  accumulator->add_post_hook(
      std::make_unique<Lambda>([&](const variable_list& outputs, const variable_list&) {
        seen.push_back("second");
        return outputs;
      }));
  EXPECT_EQ(accumulator->post_hooks().size(), 2u);
  (w * 2).sum().backward();
  (w * 2).sum().backward();  // accumulates: the hook sees 4
  EXPECT_EQ(seen, (std::vector<std::string>{"first", "second", "first", "second"}));
  EXPECT_TRUE(accumulator->del_post_hook(first));
  EXPECT_FALSE(accumulator->del_post_hook(first));
  (w * 2).sum().backward();
  EXPECT_EQ(seen.back(), "second");
  EXPECT_EQ(seen.size(), 5u);
}

TEST(PostHooks, APostHookMayReplaceTheOutputs) {
  at::Tensor x = at::ones({2}).requires_grad_();
  at::Tensor y = x * 3;
  y.grad_fn()->add_post_hook(
      std::make_unique<Lambda>([](const variable_list& outputs, const variable_list&) {
        variable_list doubled;
        for (const auto& g : outputs) doubled.push_back(g * 2);
        return doubled;
      }));
  y.sum().backward();
  EXPECT_TRUE(at::equal(x.grad(), at::full({2}, 6.0)));
}

TEST(FinalCallbacks, RunAfterTheWholeGraphAndMayQueueMore) {
  auto& engine = torch::autograd::Engine::get_default_engine();
  at::Tensor a = at::ones({2}).requires_grad_();
  at::Tensor b = at::ones({2}).requires_grad_();
  std::vector<std::string> order;
  a.register_hook([&](const at::Tensor&) {
    order.push_back("a's hook");
    engine.queue_callback([&] {
      // Every leaf has its gradient by now.
      EXPECT_TRUE(a.grad().defined());
      EXPECT_TRUE(b.grad().defined());
      order.push_back("callback");
      engine.queue_callback([&] { order.push_back("queued by the callback"); });
    });
  });
  b.register_hook([&](const at::Tensor&) { order.push_back("b's hook"); });
  (a * 2 + b * (a * 3)).sum().backward();
  ASSERT_EQ(order.size(), 4u);
  EXPECT_EQ(order[2], "callback");
  EXPECT_EQ(order[3], "queued by the callback");
  EXPECT_EQ(test_util::error_of([&] { engine.queue_callback([] {}); }),
            "Final callbacks can only be installed during backward pass.");
}

}  // namespace
