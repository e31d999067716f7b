#pragma once
// at::mt19937: the 32-bit Mersenne Twister behind CPUGeneratorImpl, with libtorch's seeding.
//
//   at::mt19937 engine(42);
//   uint32_t a = engine();        // 1608637542, as std::mt19937(42)() and libtorch give
//   engine.seed();                // 42
//   at::mt19937_data_pod pod = engine.data();   // the whole state (get_state/set_state use it)
//
// Note [mt19937 is libtorch's, not std::mt19937]
// The sequence for a 32-bit seed equals std::mt19937's, but libtorch keeps its own engine: the
// state must be readable and writable as one POD (mt19937_data_pod, serialised by get_state), a
// 64-bit seed is truncated to its low 32 bits for the state yet reported back whole by seed(),
// and the state is refilled lazily on the first draw (left_ starts at 1). All three show in
// libtorch's numbers and state bytes, so miniaten reproduces them.

#include <array>
#include <cstdint>

namespace at {

constexpr int MERSENNE_STATE_N = 624;
constexpr int MERSENNE_STATE_M = 397;
constexpr uint32_t MATRIX_A = 0x9908b0df;
constexpr uint32_t UMASK = 0x80000000;
constexpr uint32_t LMASK = 0x7fffffff;

// The engine's whole state, field for field as libtorch lays it out.
struct mt19937_data_pod {
  uint64_t seed_;
  int left_;
  bool seeded_;
  uint32_t next_;
  std::array<uint32_t, MERSENNE_STATE_N> state_;
};

class mt19937_engine {
 public:
  explicit mt19937_engine(uint64_t seed = 5489) { init_with_uint32(seed); }

  mt19937_data_pod data() const { return data_; }
  void set_data(mt19937_data_pod data) { data_ = data; }
  uint64_t seed() const { return data_.seed_; }

  // Whether a state read back from a tensor can be used (set_state checks this).
  bool is_valid() {
    return data_.seeded_ && data_.left_ > 0 && data_.left_ <= MERSENNE_STATE_N &&
           data_.next_ <= MERSENNE_STATE_N;
  }

  uint32_t operator()() {
    if (--data_.left_ == 0) next_state();
    uint32_t y = data_.state_[data_.next_++];
    // Tempering.
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= (y >> 18);
    return y;
  }

 private:
  void init_with_uint32(uint64_t seed) {
    data_.seed_ = seed;
    data_.seeded_ = true;
    data_.state_[0] = static_cast<uint32_t>(seed & 0xffffffff);
    for (int j = 1; j < MERSENNE_STATE_N; ++j) {
      const uint32_t prev = data_.state_[j - 1];
      data_.state_[j] = 1812433253u * (prev ^ (prev >> 30)) + static_cast<uint32_t>(j);
    }
    data_.left_ = 1;  // the first draw regenerates the state
    data_.next_ = 0;
  }

  static uint32_t mix_bits(uint32_t u, uint32_t v) { return (u & UMASK) | (v & LMASK); }
  static uint32_t twist(uint32_t u, uint32_t v) {
    return (mix_bits(u, v) >> 1) ^ ((v & 1) ? MATRIX_A : 0);
  }

  void next_state() {
    uint32_t* s = data_.state_.data();
    data_.left_ = MERSENNE_STATE_N;
    data_.next_ = 0;
    int k = 0;
    for (; k < MERSENNE_STATE_N - MERSENNE_STATE_M; ++k) {
      s[k] = s[k + MERSENNE_STATE_M] ^ twist(s[k], s[k + 1]);
    }
    for (; k < MERSENNE_STATE_N - 1; ++k) {
      s[k] = s[k + MERSENNE_STATE_M - MERSENNE_STATE_N] ^ twist(s[k], s[k + 1]);
    }
    s[k] = s[k + MERSENNE_STATE_M - MERSENNE_STATE_N] ^ twist(s[k], s[0]);
  }

  mt19937_data_pod data_;
};

using mt19937 = mt19937_engine;

}  // namespace at
