// index_select's row gather (index_select_stub, Note [Indexing along one dim] in Indexing.cpp).
// Compiled once per CPU capability (miniaten_add_cpu_kernels in aten/CMakeLists.txt).
//
// Note [Gathered rows are prefetched]
// Each result row is a run of bytes read from a row the index picks at random, so the hardware
// prefetchers cannot guess the next one, and a memcpy per row waits on one row's cache misses at
// a time. The gather asks for the row kPrefetchDistance ahead, all of it up to
// kPrefetchRunLimit bytes, so that the misses of that many rows are in flight while the current
// one is copied; longer runs are read sequentially, and the prefetchers follow them. Where the
// result is at least kStreamingBytes and its rows are whole cache lines, they are written with
// streaming stores (Note [Streaming stores]): the output is too big to stay in the cache, and
// an ordinary store would read each line before writing it. Tried on a 2-core Zen 4 with
// 10^5 rows of 256 bytes from 2 x 10^5: distances 8 to 32 were alike, 4 did half as well.

#include <cstdint>
#include <cstring>

#include "aten/Parallel.h"
#include "aten/native/Indexing.h"
#include "aten/native/cpu/StreamingCopy.h"

namespace at {
namespace native {
inline namespace CPU_CAPABILITY {

namespace {

constexpr int64_t kPrefetchDistance = 16;
constexpr int64_t kPrefetchRunLimit = 1024;
constexpr int64_t kCacheLine = 64;

template <bool kStream>
void gather_rows(const RowGather& g, int64_t begin, int64_t end) {
  const auto source_row = [&g](int64_t r) {
    return g.in + ((r / g.n) * g.size + g.index[r % g.n]) * g.run;
  };
  const int64_t lines = g.run <= kPrefetchRunLimit ? (g.run + kCacheLine - 1) / kCacheLine : 0;
  for (int64_t r = begin; r < end; ++r) {
    if (r + kPrefetchDistance < end) {
      const char* ahead = source_row(r + kPrefetchDistance);
      for (int64_t l = 0; l < lines; ++l) __builtin_prefetch(ahead + l * kCacheLine);
    }
    if (kStream) {
      streaming_copy_unfenced(g.out + r * g.run, source_row(r), g.run);
    } else {
      std::memcpy(g.out + r * g.run, source_row(r), static_cast<size_t>(g.run));
    }
  }
  if (kStream) streaming_fence();
}

void index_select_kernel(const RowGather& g) {
  const int64_t rows = g.outer * g.n;
  const bool stream = kCanStream && rows * g.run >= kStreamingBytes && g.run % kCacheLine == 0 &&
                      reinterpret_cast<uintptr_t>(g.out) % kCacheLine == 0;
  at::parallel_for(0, rows, g.grain, [&](int64_t begin, int64_t end) {
    if (stream) {
      gather_rows<true>(g, begin, end);
    } else {
      gather_rows<false>(g, begin, end);
    }
  });
}

}  // namespace

REGISTER_DISPATCH(index_select_stub, &index_select_kernel);

}  // namespace CPU_CAPABILITY
}  // namespace native
}  // namespace at
