#pragma once
// index_select's copy on the GPU (cuda/IndexingKernels.cu), one thread per `width`-byte chunk of
// the result (Note [Indexing along one dim] in Indexing.cpp): which source chunk a result chunk
// comes from, and the widest chunk every row and both pointers are aligned to. Host-device, so
// the CPU tests run the copy chunk by chunk against the CPU kernel.

#include <cstdint>

#include "aten/native/Indexing.h"
#include "c10/util/Macros.h"

namespace at {
namespace native {
namespace gpu {

// The widest of 16, 8, 4, 2, 1 bytes dividing the row length and both base addresses.
inline int row_gather_width(const RowGather& rows) {
  const auto bits = static_cast<uint64_t>(rows.run) | reinterpret_cast<uintptr_t>(rows.out) |
                    reinterpret_cast<uintptr_t>(rows.in);
  int width = 16;
  while (width > 1 && (bits % static_cast<uint64_t>(width)) != 0) width /= 2;
  return width;
}

// The byte offset in the source of result chunk `c` (chunks of `width` bytes): result row
// r = o * n + i is source row o * size + index[i].
C10_HOST_DEVICE inline int64_t row_gather_source_offset(const RowGather& rows, int width,
                                                        int64_t c) {
  const int64_t chunks_per_row = rows.run / width;
  const int64_t r = c / chunks_per_row, j = c % chunks_per_row;
  const int64_t o = r / rows.n, i = r % rows.n;
  return (o * rows.size + rows.index[i]) * rows.run + j * width;
}

}  // namespace gpu
}  // namespace native
}  // namespace at
