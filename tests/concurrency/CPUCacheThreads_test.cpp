// The large-block CPU cache (c10/core/CPUCachingAllocator.h) under threads: tensors of 1 MiB
// and more made, written, checked and freed on several threads at once while another thread
// empties the cache and moves its limit. Every tensor must keep its own bytes (no block handed
// to two owners), and the cache's accounting must balance once everyone is done.

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <string>

#include "aten/ATen.h"
#include "c10/core/CPUCachingAllocator.h"
#include "tests/concurrency/StressTestUtil.h"

namespace {

TEST(CPUCacheThreads, TensorsKeepTheirBytesWhileTheCacheChurns) {
  const size_t saved_limit = c10::cpu::getCacheLimit();
  const auto before = c10::cpu::getCachingAllocatorStats();
  stress::Deadline deadline(std::chrono::milliseconds(800));
  stress::Outcomes seen;
  stress::run_threads(4, [&](int t) {
    for (int i = 0; i < 200 && !deadline.passed(); ++i) {
      if (t == 3) {  // the churner
        if (i % 2 == 0) {
          c10::cpu::emptyCache();
        } else {
          c10::cpu::setCacheLimit(size_t(i % 3) << 22);  // 0, 4 MiB, 8 MiB
        }
        seen.add("churn");
        continue;
      }
      // 1 to 3 MiB (+ a few pages per thread), so blocks of one size pass between threads.
      const int64_t numel = ((int64_t(i % 3) + 1) << 18) + t * 1024;
      at::Tensor a = at::full({numel}, static_cast<float>(t * 1000 + i));
      at::Tensor b = a.clone();
      const bool same = a.data_ptr() != b.data_ptr() &&
                        at::equal(b, at::full({numel}, static_cast<float>(t * 1000 + i)));
      seen.add(same ? "own bytes" : "bytes overwritten");
    }
  });
  c10::cpu::setCacheLimit(saved_limit);
  EXPECT_EQ(seen.count("bytes overwritten"), 0);
  EXPECT_GT(seen.count("own bytes"), 0);
  c10::cpu::emptyCache();
  const auto after = c10::cpu::getCachingAllocatorStats();
  EXPECT_EQ(after.cached_bytes, 0);
  EXPECT_EQ(after.allocated_bytes, before.allocated_bytes);
  EXPECT_GT(after.num_allocations, before.num_allocations);
}

}  // namespace
