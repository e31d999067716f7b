#pragma once
// The transposing copy of copy_kernel (aten/native/cpu/CopyKernel.cpp): a 2-D block whose output
// is contiguous along dim 0 and whose input is contiguous along dim 1. Included only by kernel
// files compiled per CPU capability (see Note [Kernels are compiled once per CPU capability]).
//
//   // out[j * out_s1 + i * e] = in[i * in_s0 + j * e], 0 <= i < size0, 0 <= j < size1
//   transpose_copy<uint32_t, /*kStream=*/false>(out, in, size0, size1, out_s1, in_s0);
//
// T is a carrier of the element's size (uint8/16/32/64_t): only bits move. kStream asks for
// non-temporal stores where the output's alignment allows them (Note [Streaming stores]).

#include <algorithm>
#include <cstdint>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

namespace at {
namespace native {
inline namespace CPU_CAPABILITY {
namespace copy_detail {

// Note [Blocked transpose]
// The output is contiguous along dim 0 and the input along dim 1. Walking either one element
// by element strides through the other by a whole row; with power-of-two rows (4096 floats)
// those addresses all fall in one L1 set and evict each other. So the block is cut into tiles
// whose input rows are read whole and whose output rows are written whole: every cache line is
// consumed entirely while it is in cache. Without a register transpose (the DEFAULT build) a
// tile goes through a small buffer: B input row segments are read into it, then B output row
// segments written from it, B * sizeof(T) being 128 bytes (two cache lines).
template <typename T>
constexpr int64_t buffer_tile() {
  return 128 / static_cast<int64_t>(sizeof(T));
}

template <typename T>
void buffered_transpose(char* out, const char* in, int64_t size0, int64_t size1, int64_t out_s1,
                        int64_t in_s0) {
  constexpr int64_t B = buffer_tile<T>();
  T buffer[B][B];
  for (int64_t i0 = 0; i0 < size0; i0 += B) {
    const int64_t ni = std::min(B, size0 - i0);
    for (int64_t j0 = 0; j0 < size1; j0 += B) {
      const int64_t nj = std::min(B, size1 - j0);
      // Input rows i0.. (contiguous along j) into the buffer.
      for (int64_t i = 0; i < ni; ++i) {
        const T* src = reinterpret_cast<const T*>(in + (i0 + i) * in_s0) + j0;
        for (int64_t j = 0; j < nj; ++j) buffer[j][i] = src[j];
      }
      // Output rows j0.. (contiguous along i) out of it.
      for (int64_t j = 0; j < nj; ++j) {
        T* dst = reinterpret_cast<T*>(out + (j0 + j) * out_s1) + i0;
        for (int64_t i = 0; i < ni; ++i) dst[i] = buffer[j][i];
      }
    }
  }
}

#if defined(__AVX2__)

// Note [Register transpose]
// With AVX2 a K x K tile (K * sizeof(T) = 32 bytes, or 16 for 1- and 2-byte elements) is loaded as
// K registers, one input row each, transposed by shuffles, and stored as K output rows: no buffer
// round trip, no element-sized loads or stores. For 32-bit elements (8 x 8) the three rounds are
//   unpacklo/hi_ps(r0, r1)        interleave pairs of rows:    a0 b0 a1 b1 | a4 b4 a5 b5
//   shuffle_ps(t0, t2, 0x44/0xEE) pairs of pairs:              a0 b0 c0 d0 | a4 b4 c4 d4
//   permute2f128_ps(u0, u4, 0x20/0x31) swap 128-bit halves:   a0 b0 c0 d0 e0 f0 g0 h0
// (AVX's shuffles work within each 128-bit half, hence the last round across halves). 64-bit
// elements need two rounds on a 4 x 4 tile (unpack_pd, permute2f128_pd); 16-bit elements use
// SSE2's three unpack widths (epi16, epi32, epi64) on an 8 x 8 tile of 128-bit rows, and bytes
// four rounds of unpack_epi8 on a 16 x 16 tile. The shuffles move bits without looking at them,
// so float instructions carry integer and NaN payloads unchanged.
//
// A panel is the tiles stacked along dim 0 that fill one output cache line per output row
// (64 bytes: two 8 x 8 float tiles, two 4 x 4 double tiles, four 8 x 8 tiles of 16-bit, four
// 16 x 16 tiles of bytes). All its tiles are transposed into registers first, then each output
// line is stored piece after piece, which is what lets streaming stores combine into full lines
// (Note [Streaming stores]): storing float tile after tile, eight stores apart, ran the
// NHWC -> NCHW copy 40% slower, and streaming half lines (panels of one or two 16-byte tiles)
// ran byte and Half transposes at 3 to 6 GB/s instead of 10 to 50. Within a panel the input rows
// are read sequentially, one tile width per step, which the prefetcher follows.
// Panels are grouped into blocks of kBlockBytes x kBlockRows: the block's output rows stay in
// the TLB while all its panels write into them. (4096 x 4096 floats: output rows are 16 KiB
// apart; walking one panel across all 4096 of them touches 4096 pages, one line per page.)
// Measured on a 2-core Zen 4 (32 KiB L1, 1 MiB L2): 512 bytes x 512 rows was as fast as any
// size tried for 4096 x 4096, [32, 64, 56, 56] NCHW -> NHWC and NHWC -> NCHW.
constexpr int64_t kBlockBytes = 512;
constexpr int64_t kBlockRows = 512;

// Note [Streaming stores]
// A copy much larger than the cache evicts its own output before anyone reads it, and each
// ordinary store first reads the line it writes (read for ownership): 3 bytes of memory traffic
// per byte copied. A non-temporal (streaming) store writes a full line straight to memory, so
// the copy costs 2, and leaves the cache to the source. Streaming stores need aligned addresses
// (32 bytes for AVX, 16 for SSE) and pay off only when whole lines are written together: the
// transpose streams when the output block and its row stride are 64-byte aligned, and its
// panels write each line whole. The caller decides by size (kStreamingBytes in
// StreamingCopy.h); _mm_sfence() after the loop orders the stores before the copy returns.

// RegisterTile<T>: kSize x kSize tiles of T in registers of type Vec. load_transposed reads rows
// in + k * in_s0 (kSize elements each) into o[] transposed: o[k] holds column k of the tile.
// See Note [Register transpose].
template <typename T>
struct RegisterTile {
  static constexpr bool kAvailable = false;
};

template <>
struct RegisterTile<uint32_t> {
  static constexpr bool kAvailable = true;
  static constexpr int kSize = 8;
  using Vec = __m256;

  static void load_transposed(const char* in, int64_t in_s0, Vec o[kSize]) {
    Vec r[kSize];
#pragma GCC unroll 8
    for (int k = 0; k < kSize; ++k) {
      r[k] = _mm256_loadu_ps(reinterpret_cast<const float*>(in + k * in_s0));
    }
    transpose(r, o);
  }

  // o[k] = element k of every r[]: rows in, columns out (or columns in, rows out).
  static void transpose(const Vec r[kSize], Vec o[kSize]) {
    const Vec r0 = r[0], r1 = r[1], r2 = r[2], r3 = r[3];
    const Vec r4 = r[4], r5 = r[5], r6 = r[6], r7 = r[7];
    const Vec t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1);
    const Vec t2 = _mm256_unpacklo_ps(r2, r3), t3 = _mm256_unpackhi_ps(r2, r3);
    const Vec t4 = _mm256_unpacklo_ps(r4, r5), t5 = _mm256_unpackhi_ps(r4, r5);
    const Vec t6 = _mm256_unpacklo_ps(r6, r7), t7 = _mm256_unpackhi_ps(r6, r7);
    const Vec u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xEE);
    const Vec u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xEE);
    const Vec u4 = _mm256_shuffle_ps(t4, t6, 0x44), u5 = _mm256_shuffle_ps(t4, t6, 0xEE);
    const Vec u6 = _mm256_shuffle_ps(t5, t7, 0x44), u7 = _mm256_shuffle_ps(t5, t7, 0xEE);
    o[0] = _mm256_permute2f128_ps(u0, u4, 0x20);
    o[1] = _mm256_permute2f128_ps(u1, u5, 0x20);
    o[2] = _mm256_permute2f128_ps(u2, u6, 0x20);
    o[3] = _mm256_permute2f128_ps(u3, u7, 0x20);
    o[4] = _mm256_permute2f128_ps(u0, u4, 0x31);
    o[5] = _mm256_permute2f128_ps(u1, u5, 0x31);
    o[6] = _mm256_permute2f128_ps(u2, u6, 0x31);
    o[7] = _mm256_permute2f128_ps(u3, u7, 0x31);
  }

  template <bool kStream>
  static void store(char* p, Vec v) {
    if (kStream) {
      _mm256_stream_ps(reinterpret_cast<float*>(p), v);
    } else {
      _mm256_storeu_ps(reinterpret_cast<float*>(p), v);
    }
  }
};

template <>
struct RegisterTile<uint64_t> {
  static constexpr bool kAvailable = true;
  static constexpr int kSize = 4;
  using Vec = __m256d;

  static void load_transposed(const char* in, int64_t in_s0, Vec o[kSize]) {
    auto row = [&](int k) {
      return _mm256_loadu_pd(reinterpret_cast<const double*>(in + k * in_s0));
    };
    const Vec r0 = row(0), r1 = row(1), r2 = row(2), r3 = row(3);
    const Vec t0 = _mm256_unpacklo_pd(r0, r1), t1 = _mm256_unpackhi_pd(r0, r1);
    const Vec t2 = _mm256_unpacklo_pd(r2, r3), t3 = _mm256_unpackhi_pd(r2, r3);
    o[0] = _mm256_permute2f128_pd(t0, t2, 0x20);
    o[1] = _mm256_permute2f128_pd(t1, t3, 0x20);
    o[2] = _mm256_permute2f128_pd(t0, t2, 0x31);
    o[3] = _mm256_permute2f128_pd(t1, t3, 0x31);
  }

  template <bool kStream>
  static void store(char* p, Vec v) {
    if (kStream) {
      _mm256_stream_pd(reinterpret_cast<double*>(p), v);
    } else {
      _mm256_storeu_pd(reinterpret_cast<double*>(p), v);
    }
  }
};

template <>
struct RegisterTile<uint16_t> {
  static constexpr bool kAvailable = true;
  static constexpr int kSize = 8;
  using Vec = __m128i;

  static void load_transposed(const char* in, int64_t in_s0, Vec o[kSize]) {
    auto row = [&](int k) {
      return _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + k * in_s0));
    };
    const Vec r0 = row(0), r1 = row(1), r2 = row(2), r3 = row(3);
    const Vec r4 = row(4), r5 = row(5), r6 = row(6), r7 = row(7);
    const Vec a0 = _mm_unpacklo_epi16(r0, r1), a1 = _mm_unpackhi_epi16(r0, r1);
    const Vec a2 = _mm_unpacklo_epi16(r2, r3), a3 = _mm_unpackhi_epi16(r2, r3);
    const Vec a4 = _mm_unpacklo_epi16(r4, r5), a5 = _mm_unpackhi_epi16(r4, r5);
    const Vec a6 = _mm_unpacklo_epi16(r6, r7), a7 = _mm_unpackhi_epi16(r6, r7);
    const Vec b0 = _mm_unpacklo_epi32(a0, a2), b1 = _mm_unpackhi_epi32(a0, a2);
    const Vec b2 = _mm_unpacklo_epi32(a1, a3), b3 = _mm_unpackhi_epi32(a1, a3);
    const Vec b4 = _mm_unpacklo_epi32(a4, a6), b5 = _mm_unpackhi_epi32(a4, a6);
    const Vec b6 = _mm_unpacklo_epi32(a5, a7), b7 = _mm_unpackhi_epi32(a5, a7);
    o[0] = _mm_unpacklo_epi64(b0, b4);
    o[1] = _mm_unpackhi_epi64(b0, b4);
    o[2] = _mm_unpacklo_epi64(b1, b5);
    o[3] = _mm_unpackhi_epi64(b1, b5);
    o[4] = _mm_unpacklo_epi64(b2, b6);
    o[5] = _mm_unpackhi_epi64(b2, b6);
    o[6] = _mm_unpacklo_epi64(b3, b7);
    o[7] = _mm_unpackhi_epi64(b3, b7);
  }

  template <bool kStream>
  static void store(char* p, Vec v) {
    if (kStream) {
      _mm_stream_si128(reinterpret_cast<__m128i*>(p), v);
    } else {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v);
    }
  }
};

template <>
struct RegisterTile<uint8_t> {
  static constexpr bool kAvailable = true;
  static constexpr int kSize = 16;
  using Vec = __m128i;

  // Four identical rounds of unpack_epi8 on rows (k, k + 8): each rotates the 8-bit string
  // (row bits, byte bits) left by one, so four of them swap row and byte index.
  static void load_transposed(const char* in, int64_t in_s0, Vec o[kSize]) {
    Vec a[kSize];
#pragma GCC unroll 16
    for (int k = 0; k < kSize; ++k) {
      a[k] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + k * in_s0));
    }
#pragma GCC unroll 4
    for (int round = 0; round < 4; ++round) {
      Vec b[kSize];
#pragma GCC unroll 8
      for (int k = 0; k < 8; ++k) {
        b[2 * k] = _mm_unpacklo_epi8(a[k], a[k + 8]);
        b[2 * k + 1] = _mm_unpackhi_epi8(a[k], a[k + 8]);
      }
#pragma GCC unroll 16
      for (int k = 0; k < kSize; ++k) a[k] = b[k];
    }
#pragma GCC unroll 16
    for (int k = 0; k < kSize; ++k) o[k] = a[k];
  }

  template <bool kStream>
  static void store(char* p, Vec v) {
    RegisterTile<uint16_t>::store<kStream>(p, v);
  }
};

// kTiles tiles stacked along dim 0 (kTiles * kSize input rows), stored one output row at a time:
// the pieces of each output line leave back to back, which streaming stores need to combine.
template <typename T, int kTiles, bool kStream>
inline void transpose_panel(const char* in, int64_t in_s0, char* out, int64_t out_s1) {
  using Tile = RegisterTile<T>;
  constexpr int K = Tile::kSize;
  constexpr int64_t kTileBytes = K * static_cast<int64_t>(sizeof(T));
  typename Tile::Vec columns[kTiles][K];
#pragma GCC unroll 4
  for (int t = 0; t < kTiles; ++t) Tile::load_transposed(in + t * K * in_s0, in_s0, columns[t]);
#pragma GCC unroll 8
  for (int k = 0; k < K; ++k) {
#pragma GCC unroll 4
    for (int t = 0; t < kTiles; ++t) {
      Tile::template store<kStream>(out + k * out_s1 + t * kTileBytes, columns[t][k]);
    }
  }
}

// The tiled part [0, n0) x [0, n1) (multiples of the tile size) in panels and blocks.
template <typename T, bool kStream>
void register_transpose(char* out, const char* in, int64_t n0, int64_t n1, int64_t out_s1,
                        int64_t in_s0) {
  constexpr int64_t e = sizeof(T);
  constexpr int K = RegisterTile<T>::kSize;
  constexpr int kTiles = static_cast<int>(64 / (K * e));  // a panel: one output line per row
  constexpr int64_t kPanel = kTiles * K;
  constexpr int64_t kBlock0 = kBlockBytes / e;
  static_assert(kBlock0 % kPanel == 0, "blocks hold whole panels");
  for (int64_t i0 = 0; i0 < n0; i0 += kBlock0) {
    const int64_t i_end = std::min(n0, i0 + kBlock0);
    for (int64_t j0 = 0; j0 < n1; j0 += kBlockRows) {
      const int64_t j_end = std::min(n1, j0 + kBlockRows);
      for (int64_t p = i0; p < i_end; p += kPanel) {
        if (p + kPanel <= i_end) {
          for (int64_t j = j0; j < j_end; j += K) {
            transpose_panel<T, kTiles, kStream>(in + p * in_s0 + j * e, in_s0,
                                                out + j * out_s1 + p * e, out_s1);
          }
        } else {
          for (int64_t j = j0; j < j_end; j += K) {
            for (int64_t i = p; i < i_end; i += K) {
              transpose_panel<T, 1, kStream>(in + i * in_s0 + j * e, in_s0,
                                             out + j * out_s1 + i * e, out_s1);
            }
          }
        }
      }
    }
  }
  if (kStream) _mm_sfence();
}

#endif  // defined(__AVX2__)

// The strips beside the tiles, element by element: fewer than a tile's worth of columns
// (walked along the input's rows) or of rows (walked along the output's rows), so the few lines
// on the strided side stay in cache while the walk goes on.
template <typename T>
void narrow_transpose(char* out, const char* in, int64_t size0, int64_t size1, int64_t out_s1,
                      int64_t in_s0) {
  if (size1 <= size0) {
    for (int64_t i = 0; i < size0; ++i) {
      const T* src = reinterpret_cast<const T*>(in + i * in_s0);
      for (int64_t j = 0; j < size1; ++j) reinterpret_cast<T*>(out + j * out_s1)[i] = src[j];
    }
  } else {
    for (int64_t j = 0; j < size1; ++j) {
      T* dst = reinterpret_cast<T*>(out + j * out_s1);
      for (int64_t i = 0; i < size0; ++i) dst[i] = reinterpret_cast<const T*>(in + i * in_s0)[j];
    }
  }
}

}  // namespace copy_detail

// The smallest block side transpose_copy is worth calling for. With register tiles, one tile:
// an 8 x 8 float block is 8 loads, 24 shuffles and 8 stores, against some 400 instructions for
// the plain element loop. Without them, 16: below that the buffer round trip costs more than the
// strided reads it saves, the whole block being in L1 anyway.
template <typename T>
constexpr int64_t min_transpose_side() {
#if defined(__AVX2__)
  if constexpr (copy_detail::RegisterTile<T>::kAvailable) return copy_detail::RegisterTile<T>::kSize;
#endif
  return 16;
}

// See Note [Blocked transpose] and Note [Register transpose].
template <typename T, bool kStream>
void transpose_copy(char* out, const char* in, int64_t size0, int64_t size1, int64_t out_s1,
                    int64_t in_s0) {
  using namespace copy_detail;
#if defined(__AVX2__)
  if constexpr (RegisterTile<T>::kAvailable) {
    constexpr int64_t e = sizeof(T);
    constexpr int64_t K = RegisterTile<T>::kSize;
    const int64_t n0 = size0 / K * K, n1 = size1 / K * K;
    const bool aligned = reinterpret_cast<uintptr_t>(out) % 64 == 0 && out_s1 % 64 == 0;
    if (n0 == K && n1 == K) {
      // A single tile (contiguous() of an 8 x 8 float transpose): no panels or blocks to walk,
      // and too little to stream.
      transpose_panel<T, 1, false>(in, in_s0, out, out_s1);
    } else if (kStream && aligned) {
      register_transpose<T, true>(out, in, n0, n1, out_s1, in_s0);
    } else {
      register_transpose<T, false>(out, in, n0, n1, out_s1, in_s0);
    }
    // The edges: columns n1.. of the tiled rows, then rows n0.. in full.
    if (size1 > n1) {
      narrow_transpose<T>(out + n1 * out_s1, in + n1 * e, n0, size1 - n1, out_s1, in_s0);
    }
    if (size0 > n0) {
      narrow_transpose<T>(out + n0 * e, in + n0 * in_s0, size0 - n0, size1, out_s1, in_s0);
    }
    return;
  }
#endif
  buffered_transpose<T>(out, in, size0, size1, out_s1, in_s0);
}

}  // namespace CPU_CAPABILITY
}  // namespace native
}  // namespace at
