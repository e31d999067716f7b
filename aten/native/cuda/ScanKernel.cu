// cumsum on the GPU, behind cumsum_stub (ReduceOps.h): result = the running sum of self along
// dim, both of one dtype (ReduceOps.cpp converted self), any strides.
//
// Note [How the GPU cumsum walks a line]
// The scan dim is moved last and the input made contiguous, so each line is a contiguous row
// (a copy when the dim was not already last and dense). Then one of two scans:
//  * Many rows (gpu::scan_uses_warp_rows): one warp scans one row, 32 elements a step: each
//    lane loads one, the warp forms the inclusive prefix sums of the 32 with five shuffles, adds
//    the carry from the steps before, stores, and the last lane's total becomes the next carry.
//    Rows are independent, four warps a block.
//  * Fewer rows than that would keep the GPU busy (a warp per row of a 1-D cumsum is one warp
//    for the whole tensor): CUB's DeviceScan::InclusiveScanByKey over all the elements at once,
//    keyed by each element's row (i / n, by a multiply and a shift), so a running sum restarts
//    at each row. CUB's single-pass scan (decoupled look-back) reads and writes each element
//    once, whatever the rows' lengths. Which partial sums it adds depends on the timing of its
//    tiles, so floating-point results may differ in the last bit from run to run (float
//    accumulates in double, which hides that after the rounding back to float). It counts the
//    elements in 32 bits up to 2^31 - 1 of them and in 64 bits beyond
//    (gpu::scan_counts_in_32_bits): a tensor of more elements is still one scan, not a warp per
//    row.
// The sums accumulate as the CPU's (ScanAccumulate.h): float and double in double, complex
// numbers in complex<double>, Half and BFloat16 in float, integers in int64 (wrapping as the
// CPU's). A result that is not the contiguous row layout is written through a temporary and
// copied in.

#include <cuda_runtime_api.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/transform_output_iterator.h>

#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "aten/Dispatch.h"
#include "aten/core/Tensor.h"
#include "aten/generated/Functions.h"       // at::empty
#include "aten/generated/TensorMethods.h"   // movedim, copy_
#include "aten/native/ReduceOps.h"
#include "aten/native/ScanAccumulate.h"
#include "aten/native/cuda/IntegerDivider.h"
#include "aten/native/cuda/WarpRows.h"
#include "c10/cuda/CUDAException.h"
#include "c10/cuda/CUDAGuard.h"
#include "c10/cuda/CUDAStream.h"

namespace at {
namespace native {

namespace {

using gpu::kWarpsPerBlock;

// The warp shuffles take arithmetic types: a complex number moves as its two parts.
template <typename A>
__device__ A shfl_up(A v, int offset) {
  if constexpr (c10::is_complex<A>::value) {
    return A(__shfl_up_sync(0xffffffffu, v.real(), offset),
             __shfl_up_sync(0xffffffffu, v.imag(), offset));
  } else {
    return __shfl_up_sync(0xffffffffu, v, offset);
  }
}
template <typename A>
__device__ A shfl_from(A v, int lane) {
  if constexpr (c10::is_complex<A>::value) {
    return A(__shfl_sync(0xffffffffu, v.real(), lane), __shfl_sync(0xffffffffu, v.imag(), lane));
  } else {
    return __shfl_sync(0xffffffffu, v, lane);
  }
}

template <typename T>
__global__ void __launch_bounds__(kWarpsPerBlock * 32)
    cumsum_rows(T* __restrict__ out, const T* __restrict__ in, int64_t rows, int64_t n) {
  using acc_t = ScanAccumulate<T>;
  const int64_t row = static_cast<int64_t>(blockIdx.x) * kWarpsPerBlock + threadIdx.y;
  if (row >= rows) return;  // the whole warp leaves together
  const int lane = threadIdx.x;
  in += row * n;
  out += row * n;
  acc_t carry(0);
  for (int64_t start = 0; start < n; start += 32) {
    const int64_t i = start + lane;
    acc_t v = i < n ? static_cast<acc_t>(in[i]) : acc_t(0);
#pragma unroll
    for (int offset = 1; offset < 32; offset <<= 1) {
      const acc_t up = shfl_up(v, offset);
      if (lane >= offset) v += up;
    }
    v += carry;
    if (i < n) out[i] = static_cast<T>(v);
    carry = shfl_from(v, 31);
  }
}

// The pieces of the keyed scan: an element's row, its value in the accumulation type and back.
// Index counts the elements (uint32_t, or uint64_t beyond 2^31 - 1 of them); a row number fits
// 32 bits either way (fewer than kFillRows rows take this scan).
template <typename Index>
struct RowOf {
  cuda::detail::IntDivider<Index> n;
  __device__ uint32_t operator()(Index i) const { return static_cast<uint32_t>(n.div(i)); }
};

template <typename T>
struct ToAcc {
  __device__ ScanAccumulate<T> operator()(T v) const { return static_cast<ScanAccumulate<T>>(v); }
};

template <typename T>
struct FromAcc {
  __device__ T operator()(ScanAccumulate<T> v) const { return static_cast<T>(v); }
};

struct Plus {
  template <typename A>
  __device__ A operator()(const A& a, const A& b) const {
    return a + b;
  }
};

template <typename Index, typename T>
void cumsum_by_key(T* out, const T* in, int64_t rows, int64_t n, const Tensor& like,
                   cudaStream_t stream) {
  const auto keys = thrust::make_transform_iterator(
      thrust::counting_iterator<Index>(0),
      RowOf<Index>{cuda::detail::IntDivider<Index>(static_cast<Index>(n))});
  const auto values = thrust::make_transform_iterator(in, ToAcc<T>{});
  const auto results = thrust::make_transform_output_iterator(out, FromAcc<T>{});
  const auto count = static_cast<Index>(rows * n);
  size_t bytes = 0;
  C10_CUDA_CHECK(cub::DeviceScan::InclusiveScanByKey(nullptr, bytes, keys, values, results, Plus{},
                                                     count, ::cuda::std::equal_to<>{}, stream));
  // At least one byte, so that the call below gets a non-null scratch.
  const Tensor scratch =
      at::empty({static_cast<int64_t>(std::max<size_t>(bytes, 1))}, like.options().dtype(kByte));
  C10_CUDA_CHECK(cub::DeviceScan::InclusiveScanByKey(scratch.data_ptr(), bytes, keys, values,
                                                     results, Plus{}, count,
                                                     ::cuda::std::equal_to<>{}, stream));
}

void cumsum_kernel_cuda(const Tensor& result, const Tensor& self, int64_t dim) {
  const c10::cuda::CUDAGuard guard(self.device());
  // Note [How the GPU cumsum walks a line]
  const Tensor moved = self.movedim(dim, -1);
  Tensor in = moved;
  if (!moved.is_contiguous()) {
    in = at::empty(moved.sizes(), moved.options());
    in.copy_(moved);
  }
  const Tensor result_rows = result.movedim(dim, -1);
  const bool direct = result_rows.is_contiguous();
  const Tensor out = direct ? result_rows : at::empty(in.sizes(), in.options());
  const int64_t n = in.size(-1);
  const int64_t rows = in.numel() / n;
  const cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
  const bool warp_rows = gpu::scan_uses_warp_rows(rows);
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND2(kHalf, kBFloat16, self.scalar_type(), "cumsum_cuda", [&] {
    if (!warp_rows) {
      if (gpu::scan_counts_in_32_bits(rows * n)) {
        cumsum_by_key<uint32_t>(out.data_ptr<scalar_t>(), in.data_ptr<scalar_t>(), rows, n, in,
                                stream);
      } else {
        cumsum_by_key<uint64_t>(out.data_ptr<scalar_t>(), in.data_ptr<scalar_t>(), rows, n, in,
                                stream);
      }
      return;
    }
    const dim3 block(32, kWarpsPerBlock);
    const unsigned blocks = gpu::warp_rows_blocks(rows, "cumsum");
    cumsum_rows<scalar_t>
        <<<blocks, block, 0, stream>>>(out.data_ptr<scalar_t>(), in.data_ptr<scalar_t>(), rows, n);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  });
  if (!direct) result_rows.copy_(out);
}

}  // namespace

REGISTER_CUDA_DISPATCH(cumsum_stub, &cumsum_kernel_cuda);

}  // namespace native
}  // namespace at
