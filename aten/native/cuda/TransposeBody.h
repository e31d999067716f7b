#pragma once
// The GPU twin of the CPU blocked transpose (aten/native/cpu/CopyTranspose.h): a copy whose
// output is contiguous along one iteration dim and whose input is contiguous along another
// (contiguous() of a transpose, NCHW <-> NHWC). The elementwise loop would read the input with
// a large stride, one 32-byte sector per element; here a block moves a kTile x kTile tile
// through shared memory, reading rows of the input and writing rows of the output, both
// coalesced (Note [The transpose kernel's tile]). Host and device, like ElementwiseBody.h.
//
// Note [The transpose kernel's tile]
// After TensorIterator's reordering and coalescing, dim 0 is the output's contiguous dim and
// dim 1 the input's; dims 2.. are a batch (N of NCHW), walked by an OffsetCalculator. A block
// of kTileCols (32) x kRows threads takes one kTile x kTile tile of (dim 0, dim 1) of a batch
// entry:
//   load:  thread (tx, ty) reads input elements (d0 = ty + r * kRows, d1 = tx + 32 * c), so a
//          warp reads 32 consecutive input elements, and each thread has
//          (kTile / 32) * (kTile / kRows) loads in flight at once;
//   store: after a barrier, it writes output elements (d0 = tx + 32 * c, d1 = ty + r * kRows),
//          so a warp writes 32 consecutive output elements.
// The tile is padded to kTile + 1 columns: the store phase reads a column, and without the pad
// all 32 lanes would hit one shared-memory bank. Elements move as unsigned carriers of their
// size (1, 2, 4, 8 or 16 bytes), so five instantiations serve every dtype.
//
// The copy's tile (CopyTransposeBody) is 64 x 64 with 32 x 16 threads, 8 elements a thread in
// each phase, chosen on an H200 (tools/bench/bench_transpose_tiles.cu, float, bytes read plus
// written against cudaMemcpy): 8192 x 8192 transpose / NCHW->NHWC / NHWC->NCHW of
// [64,128,112,112] ran at 0.80 / 0.83 / 0.84 of memcpy, against 0.72 / 0.77 / 0.79 for 32 x 32
// with 32 x 8 threads, 0.73 / 0.77 / 0.79 with 32 x 4, 0.65 / 0.68 / 0.68 for 64 x 64 with
// 32 x 8 (16 loads a thread, too few blocks resident) and 0.68 for 64 x 64 with 32 x 32.
// 16-byte elements keep 32 x 32 tiles (64 x 64 x 16 bytes exceeds 48 KB of shared memory).

#include <cstdint>

#include "aten/native/cuda/OffsetCalculator.h"

namespace at {
namespace native {
namespace gpu {

constexpr int kTileCols = 32;  // threads per block: kTileCols x kTileRows
constexpr int kTileRows = 8;

struct alignas(16) Bytes16 {
  uint64_t lo;
  uint64_t hi;
};

// The carrier of an element of `bytes` bytes.
template <int bytes>
struct Carrier;
template <>
struct Carrier<1> {
  using type = uint8_t;
};
template <>
struct Carrier<2> {
  using type = uint16_t;
};
template <>
struct Carrier<4> {
  using type = uint32_t;
};
template <>
struct Carrier<8> {
  using type = uint64_t;
};
template <>
struct Carrier<16> {
  using type = Bytes16;
};

// kTile: the tile's side; kRows: the block's rows of kTileCols threads (each thread moves
// kTile / kTileCols * kTile / kRows elements). See Note [The transpose kernel's tile].
template <typename T, int kTile_ = 32, int kRows_ = kTileRows>
struct TransposeBody {
  static constexpr int kTile = kTile_;
  static constexpr int kRows = kRows_;
  static_assert(kTile % kTileCols == 0 && kTile % kRows == 0, "a tile is whole rows of threads");
  using Tile = T[kTile][kTile + 1];

  uint32_t size0;        // the output's contiguous dim
  uint32_t size1;        // the input's contiguous dim
  uint32_t tiles0;       // tiles along dim 0
  uint32_t in_stride0;   // bytes, input along dim 0
  uint32_t out_stride1;  // bytes, output along dim 1
  uint32_t nbatch;       // product of dims 2..
  char* out;
  const char* in;
  cuda::detail::OffsetCalculator<2> batch;  // dims 2..: output and input byte offsets

  C10_HOST_DEVICE void load(uint32_t tile, uint32_t b, int tx, int ty, Tile& smem) const {
    const uint32_t t0 = tile % tiles0, t1 = tile / tiles0;
    const char* base = in + batch.get(b)[1];
    C10_UNROLL
    for (int c = 0; c < kTile / kTileCols; ++c) {
      const uint32_t d1 = t1 * kTile + tx + c * kTileCols;
      C10_UNROLL
      for (int r = 0; r < kTile / kRows; ++r) {
        const uint32_t d0 = t0 * kTile + ty + r * kRows;
        if (d0 < size0 && d1 < size1) {
          smem[ty + r * kRows][tx + c * kTileCols] =
              *reinterpret_cast<const T*>(base + d0 * in_stride0 + d1 * sizeof(T));
        }
      }
    }
  }

  C10_HOST_DEVICE void store(uint32_t tile, uint32_t b, int tx, int ty, const Tile& smem) const {
    const uint32_t t0 = tile % tiles0, t1 = tile / tiles0;
    char* base = out + batch.get(b)[0];
    C10_UNROLL
    for (int c = 0; c < kTile / kTileCols; ++c) {
      const uint32_t d0 = t0 * kTile + tx + c * kTileCols;
      C10_UNROLL
      for (int r = 0; r < kTile / kRows; ++r) {
        const uint32_t d1 = t1 * kTile + ty + r * kRows;
        if (d0 < size0 && d1 < size1) {
          *reinterpret_cast<T*>(base + d0 * sizeof(T) + d1 * out_stride1) =
              smem[tx + c * kTileCols][ty + r * kRows];
        }
      }
    }
  }

  uint32_t num_tiles() const { return tiles0 * ((size1 + kTile - 1) / kTile); }
};

// The tile the copy kernel uses for a carrier T: 64 x 64 with 32 x 16 threads, or 32 x 32 with
// 32 x 8 for 16-byte elements. See Note [The transpose kernel's tile].
template <typename T>
using CopyTransposeBody =
    TransposeBody<T, sizeof(T) >= 16 ? 32 : 64, sizeof(T) >= 16 ? kTileRows : 2 * kTileRows>;

// Whether a same-dtype copy iterator (output 0, input 1) is a batched transpose the tiled
// kernel should take: output contiguous along dim 0, input along dim 1, both long enough that
// a tile is mostly full.
inline bool is_transpose_copy(const TensorIteratorBase& iter) {
  constexpr int64_t kMinSide = 16;
  if (iter.ndim() < 2 || iter.dtype(0) != iter.dtype(1)) return false;
  const int64_t e = iter.element_size(0);
  return iter.strides(0)[0] == e && iter.strides(1)[1] == e && iter.strides(1)[0] != e &&
         iter.shape()[0] >= kMinSide && iter.shape()[1] >= kMinSide;
}

// The body for iter (is_transpose_copy, 32-bit indexable), with carrier T of its element size.
template <typename Body>
Body make_transpose_body(const TensorIteratorBase& iter) {
  const int ndim = iter.ndim();
  const int64_t* batch_strides[2] = {iter.strides(0).data() + 2, iter.strides(1).data() + 2};
  Body body{static_cast<uint32_t>(iter.shape()[0]),
            static_cast<uint32_t>(iter.shape()[1]),
            static_cast<uint32_t>((iter.shape()[0] + Body::kTile - 1) / Body::kTile),
            static_cast<uint32_t>(iter.strides(1)[0]),
            static_cast<uint32_t>(iter.strides(0)[1]),
            1,
            static_cast<char*>(iter.data_ptr(0)),
            static_cast<const char*>(iter.data_ptr(1)),
            cuda::detail::OffsetCalculator<2>(ndim - 2, iter.shape().data() + 2, batch_strides)};
  for (int d = 2; d < ndim; ++d) body.nbatch *= static_cast<uint32_t>(iter.shape()[d]);
  return body;
}

}  // namespace gpu
}  // namespace native
}  // namespace at
