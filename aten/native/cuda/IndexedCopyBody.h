#pragma once
// The per-thread body of the GPU kernel behind gather, scatter, index and index_put_ (Note [One
// kernel for gather, scatter, index and index_put_] in aten/native/IndexedCopy.h), and the
// launch logic around it, over a Launcher as gpu_kernel's (Loops.cuh's DeviceLauncher in
// cuda/IndexingKernels.cu; the tests' HostLauncher runs every thread on the CPU against the CPU
// kernels). Host-device; only the element move (a copy, or an atomic add on the GPU) is the
// caller's.

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "aten/native/IndexedCopy.h"
#include "aten/native/cuda/ElementwiseBody.h"
#include "aten/native/cuda/OffsetCalculator.h"

namespace at {
namespace native {
namespace gpu {

// The index operands' contribution to one side's address: sum_k index_k * stride_k, every index
// read at the same byte offset (all index operands share their strides), negatives counting from
// the end of their dim. The values were checked before the launch.
C10_HOST_DEVICE inline int64_t indexed_term(const IndexTerms& terms,
                                            const Array<const char*, kMaxIndexTerms>& index,
                                            uint32_t offset) {
  int64_t term = 0;
  for (int k = 0; k < terms.count; ++k) {
    int64_t v = *reinterpret_cast<const int64_t*>(index[k] + offset);
    if (v < 0) v += terms.sizes[k];
    term += v * terms.strides[k];
  }
  return term;
}

// kThreadWork elements a thread, kNumThreads apart, as gpu_kernel's strided loop. `move(dst,
// src)` moves or adds one element.
template <typename Move>
struct IndexedCopyBody {
  static constexpr int kBlockWorkSize = kBlockWork;
  OffsetCalculator<3> calc;  // out, in, the first index operand
  char* out;
  const char* in;
  Array<const char*, kMaxIndexTerms> index;
  IndexTerms terms;
  int numel;
  Move move;

  C10_HOST_DEVICE void operator()(int block, int thread) const {
    const int first = block * kBlockWork + thread;
    for (int k = 0; k < kThreadWork; ++k) {
      const int i = first + k * kNumThreads;
      if (i >= numel) return;
      const auto offsets = calc.get(static_cast<uint32_t>(i));
      const int64_t term = indexed_term(terms, index, offsets[2]);
      char* dst = out + offsets[0] + (terms.into_output ? term : 0);
      const char* src = in + offsets[1] + (terms.into_output ? 0 : term);
      move(dst, src);
    }
  }
};

// Runs the body over iter (Note [One kernel for gather, scatter, index and index_put_]), split
// until each piece's offsets fit 32 bits (the indexed term is 64-bit and needs no split).
template <typename Launcher, typename Move>
void indexed_copy(TensorIteratorBase& iter, const IndexTerms& terms, const Move& move) {
  TORCH_INTERNAL_ASSERT(iter.ntensors() == 2 + terms.count && terms.count >= 1 &&
                        terms.count <= kMaxIndexTerms);
  if (iter.numel() == 0) return;
  if (!iter.can_use_32bit_indexing()) {
    iter.with_32bit_indexing(
        [&](TensorIteratorBase& sub) { indexed_copy<Launcher>(sub, terms, move); });
    return;
  }
  using Body = IndexedCopyBody<Move>;
  Body body{cuda::detail::make_offset_calculator<3>(iter),
            static_cast<char*>(iter.data_ptr(0)),
            static_cast<const char*>(iter.data_ptr(1)),
            {},
            terms,
            static_cast<int>(iter.numel()),
            move};
  for (int k = 0; k < terms.count; ++k) {
    body.index[k] = static_cast<const char*>(iter.data_ptr(2 + k));
    // One offset serves every index operand (IndexedCopy.h): their strides agree wherever a dim
    // has more than one position (along a dim of size 1 the offset is 0 whatever the stride).
    for (int d = 0; d < iter.ndim(); ++d) {
      TORCH_INTERNAL_ASSERT(iter.shape()[d] <= 1 || iter.strides(2 + k)[d] == iter.strides(2)[d]);
    }
  }
  Launcher::launch(blocks_for<Body>(iter.numel()), body);
}

// Copies one element of `Bytes` bytes (the element size; a 16-byte element as two words).
template <int Bytes>
struct CopyElement;

#define MINIATEN_COPY_ELEMENT(bytes, word)                                 \
  template <>                                                              \
  struct CopyElement<bytes> {                                              \
    C10_HOST_DEVICE void operator()(char* dst, const char* src) const {    \
      *reinterpret_cast<word*>(dst) = *reinterpret_cast<const word*>(src); \
    }                                                                      \
  };
MINIATEN_COPY_ELEMENT(1, uint8_t)
MINIATEN_COPY_ELEMENT(2, uint16_t)
MINIATEN_COPY_ELEMENT(4, uint32_t)
MINIATEN_COPY_ELEMENT(8, uint64_t)
#undef MINIATEN_COPY_ELEMENT

template <>
struct CopyElement<16> {
  C10_HOST_DEVICE void operator()(char* dst, const char* src) const {
    reinterpret_cast<uint64_t*>(dst)[0] = reinterpret_cast<const uint64_t*>(src)[0];
    reinterpret_cast<uint64_t*>(dst)[1] = reinterpret_cast<const uint64_t*>(src)[1];
  }
};

// f(CopyElement<N>{}) for the element size N of a dtype: one copy kernel per size serves every
// dtype of that size.
template <typename F>
void with_element_copy(size_t element_size, const F& f) {
  switch (element_size) {
    case 1:
      return f(CopyElement<1>{});
    case 2:
      return f(CopyElement<2>{});
    case 4:
      return f(CopyElement<4>{});
    case 8:
      return f(CopyElement<8>{});
    default:
      TORCH_INTERNAL_ASSERT(element_size == 16, "no element copy of ", element_size, " bytes");
      return f(CopyElement<16>{});
  }
}

// ---- Adding a narrow element atomically -------------------------------------------------------

// Note [Adding a narrow element with a compare-and-swap]
// The GPU adds atomically only 32- and 64-bit words (and half types on recent architectures). An
// element of 1 or 2 bytes is added by swapping the aligned 32-bit word that holds it: read the
// word, take the element out, add, put the sum back in the same lane, and compare-and-swap; retry
// if another thread changed the word meanwhile. The lane arithmetic below is host-device, so the
// tests check it on the CPU for every lane of both widths. The word never reaches past the
// allocation of a tensor from the caching allocator, which rounds every block up to 512 bytes;
// memory from elsewhere (from_blob, DLPack) has its neighbouring bytes rewritten with their own
// values, which is safe unless another writer changes them at the same time.

// The byte position of an element at address `addr` within its aligned 32-bit word.
C10_HOST_DEVICE inline uint32_t word_shift(uintptr_t addr) {
  return static_cast<uint32_t>(addr & 3u) * 8u;
}

template <typename T>
C10_HOST_DEVICE inline T lane_of(uint32_t word, uint32_t shift) {
  static_assert(sizeof(T) <= 2, "narrow lanes only");
  using Bits = typename std::conditional<sizeof(T) == 1, uint8_t, uint16_t>::type;
  const auto bits = static_cast<Bits>(word >> shift);
  T value;
  memcpy(&value, &bits, sizeof(T));
  return value;
}

template <typename T>
C10_HOST_DEVICE inline uint32_t with_lane(uint32_t word, uint32_t shift, T value) {
  static_assert(sizeof(T) <= 2, "narrow lanes only");
  using Bits = typename std::conditional<sizeof(T) == 1, uint8_t, uint16_t>::type;
  Bits bits;
  memcpy(&bits, &value, sizeof(T));
  const uint32_t mask = ((1u << (8 * sizeof(T))) - 1u) << shift;
  return (word & ~mask) | (static_cast<uint32_t>(bits) << shift);
}

// a + b as the CPU's add_values (IndexingUtils.h) computes it, for the narrow types: integers
// wrap, Bool is an or, Half and BFloat16 add in float.
template <typename T>
C10_HOST_DEVICE inline T narrow_sum(T a, T b) {
  if constexpr (std::is_same<T, bool>::value) {
    return a || b;
  } else if constexpr (std::is_integral<T>::value) {
    return static_cast<T>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
  } else {
    return static_cast<T>(static_cast<float>(a) + static_cast<float>(b));
  }
}

// The word with `value` added to its element at `shift`: what one compare-and-swap tries to
// store.
template <typename T>
C10_HOST_DEVICE inline uint32_t word_with_sum(uint32_t word, uint32_t shift, T value) {
  return with_lane(word, shift, narrow_sum(lane_of<T>(word, shift), value));
}

}  // namespace gpu
}  // namespace native
}  // namespace at
