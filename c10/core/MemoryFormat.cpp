#include "c10/core/MemoryFormat.h"
#include "c10/util/WrappingArithmetic.h"

#include <ostream>

namespace c10 {

std::ostream& operator<<(std::ostream& stream, MemoryFormat memory_format) {
  switch (memory_format) {
    case MemoryFormat::Preserve:
      return stream << "Preserve";
    case MemoryFormat::Contiguous:
      return stream << "Contiguous";
    case MemoryFormat::ChannelsLast:
      return stream << "ChannelsLast";
    case MemoryFormat::ChannelsLast3d:
      return stream << "ChannelsLast3d";
    default:
      TORCH_CHECK(false, "Unknown memory format ", static_cast<int>(memory_format));
  }
}

// The products wrap for an empty tensor whose sizes multiply past int64, as libtorch's do
// (Note [Geometry that wraps as libtorch's does]).
DimVector get_channels_last_strides_2d(IntArrayRef sizes) {
  DimVector strides(sizes.size());
  switch (sizes.size()) {
    case 4:
      strides[1] = 1;
      strides[3] = sizes[1];
      strides[2] = wrapping_mul(strides[3], sizes[3]);
      strides[0] = wrapping_mul(strides[2], sizes[2]);
      return strides;
    case 3:
      strides[0] = 1;
      strides[2] = sizes[0];
      strides[1] = wrapping_mul(strides[2], sizes[2]);
      return strides;
    default:
      TORCH_INTERNAL_ASSERT(false, "ChannelsLast2d doesn't support size ", sizes.size());
  }
}

DimVector get_channels_last_strides_3d(IntArrayRef sizes) {
  DimVector strides(sizes.size());
  switch (sizes.size()) {
    case 5:
      strides[1] = 1;
      strides[4] = sizes[1];
      strides[3] = wrapping_mul(strides[4], sizes[4]);
      strides[2] = wrapping_mul(strides[3], sizes[3]);
      strides[0] = wrapping_mul(strides[2], sizes[2]);
      return strides;
    case 4:
      strides[0] = 1;
      strides[3] = sizes[0];
      strides[2] = wrapping_mul(strides[3], sizes[3]);
      strides[1] = wrapping_mul(strides[2], sizes[2]);
      return strides;
    default:
      TORCH_INTERNAL_ASSERT(false, "ChannelsLast3d doesn't support size ", sizes.size());
  }
}

namespace {

// See Note [Ambiguous strides and channels-last]. `order` lists the dims fastest first.
template <size_t N>
bool strides_like_channels_last(IntArrayRef sizes, IntArrayRef strides, const int (&order)[N]) {
  int64_t min = 0;
  // A trivial C dimension defaults to NCHW.
  if (strides[1] == 0) return false;
  for (int d : order) {
    if (sizes[d] == 0) return false;
    if (strides[d] < min) return false;
    // N111 tensors (all strides equal on the size-1 dims) stay NCHW: the ambiguity is
    // resolved towards the default layout.
    if (d == 0 && min == strides[1]) return false;
    // Distinguishes N1H1 ([H,1,1,1] channels-last vs [H,H,1,1] contiguous) and the
    // permutations of 1C1W.
    min = strides[d];
    // Wraps only for an empty tensor (Note [Geometry that wraps as libtorch's does]).
    if (sizes[d] > 1) min = c10::wrapping_mul(min, sizes[d]);
  }
  return true;
}

}  // namespace

bool is_channels_last_strides_2d(IntArrayRef sizes, IntArrayRef strides) {
  static const int order[] = {1, 3, 2, 0};
  return sizes.size() == 4 && strides_like_channels_last(sizes, strides, order);
}

bool is_channels_last_strides_3d(IntArrayRef sizes, IntArrayRef strides) {
  static const int order[] = {1, 4, 3, 2, 0};
  return sizes.size() == 5 && strides_like_channels_last(sizes, strides, order);
}

}  // namespace c10
