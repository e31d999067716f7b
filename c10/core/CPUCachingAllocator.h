#pragma once
// Large CPU blocks: mapped on 2 MiB boundaries with transparent huge pages, and cached when
// freed so that the next tensor of that size gets pages that are already faulted in.
//
//   at::Tensor y = x.clone();                        // 64 MB: a cached block, if one fits
//   auto s = c10::cpu::getCachingAllocatorStats();   // s.cached_bytes, s.num_cache_hits ...
//   c10::cpu::emptyCache();                          // every cached block back to the OS
//   c10::cpu::setCacheLimit(0);                      // no caching from now on
//
// The default CPU allocator (CPUAllocator.cpp) sends requests of kLargeAllocation bytes and more
// here; smaller ones go to malloc as before.
//
// Note [Why big CPU tensors come from a cache]
// Above glibc's mmap threshold (32 MB at most) every malloc gets fresh pages from the kernel,
// and each 4 KiB page faults on first touch: measured on the CI machine, writing 64 MB into a
// fresh mapping takes 47 ms where writing it again takes 8.9 ms. So `x.clone()` of a 64 MB
// tensor, or `a + b`, spent five sixths of its time in the kernel. Two remedies, measured
// (64 MB memcpy into the destination, ms):
//
//   | destination                            | 4 KiB pages | huge pages (MADV_HUGEPAGE) |
//   |----------------------------------------|-------------|----------------------------|
//   | fresh mapping                          |        47.0 |                       29.7 |
//   | reused mapping (pages already present) |         8.9 |                        6.5 |
//   | reused after MADV_FREE                 |        12.0 |                        9.6 |
//
// Both help and they add up: a cached, huge-page block is written at memory speed, and huge
// pages also make the first use of a new block cheaper (one fault and one 2 MiB clear per huge
// page) and every later pass faster (fewer TLB misses). So blocks are mapped 2 MiB-aligned
// with madvise(MADV_HUGEPAGE) (the kernel's default "madvise" mode then backs them with huge
// pages) and kept when freed. MADV_FREE on a cached block, which would let the kernel take the
// pages back lazily, was measured and left out: it costs 4.6 ms per 64 MB on 4 KiB pages and
// makes the next use slower; the bound below and emptyCache() do that job.
//
// Note [What the CPU cache holds]
// * A block is mapped with its size rounded up to 4 KiB, and a cached block serves a request
//   it fits with at most 1/8 to spare (kMaxSlackDivisor): a loop that makes tensors of one size
//   reuses one block, and a small request never pins a big block.
// * The cached bytes never exceed the limit: at free, the least recently freed blocks are
//   unmapped until the freed one fits, and a block bigger than the limit is unmapped at once.
//   The limit is an eighth of physical memory unless MINIATEN_CPU_CACHE_MB or setCacheLimit()
//   says otherwise; 0 turns caching off.
// * Under memory pressure the cache lets go: when the system's available memory (MemAvailable,
//   read at most every 100 ms) is under twice what the cache would hold, or when mmap fails,
//   every cached block is unmapped (and mmap is tried again once).
// * Under AddressSanitizer a cached block is poisoned, so a use after free of a big tensor is
//   still reported.

#include <cstddef>
#include <cstdint>

#include "c10/core/Allocator.h"

namespace c10 {
namespace cpu {

// Requests of this many bytes or more are served by the cache's mappings.
constexpr size_t kLargeAllocation = size_t(1) << 20;

struct CachingAllocatorStats {
  int64_t allocated_bytes = 0;        // mapped bytes of the large blocks in use
  int64_t cached_bytes = 0;           // mapped bytes of the freed blocks kept for reuse
  int64_t peak_cached_bytes = 0;      // the most cached_bytes has been
  int64_t num_allocations = 0;        // large requests served
  int64_t num_cache_hits = 0;         // ... by a cached block
  int64_t num_maps = 0;               // blocks mapped from the OS
  int64_t num_unmaps = 0;             // blocks given back to the OS
  int64_t num_pressure_releases = 0;  // times the whole cache was dropped for memory pressure
};

C10_API CachingAllocatorStats getCachingAllocatorStats();
// Gives every cached block back to the OS. Blocks in use are untouched.
C10_API void emptyCache();
// The most bytes the cache may hold; lowering it unmaps blocks until the cache fits.
C10_API void setCacheLimit(size_t bytes);
C10_API size_t getCacheLimit();

namespace detail {

// The process-wide cache's allocation: nbytes >= kLargeAllocation; 64-byte aligned (2 MiB
// aligned from 2 MiB up). Raises OutOfMemoryError with DefaultCPUAllocator's message.
C10_API DataPtr allocate_large(size_t nbytes);

// How much memory the system could still give (MemAvailable); tests substitute their own.
using AvailableMemoryFn = size_t (*)();

// One cache with its own limit and pressure signal, for tests; the process-wide one uses
// /proc/meminfo. See Note [What the CPU cache holds].
class C10_API LargeBlockCache {
 public:
  LargeBlockCache(size_t limit, AvailableMemoryFn available);
  ~LargeBlockCache();  // unmaps the cached blocks; blocks in use must be freed before
  LargeBlockCache(const LargeBlockCache&) = delete;
  LargeBlockCache& operator=(const LargeBlockCache&) = delete;

  DataPtr allocate(size_t nbytes);
  void empty_cache();
  void set_limit(size_t bytes);
  size_t limit() const;
  CachingAllocatorStats stats() const;

  struct Impl;

 private:
  Impl* impl_;
};

}  // namespace detail
}  // namespace cpu
}  // namespace c10
