// cumsum on the GPU, behind cumsum_stub (ReduceOps.h): result = the running sum of self along
// dim, both of one dtype (ReduceOps.cpp converted self), any strides.
//
// Note [How the GPU cumsum walks a line]
// The scan dim is moved last and the input made contiguous, so each line is a contiguous row
// (a copy when the dim was not already last and dense). One warp scans one row, 32 elements a
// step: each lane loads one, the warp forms the inclusive prefix sums of the 32 with five
// shuffles, adds the carry from the steps before, stores, and the last lane's total becomes the
// next carry. Rows are independent, four warps a block. The sums accumulate as the CPU's
// (ScanAccumulate in cpu/ReduceOpsKernel.cpp): float and double in double, Half and BFloat16 in
// float, integers in int64 (wrapping as the CPU's). A result that is not the contiguous row
// layout is written through a temporary and copied in.

#include <cuda_runtime_api.h>

#include <type_traits>

#include "aten/Dispatch.h"
#include "aten/core/Tensor.h"
#include "aten/generated/Functions.h"       // at::empty
#include "aten/generated/TensorMethods.h"   // movedim, copy_
#include "aten/native/ReduceOps.h"
#include "aten/native/cuda/WarpRows.h"
#include "c10/cuda/CUDAException.h"
#include "c10/cuda/CUDAGuard.h"
#include "c10/cuda/CUDAStream.h"

namespace at {
namespace native {

namespace {

using gpu::kWarpsPerBlock;

template <typename T>
using scan_acc_t = std::conditional_t<
    std::is_integral<T>::value, int64_t,
    std::conditional_t<std::is_same<T, float>::value || std::is_same<T, double>::value, double,
                       float>>;

template <typename T>
__global__ void __launch_bounds__(kWarpsPerBlock * 32)
    cumsum_rows(T* __restrict__ out, const T* __restrict__ in, int64_t rows, int64_t n) {
  using acc_t = scan_acc_t<T>;
  const int64_t row = static_cast<int64_t>(blockIdx.x) * kWarpsPerBlock + threadIdx.y;
  if (row >= rows) return;  // the whole warp leaves together
  const int lane = threadIdx.x;
  in += row * n;
  out += row * n;
  acc_t carry = 0;
  for (int64_t start = 0; start < n; start += 32) {
    const int64_t i = start + lane;
    acc_t v = i < n ? static_cast<acc_t>(in[i]) : acc_t(0);
#pragma unroll
    for (int offset = 1; offset < 32; offset <<= 1) {
      const acc_t up = __shfl_up_sync(0xffffffffu, v, offset);
      if (lane >= offset) v += up;
    }
    v += carry;
    if (i < n) out[i] = static_cast<T>(v);
    carry = __shfl_sync(0xffffffffu, v, 31);
  }
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
  const dim3 block(32, kWarpsPerBlock);
  const unsigned blocks = gpu::warp_rows_blocks(rows, "cumsum");
  const cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
  AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16, self.scalar_type(), "cumsum_cuda", [&] {
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
