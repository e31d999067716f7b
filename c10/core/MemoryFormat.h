#pragma once
// MemoryFormat: the order a tensor's dims are laid out in memory, as a request or a property.
//
//   Contiguous      NCHW-style: strides decrease from the first dim to the last.
//   ChannelsLast    rank 4, NHWC in memory: dims ordered (1, 3, 2, 0) fastest first.
//   ChannelsLast3d  rank 5, NDHWC in memory: dims ordered (1, 4, 3, 2, 0).
//   Preserve        "keep whatever the source has" — only meaningful as a request.

#include <cstdint>
#include <iosfwd>

#include "c10/util/ArrayRef.h"

namespace c10 {

enum class MemoryFormat : int8_t { Contiguous, Preserve, ChannelsLast, ChannelsLast3d, NumOptions };

// The format a plain "contiguous" request means.
inline MemoryFormat get_contiguous_memory_format() { return MemoryFormat::Contiguous; }
#define LEGACY_CONTIGUOUS_MEMORY_FORMAT ::c10::get_contiguous_memory_format()

C10_API std::ostream& operator<<(std::ostream& stream, MemoryFormat memory_format);

// The strides a channels-last tensor of these sizes has (rank 4, or 3 without the batch dim).
C10_API DimVector get_channels_last_strides_2d(IntArrayRef sizes);
// The same for channels-last-3d (rank 5, or 4 without the batch dim).
C10_API DimVector get_channels_last_strides_3d(IntArrayRef sizes);

// Note [Ambiguous strides and channels-last]
// Whether strides "look like" channels-last is a looser question than channels-last contiguity:
// it sorts the dims by stride in the order (1, 3, 2, 0), tolerating size-1 dims, and falls back
// to NCHW for the ambiguous cases (C stride 0; N111 tensors whose strides are all equal). This is
// what suggest_memory_format() and empty_like(Preserve) use.
C10_API bool is_channels_last_strides_2d(IntArrayRef sizes, IntArrayRef strides);
C10_API bool is_channels_last_strides_3d(IntArrayRef sizes, IntArrayRef strides);

}  // namespace c10

namespace at {
using c10::MemoryFormat;
using c10::get_channels_last_strides_2d;
using c10::get_channels_last_strides_3d;
}  // namespace at
