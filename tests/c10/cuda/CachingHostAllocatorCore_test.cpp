// The pinned host memory caching allocator's bookkeeping, on fake pinned memory.
#include "c10/cuda/CachingHostAllocatorCore.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <limits>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "FakeDeviceMemory.h"
#include "TestUtils.h"
#include "c10/util/Exception.h"

namespace {

using c10::cuda::CachingHostAllocatorCore;
using c10::cuda::HostStats;
using c10::cuda::StreamHandle;
using fake_cuda::FakeEvents;
using fake_cuda::kGiB;
using fake_cuda::kMiB;

int64_t n(size_t value) {
  return static_cast<int64_t>(value);
}

// "Pinned" memory: ordinary host memory within a budget.
class FakeHostMemory final : public c10::cuda::HostMemory {
 public:
  explicit FakeHostMemory(size_t total_bytes) : total_(total_bytes) {}
  ~FakeHostMemory() override {
    for (const auto& entry : live_) std::free(entry.first);
  }

  void* malloc(size_t size) override {
    std::lock_guard<std::mutex> lock(mutex_);
    malloc_sizes_.push_back(size);
    if (used_ + size > total_) return nullptr;
    void* ptr = std::malloc(size);
    live_.emplace(ptr, size);
    used_ += size;
    return ptr;
  }
  void free(void* ptr) override {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = live_.find(ptr);
    ASSERT_NE(it, live_.end()) << "the allocator freed " << ptr << ", which it never got";
    used_ -= it->second;
    live_.erase(it);
    ++free_calls_;
    std::free(ptr);
  }
  c10::cuda::EventHandle record_event(StreamHandle stream) override {
    return events_.record(stream);
  }
  bool query_event(c10::cuda::EventHandle event) override { return events_.query(event); }
  void release_event(c10::cuda::EventHandle event) override { events_.release(event); }

  std::vector<size_t> malloc_sizes() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return malloc_sizes_;
  }
  size_t malloc_calls() const { return malloc_sizes().size(); }
  int free_calls() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return free_calls_;
  }
  size_t live_allocations() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return live_.size();
  }
  FakeEvents& events() { return events_; }

 private:
  mutable std::mutex mutex_;
  const size_t total_;
  size_t used_ = 0;
  std::map<void*, size_t> live_;
  std::vector<size_t> malloc_sizes_;
  int free_calls_ = 0;
  FakeEvents events_;
};

class CachingHostAllocator : public ::testing::Test {
 protected:
  FakeHostMemory memory_{kGiB};
  CachingHostAllocatorCore alloc_{&memory_};
  const StreamHandle s1_ = fake_cuda::stream(1);
  const StreamHandle s2_ = fake_cuda::stream(2);
};

TEST_F(CachingHostAllocator, RoundsSizesUpToPowersOfTwo) {
  std::vector<void*> blocks;
  for (size_t size : {size_t{1}, size_t{1000}, size_t{1024}, size_t{1025}, 3 * kMiB}) {
    blocks.push_back(alloc_.malloc(size));
  }
  EXPECT_EQ(memory_.malloc_sizes(), (std::vector<size_t>{1, 1024, 1024, 2048, 4 * kMiB}));
  const HostStats stats = alloc_.get_stats();
  EXPECT_EQ(stats.allocated_bytes.current, n(1 + 1024 + 1024 + 2048 + 4 * kMiB));
  EXPECT_EQ(stats.reserved_bytes.current, stats.allocated_bytes.current);
  EXPECT_EQ(stats.allocation.current, 5);
  EXPECT_EQ(stats.num_host_alloc, 5);

  EXPECT_EQ(alloc_.malloc(0), nullptr);
  EXPECT_EQ(memory_.malloc_calls(), 5u);
  for (void* ptr : blocks) alloc_.free(ptr);
  alloc_.free(nullptr);
}

TEST_F(CachingHostAllocator, FreedBlocksServeTheirRoundedSizeMostRecentFirst) {
  void* p = alloc_.malloc(1000);
  alloc_.free(p);
  EXPECT_EQ(alloc_.cached_bytes(), 1024u);
  void* q = alloc_.malloc(600);  // also 1024 bytes
  EXPECT_EQ(q, p);
  EXPECT_EQ(alloc_.cached_bytes(), 0u);
  void* r = alloc_.malloc(513);   // 1024 bytes, none cached
  void* s = alloc_.malloc(2000);  // 2048 bytes
  EXPECT_NE(r, q);
  EXPECT_EQ(memory_.malloc_sizes(), (std::vector<size_t>{1024, 1024, 2048}));

  alloc_.free(q);
  alloc_.free(r);
  EXPECT_EQ(alloc_.malloc(1024), r);
  EXPECT_EQ(alloc_.malloc(1024), q);
  EXPECT_EQ(memory_.malloc_calls(), 3u);
  for (void* ptr : {q, r, s}) alloc_.free(ptr);
}

TEST_F(CachingHostAllocator, RecordedStreamsDeferReuseUntilTheirEventsComplete) {
  void* p = alloc_.malloc(1000);
  EXPECT_TRUE(alloc_.record_event(p, s1_));
  EXPECT_TRUE(alloc_.record_event(p, s2_));
  EXPECT_TRUE(alloc_.record_event(p, s1_));  // one event per stream, however many uses
  alloc_.free(p);
  EXPECT_EQ(memory_.events().recorded(), 2);
  EXPECT_EQ(alloc_.cached_bytes(), 0u);
  EXPECT_EQ(alloc_.get_stats().allocated_bytes.current, 0);

  void* q = alloc_.malloc(1000);
  EXPECT_NE(q, p);
  memory_.events().complete_on(s1_);
  void* r = alloc_.malloc(1000);  // p still waits for s2
  EXPECT_NE(r, p);
  memory_.events().complete_on(s2_);
  void* t = alloc_.malloc(1000);
  EXPECT_EQ(t, p);
  EXPECT_EQ(memory_.malloc_calls(), 3u);
  EXPECT_EQ(memory_.events().outstanding(), 0);

  // The streams were forgotten when p was freed: this free needs no event.
  alloc_.free(t);
  EXPECT_EQ(memory_.events().recorded(), 2);
  EXPECT_EQ(alloc_.cached_bytes(), 1024u);
  alloc_.free(q);
  alloc_.free(r);
}

TEST_F(CachingHostAllocator, IsPinnedCoversEveryByteOfLiveAndCachedBlocks) {
  char* p = static_cast<char*>(alloc_.malloc(1000));  // the only block: 1024 bytes
  EXPECT_TRUE(alloc_.is_pinned(p));
  EXPECT_TRUE(alloc_.is_pinned(p + 1));
  EXPECT_TRUE(alloc_.is_pinned(p + 1023));
  EXPECT_FALSE(alloc_.is_pinned(p + 1024));
  EXPECT_FALSE(alloc_.is_pinned(p - 1));
  int on_stack = 0;
  EXPECT_FALSE(alloc_.is_pinned(&on_stack));
  EXPECT_FALSE(alloc_.is_pinned(nullptr));

  alloc_.free(p);
  EXPECT_TRUE(alloc_.is_pinned(p + 500));  // cached blocks are still pinned memory
  alloc_.empty_cache();
  EXPECT_FALSE(alloc_.is_pinned(p + 500));
}

TEST_F(CachingHostAllocator, RecordEventIsFalseForMemoryItDidNotHandOut) {
  int on_stack = 0;
  EXPECT_FALSE(alloc_.record_event(&on_stack, s1_));
  EXPECT_FALSE(alloc_.record_event(nullptr, s1_));
  char* p = static_cast<char*>(alloc_.malloc(64));
  EXPECT_FALSE(alloc_.record_event(p + 8, s1_));  // blocks are named by their start
  alloc_.free(p);
  EXPECT_EQ(memory_.events().recorded(), 0);
}

TEST_F(CachingHostAllocator, EmptyCacheFreesOnlyBlocksWhoseEventsCompleted) {
  void* p = alloc_.malloc(1024);
  void* q = alloc_.malloc(1024);
  alloc_.record_event(p, s1_);
  alloc_.free(p);
  alloc_.free(q);

  alloc_.empty_cache();
  EXPECT_EQ(memory_.free_calls(), 1);
  EXPECT_TRUE(alloc_.is_pinned(p));
  EXPECT_FALSE(alloc_.is_pinned(q));
  EXPECT_EQ(alloc_.get_stats().reserved_bytes.current, 1024);

  memory_.events().complete_on(s1_);
  alloc_.empty_cache();
  EXPECT_EQ(memory_.live_allocations(), 0u);
  const HostStats stats = alloc_.get_stats();
  EXPECT_EQ(stats.reserved_bytes.current, 0);
  EXPECT_EQ(stats.segment.current, 0);
  EXPECT_EQ(stats.num_host_free, 2);
  EXPECT_EQ(memory_.events().outstanding(), 0);
}

TEST_F(CachingHostAllocator, StatsCountBlocksAndBytes) {
  void* a = alloc_.malloc(3000);  // 4096
  void* b = alloc_.malloc(100);   // 128
  alloc_.free(a);
  HostStats stats = alloc_.get_stats();
  EXPECT_EQ(stats.allocation.current, 1);
  EXPECT_EQ(stats.allocation.peak, 2);
  EXPECT_EQ(stats.allocated_bytes.current, 128);
  EXPECT_EQ(stats.allocated_bytes.peak, 4096 + 128);
  EXPECT_EQ(stats.allocated_bytes.freed, 4096);
  EXPECT_EQ(stats.reserved_bytes.current, 4096 + 128);
  EXPECT_EQ(stats.segment.current, 2);

  alloc_.reset_peak_stats();
  EXPECT_EQ(alloc_.get_stats().allocated_bytes.peak, 128);
  alloc_.reset_accumulated_stats();
  stats = alloc_.get_stats();
  EXPECT_EQ(stats.allocated_bytes.allocated, 0);
  EXPECT_EQ(stats.allocated_bytes.freed, 0);
  EXPECT_EQ(stats.num_host_alloc, 0);
  EXPECT_EQ(stats.reserved_bytes.current, 4096 + 128);
  alloc_.free(b);
}

TEST(CachingHostAllocatorFailure, IsAnOutOfMemoryErrorNamingTheSize) {
  FakeHostMemory memory(4 * kMiB);
  CachingHostAllocatorCore alloc(&memory);
  void* p = alloc.malloc(3 * kMiB);  // 4 MiB: the whole budget
  EXPECT_THROW(alloc.malloc(3000000), c10::OutOfMemoryError);
  EXPECT_EQ(test_util::error_of([&] { alloc.malloc(3000000); }),
            "Failed to allocate 4.00 MiB of pinned host memory (3000000 bytes requested, rounded "
            "up to a power of two).");
  EXPECT_EQ(test_util::error_of([&] { alloc.malloc(std::numeric_limits<size_t>::max()); }),
            "Failed to allocate 17179869184.00 GiB of pinned host memory (18446744073709551615 "
            "bytes requested).");

  // A cached block is given back to make room, and the allocation retried.
  alloc.free(p);
  void* q = alloc.malloc(kMiB);
  EXPECT_NE(q, nullptr);
  EXPECT_EQ(memory.free_calls(), 1);
  EXPECT_EQ(memory.malloc_sizes(), (std::vector<size_t>{4 * kMiB, 4 * kMiB, 4 * kMiB, kMiB, kMiB}));
  alloc.free(q);
}

TEST_F(CachingHostAllocator, ConcurrentThreadsLeaveNoTrace) {
  constexpr int kThreads = 4;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const StreamHandle stream = fake_cuda::stream(1 + t);
      for (int i = 0; i < 300; ++i) {
        const size_t size = size_t{1} << ((i + t) % 16);
        char* p = static_cast<char*>(alloc_.malloc(size));
        p[0] = static_cast<char>(t);
        p[size - 1] = static_cast<char>(t);
        EXPECT_TRUE(alloc_.is_pinned(p + size - 1));
        if (i % 3 == 0) {
          EXPECT_TRUE(alloc_.record_event(p, stream));
        }
        if (i % 40 == 0) memory_.events().complete_on(stream);
        ASSERT_EQ(p[0], static_cast<char>(t));
        ASSERT_EQ(p[size - 1], static_cast<char>(t));
        alloc_.free(p);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();

  memory_.events().complete_all();
  alloc_.empty_cache();
  const HostStats stats = alloc_.get_stats();
  EXPECT_EQ(stats.allocation.current, 0);
  EXPECT_EQ(stats.allocation.allocated, kThreads * 300);
  EXPECT_EQ(stats.allocated_bytes.current, 0);
  EXPECT_EQ(stats.reserved_bytes.current, 0);
  EXPECT_EQ(stats.num_host_alloc, stats.num_host_free);
  EXPECT_EQ(memory_.live_allocations(), 0u);
  EXPECT_EQ(memory_.events().outstanding(), 0);
}

}  // namespace
