// The large-block cache behind the default CPU allocator (CPUCachingAllocator.h): which block a
// request gets, the bound on cached bytes, eviction order, memory pressure, and the
// process-wide cache as tensors use it.

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <thread>
#include <vector>

#include "c10/core/CPUAllocator.h"
#include "c10/core/CPUCachingAllocator.h"

namespace {

using c10::cpu::detail::LargeBlockCache;

constexpr size_t kMiB = size_t(1) << 20;

size_t plenty_of_memory() {
  return std::numeric_limits<size_t>::max();
}

size_t g_available = 0;
size_t fake_available() {
  return g_available;
}

uintptr_t addr(const c10::DataPtr& p) {
  return reinterpret_cast<uintptr_t>(p.get());
}

TEST(CPUCachingAllocator, AFreedBlockServesTheNextRequestOfItsSize) {
  LargeBlockCache cache(64 * kMiB, &plenty_of_memory);
  void* first = nullptr;
  {
    c10::DataPtr p = cache.allocate(8 * kMiB);
    first = p.get();
    std::memset(p.get(), 1, 8 * kMiB);  // the pages are the caller's to write
    EXPECT_EQ(cache.stats().allocated_bytes, int64_t(8 * kMiB));
    EXPECT_EQ(cache.stats().cached_bytes, 0);
  }
  EXPECT_EQ(cache.stats().allocated_bytes, 0);
  EXPECT_EQ(cache.stats().cached_bytes, int64_t(8 * kMiB));
  c10::DataPtr again = cache.allocate(8 * kMiB);
  EXPECT_EQ(again.get(), first);
  const auto s = cache.stats();
  EXPECT_EQ(s.num_allocations, 2);
  EXPECT_EQ(s.num_cache_hits, 1);
  EXPECT_EQ(s.num_maps, 1);
  EXPECT_EQ(s.num_unmaps, 0);
  EXPECT_EQ(s.cached_bytes, 0);
  EXPECT_EQ(s.peak_cached_bytes, int64_t(8 * kMiB));
}

TEST(CPUCachingAllocator, BlocksOfTwoMiBAndMoreAreHugePageAligned) {
  LargeBlockCache cache(0, &plenty_of_memory);
  for (size_t n : {2 * kMiB, 3 * kMiB + 5, 64 * kMiB}) {
    c10::DataPtr p = cache.allocate(n);
    EXPECT_EQ(addr(p) % (2 * kMiB), 0u) << n;
    std::memset(p.get(), 7, n);
  }
  c10::DataPtr small = cache.allocate(kMiB + 1);
  EXPECT_EQ(addr(small) % 4096, 0u);
  // Sizes are rounded up to whole pages: a 1 MiB + 1 byte request maps 1 MiB + 4 KiB.
  EXPECT_EQ(cache.stats().allocated_bytes, int64_t(kMiB + 4096));
}

TEST(CPUCachingAllocator, ACachedBlockServesOnlyRequestsItExceedsByAnEighthOrLess) {
  LargeBlockCache cache(256 * kMiB, &plenty_of_memory);
  void* block = cache.allocate(16 * kMiB).get();  // freed at once: cached
  {
    c10::DataPtr half = cache.allocate(8 * kMiB);  // 16 > 8 + 8/8: a new mapping
    EXPECT_NE(half.get(), block);
  }
  c10::DataPtr close = cache.allocate(15 * kMiB);  // 16 <= 15 + 15/8
  EXPECT_EQ(close.get(), block);
  c10::DataPtr bigger = cache.allocate(16 * kMiB + 1);  // does not fit in it
  EXPECT_NE(bigger.get(), block);
  EXPECT_EQ(cache.stats().num_cache_hits, 1);
}

TEST(CPUCachingAllocator, TheLeastRecentlyFreedBlockIsEvictedFirst) {
  LargeBlockCache cache(30 * kMiB, &plenty_of_memory);
  c10::DataPtr a = cache.allocate(8 * kMiB), b = cache.allocate(9 * kMiB),
               c = cache.allocate(10 * kMiB), d = cache.allocate(11 * kMiB);
  void* b_ptr = b.get();
  a.clear();
  b.clear();
  c.clear();
  EXPECT_EQ(cache.stats().cached_bytes, int64_t(27 * kMiB));
  d.clear();  // 27 + 11 > 30: a (freed first) goes back to the OS, then d fits
  EXPECT_EQ(cache.stats().cached_bytes, int64_t(30 * kMiB));
  EXPECT_EQ(cache.stats().num_unmaps, 1);
  // An 8 MiB request now gets b's 9 MiB block: a's is gone.
  c10::DataPtr again = cache.allocate(8 * kMiB);
  EXPECT_EQ(again.get(), b_ptr);
}

TEST(CPUCachingAllocator, ALoopOfChangingSizesNeverHoldsMoreThanTheLimit) {
  constexpr size_t kLimit = 64 * kMiB;
  LargeBlockCache cache(kLimit, &plenty_of_memory);
  std::mt19937 gen(42);
  std::uniform_int_distribution<size_t> size(kMiB, 40 * kMiB);
  std::vector<c10::DataPtr> live(3);
  std::vector<size_t> requested(live.size(), 0);
  for (size_t i = 0; i < 300; ++i) {
    const size_t slot = i % live.size();
    requested[slot] = size(gen);
    live[slot] = cache.allocate(requested[slot]);
    std::memset(live[slot].get(), 0, 4096);
    // In use: the live blocks, each at most an eighth (and a page) over its request. Mapped in
    // all: that plus at most the limit.
    size_t most_in_use = 0;
    for (size_t r : requested) most_in_use += r + r / 8 + 4096;
    const auto s = cache.stats();
    ASSERT_LE(s.cached_bytes, int64_t(kLimit));
    ASSERT_LE(s.allocated_bytes, int64_t(most_in_use));
    ASSERT_LE(s.allocated_bytes + s.cached_bytes, int64_t(most_in_use + kLimit));
  }
  const auto s = cache.stats();
  EXPECT_LE(s.peak_cached_bytes, int64_t(kLimit));
  EXPECT_GT(s.num_cache_hits, 0);
  EXPECT_GT(s.num_unmaps, 0);
  live.clear();
  cache.empty_cache();
  EXPECT_EQ(cache.stats().cached_bytes, 0);
  EXPECT_EQ(cache.stats().allocated_bytes, 0);
  EXPECT_EQ(cache.stats().num_maps, cache.stats().num_unmaps);
}

TEST(CPUCachingAllocator, ABlockOverTheLimitIsNotCached) {
  LargeBlockCache cache(4 * kMiB, &plenty_of_memory);
  cache.allocate(8 * kMiB);
  EXPECT_EQ(cache.stats().cached_bytes, 0);
  EXPECT_EQ(cache.stats().num_unmaps, 1);
  cache.set_limit(0);  // caching off
  cache.allocate(2 * kMiB);
  EXPECT_EQ(cache.stats().cached_bytes, 0);
  EXPECT_EQ(cache.stats().num_unmaps, 2);
}

TEST(CPUCachingAllocator, LoweringTheLimitAndEmptyCacheGiveBlocksBack) {
  LargeBlockCache cache(64 * kMiB, &plenty_of_memory);
  cache.allocate(8 * kMiB);
  cache.allocate(16 * kMiB);
  c10::DataPtr held = cache.allocate(4 * kMiB);
  EXPECT_EQ(cache.stats().cached_bytes, int64_t(24 * kMiB));
  cache.set_limit(20 * kMiB);  // the oldest (8 MiB) goes
  EXPECT_EQ(cache.limit(), 20 * kMiB);
  EXPECT_EQ(cache.stats().cached_bytes, int64_t(16 * kMiB));
  cache.empty_cache();
  EXPECT_EQ(cache.stats().cached_bytes, 0);
  EXPECT_EQ(cache.stats().allocated_bytes, int64_t(4 * kMiB));  // blocks in use stay
  std::memset(held.get(), 3, 4 * kMiB);
}

TEST(CPUCachingAllocator, MemoryPressureDropsTheWholeCache) {
  g_available = std::numeric_limits<size_t>::max();
  LargeBlockCache cache(256 * kMiB, &fake_available);
  cache.allocate(8 * kMiB);
  cache.allocate(16 * kMiB);
  EXPECT_EQ(cache.stats().cached_bytes, int64_t(24 * kMiB));
  // The system has 50 MiB left: less than twice the 24 + 4 MiB the cache would then hold.
  g_available = 50 * kMiB;
  cache.allocate(4 * kMiB);
  auto s = cache.stats();
  EXPECT_EQ(s.cached_bytes, 0);
  EXPECT_EQ(s.num_pressure_releases, 1);
  EXPECT_EQ(s.num_unmaps, 3);
  // With 60 MiB available a lone 4 MiB block is kept again.
  g_available = 60 * kMiB;
  cache.allocate(4 * kMiB);
  EXPECT_EQ(cache.stats().cached_bytes, int64_t(4 * kMiB));
}

TEST(CPUCachingAllocator, AnImpossibleRequestRaisesTheDefaultAllocatorsError) {
  LargeBlockCache cache(64 * kMiB, &plenty_of_memory);
  cache.allocate(8 * kMiB);  // cached: given back before the second try
  try {
    cache.allocate(size_t(1) << 50);
    FAIL() << "mapped a petabyte";
  } catch (const c10::OutOfMemoryError& e) {
    EXPECT_STREQ(e.what_without_backtrace(),
                 "DefaultCPUAllocator: can't allocate memory: you tried to allocate "
                 "1125899906842624 bytes. Error code 12 (Cannot allocate memory)");
  }
  EXPECT_EQ(cache.stats().cached_bytes, 0);
  EXPECT_EQ(cache.stats().allocated_bytes, 0);
}

TEST(CPUCachingAllocator, ThreadsShareOneCache) {
  LargeBlockCache cache(32 * kMiB, &plenty_of_memory);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&cache, t] {
      for (int i = 0; i < 200; ++i) {
        c10::DataPtr p = cache.allocate((static_cast<size_t>(i % 3) + 1) * kMiB + t * 4096);
        static_cast<char*>(p.get())[0] = static_cast<char>(i);
      }
    });
  }
  for (auto& th : threads) th.join();
  const auto s = cache.stats();
  EXPECT_EQ(s.num_allocations, 800);
  EXPECT_EQ(s.allocated_bytes, 0);
  EXPECT_LE(s.cached_bytes, int64_t(32 * kMiB));
  EXPECT_GT(s.num_cache_hits, 0);
  cache.empty_cache();
  EXPECT_EQ(cache.stats().num_maps, cache.stats().num_unmaps);
}

TEST(CPUCachingAllocator, TheDefaultAllocatorSendsLargeRequestsToTheProcessCache) {
  c10::Allocator* alloc = c10::GetDefaultCPUAllocator();
  const auto before = c10::cpu::getCachingAllocatorStats();
  void* first = alloc->allocate(24 * kMiB).get();
  c10::DataPtr again = alloc->allocate(24 * kMiB);
  EXPECT_EQ(again.get(), first);
  const auto after = c10::cpu::getCachingAllocatorStats();
  EXPECT_EQ(after.num_allocations - before.num_allocations, 2);
  EXPECT_EQ(after.num_cache_hits - before.num_cache_hits, 1);
  // Below kLargeAllocation the cache is not involved.
  alloc->allocate(c10::cpu::kLargeAllocation - 1);
  EXPECT_EQ(c10::cpu::getCachingAllocatorStats().num_allocations, after.num_allocations);
  again.clear();
  c10::cpu::emptyCache();
  EXPECT_EQ(c10::cpu::getCachingAllocatorStats().cached_bytes, 0);
  EXPECT_GT(c10::cpu::getCacheLimit(), 0u);
}

}  // namespace
