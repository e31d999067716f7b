#include "c10/cuda/CachingHostAllocatorCore.h"

#include <iterator>
#include <limits>

#include "c10/util/Exception.h"

namespace c10 {
namespace cuda {

namespace {

using CUDACachingAllocator::format_size;

// The largest power of two a size_t holds: bigger requests cannot be rounded.
constexpr size_t kMaxRequestSize = (std::numeric_limits<size_t>::max() >> 1) + 1;

size_t round_up_to_power_of_two(size_t size) {
  size_t rounded = 1;
  while (rounded < size) rounded <<= 1;
  return rounded;
}

}  // namespace

CachingHostAllocatorCore::CachingHostAllocatorCore(HostMemory* memory) : memory_(memory) {
  TORCH_INTERNAL_ASSERT(memory != nullptr);
}

CachingHostAllocatorCore::~CachingHostAllocatorCore() = default;

void* CachingHostAllocatorCore::malloc(size_t size) {
  if (size == 0) return nullptr;
  std::lock_guard<std::mutex> lock(mutex_);
  TORCH_CHECK_WITH(OutOfMemoryError, size <= kMaxRequestSize, "Failed to allocate ",
                   format_size(size), " of pinned host memory (", size, " bytes requested).");
  process_events();

  const size_t rounded = round_up_to_power_of_two(size);
  Block* block = take_free_block(rounded);
  if (block == nullptr) {
    void* ptr = memory_->malloc(rounded);
    if (ptr == nullptr && release_free_blocks()) ptr = memory_->malloc(rounded);
    TORCH_CHECK_WITH(OutOfMemoryError, ptr != nullptr, "Failed to allocate ", format_size(rounded),
                     " of pinned host memory (", size,
                     " bytes requested, rounded up to a power of two).");
    ++stats_.num_host_alloc;
    stats_.segment.increase(1);
    stats_.reserved_bytes.increase(rounded);
    auto owned = std::make_unique<Block>(rounded, ptr);
    block = owned.get();
    blocks_.emplace(reinterpret_cast<uintptr_t>(ptr), std::move(owned));
  }
  block->allocated = true;
  stats_.allocation.increase(1);
  stats_.allocated_bytes.increase(block->size);
  return block->ptr;
}

void CachingHostAllocatorCore::free(void* ptr) {
  if (ptr == nullptr) return;
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = blocks_.find(reinterpret_cast<uintptr_t>(ptr));
  TORCH_INTERNAL_ASSERT(it != blocks_.end() && it->second->allocated,
                        "CachingHostAllocatorCore::free: ", ptr, " is not an allocated block");
  Block* block = it->second.get();
  block->allocated = false;
  stats_.allocation.decrease(1);
  stats_.allocated_bytes.decrease(block->size);
  if (block->streams.empty()) {
    free_blocks_[block->size].push_back(block);
    return;
  }
  // See Note [Pinned memory cache].
  std::set<StreamHandle> streams;
  streams.swap(block->streams);
  for (StreamHandle stream : streams) {
    EventHandle event = memory_->record_event(stream);
    ++block->event_count;
    events_[stream].emplace_back(event, block);
  }
}

bool CachingHostAllocatorCore::record_event(void* ptr, StreamHandle stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = blocks_.find(reinterpret_cast<uintptr_t>(ptr));
  if (it == blocks_.end()) return false;
  Block* block = it->second.get();
  TORCH_INTERNAL_ASSERT(block->allocated, "record_event on pinned block ", ptr,
                        ", which is not allocated");
  block->streams.insert(stream);
  return true;
}

bool CachingHostAllocatorCore::is_pinned(const void* ptr) const {
  const auto address = reinterpret_cast<uintptr_t>(ptr);
  std::lock_guard<std::mutex> lock(mutex_);
  // The last block starting at or before `address`.
  auto it = blocks_.upper_bound(address);
  if (it == blocks_.begin()) return false;
  --it;
  return address < it->first + it->second->size;
}

void CachingHostAllocatorCore::empty_cache() {
  std::lock_guard<std::mutex> lock(mutex_);
  process_events();
  release_free_blocks();
}

HostStats CachingHostAllocatorCore::get_stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

void CachingHostAllocatorCore::reset_peak_stats() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (Stat* stat :
       {&stats_.allocation, &stats_.segment, &stats_.allocated_bytes, &stats_.reserved_bytes}) {
    stat->reset_peak();
  }
}

void CachingHostAllocatorCore::reset_accumulated_stats() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (Stat* stat :
       {&stats_.allocation, &stats_.segment, &stats_.allocated_bytes, &stats_.reserved_bytes}) {
    stat->reset_accumulated();
  }
  stats_.num_host_alloc = 0;
  stats_.num_host_free = 0;
}

size_t CachingHostAllocatorCore::cached_bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  size_t total = 0;
  for (const auto& entry : free_blocks_) total += entry.first * entry.second.size();
  return total;
}

CachingHostAllocatorCore::Block* CachingHostAllocatorCore::take_free_block(size_t size) {
  const auto it = free_blocks_.find(size);
  if (it == free_blocks_.end() || it->second.empty()) return nullptr;
  Block* block = it->second.back();  // the most recently used is likeliest still in cache
  it->second.pop_back();
  return block;
}

// Moves the blocks whose events have all completed to the free lists.
void CachingHostAllocatorCore::process_events() {
  for (auto it = events_.begin(); it != events_.end();) {
    auto& queue = it->second;
    // Events on one stream complete in order: the first pending one ends the scan.
    while (!queue.empty() && memory_->query_event(queue.front().first)) {
      const auto [event, block] = queue.front();
      queue.pop_front();
      if (--block->event_count == 0) free_blocks_[block->size].push_back(block);
      memory_->release_event(event);
    }
    it = queue.empty() ? events_.erase(it) : std::next(it);
  }
}

// Gives every reusable block back to HostMemory; returns whether there was any.
bool CachingHostAllocatorCore::release_free_blocks() {
  bool released = false;
  for (auto& entry : free_blocks_) {
    std::vector<Block*>& list = entry.second;
    while (!list.empty()) {
      Block* block = list.back();
      memory_->free(block->ptr);
      list.pop_back();
      ++stats_.num_host_free;
      stats_.segment.decrease(1);
      stats_.reserved_bytes.decrease(block->size);
      blocks_.erase(reinterpret_cast<uintptr_t>(block->ptr));
      released = true;
    }
  }
  free_blocks_.clear();
  return released;
}

}  // namespace cuda
}  // namespace c10
