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
// are host-device functions of ExtremumRowsBody.h, which the CPU tests run lane by lane. Few long
// rows are cut into chunks first: Note [Few long rows: chunks, then their candidates] there.

#include <cuda_runtime_api.h>

#include <type_traits>

#include "aten/Dispatch.h"
#include "aten/OpMathType.h"
#include "aten/core/Tensor.h"
#include "aten/generated/Functions.h"  // at::empty
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

// The butterfly: after the step with offset o, each lane holds the winner of its group of 2o;
// at the end every lane holds the warp's.
template <typename A, bool kMax>
__device__ gpu::ExtremumCandidate<A> warp_extremum(gpu::ExtremumCandidate<A> best, int64_t n) {
  for (int offset = 16; offset > 0; offset >>= 1) {
    const gpu::ExtremumCandidate<A> other{__shfl_xor_sync(0xffffffffu, best.index, offset),
                                          __shfl_xor_sync(0xffffffffu, best.value, offset)};
    best = gpu::extremum_combine<A, kMax>(best, other, n);
  }
  return best;
}

// A warp per (row, chunk), chunk_len elements a chunk (n: a warp per row). With `candidates`
// null the warp's answer is the row's; otherwise it is candidate row * chunks + chunk.
template <typename T, bool kMax>
__global__ void __launch_bounds__(kWarpsPerBlock * 32)
    extremum_rows(const T* __restrict__ in, int64_t rows, int64_t n, int64_t chunks,
                  int64_t chunk_len, T* values, int64_t* __restrict__ indices,
                  int64_t* __restrict__ candidate_indices,
                  gpu::extremum_acc_t<T>* __restrict__ candidate_values) {
  using A = gpu::extremum_acc_t<T>;
  const int64_t warp = static_cast<int64_t>(blockIdx.x) * kWarpsPerBlock + threadIdx.y;
  if (warp >= rows * chunks) return;  // the whole warp leaves together
  const int64_t row = warp / chunks;
  const int64_t begin = (warp - row * chunks) * chunk_len;
  const int64_t end = begin + chunk_len < n ? begin + chunk_len : n;
  in += row * n;
  const gpu::ExtremumCandidate<A> best =
      warp_extremum<A, kMax>(gpu::extremum_lane_scan<T, kMax>(in, begin, end, n, threadIdx.x), n);
  if (threadIdx.x != 0) return;
  if (candidate_indices != nullptr) {
    candidate_indices[warp] = best.index;
    candidate_values[warp] = best.value;
    return;
  }
  indices[row] = best.index;
  if (values != nullptr) values[row] = in[best.index];
}

// A block per row (extremum_candidate_threads(chunks) wide) combines the row's candidates.
template <typename T, bool kMax>
__global__ void __launch_bounds__(gpu::kCandidateThreads)
    extremum_candidates(const T* __restrict__ in, int64_t n, int64_t chunks,
                        const int64_t* __restrict__ candidate_indices,
                        const gpu::extremum_acc_t<T>* __restrict__ candidate_values, T* values,
                        int64_t* __restrict__ indices) {
  using A = gpu::extremum_acc_t<T>;
  constexpr int kMaxWarps = gpu::kCandidateThreads / 32;
  __shared__ int64_t warp_indices[kMaxWarps];
  __shared__ A warp_values[kMaxWarps];
  const int64_t row = blockIdx.x;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int warps = static_cast<int>(blockDim.x) / 32;
  gpu::ExtremumCandidate<A> best =
      warp_extremum<A, kMax>(gpu::extremum_candidates_scan<A, kMax>(
                                 candidate_indices + row * chunks, candidate_values + row * chunks,
                                 chunks, n, threadIdx.x, static_cast<int>(blockDim.x)),
                             n);
  if (lane == 0) {
    warp_indices[warp] = best.index;
    warp_values[warp] = best.value;
  }
  __syncthreads();
  if (warp != 0) return;
  best = warp_extremum<A, kMax>(gpu::ExtremumCandidate<A>{lane < warps ? warp_indices[lane] : n,
                                                          lane < warps ? warp_values[lane] : A(0)},
                                n);
  if (lane != 0) return;
  indices[row] = best.index;
  if (values != nullptr) values[row] = in[row * n + best.index];
}

template <typename T, bool kMax>
void launch_extremum(const Tensor& input, const Tensor& values, const Tensor& indices) {
  using A = gpu::extremum_acc_t<T>;
  const int64_t rows = input.size(0), n = input.size(1);
  const gpu::ExtremumSplit split = gpu::extremum_split(rows, n);
  const cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
  const T* in = input.data_ptr<T>();
  T* v = values.defined() ? values.data_ptr<T>() : nullptr;
  const dim3 block(32, kWarpsPerBlock);
  const unsigned blocks = gpu::warp_rows_blocks(rows * split.chunks, "argmax");
  if (split.chunks == 1) {
    extremum_rows<T, kMax><<<blocks, block, 0, stream>>>(
        in, rows, n, 1, n, v, indices.data_ptr<int64_t>(), nullptr, nullptr);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return;
  }
  // Note [Few long rows: chunks, then their candidates]: rows < kExtremumTargetWarps / 4 here.
  const int64_t count = rows * split.chunks;
  const Tensor candidate_indices = at::empty({count}, input.options().dtype(kLong));
  const Tensor candidate_values =
      at::empty({count * static_cast<int64_t>(sizeof(A))}, input.options().dtype(kByte));
  A* cv = static_cast<A*>(candidate_values.data_ptr());
  extremum_rows<T, kMax><<<blocks, block, 0, stream>>>(in, rows, n, split.chunks, split.chunk_len,
                                                       nullptr, nullptr,
                                                       candidate_indices.data_ptr<int64_t>(), cv);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  const int threads = gpu::extremum_candidate_threads(split.chunks);
  extremum_candidates<T, kMax><<<static_cast<unsigned>(rows), threads, 0, stream>>>(
      in, n, split.chunks, candidate_indices.data_ptr<int64_t>(), cv, v,
      indices.data_ptr<int64_t>());
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void extremum_rows_kernel_cuda(const Tensor& input, const Tensor& values, const Tensor& indices,
                               bool is_max) {
  const c10::cuda::CUDAGuard guard(input.device());
  if (input.size(0) == 0 || input.size(1) == 0) return;
  AT_DISPATCH_ALL_TYPES_AND3(kHalf, kBFloat16, kBool, input.scalar_type(),
                             is_max ? "max_cuda" : "min_cuda", [&] {
                               if (is_max) {
                                 launch_extremum<scalar_t, true>(input, values, indices);
                               } else {
                                 launch_extremum<scalar_t, false>(input, values, indices);
                               }
                             });
}

}  // namespace

REGISTER_CUDA_DISPATCH(extremum_rows_stub, &extremum_rows_kernel_cuda);

}  // namespace native
}  // namespace at
