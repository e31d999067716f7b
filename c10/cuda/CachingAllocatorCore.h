#pragma once
// The bookkeeping of the CUDA caching allocator (libtorch's c10/cuda/CUDACachingAllocator.cpp),
// with the device behind an interface so that every policy here is testable without a GPU.
//
//   CudaDeviceMemory memory;                    // a DeviceMemory over cudaMalloc, cudaEvent...
//   DeviceCachingAllocator alloc(/*device=*/0, &memory);
//   Block* b = alloc.malloc(nbytes, stream);    // b->ptr, b->size (nbytes rounded up)
//   alloc.record_stream(b, other_stream);       // b is also used on other_stream
//   alloc.free(b);                              // cached; reused once other_stream is past it
//   alloc.empty_cache();                        // gives wholly free segments back to the device
//
// Nothing here includes CUDA: a StreamHandle is a cudaStream_t and an EventHandle a cudaEvent_t,
// both opaque to the allocator. The tests drive it with a fake DeviceMemory.
//
// Note [Small and large pools]
// cudaMalloc is slow (it may synchronize the device) and its memory cannot be partly returned,
// so the allocator asks for memory in segments and carves blocks out of them:
//  * Every size is rounded up to kMinBlockSize (512 bytes), so any remainder is a usable block.
//  * Requests up to kSmallSize (1 MiB) share kSmallBuffer (2 MiB) segments in the small pool:
//    many small tensors cost one cudaMalloc, and they do not fragment the large segments.
//  * Larger requests use the large pool. Those under kMinLargeAlloc (10 MiB) get a kLargeBuffer
//    (20 MiB) segment, so a few mid-size tensors share one; bigger ones get a segment of their
//    own size rounded up to kRoundLarge (2 MiB).
//  * A block is split only if the remainder can serve a later request of its pool: any 512
//    bytes in the small pool, but more than kSmallSize in the large pool, because requests of
//    kSmallSize or less never come to the large pool. Otherwise the caller gets the whole block.
//  * A freed block merges with free neighbours of its segment, so a segment whose blocks are
//    all free is one block again and can be returned to the device.
//
// Note [Blocks belong to a stream]
// Freeing a block only means the host is done with it: kernels using it may still be queued.
// Work on one stream runs in order, so the block can be handed to the next request on the same
// stream at once: that request's kernels queue behind the old ones. Another stream has no such
// ordering, so a cached block is reused only by its own stream; the pools are ordered by
// (stream, size, ptr), and the first block at or after (stream, size, nullptr) is the smallest
// one of that stream that fits.
//
// Note [Events on free for cross-stream uses]
// A block used on a second stream (record_stream) may still be read or written there after it
// is freed. So free() records an event on each such stream, keeps the block out of the pools
// while the events are pending, and returns it when the last one completes. Every malloc first
// collects completed events, stream by stream in record order: events on one stream complete in
// order, so the first pending one ends that stream's scan.
//
// Note [Returning segments to the device]
// Only a segment that is one free block (no prev, no next) can be freed, since cudaFree takes
// whole allocations. Blocks are reused in stream order (see Note [Blocks belong to a stream]),
// so a cached block may still be in use by queued kernels: the device is synchronized before
// memory goes back to it. This happens in empty_cache() and when the device runs out of memory
// (the allocation is retried once after freeing every such segment).

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <unordered_set>
#include <utility>

#include "c10/util/Macros.h"

namespace c10 {
namespace cuda {
namespace CUDACachingAllocator {

// See Note [Small and large pools].
constexpr size_t kMinBlockSize = 512;        // every size is rounded up to a multiple of this
constexpr size_t kSmallSize = 1048576;       // largest request served by the small pool
constexpr size_t kSmallBuffer = 2097152;     // the size of a small pool segment
constexpr size_t kLargeBuffer = 20971520;    // the segment for requests under kMinLargeAlloc
constexpr size_t kMinLargeAlloc = 10485760;  // requests this big get a segment of their own
constexpr size_t kRoundLarge = 2097152;      // ... rounded up to a multiple of this

// A statistic as libtorch keeps it: the current value, its peak since the last
// reset_peak_stats(), and the totals added and removed since the last reset_accumulated_stats().
struct Stat {
  void increase(size_t amount);
  void decrease(size_t amount);
  void reset_accumulated() {
    allocated = 0;
    freed = 0;
  }
  void reset_peak() { peak = current; }

  int64_t current = 0;
  int64_t peak = 0;
  int64_t allocated = 0;
  int64_t freed = 0;
};

enum struct StatType : uint64_t {
  AGGREGATE = 0,
  SMALL_POOL = 1,
  LARGE_POOL = 2,
  NUM_TYPES = 3  // remember to update this whenever a new stat type is added
};

using StatArray = std::array<Stat, static_cast<size_t>(StatType::NUM_TYPES)>;

// The allocator's statistics for one device, with libtorch 2.x's names and meanings
// (torch.cuda.memory_stats()). Each StatArray is indexed by StatType.
struct DeviceStats {
  StatArray allocation;            // COUNT: blocks handed out by malloc and not yet freed
  StatArray segment;               // COUNT: segments obtained from the device
  StatArray active;                // COUNT: blocks allocated, or freed but awaiting events
  StatArray inactive_split;        // COUNT: free blocks in segments that are split
  StatArray allocated_bytes;       // SUM: bytes of the blocks handed out (rounded sizes)
  StatArray reserved_bytes;        // SUM: bytes obtained from the device (cached included)
  StatArray active_bytes;          // SUM: bytes of the active blocks
  StatArray inactive_split_bytes;  // SUM: bytes of the inactive split blocks
  StatArray requested_bytes;       // SUM: the sizes the callers asked for, before rounding

  int64_t num_alloc_retries = 0;     // device mallocs retried after freeing cached segments
  int64_t num_ooms = 0;              // out-of-memory errors raised
  int64_t num_sync_all_streams = 0;  // waits for all pending events (empty_cache, OOM retry)
  int64_t num_device_alloc = 0;      // successful device mallocs
  int64_t num_device_free = 0;       // device frees
};

// libtorch's human-readable size: "512 bytes", "1.50 KiB", "20.00 MiB", "3.00 GiB".
C10_API std::string format_size(uint64_t size);

// The size a request is served with: at least kMinBlockSize, a multiple of it.
C10_API size_t round_size(size_t size);
// The segment asked of the device for a (rounded) request. See Note [Small and large pools].
C10_API size_t get_allocation_size(size_t size);

using StreamHandle = void*;  // a cudaStream_t; nullptr is the legacy default stream
using EventHandle = void*;   // a cudaEvent_t

// How the allocator reaches the device. All calls are made with the allocator's mutex held,
// so none may call back into the allocator.
class C10_API DeviceMemory {
 public:
  virtual ~DeviceMemory() = default;
  // nullptr when the device is out of memory; throws c10::Error on any other failure.
  virtual void* malloc(int device, size_t size) = 0;
  virtual void free(int device, void* ptr) = 0;
  virtual void mem_get_info(int device, size_t* free, size_t* total) = 0;
  // An event recorded now on `stream` (created or taken from a cache by the implementation).
  virtual EventHandle record_event(int device, StreamHandle stream) = 0;
  virtual bool query_event(EventHandle event) = 0;        // true once complete
  virtual void synchronize_event(EventHandle event) = 0;  // waits for it
  virtual void release_event(EventHandle event) = 0;      // the allocator is done with it
  virtual void synchronize_device(int device) = 0;        // before cached segments are freed
};

struct BlockPool;

// A piece of a segment: handed out (allocated), cached in its pool, or freed but waiting for
// events. Callers read ptr and size; everything else belongs to the allocator.
struct Block {
  Block(int device, StreamHandle stream, size_t size, BlockPool* pool, void* ptr)
      : device(device), stream(stream), size(size), pool(pool), ptr(ptr) {}
  // A search key: sorts before every block of this stream with at least this size.
  Block(int device, StreamHandle stream, size_t size)
      : Block(device, stream, size, nullptr, nullptr) {}

  bool is_split() const { return prev != nullptr || next != nullptr; }

  int device;
  StreamHandle stream;                 // the stream it was allocated on
  size_t size;                         // bytes, a multiple of kMinBlockSize
  size_t requested_size = 0;           // what the caller asked for
  BlockPool* pool;                     // the pool it belongs to
  void* ptr;                           // device address
  bool allocated = false;              // handed out and not yet freed
  Block* prev = nullptr;               // the block before it in its segment, if split
  Block* next = nullptr;               // the block after it in its segment, if split
  std::set<StreamHandle> stream_uses;  // other streams it was used on (record_stream)
  int event_count = 0;                 // events that must complete before it is reusable
};

// Orders blocks by (stream, size, ptr). See Note [Blocks belong to a stream].
struct BlockComparator {
  bool operator()(const Block* a, const Block* b) const;
};

// The cached free blocks of one pool, all streams together.
struct BlockPool {
  explicit BlockPool(bool small) : is_small(small) {}
  std::set<Block*, BlockComparator> blocks;
  const bool is_small;
};

// The caching allocator of one device. Every public method is thread-safe.
class C10_API DeviceCachingAllocator {
 public:
  // `memory` must outlive the allocator.
  DeviceCachingAllocator(int device, DeviceMemory* memory);
  // Forgets the bookkeeping without calling the device: the process-wide allocators, like
  // libtorch's, are never destroyed (CUDA may be gone at exit). Call empty_cache() first to give
  // cached memory back; blocks still handed out must not be used afterwards.
  ~DeviceCachingAllocator();
  C10_DISABLE_COPY_AND_ASSIGN(DeviceCachingAllocator);

  // A block of at least `size` bytes (size > 0; callers handle empty requests), usable on
  // `stream`. Throws c10::OutOfMemoryError when the device has no room even after the cache is
  // emptied. See Note [Out-of-memory text] in the .cpp.
  Block* malloc(size_t size, StreamHandle stream);
  // Returns a block from malloc. See Note [Events on free for cross-stream uses].
  void free(Block* block);
  // Records that an allocated block is used on `stream` too (its own stream is ignored).
  void record_stream(Block* block, StreamHandle stream);
  // Waits for pending events, then frees every cached segment that is wholly free.
  void empty_cache();

  DeviceStats get_stats() const;
  void reset_peak_stats();
  void reset_accumulated_stats();

  // Bytes, and number, of the cached free blocks in both pools (awaiting events not included).
  size_t cached_bytes() const;
  size_t cached_block_count() const;

 private:
  // Everything below runs with mutex_ held.
  BlockPool& get_pool(size_t size) { return size <= kSmallSize ? small_blocks_ : large_blocks_; }
  Block* get_free_block(BlockPool& pool, StreamHandle stream, size_t size);
  Block* alloc_block(BlockPool& pool, StreamHandle stream, size_t alloc_size, bool is_retry);
  Block* alloc_found_block(Block* block, size_t size, size_t requested_size);
  void free_block(Block* block);
  size_t try_merge_blocks(Block* dst, Block* src, BlockPool& pool);
  void insert_events(Block* block);
  void process_events();
  void synchronize_and_free_events();
  void release_cached_blocks();
  void release_block(Block* block);
  std::string out_of_memory_message(size_t alloc_size);

  const int device_;
  DeviceMemory* const memory_;
  mutable std::mutex mutex_;
  DeviceStats stats_;
  BlockPool large_blocks_{false};
  BlockPool small_blocks_{true};
  // Blocks handed out, or freed and awaiting events: the ones in no pool.
  std::unordered_set<Block*> active_blocks_;
  // Pending events per stream, in record order, with the block each one holds back.
  std::map<StreamHandle, std::deque<std::pair<EventHandle, Block*>>> events_;
};

}  // namespace CUDACachingAllocator
}  // namespace cuda
}  // namespace c10
