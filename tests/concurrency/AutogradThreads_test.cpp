// Autograd on several threads at once, each on graphs of its own: the forward records nodes
// (per-thread sequence numbers, per-thread free lists for nodes and AutogradMeta), backward runs
// on the calling thread (Note [Engine ordering]), and every gradient must be the hand-worked one.
// The threads share one tensor that does not require grad, read by every forward.

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

#include "aten/autograd/autograd.h"
#include "tests/concurrency/StressTestUtil.h"

namespace {

constexpr int64_t kN = 8;

// One forward: loss = sum(x * w + x * c) + sum(exp(x)) + 3 * sum(x[2:5]), with the hand-worked
// gradients dloss/dx = w + c + exp(x) + 3 on [2, 5), dloss/dw = x.
struct Graph {
  at::Tensor x, w, loss;
  std::vector<double> x_values, w_values;

  static Graph make(const at::Tensor& c, double x_offset, double w_value) {
    Graph g;
    g.x = at::add(at::mul(at::arange(kN, at::kFloat), 0.25), x_offset);
    g.x.set_requires_grad(true);
    g.w = at::full({kN}, w_value);
    g.w.set_requires_grad(true);
    at::Tensor linear = at::add(at::mul(g.x, g.w), at::mul(g.x, c)).sum();
    at::Tensor view_part = at::mul(g.x.narrow(0, 2, 3), 3).sum();  // a view in the graph
    g.loss = at::add(at::add(linear, at::exp(g.x).sum()), view_part);
    g.x_values = values(g.x);
    g.w_values = values(g.w);
    return g;
  }

  static std::vector<double> values(const at::Tensor& t) {
    at::Tensor c = t.detach().contiguous();
    const float* p = c.data_ptr<float>();
    return std::vector<double>(p, p + c.numel());
  }

  // What is wrong with the loss and the leaves' gradients after backward, or "".
  std::string check(const std::vector<double>& c_values) const {
    double loss_expected = 0;
    std::vector<double> dx(kN), dw(kN);
    for (int64_t i = 0; i < kN; ++i) {
      const double xi = x_values[i], wi = w_values[i], ci = c_values[i];
      const double in_view = (i >= 2 && i < 5) ? 3 : 0;
      loss_expected += xi * wi + xi * ci + std::exp(xi) + in_view * xi;
      dx[i] = wi + ci + std::exp(xi) + in_view;
      dw[i] = xi;
    }
    auto close = [](double got, double want) {
      return std::abs(got - want) <= 1e-5 * std::max(1.0, std::abs(want));
    };
    if (!close(loss.item<float>(), loss_expected)) return "loss";
    for (const at::Tensor* grad : {&x, &w}) {
      const at::Tensor& g = grad->grad();
      if (!g.defined() || g.sizes() != at::IntArrayRef({kN}) || g.requires_grad() ||
          g.grad_fn() != nullptr) {
        return "grad structure";
      }
    }
    const std::vector<double> gx = values(x.grad()), gw = values(w.grad());
    for (int64_t i = 0; i < kN; ++i) {
      if (!close(gx[i], dx[i])) return "x.grad[" + std::to_string(i) + "]";
      if (!close(gw[i], dw[i])) return "w.grad[" + std::to_string(i) + "]";
    }
    return "";
  }
};

at::Tensor shared_constant() {
  at::Tensor c = at::arange(kN, at::kFloat);  // c = 0, 1, ..., 7; never requires grad
  EXPECT_FALSE(c.requires_grad());
  return c;
}

TEST(AutogradThreads, IndependentGraphsOnEveryThread) {
  const at::Tensor c = shared_constant();
  const std::vector<double> c_values = Graph::values(c);
  stress::Deadline deadline(std::chrono::milliseconds(600));
  stress::Outcomes wrong;
  std::atomic<int64_t> backwards{0};
  stress::run_threads(4, [&](int t) {
    for (int round = 0; round < 150 && (round < 5 || !deadline.passed()); ++round) {
      Graph g = Graph::make(c, 0.5 * t, round % 7 + 1);
      if (g.loss.grad_fn() == nullptr || g.loss.grad_fn()->name() != "AddBackward0") {
        wrong.add("graph root");
      }
      g.loss.backward();
      const std::string what = g.check(c_values);
      if (!what.empty()) wrong.add(what);
      // grad() on a fresh graph of the same leaves returns the gradient and leaves .grad() alone.
      const at::Tensor before = g.x.grad().clone();
      const auto dx = torch::autograd::grad({at::mul(g.x, g.x).sum()}, {g.x});
      if (dx.size() != 1 || !at::equal(dx[0], at::mul(g.x.detach(), 2)) ||
          !at::equal(g.x.grad(), before)) {
        wrong.add("autograd::grad");
      }
      backwards++;
    }
  });
  EXPECT_EQ(wrong.total(), 0) << wrong.summary();
  EXPECT_GE(backwards.load(), 20);
  EXPECT_FALSE(c.requires_grad());
  EXPECT_FALSE(c.grad().defined());
}

// A bounded hand-off queue: producers wait while it is full, consumers while it is empty.
class GraphQueue {
 public:
  void push(Graph g) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return queue_.size() < 8; });
    queue_.push_back(std::move(g));
    cv_.notify_all();
  }
  // False once the producers are finished and the queue is drained.
  bool pop(Graph* g) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return !queue_.empty() || producers_left_ == 0; });
    if (queue_.empty()) return false;
    *g = std::move(queue_.front());
    queue_.pop_front();
    cv_.notify_all();
    return true;
  }
  void producer_done() {
    std::lock_guard<std::mutex> lock(mu_);
    --producers_left_;
    cv_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Graph> queue_;
  int producers_left_ = 2;
};

// Graphs recorded on one thread and run backward, then freed, on another: the nodes and the
// AutogradMeta blocks go back to a different thread's free list than the one they came from
// (Note [Per-thread free lists]).
TEST(AutogradThreads, GraphBuiltOnOneThreadRunsBackwardOnAnother) {
  const at::Tensor c = shared_constant();
  const std::vector<double> c_values = Graph::values(c);
  stress::Deadline deadline(std::chrono::milliseconds(500));
  GraphQueue queue;
  stress::Outcomes wrong;
  std::atomic<int64_t> made{0}, checked{0};
  stress::run_threads(4, [&](int t) {
    if (t < 2) {  // producers
      for (int round = 0; round < 150 && (round < 5 || !deadline.passed()); ++round) {
        queue.push(Graph::make(c, 0.5 * t, round % 5 + 1));
        made++;
      }
      queue.producer_done();
      return;
    }
    Graph g;
    while (queue.pop(&g)) {  // consumers
      g.loss.backward();
      const std::string what = g.check(c_values);
      if (!what.empty()) wrong.add(what);
      checked++;
      g = Graph();  // the whole graph is freed here, on the consumer
    }
  });
  EXPECT_EQ(wrong.total(), 0) << wrong.summary();
  EXPECT_EQ(checked.load(), made.load());
  EXPECT_GE(made.load(), 10);
}

}  // namespace
