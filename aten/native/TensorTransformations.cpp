// flip and roll, with libtorch 1.13's checks and texts (TensorTransformations.cpp).
//
// Note [How flip walks]
// The result has self's layout (empty_like, Preserve). Its elements are visited in the result's
// memory order, as nested loops over dims ordered by the result's strides; the innermost loop
// walks a run of the fastest dim, reading self forwards or, where that dim is flipped,
// backwards. Elements are moved as bytes of the dtype's size, so one loop serves every dtype.

#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

#include "aten/ATen.h"
#include "aten/generated/NativeFunctions.h"
#include "aten/native/ReduceOpsUtils.h"

namespace at {
namespace native {

namespace {

template <size_t N>
void move_run(char* out, int64_t out_step, const char* in, int64_t in_step, int64_t n) {
  for (int64_t i = 0; i < n; ++i) std::memcpy(out + i * out_step, in + i * in_step, N);
}

void move_run_bytes(size_t itemsize, char* out, int64_t out_step, const char* in, int64_t in_step,
                    int64_t n) {
  switch (itemsize) {
    case 1:
      return move_run<1>(out, out_step, in, in_step, n);
    case 2:
      return move_run<2>(out, out_step, in, in_step, n);
    case 4:
      return move_run<4>(out, out_step, in, in_step, n);
    case 8:
      return move_run<8>(out, out_step, in, in_step, n);
    case 16:
      return move_run<16>(out, out_step, in, in_step, n);
    default:
      for (int64_t i = 0; i < n; ++i) std::memcpy(out + i * out_step, in + i * in_step, itemsize);
  }
}

}  // namespace

Tensor flip(const Tensor& self, IntArrayRef dims) {
  const int64_t ndim = self.dim();
  const DimMask flipped = dims.empty() ? DimMask() : make_dim_mask(dims, ndim);
  Tensor result = at::empty_like(self, MemoryFormat::Preserve);
  if (result.is_meta() || self.numel() == 0) return result;
  if (ndim == 0) return result.copy_(self);
  if (!self.device().is_cpu()) {
    // On a device: one index_select per flipped dim with the reversed positions, then copied
    // into the result's layout.
    Tensor flipped_self = self;
    for (int64_t d = 0; d < ndim; ++d) {
      if (!flipped[d]) continue;
      flipped_self = flipped_self.index_select(
          d, at::arange(self.size(d) - 1, -1, -1, self.options().dtype(kLong)));
    }
    return result.copy_(flipped_self);
  }

  // Dims ordered from the result's slowest to its fastest stride (Note [How flip walks]).
  std::vector<int64_t> order(static_cast<size_t>(ndim));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int64_t a, int64_t b) { return result.stride(a) > result.stride(b); });
  const auto itemsize = static_cast<int64_t>(self.element_size());
  const int64_t inner = order.back();
  const int64_t run = self.size(inner);
  const int64_t out_step = result.stride(inner) * itemsize;
  const int64_t in_step = (flipped[inner] ? -1 : 1) * self.stride(inner) * itemsize;
  const int64_t in_run_start = flipped[inner] ? (run - 1) * self.stride(inner) * itemsize : 0;

  char* out_base = static_cast<char*>(result.data_ptr());
  const char* in_base = static_cast<const char*>(self.data_ptr());
  std::vector<int64_t> counter(static_cast<size_t>(ndim), 0);
  const int64_t runs = self.numel() / run;
  for (int64_t r = 0; r < runs; ++r) {
    int64_t out_offset = 0, in_offset = in_run_start;
    for (int64_t d = 0; d < ndim; ++d) {
      if (d == inner) continue;
      const int64_t i = counter[static_cast<size_t>(d)];
      const int64_t src = flipped[d] ? self.size(d) - 1 - i : i;
      out_offset += i * result.stride(d) * itemsize;
      in_offset += src * self.stride(d) * itemsize;
    }
    move_run_bytes(self.element_size(), out_base + out_offset, out_step, in_base + in_offset,
                   in_step, run);
    // The next run: advance the outer dims, fastest first.
    for (size_t k = order.size() - 1; k-- > 0;) {
      const auto d = static_cast<size_t>(order[k]);
      if (++counter[d] < self.size(static_cast<int64_t>(d))) break;
      counter[d] = 0;
    }
  }
  return result;
}

// Each dim is rolled in turn; one dim is the tail moved to the front (two narrows and a cat).
// With no dims, the flattened tensor is rolled and given back its shape.
Tensor roll(const Tensor& self, IntArrayRef shifts, IntArrayRef dims) {
  TORCH_CHECK(!shifts.empty(), "`shifts` required");
  if (dims.empty() && shifts.size() == 1) {
    const Tensor flat = self.contiguous().view(self.numel());
    return at::roll(flat, shifts, {0}).view(self.sizes());
  }
  TORCH_CHECK(shifts.size() == dims.size(),
              "shifts and dimensions must align. shifts: ", shifts.size(), ", dims:", dims.size());
  if (dims.size() > 1) {
    const Tensor first = at::roll(self, shifts[0], dims[0]);
    return at::roll(first, shifts.slice(1), dims.slice(1));
  }
  if (self.numel() == 0) return self.clone(MemoryFormat::Preserve);
  const int64_t dim = dims[0];
  const int64_t size = self.size(dim);
  // The shift reduced first (|shift| < size), so that size - shift cannot overflow; C++'s %
  // keeps the dividend's sign, hence the second one.
  const int64_t shift = shifts[0] % size;
  const int64_t start = (size - shift) % size;
  return at::cat({self.narrow(dim, start, size - start), self.narrow(dim, 0, start)}, dim);
}

}  // namespace native
}  // namespace at
