#pragma once
// at::philox_engine (at::Philox4_32): the counter-based Philox 4x32 engine, as libtorch's.
//
//   at::Philox4_32 engine(/*seed=*/42, /*subsequence=*/0, /*offset=*/0);
//   uint32_t a = engine();      // one 32-bit number; each 128-bit block serves four draws
//   engine.incr_n(10);          // skip 10 blocks of the subsequence
//
// The state is a 128-bit counter (low word = position within the subsequence, high 64 bits =
// the subsequence) and a 64-bit key (the seed). A block is 10 rounds (by default) of the
// multiply-xor round function, the key bumped by the Weyl constants between rounds. Any
// (seed, subsequence, offset) is reachable in O(1), which is why libtorch's CUDA kernels use it:
// each thread takes its own subsequence.

#include <array>
#include <cmath>
#include <cstdint>

namespace at {

namespace detail {
using UINT4 = std::array<uint32_t, 4>;
using UINT2 = std::array<uint32_t, 2>;
using DOUBLE2 = std::array<double, 2>;
using FLOAT2 = std::array<float, 2>;
}  // namespace detail

class philox_engine {
 public:
  explicit philox_engine(uint64_t seed = 67280421310721, uint64_t subsequence = 0,
                         uint64_t offset = 0) {
    reset_state(seed, subsequence);
    incr_n(offset);
  }

  void reset_state(uint64_t seed = 67280421310721, uint64_t subsequence = 0) {
    key_[0] = static_cast<uint32_t>(seed);
    key_[1] = static_cast<uint32_t>(seed >> 32);
    counter_ = {0, 0, static_cast<uint32_t>(subsequence), static_cast<uint32_t>(subsequence >> 32)};
    state_ = 0;
  }

  // The next 32-bit number; a new block is computed every fourth call.
  uint32_t operator()(int32_t n_rounds = 10) {
    if (state_ == 0) {
      detail::UINT4 counter = counter_;
      detail::UINT2 key = key_;
      output_ = rand(counter, key, static_cast<uint32_t>(n_rounds));
      incr();
    }
    const uint32_t ret = output_[state_];
    state_ = (state_ + 1) & 3;
    return ret;
  }

  // libtorch's randn: resets the engine to its default seed first and returns the cosine half of
  // one Box-Muller pair (a single, seed-independent value; kept for API compatibility).
  float randn(uint32_t n_rounds) {
    reset_state();
    detail::UINT4 counter = counter_;
    detail::UINT2 key = key_;
    const detail::UINT4 i = rand(counter, key, n_rounds);
    detail::FLOAT2 prenorm;
    prenorm[0] = 1 - uint32_to_uniform_float(i[0]);  // (0, 1] for the log
    prenorm[1] = 1 - uint32_to_uniform_float(i[1]);
    return normalize_pair_uniform(prenorm)[0];
  }

  // Skips n 128-bit blocks of the subsequence (a carry out of the low 64 bits reaches the
  // subsequence words, as libtorch's does).
  void incr_n(uint64_t n) {
    const uint32_t nlo = static_cast<uint32_t>(n);
    uint32_t nhi = static_cast<uint32_t>(n >> 32);
    counter_[0] += nlo;
    if (counter_[0] < nlo) {  // carry into the second word
      nhi++;
      counter_[1] += nhi;
      if (nhi != 0 && nhi <= counter_[1]) return;
    } else {
      counter_[1] += nhi;
      if (nhi <= counter_[1]) return;
    }
    if (++counter_[2]) return;
    ++counter_[3];
  }

  // Skips one block.
  void incr() {
    if (++counter_[0]) return;
    if (++counter_[1]) return;
    if (++counter_[2]) return;
    ++counter_[3];
  }

 private:
  static uint32_t mulhilo32(uint32_t a, uint32_t b, uint32_t* result_high) {
    const uint64_t product = static_cast<uint64_t>(a) * b;
    *result_high = static_cast<uint32_t>(product >> 32);
    return static_cast<uint32_t>(product);
  }

  static detail::UINT4 single_round(detail::UINT4 ctr, detail::UINT2 in_key) {
    uint32_t hi0;
    uint32_t hi1;
    const uint32_t lo0 = mulhilo32(kPhiloxSA, ctr[0], &hi0);
    const uint32_t lo1 = mulhilo32(kPhiloxSB, ctr[2], &hi1);
    return {hi1 ^ ctr[1] ^ in_key[0], lo1, hi0 ^ ctr[3] ^ in_key[1], lo0};
  }

  static constexpr float uint32_to_uniform_float(uint32_t value) {
    constexpr float scale = 4.6566127342e-10f;  // 2^-31
    return static_cast<float>(value & 0x7FFFFFFF) * scale;
  }

  static detail::UINT4 rand(detail::UINT4& counter, detail::UINT2& key, uint32_t n_rounds) {
    for (uint32_t round = 0; round < n_rounds - 1; ++round) {
      counter = single_round(counter, key);
      key[0] += kPhilox10A;
      key[1] += kPhilox10B;
    }
    return single_round(counter, key);
  }

  // libtorch's helper, kept as it is: it takes the angle as 2*pi, not 2*pi*u2.
  static detail::FLOAT2 normalize_pair_uniform(detail::FLOAT2 in) {
    const float u1 = in[0];
    constexpr float two_pi = static_cast<float>(2.0 * 3.14159265358979323846);
    const float mag = static_cast<float>(std::sqrt(-2.0 * std::log(u1)));
    return {mag * std::cos(two_pi), mag * std::sin(two_pi)};
  }

  static constexpr uint32_t kPhilox10A = 0x9E3779B9;
  static constexpr uint32_t kPhilox10B = 0xBB67AE85;
  static constexpr uint32_t kPhiloxSA = 0xD2511F53;
  static constexpr uint32_t kPhiloxSB = 0xCD9E8D57;

  detail::UINT4 counter_;
  detail::UINT4 output_{};
  detail::UINT2 key_;
  uint32_t state_;
};

using Philox4_32 = philox_engine;

}  // namespace at
