// ProcessGroupGloo under threads (issue 25): three ranks played by threads, each keeping many
// collectives in flight on its two worker threads while another thread of the same rank waits
// on them, reads their futures and queries isCompleted(); then DistributedDataParallel's hooks
// and final callback over the same group. Gloo itself is not built with the sanitizers: see
// tools/sanitizers/tsan_gloo.supp for what TSan is told to ignore inside it, and why. Bounded by
// rounds (the ranks must agree on how many collectives they run, so not by time).

#include <gtest/gtest.h>

#include <deque>
#include <mutex>

#include "aten/ATen.h"
#include "distributed/c10d/DistributedDataParallel.h"
#include "tests/concurrency/StressTestUtil.h"
#include "tests/distributed/GlooTestUtils.h"

namespace {

using namespace std::chrono_literals;

TEST(GlooThreads, CollectivesInFlightAreWaitedOnFromAnotherThread) {
  // Bounded by rounds only: every rank must issue the same collectives, so none may stop early.
  stress::Outcomes seen;
  constexpr int kRounds = 40;
  gloo_test::run_ranks(3, [&](int rank, const gloo_test::PG& pg) {
    // The rank's thread issues; a second thread of the rank waits and checks, in order.
    std::mutex mu;
    std::deque<std::pair<c10::intrusive_ptr<c10d::Work>, at::Tensor>> in_flight;
    bool issued_all = false;  // under mu
    std::thread checker([&] {
      int checked = 0;
      while (checked < kRounds) {
        std::pair<c10::intrusive_ptr<c10d::Work>, at::Tensor> next;
        bool empty = false, done = false;
        {
          std::lock_guard<std::mutex> lock(mu);
          empty = in_flight.empty();
          done = issued_all;
          if (!empty) {
            next = in_flight.front();
            in_flight.pop_front();
          }
        }
        if (empty) {
          if (done) break;
          std::this_thread::yield();
          continue;
        }
        try {
          next.first->isCompleted();
          next.first->wait();
          const at::Tensor value = next.first->getFuture()->value().toTensorList()[0];
          seen.add(at::equal(value, next.second) ? "ok" : "wrong sum");
        } catch (const c10::Error& e) {
          seen.add(e.what_without_backtrace());
        }
        ++checked;
      }
    });
    for (int r = 0; r < kRounds; ++r) {
      std::vector<at::Tensor> t{at::full({257}, static_cast<double>(r + rank))};
      auto work = pg->allreduce(t);
      std::lock_guard<std::mutex> lock(mu);
      in_flight.emplace_back(work, at::full({257}, static_cast<double>(3 * r + 3)));
    }
    {
      std::lock_guard<std::mutex> lock(mu);
      issued_all = true;
    }
    checker.join();
    pg->barrier()->wait();
  });
  EXPECT_EQ(seen.count("ok"), 3 * kRounds) << seen.summary();
}

TEST(GlooThreads, DistributedDataParallelSteps) {
  gloo_test::run_ranks(2, [](int rank, const gloo_test::PG& pg) {
    std::vector<at::Tensor> weights;
    for (int i = 0; i < 4; ++i) weights.push_back(at::full({16, 16}, 0.01).requires_grad_());
    c10d::DDPOptions options;
    options.first_bucket_bytes = 1024;
    options.bucket_bytes = 1024;
    c10d::DistributedDataParallel ddp(weights, pg, options);
    for (int step = 0; step < 10; ++step) {
      at::Tensor h = at::full({2, 16}, rank + 1.0);
      for (const auto& w : weights) h = at::tanh(at::mm(h, w));
      h.sum().backward();
      for (const auto& w : weights) {
        // Averaged: the same on both ranks, so a sum over the ranks is twice it.
        std::vector<at::Tensor> sum{w.grad().clone()};
        pg->allreduce(sum)->wait();
        EXPECT_TRUE(at::allclose(sum[0], w.grad() * 2));
        w.mutable_grad().zero_();
      }
    }
  });
}

}  // namespace
