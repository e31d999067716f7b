#pragma once
// Philox 4x32-10 as a host-device function, and the numbers the GPU random kernels
// (cuda/DistributionKernels.cu) make of one block of it. The CPU tests check the block against
// the published known-answer vectors and at::philox_engine, and the value functions against
// their definitions (GPU.md, "Make the GPU logic testable without a GPU").
//
// Note [Each element's own Philox block]
// Philox is counter-based: block (key, counter) is a pure function, so element i of a fill can
// compute its own random bits without any thread seeing another's. The GPU fills use key = the
// generator's seed and counter = (i's low and high words, the call's offset's low and high
// words): element i of the call with offset k reads block (i, k). Each call reserves one offset
// (CUDAGeneratorImpl::philox_inputs), so two calls never share a block, whatever the launch
// geometry, and the same seed gives the same tensor on any GPU. This spends a whole 128-bit block
// on each element (a double normal needs all four words; a float uniform one), arithmetic a
// memory-bound fill has to spare. The streams are not PyTorch's (its CUDA fills hand blocks out
// per thread, so its values depend on its launch geometry), as miniaten's CPU streams are
// libtorch's.

#include <cmath>
#include <cstdint>

#include "c10/util/Macros.h"

namespace at {
namespace native {
namespace gpu {

struct PhiloxBlock {
  uint32_t x[4];
};

C10_HOST_DEVICE inline PhiloxBlock philox4x32_10(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3,
                                                 uint32_t k0, uint32_t k1) {
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
    }
    const uint64_t p0 = static_cast<uint64_t>(0xD2511F53u) * c0;
    const uint64_t p1 = static_cast<uint64_t>(0xCD9E8D57u) * c2;
    const uint32_t hi0 = static_cast<uint32_t>(p0 >> 32), lo0 = static_cast<uint32_t>(p0);
    const uint32_t hi1 = static_cast<uint32_t>(p1 >> 32), lo1 = static_cast<uint32_t>(p1);
    const uint32_t n0 = hi1 ^ c1 ^ k0, n2 = hi0 ^ c3 ^ k1;
    c0 = n0;
    c1 = lo1;
    c2 = n2;
    c3 = lo0;
  }
  return {{c0, c1, c2, c3}};
}

// Element i's block for the call with Philox offset `offset` (Note [Each element's own Philox
// block]).
C10_HOST_DEVICE inline PhiloxBlock element_block(uint64_t seed, uint64_t offset, uint64_t i) {
  return philox4x32_10(static_cast<uint32_t>(i), static_cast<uint32_t>(i >> 32),
                       static_cast<uint32_t>(offset), static_cast<uint32_t>(offset >> 32),
                       static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32));
}

// A double in [0, 1) from 53 random bits, and one in (0, 1] (for a logarithm).
C10_HOST_DEVICE inline double uniform_double(uint32_t hi, uint32_t lo) {
  const uint64_t bits = ((static_cast<uint64_t>(hi) << 32) | lo) >> 11;
  return static_cast<double>(bits) * 0x1p-53;
}
C10_HOST_DEVICE inline double uniform_double_open_zero(uint32_t hi, uint32_t lo) {
  return 1.0 - uniform_double(hi, lo);
}

// A float in [0, 1) from 24 random bits.
C10_HOST_DEVICE inline float uniform_float(uint32_t bits) {
  return static_cast<float>(bits >> 8) * 0x1p-24f;
}

// A value in [0, 1) with `digits` random bits (a type's mantissa digits: 53 double, 24 float,
// 11 Half, 8 BFloat16), exact in that type, so rounding to it can never give 1; as the CPU's
// uniform_real draws digits<T> bits.
C10_HOST_DEVICE inline double uniform_digits(uint32_t hi, uint32_t lo, int digits) {
  const uint64_t bits = ((static_cast<uint64_t>(hi) << 32) | lo) >> (64 - digits);
  return static_cast<double>(bits) / static_cast<double>(uint64_t{1} << digits);
}

// One standard normal from a block: Box-Muller's cosine half, from two 53-bit uniforms.
C10_HOST_DEVICE inline double standard_normal(const PhiloxBlock& b) {
  const double u1 = uniform_double_open_zero(b.x[0], b.x[1]);
  const double u2 = uniform_double(b.x[2], b.x[3]);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * 3.14159265358979323846 * u2);
}

// 64 random bits, and an integer in [base, base + range) (range 0: all 64 bits), as the CPU's
// random_ keeps a draw modulo the range.
C10_HOST_DEVICE inline uint64_t random64(const PhiloxBlock& b) {
  return (static_cast<uint64_t>(b.x[0]) << 32) | b.x[1];
}
C10_HOST_DEVICE inline int64_t random_in_range(const PhiloxBlock& b, uint64_t range, int64_t base) {
  const uint64_t r = random64(b);
  return range == 0 ? static_cast<int64_t>(r)
                    : static_cast<int64_t>(static_cast<uint64_t>(base) + r % range);
}

}  // namespace gpu
}  // namespace native
}  // namespace at
