#pragma once
// Copies of runs of bytes with non-temporal stores (Note [Streaming stores] in CopyTranspose.h),
// for the kernels that write outputs far larger than the cache a run at a time: the copy
// kernel's dense case (CopyKernel.cpp) and index_select's rows (IndexSelectKernel.cpp).
// Included by kernels compiled once per CPU capability only.

#include <algorithm>
#include <cstdint>
#include <cstring>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

namespace at {
namespace native {
inline namespace CPU_CAPABILITY {

// Outputs at least this large use streaming stores. glibc 2.38 and later switch memcpy to
// non-temporal stores at about a quarter of the last-level cache; this is that for a 32 MiB L3.
// (The glibc 2.36 of the machine this was measured on, a VM whose CPUID reports a 320 MiB L3,
// would not stream below 240 MiB.)
constexpr int64_t kStreamingBytes = int64_t{8} << 20;

#if defined(__AVX2__)
constexpr bool kCanStream = true;

// memcpy with non-temporal stores: ordinary stores up to dst's first 32-byte boundary, then
// four aligned 32-byte streaming stores per step, then the tail. The streaming stores are not
// ordered with later stores until streaming_fence().
inline void streaming_copy_unfenced(char* dst, const char* src, int64_t n) {
  const int64_t head = std::min<int64_t>(n, (32 - reinterpret_cast<uintptr_t>(dst) % 32) % 32);
  std::memcpy(dst, src, static_cast<size_t>(head));
  int64_t k = head;
  for (; k + 128 <= n; k += 128) {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + k));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + k + 32));
    const __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + k + 64));
    const __m256i d = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + k + 96));
    _mm256_stream_si256(reinterpret_cast<__m256i*>(dst + k), a);
    _mm256_stream_si256(reinterpret_cast<__m256i*>(dst + k + 32), b);
    _mm256_stream_si256(reinterpret_cast<__m256i*>(dst + k + 64), c);
    _mm256_stream_si256(reinterpret_cast<__m256i*>(dst + k + 96), d);
  }
  std::memcpy(dst + k, src + k, static_cast<size_t>(n - k));
}

// Orders the streaming stores before everything the thread stores after it (the output is then
// safe to hand to another thread).
inline void streaming_fence() {
  _mm_sfence();
}
#else
constexpr bool kCanStream = false;

inline void streaming_copy_unfenced(char* dst, const char* src, int64_t n) {
  std::memcpy(dst, src, static_cast<size_t>(n));
}

inline void streaming_fence() {}
#endif

inline void streaming_memcpy(char* dst, const char* src, int64_t n) {
  streaming_copy_unfenced(dst, src, n);
  streaming_fence();
}

}  // namespace CPU_CAPABILITY
}  // namespace native
}  // namespace at
