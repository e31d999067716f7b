#pragma once
// int64 arithmetic that wraps modulo 2^64 instead of overflowing.
//
// Note [Geometry that wraps as libtorch's does]
// libtorch computes strides, offsets and size products in plain int64. Where the operands come
// from a valid tensor with elements the results fit; but a tensor with no elements may carry
// sizes and strides whose products do not (empty({0, 2^62, 4}) has contiguous strides past
// int64), and libtorch's products then overflow: undefined behaviour in C++, a wrapped value in
// the machine code it runs. These helpers compute that wrapped value with defined behaviour
// (UBSan finds every plain product that overflows), so miniaten gives libtorch's results and
// errors without the undefined behaviour. Only for geometry whose result is unused or checked
// afterwards when it wraps; a product that must be exact gets __builtin_mul_overflow and an error.

#include <cstdint>

namespace c10 {

inline int64_t wrapping_mul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}

inline int64_t wrapping_add(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}

inline int64_t wrapping_sub(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}

}  // namespace c10
