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
// Granlund and Montgomery, "Division by Invariant Integers using Multiplication" (1994): for an
// N-bit unsigned Value (N = 32 or 64) and a divisor 1 <= d <= 2^(N-1) - 1 let
// shift = ceil(log2(d)) and
//   m1 = floor(2^N * (2^shift - d) / d) + 1   (which fits in N bits);
// then for 0 <= n <= 2^(N-1) - 1,  n / d == (mulhi(n, m1) + n) >> shift.
// The sum stays below 2^N because mulhi(n, m1) <= n < 2^(N-1). For 32 bits, TensorIterator's
// 32-bit split (with_32bit_indexing) guarantees both bounds for every index and size a kernel
// sees; 64 bits serve a keyed scan over more than 2^31 - 1 elements (ScanKernel.cu). The host
// computes m1 in Wide, twice Value's width.

// The high half of a * b.
C10_HOST_DEVICE inline uint32_t mulhi(uint32_t a, uint32_t b) {
#if defined(__CUDA_ARCH__)
  return __umulhi(a, b);
#else
  return static_cast<uint32_t>((static_cast<uint64_t>(a) * b) >> 32);
#endif
}
C10_HOST_DEVICE inline uint64_t mulhi(uint64_t a, uint64_t b) {
#if defined(__CUDA_ARCH__)
  return __umul64hi(a, b);
#else
  return static_cast<uint64_t>((static_cast<unsigned __int128>(a) * b) >> 64);
#endif
}

template <typename Value, typename Wide>
struct MagicDivider {
  static constexpr int kBits = 8 * sizeof(Value);

  MagicDivider() = default;
  explicit MagicDivider(Value d) : divisor(d) {
    TORCH_INTERNAL_ASSERT(d >= 1 && d < (Value{1} << (kBits - 1)),
                          "IntDivider: divisor out of range: ", d);
    shift = 0;
    while ((Wide{1} << shift) < d) ++shift;
    const Wide magic = ((Wide{1} << kBits) * ((Wide{1} << shift) - d)) / d + 1;
    TORCH_INTERNAL_ASSERT(magic <= static_cast<Wide>(static_cast<Value>(-1)));
    m1 = static_cast<Value>(magic);
  }

  C10_HOST_DEVICE Value div(Value n) const { return (mulhi(n, m1) + n) >> shift; }
  C10_HOST_DEVICE Value mod(Value n) const { return n - div(n) * divisor; }
  C10_HOST_DEVICE DivMod<Value> divmod(Value n) const {
    const Value q = div(n);
    return {q, n - q * divisor};
  }

  Value divisor = 1;
  Value m1 = 1;
  Value shift = 0;
};

template <>
struct IntDivider<uint32_t> : MagicDivider<uint32_t, uint64_t> {
  using MagicDivider::MagicDivider;
};

template <>
struct IntDivider<uint64_t> : MagicDivider<uint64_t, unsigned __int128> {
  using MagicDivider::MagicDivider;
};

}  // namespace detail
}  // namespace cuda
}  // namespace at
