#pragma once
// The lane's part of the GPU argmax/argmin (cuda/ExtremumRowsKernel.cu) as host-device
// functions: the scan of its own elements and the rule two lanes combine by, Note [The first
// extremum, found by a warp]. The CPU tests run every lane's scan and the warp's butterfly
// combine with these same functions and compare with the CPU kernel on rows with ties and NaN.

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

// Lane `lane`'s first best of elements lane, lane + 32, ... of a row of n; a NaN ends its walk.
template <typename T, bool kMax>
C10_HOST_DEVICE ExtremumCandidate<extremum_acc_t<T>> extremum_lane_scan(const T* row, int64_t n,
                                                                        int lane) {
  using A = extremum_acc_t<T>;
  ExtremumCandidate<A> best{lane < n ? lane : n, lane < n ? static_cast<A>(row[lane]) : A(0)};
  for (int64_t i = lane + kExtremumWarp; i < n && !extremum_is_nan(best.value);
       i += kExtremumWarp) {
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

}  // namespace gpu
}  // namespace native
}  // namespace at
