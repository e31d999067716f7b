#include "c10/cuda/CachingAllocatorCore.h"

#include <algorithm>
#include <iterator>
#include <limits>
#include <sstream>
#include <vector>

#include "c10/util/Exception.h"

namespace c10 {
namespace cuda {
namespace CUDACachingAllocator {

namespace {

// Requests up to this size can be rounded up to kRoundLarge without wrapping around.
constexpr size_t kMaxRequestSize = std::numeric_limits<size_t>::max() - kRoundLarge;

// A block counts in the aggregate stats and in those of its pool.
StatType pool_stat_type(const BlockPool& pool) {
  return pool.is_small ? StatType::SMALL_POOL : StatType::LARGE_POOL;
}

void increase_stat(StatArray& stat, const BlockPool& pool, size_t amount) {
  stat[static_cast<size_t>(StatType::AGGREGATE)].increase(amount);
  stat[static_cast<size_t>(pool_stat_type(pool))].increase(amount);
}

void decrease_stat(StatArray& stat, const BlockPool& pool, size_t amount) {
  stat[static_cast<size_t>(StatType::AGGREGATE)].decrease(amount);
  stat[static_cast<size_t>(pool_stat_type(pool))].decrease(amount);
}

std::array<StatArray*, 9> stat_arrays(DeviceStats& stats) {
  return {&stats.allocation,      &stats.segment,
          &stats.active,          &stats.inactive_split,
          &stats.allocated_bytes, &stats.reserved_bytes,
          &stats.active_bytes,    &stats.inactive_split_bytes,
          &stats.requested_bytes};
}

// See Note [Small and large pools].
bool should_split(const Block& block, size_t size) {
  const size_t remaining = block.size - size;
  return block.pool->is_small ? remaining >= kMinBlockSize : remaining > kSmallSize;
}

}  // namespace

void Stat::increase(size_t amount) {
  current += static_cast<int64_t>(amount);
  peak = std::max(current, peak);
  allocated += static_cast<int64_t>(amount);
}

void Stat::decrease(size_t amount) {
  current -= static_cast<int64_t>(amount);
  TORCH_INTERNAL_ASSERT_DEBUG_ONLY(current >= 0, "Negative tracked stat in the CUDA allocator");
  freed += static_cast<int64_t>(amount);
}

std::string format_size(uint64_t size) {
  std::ostringstream os;
  os.precision(2);
  os << std::fixed;
  if (size <= 1024) {
    os << size << " bytes";
  } else if (size <= 1048576) {
    os << static_cast<double>(size) / 1024.0 << " KiB";
  } else if (size <= 1073741824ULL) {
    os << static_cast<double>(size) / 1048576.0 << " MiB";
  } else {
    os << static_cast<double>(size) / 1073741824.0 << " GiB";
  }
  return os.str();
}

size_t round_size(size_t size) {
  if (size < kMinBlockSize) return kMinBlockSize;
  return kMinBlockSize * ((size + kMinBlockSize - 1) / kMinBlockSize);
}

size_t get_allocation_size(size_t size) {
  if (size <= kSmallSize) return kSmallBuffer;
  if (size < kMinLargeAlloc) return kLargeBuffer;
  return kRoundLarge * ((size + kRoundLarge - 1) / kRoundLarge);
}

bool BlockComparator::operator()(const Block* a, const Block* b) const {
  if (a->stream != b->stream) {
    return reinterpret_cast<uintptr_t>(a->stream) < reinterpret_cast<uintptr_t>(b->stream);
  }
  if (a->size != b->size) return a->size < b->size;
  return reinterpret_cast<uintptr_t>(a->ptr) < reinterpret_cast<uintptr_t>(b->ptr);
}

DeviceCachingAllocator::DeviceCachingAllocator(int device, DeviceMemory* memory)
    : device_(device), memory_(memory) {
  TORCH_INTERNAL_ASSERT(memory != nullptr);
}

DeviceCachingAllocator::~DeviceCachingAllocator() {
  for (BlockPool* pool : {&large_blocks_, &small_blocks_}) {
    for (Block* block : pool->blocks) delete block;
  }
  for (Block* block : active_blocks_) delete block;
}

Block* DeviceCachingAllocator::malloc(size_t size, StreamHandle stream) {
  TORCH_INTERNAL_ASSERT(size > 0, "DeviceCachingAllocator::malloc: empty requests are the ",
                        "caller's to serve");
  std::lock_guard<std::mutex> lock(mutex_);
  if (C10_UNLIKELY(size > kMaxRequestSize)) {
    ++stats_.num_ooms;
    TORCH_CHECK_WITH(OutOfMemoryError, false, out_of_memory_message(size));
  }
  process_events();

  const size_t rounded = round_size(size);
  BlockPool& pool = get_pool(rounded);
  Block* block = get_free_block(pool, stream, rounded);
  if (block == nullptr) {
    const size_t alloc_size = get_allocation_size(rounded);
    block = alloc_block(pool, stream, alloc_size, /*is_retry=*/false);
    if (block == nullptr) {
      // See Note [Returning segments to the device].
      release_cached_blocks();
      block = alloc_block(pool, stream, alloc_size, /*is_retry=*/true);
    }
    if (block == nullptr) {
      ++stats_.num_ooms;
      TORCH_CHECK_WITH(OutOfMemoryError, false, out_of_memory_message(alloc_size));
    }
  }
  return alloc_found_block(block, rounded, size);
}

void DeviceCachingAllocator::free(Block* block) {
  std::lock_guard<std::mutex> lock(mutex_);
  TORCH_INTERNAL_ASSERT(block->allocated, "DeviceCachingAllocator::free: block ", block->ptr,
                        " is not allocated");
  block->allocated = false;
  decrease_stat(stats_.allocation, *block->pool, 1);
  decrease_stat(stats_.allocated_bytes, *block->pool, block->size);
  // See Note [Events on free for cross-stream uses].
  if (!block->stream_uses.empty()) {
    insert_events(block);
  } else {
    free_block(block);
  }
}

void DeviceCachingAllocator::record_stream(Block* block, StreamHandle stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  TORCH_INTERNAL_ASSERT(block->allocated, "record_stream on block ", block->ptr,
                        ", which is not allocated");
  // Uses on the allocation stream are ordered by the stream itself.
  if (stream == block->stream) return;
  block->stream_uses.insert(stream);
}

void DeviceCachingAllocator::empty_cache() {
  std::lock_guard<std::mutex> lock(mutex_);
  release_cached_blocks();
}

DeviceStats DeviceCachingAllocator::get_stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

void DeviceCachingAllocator::reset_peak_stats() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (StatArray* array : stat_arrays(stats_)) {
    for (Stat& stat : *array) stat.reset_peak();
  }
}

void DeviceCachingAllocator::reset_accumulated_stats() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (StatArray* array : stat_arrays(stats_)) {
    for (Stat& stat : *array) stat.reset_accumulated();
  }
  stats_.num_alloc_retries = 0;
  stats_.num_ooms = 0;
  stats_.num_sync_all_streams = 0;
  stats_.num_device_alloc = 0;
  stats_.num_device_free = 0;
}

size_t DeviceCachingAllocator::cached_bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  size_t total = 0;
  for (const BlockPool* pool : {&large_blocks_, &small_blocks_}) {
    for (const Block* block : pool->blocks) total += block->size;
  }
  return total;
}

size_t DeviceCachingAllocator::cached_block_count() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return large_blocks_.blocks.size() + small_blocks_.blocks.size();
}

// The smallest cached block of `stream` with at least `size` bytes, taken out of its pool.
Block* DeviceCachingAllocator::get_free_block(BlockPool& pool, StreamHandle stream, size_t size) {
  Block key(device_, stream, size);
  auto it = pool.blocks.lower_bound(&key);
  if (it == pool.blocks.end() || (*it)->stream != stream) return nullptr;
  Block* block = *it;
  pool.blocks.erase(it);
  return block;
}

// A new segment from the device, as one block; nullptr when the device is out of memory.
Block* DeviceCachingAllocator::alloc_block(BlockPool& pool, StreamHandle stream, size_t alloc_size,
                                           bool is_retry) {
  if (is_retry) ++stats_.num_alloc_retries;
  void* ptr = memory_->malloc(device_, alloc_size);
  if (ptr == nullptr) return nullptr;
  ++stats_.num_device_alloc;
  increase_stat(stats_.segment, pool, 1);
  increase_stat(stats_.reserved_bytes, pool, alloc_size);
  return new Block(device_, stream, alloc_size, &pool, ptr);
}

// Hands out the front `size` bytes of a free block (out of any pool), splitting off the rest
// when it is worth keeping.
Block* DeviceCachingAllocator::alloc_found_block(Block* block, size_t size, size_t requested_size) {
  BlockPool& pool = *block->pool;
  const bool already_split = block->is_split();
  if (should_split(*block, size)) {
    Block* remaining = block;
    block = new Block(device_, remaining->stream, size, &pool, remaining->ptr);
    block->prev = remaining->prev;
    if (block->prev != nullptr) block->prev->next = block;
    block->next = remaining;
    remaining->prev = block;
    remaining->ptr = static_cast<char*>(remaining->ptr) + size;
    remaining->size -= size;
    pool.blocks.insert(remaining);
    if (already_split) {
      // An inactive split block shrinks by `size` bytes.
      decrease_stat(stats_.inactive_split_bytes, pool, size);
    } else {
      // A whole segment becomes split: its remainder is a new inactive split block.
      increase_stat(stats_.inactive_split_bytes, pool, remaining->size);
      increase_stat(stats_.inactive_split, pool, 1);
    }
  } else if (already_split) {
    // An inactive split block becomes active whole.
    decrease_stat(stats_.inactive_split_bytes, pool, block->size);
    decrease_stat(stats_.inactive_split, pool, 1);
  }

  block->allocated = true;
  block->requested_size = requested_size;
  active_blocks_.insert(block);
  increase_stat(stats_.allocation, pool, 1);
  increase_stat(stats_.allocated_bytes, pool, block->size);
  increase_stat(stats_.active, pool, 1);
  increase_stat(stats_.active_bytes, pool, block->size);
  increase_stat(stats_.requested_bytes, pool, requested_size);
  return block;
}

// Returns a freed block with no pending events to its pool, merged with its free neighbours.
void DeviceCachingAllocator::free_block(Block* block) {
  TORCH_INTERNAL_ASSERT(!block->allocated && block->event_count == 0 && block->stream_uses.empty());
  BlockPool& pool = *block->pool;
  const size_t original_size = block->size;
  const size_t requested_size = block->requested_size;

  // Each neighbour merged in was an inactive split block; the result is one if still split.
  int64_t net_inactive_split_blocks = 0;
  int64_t net_inactive_split_bytes = 0;
  for (Block* neighbour : {block->prev, block->next}) {
    const size_t subsumed = try_merge_blocks(block, neighbour, pool);
    if (subsumed > 0) {
      net_inactive_split_blocks -= 1;
      net_inactive_split_bytes -= static_cast<int64_t>(subsumed);
    }
  }
  active_blocks_.erase(block);
  const bool inserted = pool.blocks.insert(block).second;
  TORCH_INTERNAL_ASSERT(inserted);
  if (block->is_split()) {
    net_inactive_split_blocks += 1;
    net_inactive_split_bytes += static_cast<int64_t>(block->size);
  }

  if (net_inactive_split_blocks > 0) {
    increase_stat(stats_.inactive_split, pool, static_cast<size_t>(net_inactive_split_blocks));
  } else if (net_inactive_split_blocks < 0) {
    decrease_stat(stats_.inactive_split, pool, static_cast<size_t>(-net_inactive_split_blocks));
  }
  if (net_inactive_split_bytes > 0) {
    increase_stat(stats_.inactive_split_bytes, pool, static_cast<size_t>(net_inactive_split_bytes));
  } else if (net_inactive_split_bytes < 0) {
    decrease_stat(stats_.inactive_split_bytes, pool,
                  static_cast<size_t>(-net_inactive_split_bytes));
  }
  decrease_stat(stats_.active, pool, 1);
  decrease_stat(stats_.active_bytes, pool, original_size);
  decrease_stat(stats_.requested_bytes, pool, requested_size);
}

// Folds `src`, a neighbour of `dst` in their segment, into `dst` if it is cached; returns the
// bytes gained.
size_t DeviceCachingAllocator::try_merge_blocks(Block* dst, Block* src, BlockPool& pool) {
  if (src == nullptr || src->allocated || src->event_count > 0 || !src->stream_uses.empty()) {
    return 0;
  }
  if (dst->prev == src) {
    dst->ptr = src->ptr;
    dst->prev = src->prev;
    if (dst->prev != nullptr) dst->prev->next = dst;
  } else {
    dst->next = src->next;
    if (dst->next != nullptr) dst->next->prev = dst;
  }
  const size_t subsumed = src->size;
  dst->size += subsumed;
  const size_t erased = pool.blocks.erase(src);
  TORCH_INTERNAL_ASSERT(erased == 1);
  delete src;
  return subsumed;
}

// See Note [Events on free for cross-stream uses].
void DeviceCachingAllocator::insert_events(Block* block) {
  std::set<StreamHandle> streams;
  streams.swap(block->stream_uses);
  for (StreamHandle stream : streams) {
    EventHandle event = memory_->record_event(device_, stream);
    ++block->event_count;
    events_[stream].emplace_back(event, block);
  }
}

void DeviceCachingAllocator::process_events() {
  for (auto it = events_.begin(); it != events_.end();) {
    auto& queue = it->second;
    while (!queue.empty() && memory_->query_event(queue.front().first)) {
      const auto [event, block] = queue.front();
      queue.pop_front();
      if (--block->event_count == 0) free_block(block);
      memory_->release_event(event);
    }
    it = queue.empty() ? events_.erase(it) : std::next(it);
  }
}

void DeviceCachingAllocator::synchronize_and_free_events() {
  ++stats_.num_sync_all_streams;
  for (auto& entry : events_) {
    auto& queue = entry.second;
    while (!queue.empty()) {
      const auto [event, block] = queue.front();
      memory_->synchronize_event(event);
      queue.pop_front();
      if (--block->event_count == 0) free_block(block);
      memory_->release_event(event);
    }
  }
  events_.clear();
}

// See Note [Returning segments to the device].
void DeviceCachingAllocator::release_cached_blocks() {
  synchronize_and_free_events();
  std::vector<Block*> segments;  // cached blocks that are whole segments
  for (BlockPool* pool : {&large_blocks_, &small_blocks_}) {
    for (Block* block : pool->blocks) {
      if (!block->is_split()) segments.push_back(block);
    }
  }
  if (segments.empty()) return;  // spares a device-wide wait when nothing is cached
  memory_->synchronize_device(device_);
  for (Block* block : segments) release_block(block);
}

void DeviceCachingAllocator::release_block(Block* block) {
  memory_->free(device_, block->ptr);
  ++stats_.num_device_free;
  BlockPool& pool = *block->pool;
  decrease_stat(stats_.segment, pool, 1);
  decrease_stat(stats_.reserved_bytes, pool, block->size);
  pool.blocks.erase(block);
  delete block;
}

// Note [Out-of-memory text]
// The message is PyTorch 2.x's word for word, on purpose: users search for it and tools parse
// it. As in PyTorch, the size "tried" is the segment asked of the device, so a 1 KiB request
// that needs a new small segment reports 2.00 MiB. Left out of PyTorch's text: the line listing
// the processes using the GPU (PyTorch reads it from NVML) and the closing hint to set
// PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True, since miniaten has neither NVML nor
// expandable segments; likewise the parts on set_per_process_memory_fraction and on CUDA graph
// private pools.
std::string DeviceCachingAllocator::out_of_memory_message(size_t alloc_size) {
  size_t device_free = 0;
  size_t device_total = 0;
  memory_->mem_get_info(device_, &device_free, &device_total);
  const int64_t allocated =
      stats_.allocated_bytes[static_cast<size_t>(StatType::AGGREGATE)].current;
  const int64_t reserved = stats_.reserved_bytes[static_cast<size_t>(StatType::AGGREGATE)].current;
  return str("CUDA out of memory. Tried to allocate ", format_size(alloc_size), ". GPU ", device_,
             " has a total capacity of ", format_size(device_total), " of which ",
             format_size(device_free), " is free. Of the allocated memory ",
             format_size(static_cast<uint64_t>(allocated)), " is allocated by PyTorch, and ",
             format_size(static_cast<uint64_t>(reserved - allocated)),
             " is reserved by PyTorch but unallocated.");
}

}  // namespace CUDACachingAllocator
}  // namespace cuda
}  // namespace c10
