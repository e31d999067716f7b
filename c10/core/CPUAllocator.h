#pragma once
// The default CPU allocator: 64-byte aligned (one cache line, enough for AVX-512 loads).

#include "c10/core/Allocator.h"

namespace c10 {

constexpr size_t gAlignment = 64;

// Raises c10::OutOfMemoryError with the byte count when the memory cannot be had.
C10_API void* alloc_cpu(size_t nbytes);
C10_API void free_cpu(void* data);

namespace detail {
// DefaultCPUAllocator's out-of-memory error: "... you tried to allocate N bytes. Error code E
// (...)".
[[noreturn]] C10_API void throw_cpu_out_of_memory(size_t nbytes, int err);
}  // namespace detail

// The default allocator: malloc for small blocks (Note [Small CPU allocations]), posix_memalign
// up to cpu::kLargeAllocation, cached huge-page mappings above (CPUCachingAllocator.h).
C10_API Allocator* GetDefaultCPUAllocator();
C10_API Allocator* GetCPUAllocator();

}  // namespace c10
