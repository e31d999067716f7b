#pragma once
// How the GPU loops read and write operands: aligned vectors for the contiguous path, and
// loads/stores that convert from and to an operand's runtime dtype ("dynamic casting", ATen's
// fetch_and_cast / cast_and_store) when it differs from the type the functor takes. Host and
// device: the CPU tests run the same code.

#include <cstdint>

#include "aten/native/cuda/IntegerDivider.h"  // C10_UNROLL
#include "c10/core/ScalarType.h"
#include "c10/util/TypeCast.h"

namespace at {
namespace cuda {
namespace detail {

// vec_size elements of T as one aligned access (16 bytes at most: one LDG.128 / STG.128).
template <typename T, int vec_size>
struct alignas(sizeof(T) * vec_size) aligned_vector {
  T val[vec_size];
};

// The widest vector the loops use for an element of `bytes` bytes: 16 bytes, capped at 8 lanes
// (so a byte tensor gets 8, not 16: every lane is a separate op in the loop body).
constexpr int max_vec_size(int bytes) {
  return bytes >= 16 ? 1 : (16 / bytes > 8 ? 8 : 16 / bytes);
}

// Whether `ptr` is aligned for vectors of vec_size elements of `bytes` bytes.
inline bool is_aligned_for(const void* ptr, int bytes, int vec_size) {
  return reinterpret_cast<uintptr_t>(ptr) % static_cast<uintptr_t>(bytes * vec_size) == 0;
}

// Reads one element of runtime dtype `src` as T. The dtypes were checked on the host; an
// unknown one (impossible) reads as T().
template <typename T>
C10_HOST_DEVICE T fetch_as(c10::ScalarType src, const char* ptr) {
  switch (src) {
#define MINIATEN_FETCH_AS(ctype, name) \
  case c10::ScalarType::name:          \
    return c10::convert<T>(*reinterpret_cast<const ctype*>(ptr));
    C10_FORALL_SCALAR_TYPES(MINIATEN_FETCH_AS)
#undef MINIATEN_FETCH_AS
    default:
      return T();
  }
}

// Writes `value` as an element of runtime dtype `dst`.
template <typename T>
C10_HOST_DEVICE void store_as(c10::ScalarType dst, char* ptr, T value) {
  switch (dst) {
#define MINIATEN_STORE_AS(ctype, name)                           \
  case c10::ScalarType::name:                                    \
    *reinterpret_cast<ctype*>(ptr) = c10::convert<ctype>(value); \
    return;
    C10_FORALL_SCALAR_TYPES(MINIATEN_STORE_AS)
#undef MINIATEN_STORE_AS
    default:
      return;
  }
}

// A thread's N elements of runtime dtype `src`, at base + offsets[k] for k < valid, read as T:
// one switch on the dtype for all of them, so that the N loads are issued together rather than
// each behind a jump table of its own.
template <typename T, int N>
C10_HOST_DEVICE void fetch_as_n(c10::ScalarType src, const char* base, const uint32_t (&offsets)[N],
                                int valid, T (&out)[N]) {
  switch (src) {
#define MINIATEN_FETCH_AS_N(ctype, name)                                                           \
  case c10::ScalarType::name:                                                                      \
    C10_UNROLL                                                                                     \
    for (int k = 0; k < N; ++k) {                                                                  \
      if (k < valid) out[k] = c10::convert<T>(*reinterpret_cast<const ctype*>(base + offsets[k])); \
    }                                                                                              \
    return;
    C10_FORALL_SCALAR_TYPES(MINIATEN_FETCH_AS_N)
#undef MINIATEN_FETCH_AS_N
    default:
      return;
  }
}

// The store twin of fetch_as_n.
template <typename T, int N>
C10_HOST_DEVICE void store_as_n(c10::ScalarType dst, char* base, const uint32_t (&offsets)[N],
                                int valid, const T (&values)[N]) {
  switch (dst) {
#define MINIATEN_STORE_AS_N(ctype, name)                                               \
  case c10::ScalarType::name:                                                          \
    C10_UNROLL                                                                         \
    for (int k = 0; k < N; ++k) {                                                      \
      if (k < valid)                                                                   \
        *reinterpret_cast<ctype*>(base + offsets[k]) = c10::convert<ctype>(values[k]); \
    }                                                                                  \
    return;
    C10_FORALL_SCALAR_TYPES(MINIATEN_STORE_AS_N)
#undef MINIATEN_STORE_AS_N
    default:
      return;
  }
}

}  // namespace detail
}  // namespace cuda
}  // namespace at
