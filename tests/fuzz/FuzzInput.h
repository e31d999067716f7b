#pragma once
// What every fuzzer in tests/fuzz shares: FuzzInput, which turns libFuzzer's bytes into the
// choices a test makes (a dim, a size, a dtype), and FUZZ_CHECK, which reports a broken
// invariant as a crash, the only thing libFuzzer counts as a finding.
//
// Note [Fuzz inputs favour the interesting numbers]
// A uniformly random int64 is almost never a valid size, so nearly every input would stop at
// the first argument check. interesting_int() draws small numbers (-3..8) most of the time and
// otherwise the values where arithmetic breaks: 0, -1, the int32 and int64 limits, powers of two
// whose products overflow. Running out of bytes yields zeros, so every input is a complete test.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace fuzz {

class FuzzInput {
 public:
  FuzzInput(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  bool exhausted() const { return pos_ >= size_; }
  uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  bool boolean() { return byte() & 1; }
  // Uniform-ish in [lo, hi] (lo <= hi, the span fits a byte or two).
  int64_t in_range(int64_t lo, int64_t hi) {
    const uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
    const uint64_t draw = span <= 256 ? byte() : (uint64_t{byte()} << 8 | byte());
    return lo + static_cast<int64_t>(draw % span);
  }
  int64_t raw_int64() {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = v << 8 | byte();
    int64_t r;
    std::memcpy(&r, &v, sizeof r);
    return r;
  }
  // See Note [Fuzz inputs favour the interesting numbers].
  int64_t interesting_int() {
    static const int64_t kEdges[] = {0,
                                     -1,
                                     INT32_MAX,
                                     INT32_MIN,
                                     INT64_MAX,
                                     INT64_MIN,
                                     INT64_MAX / 2 + 1,
                                     int64_t{1} << 31,
                                     int64_t{1} << 32,
                                     int64_t{1} << 40,
                                     -(int64_t{1} << 40),
                                     int64_t{1} << 62};
    const uint8_t kind = byte();
    if (kind < 200) return static_cast<int64_t>(kind % 12) - 3;
    if (kind < 248) return kEdges[kind % (sizeof kEdges / sizeof kEdges[0])];
    return raw_int64();
  }
  template <typename T, size_t N>
  const T& pick(const T (&choices)[N]) {
    return choices[byte() % N];
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

}  // namespace fuzz

// A broken invariant: say which and crash (libFuzzer saves the input that did it).
#define FUZZ_CHECK(cond, what)                                                           \
  do {                                                                                   \
    if (!(cond)) {                                                                       \
      std::fprintf(stderr, "%s:%d: FUZZ_CHECK(%s) failed: %s\n", __FILE__, __LINE__, #cond, \
                   std::string(what).c_str());                                           \
      std::abort();                                                                      \
    }                                                                                    \
  } while (0)
