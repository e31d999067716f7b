#pragma once
// Helpers for the concurrency stress tests: a time budget, threads started together, and a
// record of what the threads saw.
//
//   stress::Deadline deadline(std::chrono::milliseconds(800));
//   stress::Outcomes seen;
//   stress::run_threads(3, [&](int t) {
//     for (int i = 0; i < kRounds && !deadline.passed(); ++i) seen.add(run_something(t, i));
//   });
//   EXPECT_EQ(seen.count("cpu"), seen.total());
//
// Note [Stress tests are bounded by rounds and by time]
// Every loop stops after a fixed number of rounds or when its Deadline passes, whichever comes
// first, so a test takes about a second on a 2-core machine under ThreadSanitizer (which slows
// the library down 5-15x) and much less without it. What a test asserts never depends on how
// many rounds ran: each round checks its own results, and totals are compared with counts the
// threads kept themselves.

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "c10/util/Exception.h"

namespace stress {

// When a test's loops stop; see Note [Stress tests are bounded by rounds and by time].
class Deadline {
 public:
  explicit Deadline(std::chrono::milliseconds budget) : end_(clock::now() + budget) {}
  bool passed() const { return clock::now() >= end_; }

 private:
  using clock = std::chrono::steady_clock;
  clock::time_point end_;
};

// Runs body(0) ... body(n - 1) on n threads, released together so they overlap, and joins them.
template <class F>
void run_threads(int n, const F& body) {
  std::atomic<int> ready{0};
  std::vector<std::thread> threads;
  threads.reserve(static_cast<size_t>(n));
  for (int t = 0; t < n; ++t) {
    threads.emplace_back([&, t] {
      ready.fetch_add(1);
      while (ready.load() < n) std::this_thread::yield();
      body(t);
    });
  }
  for (std::thread& thread : threads) thread.join();
}

// A thread-safe tally of named outcomes ("cpu", "autograd_override", an error text, ...).
class Outcomes {
 public:
  void add(const std::string& what) {
    std::lock_guard<std::mutex> lock(mu_);
    ++counts_[what];
  }
  int64_t count(const std::string& what) const {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = counts_.find(what);
    return it == counts_.end() ? 0 : it->second;
  }
  int64_t total() const {
    std::lock_guard<std::mutex> lock(mu_);
    int64_t n = 0;
    for (const auto& entry : counts_) n += entry.second;
    return n;
  }
  // "cpu: 120, autograd_override: 31" for failure messages.
  std::string summary() const {
    std::lock_guard<std::mutex> lock(mu_);
    std::string s;
    for (const auto& entry : counts_) {
      s += (s.empty() ? "" : ", ") + entry.first + ": " + std::to_string(entry.second);
    }
    return s;
  }

 private:
  mutable std::mutex mu_;
  std::map<std::string, int64_t> counts_;
};

// Drops warnings while alive (registrations that override a kernel warn, as in libtorch). The
// handler is process-wide, so one guard on the test's thread covers the threads it starts.
class QuietWarnings {
 public:
  QuietWarnings() : guard_(&quiet_) {}

 private:
  struct Quiet : c10::WarningHandler {
    void process(const c10::SourceLocation&, const std::string&, bool) override {}
  } quiet_;
  c10::WarningUtils::WarningHandlerGuard guard_;
};

}  // namespace stress
