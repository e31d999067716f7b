#include "c10/core/CPUCachingAllocator.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <mutex>
#include <vector>

#include "c10/core/CPUAllocator.h"

#if defined(__SANITIZE_ADDRESS__)
#define MINIATEN_CPU_CACHE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MINIATEN_CPU_CACHE_ASAN 1
#endif
#endif

#ifdef MINIATEN_CPU_CACHE_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

namespace c10 {
namespace cpu {
namespace detail {

namespace {

constexpr size_t kPage = 4096;
constexpr size_t kHugePage = size_t(2) << 20;
// A cached block serves a request it exceeds by at most 1/kMaxSlackDivisor of the request.
constexpr size_t kMaxSlackDivisor = 8;

size_t round_up(size_t n, size_t multiple) {
  return (n + multiple - 1) / multiple * multiple;
}

// A mapping of `size` bytes (a multiple of kPage), 2 MiB-aligned and advised for huge pages
// from 2 MiB up; nullptr with errno set when the OS refuses.
void* map_block(size_t size) {
  const bool huge = size >= kHugePage;
  const size_t span = huge ? size + kHugePage : size;
  void* raw = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  if (!huge) return raw;
  const auto first = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t start = round_up(first, kHugePage);
  const size_t head = start - first;
  const size_t tail = span - head - size;
  if (head > 0) munmap(raw, head);
  if (tail > 0) munmap(reinterpret_cast<void*>(start + size), tail);
  // Advice only: with huge pages off (or "never") the block simply gets 4 KiB pages.
  madvise(reinterpret_cast<void*>(start), size, MADV_HUGEPAGE);
  return reinterpret_cast<void*>(start);
}

}  // namespace

struct Block {
  void* ptr;
  size_t size;  // mapped bytes
  LargeBlockCache::Impl* owner;
  uint64_t freed_at = 0;  // the cache's clock when it was cached: eviction takes the oldest
};

struct LargeBlockCache::Impl {
  Impl(size_t limit, AvailableMemoryFn available) : limit(limit), available(available) {}

  // A cached block that fits `size` (see Note [What the CPU cache holds]), or nullptr.
  Block* take(size_t size) {
    std::lock_guard<std::mutex> lock(mutex);
    ++stats.num_allocations;
    auto it = free_by_size.lower_bound(size);
    if (it == free_by_size.end() || it->first - size > size / kMaxSlackDivisor) return nullptr;
    Block* block = it->second;
    free_by_size.erase(it);
    stats.cached_bytes -= static_cast<int64_t>(block->size);
    stats.allocated_bytes += static_cast<int64_t>(block->size);
    ++stats.num_cache_hits;
    UNPOISON(block->ptr, block->size);
    return block;
  }

  // Keeps `block` for reuse, or gives it back to the OS, with whatever the limit evicts.
  void release(Block* block) {
    unmap_after([&](std::vector<Block*>* unmap) {
      stats.allocated_bytes -= static_cast<int64_t>(block->size);
      const size_t cached = static_cast<size_t>(stats.cached_bytes);
      if (block->size > limit) {
        unmap->push_back(block);
      } else if (available() / 2 < cached + block->size) {
        ++stats.num_pressure_releases;
        take_all(unmap);
        unmap->push_back(block);
      } else {
        evict_to_fit(block->size, unmap);
        block->freed_at = ++clock;
        POISON(block->ptr, block->size);
        free_by_size.emplace(block->size, block);
        stats.cached_bytes += static_cast<int64_t>(block->size);
        if (stats.cached_bytes > stats.peak_cached_bytes) {
          stats.peak_cached_bytes = stats.cached_bytes;
        }
      }
    });
  }

  void empty_cache() {
    unmap_after([&](std::vector<Block*>* unmap) { take_all(unmap); });
  }

  void set_limit(size_t bytes) {
    unmap_after([&](std::vector<Block*>* unmap) {
      limit = bytes;
      evict_to_fit(0, unmap);
    });
  }

  // Runs take(&blocks) with the mutex held, counts the blocks it took out of the cache, and
  // gives them back to the OS once the mutex is released (munmap is slow).
  template <typename F>
  void unmap_after(F take) {
    std::vector<Block*> unmap;
    {
      std::lock_guard<std::mutex> lock(mutex);
      take(&unmap);
      stats.num_unmaps += static_cast<int64_t>(unmap.size());
    }
    for (Block* block : unmap) {
      UNPOISON(block->ptr, block->size);
      munmap(block->ptr, block->size);
      delete block;
    }
  }

  // The least recently cached blocks, out of the cache until `room` more bytes fit under the
  // limit (mutex held).
  void evict_to_fit(size_t room, std::vector<Block*>* out) {
    while (!free_by_size.empty() && static_cast<size_t>(stats.cached_bytes) + room > limit) {
      auto oldest = free_by_size.begin();
      for (auto it = free_by_size.begin(); it != free_by_size.end(); ++it) {
        if (it->second->freed_at < oldest->second->freed_at) oldest = it;
      }
      out->push_back(oldest->second);
      stats.cached_bytes -= static_cast<int64_t>(oldest->second->size);
      free_by_size.erase(oldest);
    }
  }

  // Every cached block, out of the cache (mutex held).
  void take_all(std::vector<Block*>* out) {
    for (auto& entry : free_by_size) out->push_back(entry.second);
    free_by_size.clear();
    stats.cached_bytes = 0;
  }

  mutable std::mutex mutex;
  size_t limit;
  const AvailableMemoryFn available;
  std::multimap<size_t, Block*> free_by_size;
  uint64_t clock = 0;
  CachingAllocatorStats stats;
};

namespace {

void free_block(void* ctx) {
  auto* block = static_cast<Block*>(ctx);
  block->owner->release(block);
}

}  // namespace

LargeBlockCache::LargeBlockCache(size_t limit, AvailableMemoryFn available)
    : impl_(new Impl(limit, available)) {}

LargeBlockCache::~LargeBlockCache() {
  impl_->empty_cache();
  delete impl_;
}

DataPtr LargeBlockCache::allocate(size_t nbytes) {
  constexpr size_t kMaxRequest = std::numeric_limits<size_t>::max() / 2;
  const size_t size = nbytes <= kMaxRequest ? round_up(nbytes, kPage) : 0;
  Block* block = size > 0 ? impl_->take(size) : nullptr;
  if (block == nullptr) {
    void* ptr = size > 0 ? map_block(size) : nullptr;
    int err = size > 0 ? errno : ENOMEM;
    if (ptr == nullptr && size > 0) {
      // The cached blocks may be what stands in the way: give them back and try once more.
      impl_->empty_cache();
      ptr = map_block(size);
      err = errno;
    }
    if (ptr == nullptr) c10::detail::throw_cpu_out_of_memory(nbytes, err);
    block = new Block{ptr, size, impl_};
    std::lock_guard<std::mutex> lock(impl_->mutex);
    ++impl_->stats.num_maps;
    impl_->stats.allocated_bytes += static_cast<int64_t>(size);
  }
  return {block->ptr, block, &free_block, Device(DeviceType::CPU)};
}

void LargeBlockCache::empty_cache() {
  impl_->empty_cache();
}

void LargeBlockCache::set_limit(size_t bytes) {
  impl_->set_limit(bytes);
}

size_t LargeBlockCache::limit() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->limit;
}

CachingAllocatorStats LargeBlockCache::stats() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->stats;
}

namespace {

// MemAvailable from /proc/meminfo, read at most every 100 ms (a large free asks each time);
// "unlimited" when it cannot be read.
size_t meminfo_available() {
  using Clock = std::chrono::steady_clock;
  constexpr int64_t kNever = std::numeric_limits<int64_t>::min();
  static std::atomic<int64_t> read_at{kNever};
  static std::atomic<size_t> value{std::numeric_limits<size_t>::max()};
  const int64_t now =
      std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now().time_since_epoch())
          .count();
  const int64_t last = read_at.load(std::memory_order_relaxed);
  if (last != kNever && now - last < 100) return value.load(std::memory_order_relaxed);
  read_at.store(now, std::memory_order_relaxed);
  size_t available = std::numeric_limits<size_t>::max();
  const int fd = ::open("/proc/meminfo", O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    char buf[4096];
    const ssize_t n = ::read(fd, buf, sizeof(buf) - 1);
    ::close(fd);
    if (n > 0) {
      buf[n] = '\0';
      if (const char* line = std::strstr(buf, "MemAvailable:")) {
        available = std::strtoull(line + std::strlen("MemAvailable:"), nullptr, 10) * 1024;
      }
    }
  }
  value.store(available, std::memory_order_relaxed);
  return available;
}

// MINIATEN_CPU_CACHE_MB, else an eighth of physical memory.
size_t default_limit() {
  if (const char* env = std::getenv("MINIATEN_CPU_CACHE_MB")) {
    return static_cast<size_t>(std::strtoull(env, nullptr, 10)) << 20;
  }
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return size_t(1) << 30;
  return static_cast<size_t>(pages) * static_cast<size_t>(page_size) / 8;
}

// Never destroyed: tensors may be freed by other static destructors at exit.
LargeBlockCache& process_cache() {
  static auto* cache = new LargeBlockCache(default_limit(), &meminfo_available);
  return *cache;
}

}  // namespace

DataPtr allocate_large(size_t nbytes) {
  return process_cache().allocate(nbytes);
}

}  // namespace detail

CachingAllocatorStats getCachingAllocatorStats() {
  return detail::process_cache().stats();
}

void emptyCache() {
  detail::process_cache().empty_cache();
}

void setCacheLimit(size_t bytes) {
  detail::process_cache().set_limit(bytes);
}

size_t getCacheLimit() {
  return detail::process_cache().limit();
}

}  // namespace cpu
}  // namespace c10
