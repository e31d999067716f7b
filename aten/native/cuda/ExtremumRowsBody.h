#pragma once
// The lane's part of the GPU argmax/argmin (cuda/ExtremumRowsKernel.cu) as host-device
// functions: the scan of its own elements, the rule two lanes combine by (Note [The first
// extremum, found by a warp]), the split of long rows into chunks and the walk over the chunks'
// candidates (Note [Few long rows: chunks, then their candidates]). The CPU tests run every
// lane's scan, the warp's butterfly and the candidates' combine with these same functions and
// compare with the CPU kernel on rows with ties and NaN.

#include <cstdint>
#include <type_traits>

#include "aten/OpMathType.h"
#include "c10/util/Macros.h"

namespace at {
namespace native {
namespace gpu {

constexpr int kExtremumWarp = 32;

// What a lane compares in: narrow integers and Bool as int (the narrowest type a shuffle
// moves), Half and BFloat16 as float.
template <typename T>
using extremum_acc_t =
    std::conditional_t<std::is_integral<T>::value && sizeof(T) < 4, int, at::opmath_type<T>>;

template <typename A>
C10_HOST_DEVICE bool extremum_is_nan(A v) {
  if constexpr (std::is_floating_point<A>::value) {
    return v != v;
  } else {
    return false;
  }
}

// Whether (va, ia) wins over (vb, ib): a NaN beats a number, a better value a worse one, and
// between equals (or two NaNs) the lower index wins.
template <typename A, bool kMax>
C10_HOST_DEVICE bool extremum_wins(A va, int64_t ia, A vb, int64_t ib) {
  const bool na = extremum_is_nan(va), nb = extremum_is_nan(vb);
  if (na || nb) return na && (!nb || ia < ib);
  if (kMax ? va > vb : va < vb) return true;
  if (kMax ? va < vb : va > vb) return false;
  return ia < ib;
}

template <typename A>
struct ExtremumCandidate {
  int64_t index;  // n: the lane holds no element
  A value;
};

// Lane `lane`'s first best of elements begin + lane, begin + lane + 32, ... (before end) of a
// row of n; index n when it has none. No early exit at a NaN: a NaN held loses to nothing after
// it, and a loop without one can keep several loads in flight.
template <typename T, bool kMax>
C10_HOST_DEVICE ExtremumCandidate<extremum_acc_t<T>> extremum_lane_scan(const T* row, int64_t begin,
                                                                        int64_t end, int64_t n,
                                                                        int lane) {
  using A = extremum_acc_t<T>;
  const int64_t first = begin + lane;
  ExtremumCandidate<A> best{first < end ? first : n,
                            first < end ? static_cast<A>(row[first]) : A(0)};
  for (int64_t i = first + kExtremumWarp; i < end; i += kExtremumWarp) {
    const A v = static_cast<A>(row[i]);
    if (extremum_wins<A, kMax>(v, i, best.value, best.index)) best = {i, v};
  }
  return best;
}

// The candidate a lane keeps after meeting `other`: a lane without an element loses to every
// lane with one.
template <typename A, bool kMax>
C10_HOST_DEVICE ExtremumCandidate<A> extremum_combine(const ExtremumCandidate<A>& mine,
                                                      const ExtremumCandidate<A>& other,
                                                      int64_t n) {
  const bool other_wins =
      mine.index >= n ||
      (other.index < n && extremum_wins<A, kMax>(other.value, other.index, mine.value, mine.index));
  return other_wins ? other : mine;
}

// Note [Few long rows: chunks, then their candidates]
// A warp per row leaves the GPU idle when the rows are few and long (argmax of a whole tensor
// is one row). Then each row is cut into chunks of chunk_len elements (a multiple of 32), a
// warp per chunk finds the chunk's first best as above and writes it as a candidate, and a
// second kernel gives each row a block of extremum_candidate_threads(chunks) threads: thread t
// combines candidates t, t + threads, ..., the warps' butterflies combine those, and warp 0
// combines the warps'. The combining rule picks the row's first best in any grouping, so the
// answer is the CPU's. The chunks are sized for about kExtremumTargetWarps warps in all, and
// at least kExtremumMinChunk elements each (the candidates' pass must stay small beside it);
// rows enough to give a quarter of those warps on their own are not split (splitting them
// would add a second pass for little more parallelism).
constexpr int64_t kExtremumTargetWarps = 16384;  // H100/H200: 132 SMs x 64 warps, twice over
constexpr int64_t kExtremumMinChunk = 2048;      // 64 elements a lane
constexpr int kCandidateThreads = 1024;

struct ExtremumSplit {
  int64_t chunks;     // per row; 1: a warp per row, no second pass
  int64_t chunk_len;  // elements, a multiple of 32 (n when chunks == 1)
};

inline ExtremumSplit extremum_split(int64_t rows, int64_t n,
                                    int64_t min_chunk = kExtremumMinChunk) {
  if (rows * 4 >= kExtremumTargetWarps) return {1, n};
  const int64_t by_work = (n + min_chunk - 1) / min_chunk;
  const int64_t by_warps = (kExtremumTargetWarps + rows - 1) / rows;
  const int64_t wanted = by_work < by_warps ? by_work : by_warps;
  if (wanted <= 1) return {1, n};
  int64_t len = (n + wanted - 1) / wanted;
  len = (len + kExtremumWarp - 1) / kExtremumWarp * kExtremumWarp;
  return {(n + len - 1) / len, len};
}

// The candidates' block: a warp for each 32 candidates, up to kCandidateThreads.
inline int extremum_candidate_threads(int64_t chunks) {
  const int64_t warps = (chunks + kExtremumWarp - 1) / kExtremumWarp;
  return static_cast<int>(warps * kExtremumWarp < kCandidateThreads ? warps * kExtremumWarp
                                                                    : kCandidateThreads);
}

// Thread `thread`'s combine of a row's candidates thread, thread + stride, ... of `count`
// (index n: no element).
template <typename A, bool kMax>
C10_HOST_DEVICE ExtremumCandidate<A> extremum_candidates_scan(const int64_t* indices,
                                                              const A* values, int64_t count,
                                                              int64_t n, int thread, int stride) {
  ExtremumCandidate<A> best{n, A(0)};
  for (int64_t c = thread; c < count; c += stride) {
    best = extremum_combine<A, kMax>(best, ExtremumCandidate<A>{indices[c], values[c]}, n);
  }
  return best;
}

}  // namespace gpu
}  // namespace native
}  // namespace at
