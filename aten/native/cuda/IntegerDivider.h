#pragma once
// IntDivider: n / d and n % d for a divisor known before the kernel starts, as ATen's
// cuda/detail/IntegerDivider.cuh. The GPU loops divide every linear index by each dim's size
// (OffsetCalculator); a hardware integer division is dozens of instructions, the magic-number
// form below is a multiply-high, an add and a shift. Host and device: the same code runs in the
// CPU tests.

#include <cstdint>

#include "c10/util/Exception.h"
#include "c10/util/Macros.h"

// `#pragma unroll` (and `unroll 1`) for the loops of code the host compiler sees too (it does not
// know them).
#ifdef __CUDACC__
#define C10_UNROLL _Pragma("unroll")
#define C10_NOUNROLL _Pragma("unroll 1")
#else
#define C10_UNROLL
#define C10_NOUNROLL
#endif

namespace at {
namespace cuda {
namespace detail {

template <typename Value>
struct DivMod {
  Value div;
  Value mod;
};

// Any other Value (int64_t, the loops' 64-bit indexing): the plain division.
template <typename Value>
struct IntDivider {
  IntDivider() = default;
  explicit IntDivider(Value d) : divisor(d) {}

  C10_HOST_DEVICE Value div(Value n) const { return n / divisor; }
  C10_HOST_DEVICE Value mod(Value n) const { return n % divisor; }
  C10_HOST_DEVICE DivMod<Value> divmod(Value n) const { return {n / divisor, n % divisor}; }

  Value divisor = 1;
};

// Note [Division by a magic number]
// Granlund and Montgomery, "Division by Invariant Integers using Multiplication" (1994): for a
// divisor 1 <= d <= INT32_MAX let shift = ceil(log2(d)) and
//   m1 = floor(2^32 * (2^shift - d) / d) + 1   (which fits in 32 bits);
// then for 0 <= n <= INT32_MAX,  n / d == (mulhi(n, m1) + n) >> shift.
// The sum stays below 2^32 because mulhi(n, m1) <= n < 2^31. TensorIterator's 32-bit split
// (with_32bit_indexing) guarantees both bounds for every index and size a kernel sees.
template <>
struct IntDivider<uint32_t> {
  IntDivider() = default;
  explicit IntDivider(uint32_t d) : divisor(d) {
    TORCH_INTERNAL_ASSERT(d >= 1 && d <= static_cast<uint32_t>(INT32_MAX),
                          "IntDivider: divisor out of range: ", d);
    shift = 0;
    while ((uint64_t{1} << shift) < d) ++shift;
    const uint64_t magic = ((uint64_t{1} << 32) * ((uint64_t{1} << shift) - d)) / d + 1;
    TORCH_INTERNAL_ASSERT(magic <= UINT32_MAX);
    m1 = static_cast<uint32_t>(magic);
  }

  C10_HOST_DEVICE uint32_t div(uint32_t n) const {
#if defined(__CUDA_ARCH__)
    const uint32_t t = __umulhi(n, m1);
#else
    const uint32_t t = static_cast<uint32_t>((static_cast<uint64_t>(n) * m1) >> 32);
#endif
    return (t + n) >> shift;
  }
  C10_HOST_DEVICE uint32_t mod(uint32_t n) const {
    return n - div(n) * divisor;
  }
  C10_HOST_DEVICE DivMod<uint32_t> divmod(uint32_t n) const {
    const uint32_t q = div(n);
    return {q, n - q * divisor};
  }

  uint32_t divisor = 1;
  uint32_t m1 = 1;
  uint32_t shift = 0;
};

// The same for 64-bit indices (a keyed scan over more than 2^31 elements): a divisor
// 1 <= d <= INT64_MAX, shift = ceil(log2(d)), m1 = floor(2^64 * (2^shift - d) / d) + 1, and
// for 0 <= n <= INT64_MAX,  n / d == (mulhi64(n, m1) + n) >> shift, by Note [Division by a magic
// number] with 64 for 32. The host computes m1, and the host's mulhi64, in 128-bit arithmetic.
template <>
struct IntDivider<uint64_t> {
  IntDivider() = default;
  explicit IntDivider(uint64_t d) : divisor(d) {
    TORCH_INTERNAL_ASSERT(d >= 1 && d <= static_cast<uint64_t>(INT64_MAX),
                          "IntDivider: divisor out of range: ", d);
    shift = 0;
    while ((uint64_t{1} << shift) < d) ++shift;
    using u128 = unsigned __int128;
    const u128 magic = ((u128{1} << 64) * ((u128{1} << shift) - d)) / d + 1;
    TORCH_INTERNAL_ASSERT(magic <= UINT64_MAX);
    m1 = static_cast<uint64_t>(magic);
  }
  C10_HOST_DEVICE uint64_t div(uint64_t n) const {
#if defined(__CUDA_ARCH__)
    const uint64_t t = __umul64hi(n, m1);
#else
    const uint64_t t = static_cast<uint64_t>((static_cast<unsigned __int128>(n) * m1) >> 64);
#endif
    return (t + n) >> shift;
  }
  C10_HOST_DEVICE uint64_t mod(uint64_t n) const {
    return n - div(n) * divisor;
  }
  C10_HOST_DEVICE DivMod<uint64_t> divmod(uint64_t n) const {
    const uint64_t q = div(n);
    return {q, n - q * divisor};
  }

  uint64_t divisor = 1;
  uint64_t m1 = 1;
  uint64_t shift = 0;
};

}  // namespace detail
}  // namespace cuda
}  // namespace at
