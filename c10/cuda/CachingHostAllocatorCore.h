#pragma once
// The bookkeeping of the pinned (page-locked) host memory caching allocator (libtorch's
// CachingHostAllocator), with CUDA behind an interface as in CachingAllocatorCore.h.
//
//   CudaHostMemory memory;                     // a HostMemory over cudaHostAlloc, cudaEvent...
//   CachingHostAllocatorCore alloc(&memory);
//   void* p = alloc.malloc(nbytes);            // page-locked; nbytes rounded up to 2^k
//   cudaMemcpyAsync(dst, p, nbytes, cudaMemcpyHostToDevice, stream);
//   alloc.record_event(p, stream);             // the copy reads p on `stream`
//   alloc.free(p);                             // reusable once the copy is done
//
// Note [Pinned memory cache]
// cudaHostAlloc pins and maps pages, which is slow (a system call, and often a device-wide
// synchronization), so freed blocks are cached for reuse. Sizes are rounded up to a power of two
// and a cached block serves only requests of its own rounded size: no splitting, no merging, at
// most twice the memory asked for.
// Pinned memory is mostly a staging area for asynchronous copies, which may still be reading or
// writing it when the host frees it. Device memory can be reused at once by the same stream (see
// Note [Blocks belong to a stream]), but the next user of a host block is the CPU, which is
// ordered after nothing. So free() records an event on every stream the block was used on
// (record_event), and the block becomes reusable only once all of them complete.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <utility>
#include <vector>

#include "c10/cuda/CachingAllocatorCore.h"

namespace c10 {
namespace cuda {

using CUDACachingAllocator::EventHandle;
using CUDACachingAllocator::Stat;
using CUDACachingAllocator::StreamHandle;

// How the allocator reaches CUDA. All calls are made with the allocator's mutex held, so none
// may call back into the allocator.
class C10_API HostMemory {
 public:
  virtual ~HostMemory() = default;
  // Page-locked memory (cudaHostAlloc); nullptr on failure.
  virtual void* malloc(size_t size) = 0;
  virtual void free(void* ptr) = 0;
  // An event recorded now on `stream`.
  virtual EventHandle record_event(StreamHandle stream) = 0;
  virtual bool query_event(EventHandle event) = 0;    // true once complete
  virtual void release_event(EventHandle event) = 0;  // the allocator is done with it
};

// libtorch's HostStats, less the timings.
struct HostStats {
  Stat allocation;             // COUNT: blocks handed out and not yet freed
  Stat segment;                // COUNT: blocks obtained from HostMemory, cached ones included
  Stat allocated_bytes;        // SUM: bytes of the blocks handed out (rounded sizes)
  Stat reserved_bytes;         // SUM: bytes obtained from HostMemory
  int64_t num_host_alloc = 0;  // successful HostMemory::malloc calls
  int64_t num_host_free = 0;   // HostMemory::free calls
};

// The caching allocator of pinned host memory. Every public method is thread-safe.
class C10_API CachingHostAllocatorCore {
 public:
  // `memory` must outlive the allocator.
  explicit CachingHostAllocatorCore(HostMemory* memory);
  // Forgets the bookkeeping without calling CUDA, like ~DeviceCachingAllocator.
  ~CachingHostAllocatorCore();
  C10_DISABLE_COPY_AND_ASSIGN(CachingHostAllocatorCore);

  // At least `size` bytes of pinned memory; nullptr for size 0. Throws c10::OutOfMemoryError
  // when HostMemory fails even after the cache is emptied.
  void* malloc(size_t size);
  // Returns a pointer from malloc (nullptr is ignored). See Note [Pinned memory cache].
  void free(void* ptr);
  // Records that the allocated block starting at `ptr` is used on `stream`. False when `ptr`
  // does not start one of this allocator's blocks (ordinary pageable memory, for instance).
  bool record_event(void* ptr, StreamHandle stream);
  // Whether `ptr` points into a block of this allocator, handed out or cached.
  bool is_pinned(const void* ptr) const;
  // Frees every cached block whose events have completed.
  void empty_cache();

  HostStats get_stats() const;
  void reset_peak_stats();
  void reset_accumulated_stats();
  // Bytes of the blocks ready for reuse.
  size_t cached_bytes() const;

 private:
  struct Block {
    Block(size_t size, void* ptr) : size(size), ptr(ptr) {}
    size_t size;  // a power of two
    void* ptr;
    bool allocated = false;
    std::set<StreamHandle> streams;  // streams it was used on since it was handed out
    int event_count = 0;             // events to complete before it is reusable
  };

  // Everything below runs with mutex_ held.
  Block* take_free_block(size_t size);
  void process_events();
  bool release_free_blocks();

  HostMemory* const memory_;
  mutable std::mutex mutex_;
  // Every block, handed out or cached, by start address.
  std::map<uintptr_t, std::unique_ptr<Block>> blocks_;
  // The reusable blocks of each size, the most recently freed last.
  std::map<size_t, std::vector<Block*>> free_blocks_;
  // Pending events per stream, in record order, with the block each one holds back.
  std::map<StreamHandle, std::deque<std::pair<EventHandle, Block*>>> events_;
  HostStats stats_;
};

}  // namespace cuda
}  // namespace c10
