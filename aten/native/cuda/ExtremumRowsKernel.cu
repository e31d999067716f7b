// argmax, argmin, max.dim and min.dim on the GPU: extremum_rows_stub (ReduceOps.h), the index
// (and value) of the first greatest or least element of each row of a contiguous rows x n
// tensor, a NaN winning over every number as on the CPU.
//
// Note [The first extremum, found by a warp]
// One warp takes a row. Lane l walks elements l, l + 32, ... in order and keeps the first best it
// meets (a strict comparison, and a NaN is kept for good), so each lane holds the first best of
// its own elements. The lanes then combine pairwise with shuffles under one rule: a NaN beats a
// number, a better value beats a worse one, and between equals (or two NaNs) the lower index
// wins. The rule is associative and commutative and the lower index breaks every tie, so the
// answer is the row's first best element whatever the order of the combining: the CPU's answer.
// Half and BFloat16 compare as float, Bool as 0 and 1. The lane's scan and the combining rule
// are host-device functions of ExtremumRowsBody.h, which the CPU tests run lane by lane.

#include <cuda_runtime_api.h>

#include <type_traits>

#include "aten/Dispatch.h"
#include "aten/OpMathType.h"
#include "aten/core/Tensor.h"
#include "aten/native/ReduceOps.h"
#include "aten/native/cuda/ExtremumRowsBody.h"
#include "aten/native/cuda/WarpRows.h"
#include "c10/cuda/CUDAException.h"
#include "c10/cuda/CUDAGuard.h"
#include "c10/cuda/CUDAStream.h"

namespace at {
namespace native {

namespace {

using gpu::kWarpsPerBlock;

template <typename T, bool kMax>
__global__ void __launch_bounds__(kWarpsPerBlock * 32)
    extremum_rows(const T* __restrict__ in, int64_t rows, int64_t n, T* values,
                  int64_t* __restrict__ indices) {
  using A = gpu::extremum_acc_t<T>;
  const int64_t row = static_cast<int64_t>(blockIdx.x) * kWarpsPerBlock + threadIdx.y;
  if (row >= rows) return;  // the whole warp leaves together
  in += row * n;
  gpu::ExtremumCandidate<A> best = gpu::extremum_lane_scan<T, kMax>(in, n, threadIdx.x);
  // The butterfly: after the step with offset o, each lane holds the winner of its group of 2o.
  for (int offset = 16; offset > 0; offset >>= 1) {
    const gpu::ExtremumCandidate<A> other{__shfl_xor_sync(0xffffffffu, best.index, offset),
                                          __shfl_xor_sync(0xffffffffu, best.value, offset)};
    best = gpu::extremum_combine<A, kMax>(best, other, n);
  }
  if (threadIdx.x != 0) return;
  indices[row] = best.index;
  if (values != nullptr) values[row] = in[best.index];
}

void extremum_rows_kernel_cuda(const Tensor& input, const Tensor& values, const Tensor& indices,
                               bool is_max) {
  const c10::cuda::CUDAGuard guard(input.device());
  const int64_t rows = input.size(0), n = input.size(1);
  if (rows == 0 || n == 0) return;
  const dim3 block(32, kWarpsPerBlock);
  const unsigned blocks = gpu::warp_rows_blocks(rows, "argmax");
  const cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
  AT_DISPATCH_ALL_TYPES_AND3(
      kHalf, kBFloat16, kBool, input.scalar_type(), is_max ? "max_cuda" : "min_cuda", [&] {
        scalar_t* v = values.defined() ? values.data_ptr<scalar_t>() : nullptr;
        if (is_max) {
          extremum_rows<scalar_t, true><<<blocks, block, 0, stream>>>(
              input.data_ptr<scalar_t>(), rows, n, v, indices.data_ptr<int64_t>());
        } else {
          extremum_rows<scalar_t, false><<<blocks, block, 0, stream>>>(
              input.data_ptr<scalar_t>(), rows, n, v, indices.data_ptr<int64_t>());
        }
        C10_CUDA_KERNEL_LAUNCH_CHECK();
      });
}

}  // namespace

REGISTER_CUDA_DISPATCH(extremum_rows_stub, &extremum_rows_kernel_cuda);

}  // namespace native
}  // namespace at
