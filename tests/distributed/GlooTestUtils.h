#pragma once
// Ranks of a Gloo process group as threads of the test process: each has its own
// ProcessGroupGloo (its own TCP device on loopback), and they meet through one HashStore.

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "distributed/c10d/HashStore.h"
#include "distributed/c10d/ProcessGroupGloo.h"

namespace gloo_test {

using PG = c10::intrusive_ptr<c10d::ProcessGroupGloo>;

inline c10::intrusive_ptr<c10d::ProcessGroupGloo::Options> loopback_options(
    std::chrono::milliseconds timeout) {
  auto opts = c10d::ProcessGroupGloo::Options::create(timeout);
  opts->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
  return opts;
}

// Runs body(rank, pg) for every rank of a world of `world`, each on its own thread; a rank's
// exception fails the test, naming the rank.
inline void run_ranks(int world, const std::function<void(int, const PG&)>& body,
                      std::chrono::milliseconds timeout = std::chrono::seconds(20)) {
  auto store = c10::make_intrusive<c10d::HashStore>();
  std::vector<std::string> failures(world);
  std::vector<std::thread> threads;
  for (int r = 0; r < world; ++r) {
    threads.emplace_back([&, r] {
      try {
        auto pg =
            c10::make_intrusive<c10d::ProcessGroupGloo>(store, r, world, loopback_options(timeout));
        body(r, pg);
      } catch (const c10::Error& e) {
        failures[r] = e.what_without_backtrace();
      } catch (const std::exception& e) {
        failures[r] = e.what();
      }
    });
  }
  for (auto& t : threads) t.join();
  for (int r = 0; r < world; ++r) EXPECT_EQ(failures[r], "") << "rank " << r;
}

}  // namespace gloo_test
