// The CUDA caching allocator's bookkeeping, on a fake device. Expected sizes are worked by hand
// from libtorch's policy (see Note [Small and large pools]); texts are PyTorch 2.x's.
#include "c10/cuda/CachingAllocatorCore.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <thread>
#include <vector>

#include "FakeDeviceMemory.h"
#include "TestUtils.h"
#include "c10/util/Exception.h"

namespace {

using namespace c10::cuda::CUDACachingAllocator;
using fake_cuda::FakeDeviceMemory;
using fake_cuda::kGiB;
using fake_cuda::kKiB;
using fake_cuda::kMiB;

const Stat& aggregate(const StatArray& stat) {
  return stat[static_cast<size_t>(StatType::AGGREGATE)];
}
const Stat& small_pool(const StatArray& stat) {
  return stat[static_cast<size_t>(StatType::SMALL_POOL)];
}
const Stat& large_pool(const StatArray& stat) {
  return stat[static_cast<size_t>(StatType::LARGE_POOL)];
}
// Stats are int64_t, sizes size_t.
int64_t n(size_t value) {
  return static_cast<int64_t>(value);
}
char* at(const Block* block) {
  return static_cast<char*>(block->ptr);
}

class CachingAllocator : public ::testing::Test {
 protected:
  FakeDeviceMemory memory_{kGiB};
  DeviceCachingAllocator alloc_{0, &memory_};
  const StreamHandle s0_ = fake_cuda::stream(0);
  const StreamHandle s1_ = fake_cuda::stream(1);
  const StreamHandle s2_ = fake_cuda::stream(2);
};

TEST(CachingAllocatorSizes, FormatSizeIsLibtorchs) {
  EXPECT_EQ(format_size(0), "0 bytes");
  EXPECT_EQ(format_size(1024), "1024 bytes");
  EXPECT_EQ(format_size(1025), "1.00 KiB");
  EXPECT_EQ(format_size(1536), "1.50 KiB");
  EXPECT_EQ(format_size(kMiB), "1024.00 KiB");
  EXPECT_EQ(format_size(kMiB + 1), "1.00 MiB");
  EXPECT_EQ(format_size(20 * kMiB), "20.00 MiB");
  EXPECT_EQ(format_size(kGiB), "1024.00 MiB");
  EXPECT_EQ(format_size(3 * kGiB / 2), "1.50 GiB");
}

TEST(CachingAllocatorSizes, RoundingAndSegmentSizes) {
  EXPECT_EQ(round_size(1), 512u);
  EXPECT_EQ(round_size(512), 512u);
  EXPECT_EQ(round_size(513), 1024u);
  EXPECT_EQ(round_size(kMiB + 1), kMiB + 512);
  EXPECT_EQ(get_allocation_size(512), kSmallBuffer);
  EXPECT_EQ(get_allocation_size(kSmallSize), kSmallBuffer);
  EXPECT_EQ(get_allocation_size(kSmallSize + 512), kLargeBuffer);
  EXPECT_EQ(get_allocation_size(kMinLargeAlloc - 512), kLargeBuffer);
  EXPECT_EQ(get_allocation_size(kMinLargeAlloc), 10 * kMiB);
  EXPECT_EQ(get_allocation_size(kMinLargeAlloc + 512), 12 * kMiB);
}

TEST_F(CachingAllocator, SmallRequestsArePackedIntoOne2MiBSegment) {
  Block* a = alloc_.malloc(1, s0_);
  EXPECT_EQ(a->size, 512u);
  EXPECT_EQ(a->requested_size, 1u);
  EXPECT_TRUE(a->pool->is_small);
  EXPECT_EQ(a->stream, s0_);
  Block* b = alloc_.malloc(1000, s0_);
  EXPECT_EQ(b->size, 1024u);
  EXPECT_EQ(at(b), at(a) + 512);
  Block* c = alloc_.malloc(kSmallSize, s0_);
  EXPECT_EQ(at(c), at(b) + 1024);
  EXPECT_EQ(memory_.malloc_sizes(), std::vector<size_t>{kSmallBuffer});

  const DeviceStats stats = alloc_.get_stats();
  EXPECT_EQ(small_pool(stats.segment).current, 1);
  EXPECT_EQ(large_pool(stats.segment).current, 0);
  EXPECT_EQ(small_pool(stats.reserved_bytes).current, n(kSmallBuffer));
  EXPECT_EQ(aggregate(stats.allocated_bytes).current, n(512 + 1024 + kMiB));
  EXPECT_EQ(aggregate(stats.requested_bytes).current, n(1 + 1000 + kMiB));
  for (Block* block : {a, b, c}) alloc_.free(block);
}

TEST_F(CachingAllocator, MidSizeRequestsShareA20MiBSegmentAndBigOnesGetTheirOwn) {
  Block* a = alloc_.malloc(kMiB + 1, s0_);
  EXPECT_EQ(a->size, kMiB + 512);
  EXPECT_FALSE(a->pool->is_small);
  Block* b = alloc_.malloc(5 * kMiB, s0_);
  EXPECT_EQ(at(b), at(a) + kMiB + 512);
  EXPECT_EQ(memory_.malloc_sizes(), std::vector<size_t>{kLargeBuffer});

  // 15 MiB + 512 needs a 16 MiB segment; the 1 MiB - 512 left over could serve no large request,
  // so the whole segment is the block.
  Block* c = alloc_.malloc(15 * kMiB + 1, s0_);
  EXPECT_EQ(c->size, 16 * kMiB);
  EXPECT_EQ(c->requested_size, 15 * kMiB + 1);
  EXPECT_EQ(memory_.malloc_sizes(), (std::vector<size_t>{kLargeBuffer, 16 * kMiB}));

  const DeviceStats stats = alloc_.get_stats();
  EXPECT_EQ(large_pool(stats.segment).current, 2);
  EXPECT_EQ(small_pool(stats.segment).current, 0);
  EXPECT_EQ(large_pool(stats.allocated_bytes).current, n(kMiB + 512 + 5 * kMiB + 16 * kMiB));
  EXPECT_EQ(large_pool(stats.requested_bytes).current, n(kMiB + 1 + 5 * kMiB + 15 * kMiB + 1));
  EXPECT_EQ(aggregate(stats.reserved_bytes).current, n(36 * kMiB));
  for (Block* block : {a, b, c}) alloc_.free(block);
}

TEST_F(CachingAllocator, SmallPoolSplitsOffAny512ByteRemainder) {
  Block* a = alloc_.malloc(kMiB, s0_);
  Block* b = alloc_.malloc(kMiB - 512, s0_);  // leaves exactly 512 bytes: still split off
  EXPECT_EQ(b->size, kMiB - 512);
  Block* c = alloc_.malloc(512, s0_);
  EXPECT_EQ(at(c), at(a) + kSmallBuffer - 512);
  EXPECT_EQ(memory_.malloc_calls(), 1u);
  Block* d = alloc_.malloc(512, s0_);  // the segment is full
  EXPECT_EQ(memory_.malloc_sizes(), (std::vector<size_t>{kSmallBuffer, kSmallBuffer}));
  for (Block* block : {a, b, c, d}) alloc_.free(block);
}

TEST_F(CachingAllocator, LargePoolSplitsOnlyRemaindersAboveKSmallSize) {
  Block* a = alloc_.malloc(9 * kMiB, s0_);   // a 20 MiB segment; 11 MiB are split off
  Block* b = alloc_.malloc(10 * kMiB, s0_);  // would leave exactly 1 MiB: takes all 11 MiB
  EXPECT_EQ(at(b), at(a) + 9 * kMiB);
  EXPECT_EQ(b->size, 11 * kMiB);
  EXPECT_EQ(alloc_.cached_block_count(), 0u);

  Block* c = alloc_.malloc(9 * kMiB, s0_);
  Block* d = alloc_.malloc(10 * kMiB - 512, s0_);  // leaves 1 MiB + 512: split off
  EXPECT_EQ(at(d), at(c) + 9 * kMiB);
  EXPECT_EQ(d->size, 10 * kMiB - 512);
  EXPECT_EQ(alloc_.cached_bytes(), kMiB + 512);
  EXPECT_EQ(memory_.malloc_sizes(), (std::vector<size_t>{kLargeBuffer, kLargeBuffer}));
  for (Block* block : {a, b, c, d}) alloc_.free(block);
}

TEST_F(CachingAllocator, FreedBlocksMergeWithFreeNeighbours) {
  Block* a = alloc_.malloc(512, s0_);
  Block* b = alloc_.malloc(512, s0_);
  Block* c = alloc_.malloc(512, s0_);
  char* const start = at(a);
  EXPECT_EQ(alloc_.cached_block_count(), 1u);  // the rest of the segment
  EXPECT_EQ(small_pool(alloc_.get_stats().inactive_split_bytes).current, n(kSmallBuffer - 1536));

  alloc_.free(b);  // between two allocated blocks: nothing to merge with
  EXPECT_EQ(alloc_.cached_block_count(), 2u);
  EXPECT_EQ(small_pool(alloc_.get_stats().inactive_split).current, 2);

  alloc_.free(a);  // merges with b
  EXPECT_EQ(alloc_.cached_block_count(), 2u);
  EXPECT_EQ(alloc_.cached_bytes(), kSmallBuffer - 512);
  EXPECT_EQ(small_pool(alloc_.get_stats().inactive_split_bytes).current, n(kSmallBuffer - 512));

  alloc_.free(c);  // merges with both sides: the segment is one block again
  EXPECT_EQ(alloc_.cached_block_count(), 1u);
  EXPECT_EQ(alloc_.cached_bytes(), kSmallBuffer);
  const DeviceStats stats = alloc_.get_stats();
  EXPECT_EQ(small_pool(stats.inactive_split).current, 0);
  EXPECT_EQ(small_pool(stats.inactive_split_bytes).current, 0);

  Block* whole = alloc_.malloc(kSmallSize, s0_);
  EXPECT_EQ(at(whole), start);
  EXPECT_EQ(memory_.malloc_calls(), 1u);
  alloc_.free(whole);
}

TEST_F(CachingAllocator, CachedBlocksAreReusedOnlyByTheirOwnStream) {
  for (size_t size : {size_t{4096}, 3 * kMiB}) {
    Block* a = alloc_.malloc(size, s0_);
    char* const freed = at(a);
    alloc_.free(a);
    const size_t calls = memory_.malloc_calls();

    Block* other = alloc_.malloc(size, s1_);
    EXPECT_NE(at(other), freed);
    EXPECT_EQ(other->stream, s1_);
    EXPECT_EQ(memory_.malloc_calls(), calls + 1);

    Block* same = alloc_.malloc(size, s0_);
    EXPECT_EQ(at(same), freed);
    EXPECT_EQ(memory_.malloc_calls(), calls + 1);
    alloc_.free(other);
    alloc_.free(same);
  }
}

TEST_F(CachingAllocator, TakesTheSmallestCachedBlockOfTheStreamThatFits) {
  Block* x = alloc_.malloc(30 * kMiB, s0_);
  Block* y = alloc_.malloc(12 * kMiB, s0_);
  Block* z = alloc_.malloc(16 * kMiB, s0_);
  Block* w = alloc_.malloc(12 * kMiB, s1_);
  char* const y_ptr = at(y);
  char* const z_ptr = at(z);
  for (Block* block : {x, y, z, w}) alloc_.free(block);
  const size_t calls = memory_.malloc_calls();

  Block* p = alloc_.malloc(11 * kMiB, s0_);  // y; the 1 MiB left is not worth a block
  EXPECT_EQ(at(p), y_ptr);
  EXPECT_EQ(p->size, 12 * kMiB);
  Block* q = alloc_.malloc(13 * kMiB, s0_);  // z, split
  EXPECT_EQ(at(q), z_ptr);
  EXPECT_EQ(q->size, 13 * kMiB);
  EXPECT_EQ(memory_.malloc_calls(), calls);
  alloc_.free(p);
  alloc_.free(q);
}

TEST_F(CachingAllocator, RecordStreamDefersReuseUntilTheEventCompletes) {
  Block* a = alloc_.malloc(kMiB, s0_);  // the front half of a small segment
  char* const start = at(a);
  alloc_.record_stream(a, s0_);  // its own stream: nothing to wait for
  alloc_.record_stream(a, s1_);
  alloc_.free(a);
  EXPECT_EQ(memory_.events().recorded(), 1);
  EXPECT_EQ(memory_.events().recorded_on(s1_), 1);
  DeviceStats stats = alloc_.get_stats();
  EXPECT_EQ(aggregate(stats.allocated_bytes).current, 0);
  EXPECT_EQ(aggregate(stats.active).current, 1);  // freed, but still in use on s1
  EXPECT_EQ(aggregate(stats.active_bytes).current, n(kMiB));

  Block* b = alloc_.malloc(kMiB, s0_);  // not a: the back half
  EXPECT_EQ(at(b), start + kMiB);
  alloc_.free(b);
  Block* c = alloc_.malloc(kMiB, s0_);
  EXPECT_EQ(at(c), start + kMiB);
  alloc_.free(c);

  memory_.events().complete_on(s1_);
  EXPECT_EQ(alloc_.cached_block_count(), 1u);  // noticed at the next malloc
  Block* d = alloc_.malloc(kMiB, s0_);
  EXPECT_EQ(at(d), start);
  EXPECT_EQ(memory_.events().outstanding(), 0);
  EXPECT_EQ(memory_.malloc_calls(), 1u);
  stats = alloc_.get_stats();
  EXPECT_EQ(aggregate(stats.active).current, 1);
  EXPECT_EQ(aggregate(stats.active_bytes).current, n(kMiB));
  alloc_.free(d);
  EXPECT_EQ(alloc_.cached_bytes(), kSmallBuffer);  // a's return merged the segment whole
}

TEST_F(CachingAllocator, BlockUsedOnTwoStreamsWaitsForBoth) {
  Block* a = alloc_.malloc(16 * kMiB, s0_);
  char* const a_ptr = at(a);
  alloc_.record_stream(a, s1_);
  alloc_.record_stream(a, s2_);
  alloc_.free(a);
  EXPECT_EQ(memory_.events().recorded(), 2);

  memory_.events().complete_on(s1_);
  Block* b = alloc_.malloc(16 * kMiB, s0_);
  EXPECT_NE(at(b), a_ptr);
  EXPECT_EQ(memory_.malloc_calls(), 2u);
  alloc_.free(b);

  memory_.events().complete_on(s2_);
  Block* c = alloc_.malloc(16 * kMiB, s0_);
  EXPECT_EQ(memory_.malloc_calls(), 2u);
  EXPECT_EQ(alloc_.cached_block_count(), 1u);  // a is back: c took one of a and b
  EXPECT_EQ(memory_.events().outstanding(), 0);
  alloc_.free(c);
}

TEST_F(CachingAllocator, EmptyCacheWaitsForEventsAndReleasesOnlyWhollyFreeSegments) {
  Block* live = alloc_.malloc(512, s0_);       // keeps its small segment
  Block* big = alloc_.malloc(16 * kMiB, s0_);  // a segment of its own, pending on s1
  Block* mid = alloc_.malloc(kMiB + 1, s0_);   // part of a 20 MiB segment
  alloc_.record_stream(big, s1_);
  alloc_.free(big);
  alloc_.free(mid);

  alloc_.empty_cache();
  EXPECT_EQ(memory_.events().synchronizations(), 1);
  EXPECT_EQ(memory_.events().outstanding(), 0);
  EXPECT_EQ(memory_.device_synchronizations(), 1);
  std::vector<size_t> freed = memory_.freed_sizes();
  std::sort(freed.begin(), freed.end());
  EXPECT_EQ(freed, (std::vector<size_t>{16 * kMiB, kLargeBuffer}));
  DeviceStats stats = alloc_.get_stats();
  EXPECT_EQ(aggregate(stats.reserved_bytes).current, n(kSmallBuffer));
  EXPECT_EQ(aggregate(stats.segment).current, 1);
  EXPECT_EQ(stats.num_device_free, 2);
  EXPECT_EQ(stats.num_sync_all_streams, 1);
  EXPECT_EQ(alloc_.cached_bytes(), kSmallBuffer - 512);  // the rest of live's segment

  alloc_.free(live);
  alloc_.empty_cache();
  EXPECT_EQ(memory_.live_allocations(), 0u);
  EXPECT_EQ(memory_.device_synchronizations(), 2);
  alloc_.empty_cache();  // nothing cached: no device-wide wait
  EXPECT_EQ(memory_.device_synchronizations(), 2);
  stats = alloc_.get_stats();
  EXPECT_EQ(aggregate(stats.reserved_bytes).current, 0);
  EXPECT_EQ(stats.num_sync_all_streams, 3);
}

TEST_F(CachingAllocator, StatsFollowLibtorchsDefinitions) {
  Block* a = alloc_.malloc(1000, s0_);
  Block* b = alloc_.malloc(3 * kMiB, s0_);
  DeviceStats stats = alloc_.get_stats();
  EXPECT_EQ(aggregate(stats.allocation).current, 2);
  EXPECT_EQ(aggregate(stats.allocated_bytes).current, n(1024 + 3 * kMiB));
  EXPECT_EQ(small_pool(stats.allocated_bytes).current, 1024);
  EXPECT_EQ(large_pool(stats.allocated_bytes).current, n(3 * kMiB));
  EXPECT_EQ(aggregate(stats.requested_bytes).current, n(1000 + 3 * kMiB));
  EXPECT_EQ(aggregate(stats.reserved_bytes).current, n(kSmallBuffer + kLargeBuffer));
  EXPECT_EQ(aggregate(stats.segment).current, 2);
  EXPECT_EQ(stats.num_device_alloc, 2);

  alloc_.free(b);
  stats = alloc_.get_stats();
  const Stat& allocated = aggregate(stats.allocated_bytes);
  EXPECT_EQ(allocated.current, 1024);
  EXPECT_EQ(allocated.peak, n(1024 + 3 * kMiB));
  EXPECT_EQ(allocated.allocated, n(1024 + 3 * kMiB));
  EXPECT_EQ(allocated.freed, n(3 * kMiB));
  EXPECT_EQ(aggregate(stats.requested_bytes).current, 1000);
  EXPECT_EQ(aggregate(stats.reserved_bytes).current, n(kSmallBuffer + kLargeBuffer));  // cached

  alloc_.reset_peak_stats();
  EXPECT_EQ(aggregate(alloc_.get_stats().allocated_bytes).peak, 1024);

  alloc_.empty_cache();
  stats = alloc_.get_stats();
  const Stat& reserved = aggregate(stats.reserved_bytes);
  EXPECT_EQ(reserved.current, n(kSmallBuffer));
  EXPECT_EQ(reserved.peak, n(kSmallBuffer + kLargeBuffer));
  EXPECT_EQ(reserved.freed, n(kLargeBuffer));
  EXPECT_EQ(large_pool(stats.segment).current, 0);
  EXPECT_EQ(stats.num_device_free, 1);

  alloc_.reset_accumulated_stats();
  stats = alloc_.get_stats();
  EXPECT_EQ(aggregate(stats.allocated_bytes).allocated, 0);
  EXPECT_EQ(aggregate(stats.allocated_bytes).freed, 0);
  EXPECT_EQ(aggregate(stats.allocated_bytes).current, 1024);  // current values stay
  EXPECT_EQ(stats.num_device_alloc, 0);
  EXPECT_EQ(stats.num_device_free, 0);
  EXPECT_EQ(stats.num_sync_all_streams, 0);

  alloc_.free(a);
  stats = alloc_.get_stats();
  for (const StatArray* array :
       {&stats.allocation, &stats.active, &stats.allocated_bytes, &stats.active_bytes,
        &stats.requested_bytes, &stats.inactive_split, &stats.inactive_split_bytes}) {
    for (const Stat& stat : *array) EXPECT_EQ(stat.current, 0);
  }
}

TEST(CachingAllocatorOutOfMemory, RetriesOnceAfterFreeingCachedSegments) {
  FakeDeviceMemory memory(40 * kMiB);
  DeviceCachingAllocator alloc(0, &memory);
  alloc.free(alloc.malloc(16 * kMiB, nullptr));  // a cached 16 MiB segment
  Block* b = alloc.malloc(30 * kMiB, nullptr);   // 16 + 30 > 40: fails, frees the cache, retries
  EXPECT_EQ(memory.malloc_sizes(), (std::vector<size_t>{16 * kMiB, 30 * kMiB, 30 * kMiB}));
  EXPECT_EQ(memory.freed_sizes(), std::vector<size_t>{16 * kMiB});
  EXPECT_EQ(memory.device_synchronizations(), 1);
  const DeviceStats stats = alloc.get_stats();
  EXPECT_EQ(stats.num_alloc_retries, 1);
  EXPECT_EQ(stats.num_ooms, 0);
  EXPECT_EQ(stats.num_device_alloc, 2);
  EXPECT_EQ(stats.num_device_free, 1);
  EXPECT_EQ(aggregate(stats.reserved_bytes).current, n(30 * kMiB));
  alloc.free(b);
}

TEST(CachingAllocatorOutOfMemory, TextIsPyTorchs) {
  FakeDeviceMemory memory(kGiB);
  DeviceCachingAllocator alloc(1, &memory);
  Block* keep = alloc.malloc(1000, nullptr);     // 1024 bytes of a 2 MiB segment
  alloc.free(alloc.malloc(16 * kMiB, nullptr));  // cached: the retry gives it back
  try {
    alloc.malloc(3 * kGiB, nullptr);
    FAIL() << "allocated 3 GiB of 1 GiB";
  } catch (const c10::OutOfMemoryError& e) {
    EXPECT_STREQ(e.what_without_backtrace(),
                 "CUDA out of memory. Tried to allocate 3.00 GiB. GPU 1 has a total capacity of "
                 "1024.00 MiB of which 1022.00 MiB is free. Of the allocated memory 1024 bytes is "
                 "allocated by PyTorch, and 2.00 MiB is reserved by PyTorch but unallocated.");
  }
  DeviceStats stats = alloc.get_stats();
  EXPECT_EQ(stats.num_ooms, 1);
  EXPECT_EQ(stats.num_alloc_retries, 1);
  EXPECT_EQ(memory.freed_sizes(), std::vector<size_t>{16 * kMiB});

  // Nothing is left half-done: the allocator goes on serving.
  Block* next = alloc.malloc(1000, nullptr);
  EXPECT_EQ(at(next), at(keep) + 1024);
  alloc.free(next);
  alloc.free(keep);
  stats = alloc.get_stats();
  EXPECT_EQ(aggregate(stats.allocation).current, 0);
  EXPECT_EQ(aggregate(stats.reserved_bytes).current, n(kSmallBuffer));
}

TEST(CachingAllocatorOutOfMemory, ReportsTheSegmentAskedFor) {
  FakeDeviceMemory memory(kSmallBuffer);
  DeviceCachingAllocator alloc(0, &memory);
  Block* a = alloc.malloc(kMiB, nullptr);
  Block* b = alloc.malloc(kMiB, nullptr);  // the segment is full
  EXPECT_THROW(alloc.malloc(1, nullptr), c10::OutOfMemoryError);
  EXPECT_EQ(
      test_util::error_of([&] { alloc.malloc(1, nullptr); }),
      "CUDA out of memory. Tried to allocate 2.00 MiB. GPU 0 has a total capacity of 2.00 MiB "
      "of which 0 bytes is free. Of the allocated memory 2.00 MiB is allocated by PyTorch, "
      "and 0 bytes is reserved by PyTorch but unallocated.");
  EXPECT_EQ(alloc.get_stats().num_ooms, 2);
  alloc.free(a);
  alloc.free(b);
}

TEST(CachingAllocatorOutOfMemory, AbsurdSizeFailsWithoutAskingTheDevice) {
  FakeDeviceMemory memory(kGiB);
  DeviceCachingAllocator alloc(0, &memory);
  const size_t absurd = std::numeric_limits<size_t>::max();
  EXPECT_THROW(alloc.malloc(absurd, nullptr), c10::OutOfMemoryError);
  EXPECT_EQ(test_util::error_of([&] { alloc.malloc(absurd, nullptr); }),
            "CUDA out of memory. Tried to allocate 17179869184.00 GiB. GPU 0 has a total capacity "
            "of 1024.00 MiB of which 1024.00 MiB is free. Of the allocated memory 0 bytes is "
            "allocated by PyTorch, and 0 bytes is reserved by PyTorch but unallocated.");
  EXPECT_EQ(memory.malloc_calls(), 0u);
}

TEST(CachingAllocatorOutOfMemory, OtherDeviceErrorsPropagateUntouched) {
  FakeDeviceMemory memory(kGiB);
  DeviceCachingAllocator alloc(0, &memory);
  memory.fail_with("CUDA error: an illegal memory access was encountered");
  try {
    alloc.malloc(1, nullptr);
    FAIL() << "no error";
  } catch (const c10::OutOfMemoryError&) {
    FAIL() << "reported as out of memory";
  } catch (const c10::Error& e) {
    EXPECT_STREQ(e.what_without_backtrace(),
                 "CUDA error: an illegal memory access was encountered");
  }
  DeviceStats stats = alloc.get_stats();
  EXPECT_EQ(stats.num_alloc_retries, 0);
  EXPECT_EQ(stats.num_ooms, 0);
  EXPECT_EQ(aggregate(stats.segment).current, 0);

  memory.fail_with(std::nullopt);
  alloc.free(alloc.malloc(1, nullptr));
  EXPECT_EQ(alloc.get_stats().num_device_alloc, 1);
}

TEST_F(CachingAllocator, EmptyRequestsAreTheCallersToServe) {
  EXPECT_THROW(alloc_.malloc(0, s0_), c10::Error);
  EXPECT_EQ(memory_.malloc_calls(), 0u);
}

TEST_F(CachingAllocator, SteadyStateLoopNeverCallsTheDevice) {
  const std::vector<size_t> sizes = {100, 4096, kMiB, 3 * kMiB, 15 * kMiB};
  std::vector<Block*> blocks;
  for (int iteration = 0; iteration < 100; ++iteration) {
    for (size_t size : sizes) blocks.push_back(alloc_.malloc(size, s0_));
    for (Block* block : blocks) alloc_.free(block);
    blocks.clear();
  }
  // One small segment; 3 MiB opens a 20 MiB segment whose 17 MiB remainder serves 15 MiB.
  EXPECT_EQ(memory_.malloc_sizes(), (std::vector<size_t>{kSmallBuffer, kLargeBuffer}));
  EXPECT_EQ(memory_.freed_sizes(), std::vector<size_t>{});
  EXPECT_EQ(aggregate(alloc_.get_stats().allocation).allocated, 500);
}

TEST_F(CachingAllocator, ConcurrentThreadsLeaveNoTrace) {
  constexpr int kThreads = 4;
  const std::vector<size_t> sizes = {1, 700, 64 * kKiB, kMiB, kMiB + 1, 5 * kMiB, 12 * kMiB};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const StreamHandle own = fake_cuda::stream(t % 2);  // two threads per stream
      const StreamHandle other = fake_cuda::stream(10 + t);
      for (int i = 0; i < 200; ++i) {
        Block* held[3];
        for (int k = 0; k < 3; ++k) {
          held[k] = alloc_.malloc(sizes[(i + k + t) % sizes.size()], own);
          // Mark both ends: a block handed out twice would be overwritten by another thread.
          at(held[k])[0] = static_cast<char>(t);
          at(held[k])[held[k]->size - 1] = static_cast<char>(t);
        }
        if (i % 7 == 0) alloc_.record_stream(held[1], other);
        if (i % 50 == 0) memory_.events().complete_on(other);
        for (Block* block : held) {
          ASSERT_EQ(at(block)[0], static_cast<char>(t));
          ASSERT_EQ(at(block)[block->size - 1], static_cast<char>(t));
          alloc_.free(block);
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();

  DeviceStats stats = alloc_.get_stats();
  EXPECT_EQ(aggregate(stats.allocation).current, 0);
  EXPECT_EQ(aggregate(stats.allocation).allocated, kThreads * 200 * 3);
  EXPECT_EQ(aggregate(stats.allocated_bytes).current, 0);
  alloc_.empty_cache();  // waits for the events still pending
  stats = alloc_.get_stats();
  EXPECT_EQ(aggregate(stats.active).current, 0);  // blocks awaiting events were still active
  EXPECT_EQ(aggregate(stats.requested_bytes).current, 0);
  EXPECT_EQ(aggregate(stats.reserved_bytes).current, 0);
  EXPECT_EQ(aggregate(stats.segment).current, 0);
  EXPECT_EQ(stats.num_device_alloc, stats.num_device_free);
  EXPECT_EQ(memory_.live_allocations(), 0u);
  EXPECT_EQ(memory_.events().outstanding(), 0);
}

}  // namespace
