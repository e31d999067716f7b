// softmax and log_softmax, and their backward, on the GPU: the CUDA kernels behind softmax_stub
// and softmax_backward_stub (SoftMax.h). SoftMax.cpp hands them contiguous float or double
// tensors (Half and BFloat16 run in float: Note [Half and BFloat16 softmax compute in float]).
//
// Note [Two GPU layouts of a softmax]
// A contiguous tensor seen along dim is outer x size x inner (SoftMax.h), and each of its
// outer * inner lines is normalized on its own, in three passes over the line (the max, the sum
// of exponentials, the results), as the CPU kernel does.
// - inner == 1 (dim is the last): a line is a contiguous row. One block takes a row, its
//   threads striding along it, so each pass reads the row coalesced; the block combines the
//   max and the sum with warp shuffles and one shared-memory exchange. The block is as wide as
//   the row needs, from one warp (a row of 10 classes) to kMaxThreads.
// - inner > 1: neighbouring lines are neighbouring in memory. One thread takes a line, and
//   neighbouring threads take neighbouring lines, so each step along dim (stride inner) reads
//   one coalesced run across the warp.
// A few long lines across the fast dim take the rows layout through a transposed copy: Note [A
// few long lines across the fast dim] (SoftMaxBody.h).
// The backward has the same two layouts, with a sum in place of the max pass. Each thread's part
// of a pass is a host-device function of SoftMaxBody.h, which the CPU tests run thread by thread.

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "aten/Dispatch.h"
#include "aten/core/Tensor.h"
#include "aten/generated/Functions.h"       // at::empty
#include "aten/generated/TensorMethods.h"   // movedim, copy_
#include "aten/native/SoftMax.h"
#include "aten/native/cuda/SoftMaxBody.h"
#include "c10/cuda/CUDAException.h"
#include "c10/cuda/CUDAGuard.h"
#include "c10/cuda/CUDAStream.h"
#include "c10/util/Optional.h"

namespace at {
namespace native {

namespace {

using gpu::kSoftmaxColumnThreads;
using gpu::kSoftmaxMaxThreads;
using gpu::SoftmaxLines;

SoftmaxLines lines_of(const Tensor& t, int64_t dim) {
  return gpu::softmax_lines(t.sizes().data(), t.dim(), dim);
}

struct MaxOp {
  template <typename T>
  __device__ T operator()(T a, T b) const {
    return gpu::softmax_nan_max(a, b);
  }
};
struct SumOp {
  template <typename T>
  __device__ T operator()(T a, T b) const {
    return a + b;
  }
};

// Every thread of the block gets op over all threads' v. shared holds one value per warp.
template <typename T, typename Op>
__device__ T block_reduce(T v, Op op, T* shared) {
  for (int offset = 16; offset > 0; offset >>= 1) {
    v = op(v, __shfl_xor_sync(0xffffffffu, v, offset));
  }
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int warps = static_cast<int>(blockDim.x) >> 5;
  __syncthreads();  // the previous reduction's readers are done with shared
  if (lane == 0) shared[warp] = v;
  __syncthreads();
  v = shared[0];
  for (int w = 1; w < warps; ++w) v = op(v, shared[w]);
  return v;
}

// The passes of each layout are gpu::'s bodies (SoftMaxBody.h); the rows layout combines each
// pass over the block between them.
template <typename T, bool kLog>
__global__ void __launch_bounds__(kSoftmaxMaxThreads)
    softmax_rows(T* __restrict__ out, const T* __restrict__ in, int64_t size) {
  __shared__ T shared[kSoftmaxMaxThreads / 32];
  const int64_t base = static_cast<int64_t>(blockIdx.x) * size;
  const int t = threadIdx.x, threads = blockDim.x;
  const T m = block_reduce(gpu::softmax_row_max(in + base, size, t, threads), MaxOp{}, shared);
  const T sum =
      block_reduce(gpu::softmax_row_sum_exp(in + base, size, m, t, threads), SumOp{}, shared);
  gpu::softmax_row_write<T, kLog>(out + base, in + base, size, m, sum, t, threads);
}

template <typename T, bool kLog>
__global__ void __launch_bounds__(kSoftmaxColumnThreads)
    softmax_columns(T* __restrict__ out, const T* __restrict__ in, SoftmaxLines l) {
  const int64_t line = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (line < l.outer * l.inner) gpu::softmax_column_line<T, kLog>(out, in, l, line);
}

template <typename T, bool kLog>
__global__ void __launch_bounds__(kSoftmaxMaxThreads)
    softmax_backward_rows(T* __restrict__ gi, const T* __restrict__ g, const T* __restrict__ out,
                          int64_t size) {
  __shared__ T shared[kSoftmaxMaxThreads / 32];
  const int64_t base = static_cast<int64_t>(blockIdx.x) * size;
  const int t = threadIdx.x, threads = blockDim.x;
  const T sum =
      block_reduce(gpu::softmax_backward_row_sum<T, kLog>(g + base, out + base, size, t, threads),
                   SumOp{}, shared);
  gpu::softmax_backward_row_write<T, kLog>(gi + base, g + base, out + base, size, sum, t, threads);
}

template <typename T, bool kLog>
__global__ void __launch_bounds__(kSoftmaxColumnThreads)
    softmax_backward_columns(T* __restrict__ gi, const T* __restrict__ g, const T* __restrict__ out,
                             SoftmaxLines l) {
  const int64_t line = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (line < l.outer * l.inner) gpu::softmax_backward_column_line<T, kLog>(gi, g, out, l, line);
}

// What both passes' launches share: the lines, the layout (Note [Two GPU layouts of a
// softmax]), the grid and the stream. Empty when there is nothing to compute.
struct SoftmaxLaunch {
  SoftmaxLines l;
  bool rows;  // a block per row (dim last), else a thread per line
  unsigned blocks;
  int threads;
  cudaStream_t stream;
};

c10::optional<SoftmaxLaunch> plan_launch(const Tensor& t, int64_t dim) {
  SoftmaxLaunch launch;
  launch.l = lines_of(t, dim);
  const SoftmaxLines& l = launch.l;
  if (l.outer * l.inner * l.size == 0) return c10::nullopt;
  TORCH_CHECK(l.outer * l.inner <= static_cast<int64_t>(std::numeric_limits<int>::max()) *
                                       (l.inner == 1 ? 1 : kSoftmaxColumnThreads),
              "softmax: too many lines for one CUDA launch (", l.outer * l.inner, ")");
  launch.rows = l.inner == 1;
  launch.blocks = launch.rows
                      ? static_cast<unsigned>(l.outer)
                      : static_cast<unsigned>((l.outer * l.inner + kSoftmaxColumnThreads - 1) /
                                              kSoftmaxColumnThreads);
  launch.threads = launch.rows ? gpu::softmax_row_threads(l.size) : kSoftmaxColumnThreads;
  launch.stream = c10::cuda::getCurrentCUDAStream();
  return launch;
}

// f(std::true_type{}) for log_softmax, f(std::false_type{}) for softmax: kLog as a constant.
template <typename F>
void with_log(bool log, const F& f) {
  if (log) {
    f(std::true_type{});
  } else {
    f(std::false_type{});
  }
}

// Note [A few long lines across the fast dim]: `t` with dim moved last, contiguous.
bool moves_dim_last(const Tensor& t, int64_t dim) {
  return gpu::softmax_moves_dim_last(lines_of(t, dim));
}

Tensor dim_last(const Tensor& t, int64_t dim) {
  const Tensor moved = t.movedim(dim, -1);
  Tensor rows = at::empty(moved.sizes(), moved.options());
  rows.copy_(moved);
  return rows;
}

void softmax_kernel_cuda(const Tensor& result, const Tensor& self, int64_t dim, bool log) {
  const c10::cuda::CUDAGuard guard(self.device());
  if (moves_dim_last(self, dim)) {
    const Tensor out_rows = at::empty(result.movedim(dim, -1).sizes(), result.options());
    softmax_kernel_cuda(out_rows, dim_last(self, dim), self.dim() - 1, log);
    result.copy_(out_rows.movedim(-1, dim));
    return;
  }
  const c10::optional<SoftmaxLaunch> launch = plan_launch(self, dim);
  if (!launch) return;
  const SoftmaxLaunch& p = *launch;
  AT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "host_softmax", [&] {
    scalar_t* out = result.data_ptr<scalar_t>();
    const scalar_t* in = self.data_ptr<scalar_t>();
    with_log(log, [&](auto is_log) {
      constexpr bool kLog = decltype(is_log)::value;
      if (p.rows) {
        softmax_rows<scalar_t, kLog><<<p.blocks, p.threads, 0, p.stream>>>(out, in, p.l.size);
      } else {
        softmax_columns<scalar_t, kLog><<<p.blocks, p.threads, 0, p.stream>>>(out, in, p.l);
      }
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  });
}

void softmax_backward_kernel_cuda(const Tensor& grad_input, const Tensor& grad,
                                  const Tensor& output, int64_t dim, bool log) {
  const c10::cuda::CUDAGuard guard(grad.device());
  if (moves_dim_last(output, dim)) {
    const Tensor output_rows = dim_last(output, dim);
    const Tensor gi_rows = at::empty(output_rows.sizes(), grad_input.options());
    softmax_backward_kernel_cuda(gi_rows, dim_last(grad, dim), output_rows, output.dim() - 1, log);
    grad_input.copy_(gi_rows.movedim(-1, dim));
    return;
  }
  const c10::optional<SoftmaxLaunch> launch = plan_launch(output, dim);
  if (!launch) return;
  const SoftmaxLaunch& p = *launch;
  AT_DISPATCH_FLOATING_TYPES(grad.scalar_type(), "host_softmax_backward", [&] {
    scalar_t* gi = grad_input.data_ptr<scalar_t>();
    const scalar_t* g = grad.data_ptr<scalar_t>();
    const scalar_t* out = output.data_ptr<scalar_t>();
    with_log(log, [&](auto is_log) {
      constexpr bool kLog = decltype(is_log)::value;
      if (p.rows) {
        softmax_backward_rows<scalar_t, kLog>
            <<<p.blocks, p.threads, 0, p.stream>>>(gi, g, out, p.l.size);
      } else {
        softmax_backward_columns<scalar_t, kLog>
            <<<p.blocks, p.threads, 0, p.stream>>>(gi, g, out, p.l);
      }
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(softmax_stub, &softmax_kernel_cuda);
REGISTER_CUDA_DISPATCH(softmax_backward_stub, &softmax_backward_kernel_cuda);

}  // namespace native
}  // namespace at
