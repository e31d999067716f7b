#pragma once
// OffsetCalculator: from a linear element index to each operand's byte offset, for a GPU thread
// that has only its index (ATen's cuda/detail/OffsetCalculator.cuh). Built on the host from
// TensorIterator's coalesced shape and byte strides, passed to the kernel by value.
//
//   auto calc = make_offset_calculator<2>(iter);    // output and one input
//   auto off = calc.get(i);                         // off[0], off[1]: bytes from data_ptr(0/1)
//
// Dim 0 is the fastest: index i is split as i = c0 + size0 * (c1 + size1 * (c2 + ...)), the
// order TensorIterator walks (its perm_ puts the output's smallest stride first), so
// consecutive threads touch consecutive output elements.

#include <cstdint>

#include "aten/native/TensorIterator.h"
#include "aten/native/cuda/IntegerDivider.h"

namespace at {
namespace cuda {
namespace detail {

// The most dims a GPU loop takes (ATen's MAX_DIMS); TensorIterator coalesces far below it in
// practice. A kernel parameter holds kMaxDims dividers and strides, so this bounds its size.
constexpr int kMaxDims = 25;

// A fixed-size array usable in device code (std::array's members are not __device__).
template <typename T, int N>
struct Array {
  T data[N];
  C10_HOST_DEVICE T operator[](int i) const { return data[i]; }
  C10_HOST_DEVICE T& operator[](int i) { return data[i]; }
};

template <int NARGS, typename index_t = uint32_t>
struct OffsetCalculator {
  using offset_type = Array<index_t, NARGS>;

  // sizes[0..dims) and, per operand, byte strides strides[arg][0..dims).
  OffsetCalculator(int dims, const int64_t* sizes, const int64_t* const* strides) : dims(dims) {
    TORCH_CHECK(dims <= kMaxDims, "tensor has too many (>", kMaxDims, ") dims");
    for (int d = 0; d < kMaxDims; ++d) {
      sizes_[d] = IntDivider<index_t>(d < dims ? static_cast<index_t>(sizes[d]) : 1);
      for (int arg = 0; arg < NARGS; ++arg) {
        strides_[d][arg] = d < dims ? static_cast<index_t>(strides[arg][d]) : 0;
      }
    }
  }

  C10_HOST_DEVICE offset_type get(index_t linear_idx) const {
    offset_type offsets;
    C10_UNROLL
    for (int arg = 0; arg < NARGS; ++arg) offsets[arg] = 0;
    C10_UNROLL
    for (int d = 0; d < kMaxDims; ++d) {
      if (d == dims) break;
      const DivMod<index_t> dm = sizes_[d].divmod(linear_idx);
      linear_idx = dm.div;
      C10_UNROLL
      for (int arg = 0; arg < NARGS; ++arg) offsets[arg] += dm.mod * strides_[d][arg];
    }
    return offsets;
  }

  int dims;
  IntDivider<index_t> sizes_[kMaxDims];
  index_t strides_[kMaxDims][NARGS];
};

// The calculator of the operands operands[0..NARGS) of iter, in that order, over all of its
// dims. The iterator must fit 32-bit indexing when index_t is 32 bits (gpu_kernel splits it
// first).
template <int NARGS, typename index_t = uint32_t>
OffsetCalculator<NARGS, index_t> make_offset_calculator(const TensorIteratorBase& iter,
                                                        const int* operands) {
  const int64_t* strides[NARGS > 0 ? NARGS : 1];
  for (int arg = 0; arg < NARGS; ++arg) strides[arg] = iter.strides(operands[arg]).data();
  return OffsetCalculator<NARGS, index_t>(iter.ndim(), iter.shape().data(), strides);
}

// The calculator of operands [first, first + NARGS) of iter.
template <int NARGS, typename index_t = uint32_t>
OffsetCalculator<NARGS, index_t> make_offset_calculator(const TensorIteratorBase& iter,
                                                        int first = 0) {
  TORCH_INTERNAL_ASSERT(first + NARGS <= iter.ntensors());
  int operands[NARGS > 0 ? NARGS : 1];
  for (int arg = 0; arg < NARGS; ++arg) operands[arg] = first + arg;
  return make_offset_calculator<NARGS, index_t>(iter, operands);
}

}  // namespace detail
}  // namespace cuda
}  // namespace at
