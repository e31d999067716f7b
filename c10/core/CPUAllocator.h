#pragma once
// The default CPU allocator: 64-byte aligned (one cache line, enough for AVX-512 loads).

#include "c10/core/Allocator.h"

namespace c10 {

constexpr size_t gAlignment = 64;

// Raises c10::OutOfMemoryError with the byte count when the memory cannot be had.
C10_API void* alloc_cpu(size_t nbytes);
C10_API void free_cpu(void* data);

C10_API Allocator* GetDefaultCPUAllocator();
C10_API Allocator* GetCPUAllocator();

}  // namespace c10
