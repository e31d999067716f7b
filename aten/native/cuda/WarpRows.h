#pragma once
// The launch shape of the kernels that give each row a warp (argmax's ExtremumRowsKernel.cu,
// cumsum's ScanKernel.cu): blocks of 32 x kWarpsPerBlock threads, threadIdx.y the block's warp,
// row blockIdx.x * kWarpsPerBlock + threadIdx.y; and when cumsum takes that shape.

#include <cstdint>
#include <limits>

#include "c10/util/Exception.h"

namespace at {
namespace native {
namespace gpu {

constexpr int kWarpsPerBlock = 4;

// The blocks for `rows` rows; too many for one launch is an error naming `op`.
inline unsigned warp_rows_blocks(int64_t rows, const char* op) {
  const int64_t blocks = (rows + kWarpsPerBlock - 1) / kWarpsPerBlock;
  TORCH_CHECK(blocks <= std::numeric_limits<int>::max(), op,
              ": too many rows for one CUDA launch (", rows, ")");
  return static_cast<unsigned>(blocks);
}

// Note [How the GPU cumsum walks a line] (ScanKernel.cu): a warp per row when there are rows
// enough to fill the GPU (kFillRows: 132 SMs x 64 warps, rounded); otherwise one keyed scan over
// every element, which counts them in 32 bits when it can (IntDivider<uint32_t>'s range).
constexpr int64_t kFillRows = 8192;

inline bool scan_uses_warp_rows(int64_t rows) {
  return rows >= kFillRows;
}

inline bool scan_counts_in_32_bits(int64_t elements) {
  return elements <= std::numeric_limits<int32_t>::max();
}

}  // namespace gpu
}  // namespace native
}  // namespace at
