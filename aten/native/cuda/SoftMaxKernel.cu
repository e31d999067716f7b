// softmax and log_softmax, and their backward, on the GPU: the CUDA kernels behind softmax_stub
// and softmax_backward_stub (SoftMax.h). SoftMax.cpp hands them contiguous float or double
// tensors (Half and BFloat16 run in float: Note [Half and BFloat16 softmax compute in float]).
//
// Note [The GPU layouts of a softmax]
// A contiguous tensor seen along dim is outer x size x inner (SoftMax.h), and each of its
// outer * inner lines is normalized on its own, in three passes over the line (the max, the sum
// of exponentials, the results), as the CPU kernel does.
// - rows, when inner == 1 (dim is the last): a line is a contiguous row. One block takes a row,
//   its threads striding along it, so each pass reads the row coalesced; the block combines the
//   max and the sum with warp shuffles and one shared-memory exchange. The block is as wide as
//   the row needs, from one warp (a row of 10 classes) to kMaxThreads.
// - columns, when inner > 1 and the lines are many: neighbouring lines are neighbouring in
//   memory. One thread takes a line, and neighbouring threads take neighbouring lines, so each
//   step along dim (stride inner) reads one coalesced run across the warp.
// - tiles, when inner > 1 and the lines fewer: as columns, but tile.y threads share a line and
//   the block combines their partial results (Note [Splitting a line across a block],
//   SoftMaxBody.h).
// A few long lines across the fast dim take the rows layout through a transposed copy: Note [A
// few long lines across the fast dim] (SoftMaxBody.h).
// The backward has the same layouts, with a sum in place of the max pass. Each thread's part of
// a pass is a host-device function of SoftMaxBody.h, which the CPU tests run thread by thread.

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
using gpu::SoftmaxLayout;
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

// Every thread of a tile's column (threadIdx.x) gets op over the column's blockDim.y values v: a
// halving tree in shared memory, row y taking in row y + half at each step (rows below half
// write, rows from half up are read: no thread reads what another writes in the same step).
template <typename T, typename Op>
__device__ T tile_reduce(T v, Op op, T* shared) {
  const int x = threadIdx.x, y = threadIdx.y, width = blockDim.x;
  __syncthreads();  // the previous reduction's readers are done with shared
  shared[y * width + x] = v;
  for (int half = static_cast<int>(blockDim.y) / 2; half > 0; half >>= 1) {
    __syncthreads();
    if (y < half) shared[y * width + x] = op(shared[y * width + x], shared[(y + half) * width + x]);
  }
  __syncthreads();
  return shared[x];
}

// The passes of each layout are gpu::'s bodies (SoftMaxBody.h); the rows and tiles layouts
// combine each pass over the block between them.
template <typename T, bool kLog>
__global__ void __launch_bounds__(kSoftmaxMaxThreads)
    softmax_rows(T* __restrict__ out, const T* __restrict__ in, int64_t size) {
  __shared__ T shared[kSoftmaxMaxThreads / 32];
  const int64_t base = static_cast<int64_t>(blockIdx.x) * size;
  const int t = threadIdx.x, threads = blockDim.x;
  const T m = block_reduce(gpu::softmax_line_max(in + base, size, 1, t, threads), MaxOp{}, shared);
  const T sum =
      block_reduce(gpu::softmax_line_sum_exp(in + base, size, 1, m, t, threads), SumOp{}, shared);
  gpu::softmax_line_write<T, kLog>(out + base, in + base, size, 1, m, sum, t, threads);
}

template <typename T, bool kLog>
__global__ void __launch_bounds__(kSoftmaxColumnThreads)
    softmax_columns(T* __restrict__ out, const T* __restrict__ in, SoftmaxLines l) {
  const int64_t line = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (line < l.outer * l.inner) gpu::softmax_column_line<T, kLog>(out, in, l, line);
}

// A thread past its outer index's last line (inner not a multiple of tile.x) joins the block's
// combining with the identities, and writes nothing.
template <typename T, bool kLog>
__global__ void __launch_bounds__(kSoftmaxMaxThreads)
    softmax_tiles(T* __restrict__ out, const T* __restrict__ in, SoftmaxLines l,
                  int64_t tiles_per_outer) {
  __shared__ T shared[kSoftmaxMaxThreads];
  const gpu::SoftmaxTileLine line =
      gpu::softmax_tile_line(l, blockDim.x, tiles_per_outer, blockIdx.x, threadIdx.x);
  const int y = threadIdx.y, ys = blockDim.y;
  const T m =
      tile_reduce(line.valid ? gpu::softmax_line_max(in + line.start, l.size, l.inner, y, ys)
                             : -std::numeric_limits<T>::infinity(),
                  MaxOp{}, shared);
  const T sum = tile_reduce(
      line.valid ? gpu::softmax_line_sum_exp(in + line.start, l.size, l.inner, m, y, ys) : T(0),
      SumOp{}, shared);
  if (line.valid) {
    gpu::softmax_line_write<T, kLog>(out + line.start, in + line.start, l.size, l.inner, m, sum, y,
                                     ys);
  }
}

template <typename T, bool kLog>
__global__ void __launch_bounds__(kSoftmaxMaxThreads)
    softmax_backward_rows(T* __restrict__ gi, const T* __restrict__ g, const T* __restrict__ out,
                          int64_t size) {
  __shared__ T shared[kSoftmaxMaxThreads / 32];
  const int64_t base = static_cast<int64_t>(blockIdx.x) * size;
  const int t = threadIdx.x, threads = blockDim.x;
  const T sum = block_reduce(
      gpu::softmax_backward_line_sum<T, kLog>(g + base, out + base, size, 1, t, threads), SumOp{},
      shared);
  gpu::softmax_backward_line_write<T, kLog>(gi + base, g + base, out + base, size, 1, sum, t,
                                            threads);
}

template <typename T, bool kLog>
__global__ void __launch_bounds__(kSoftmaxColumnThreads)
    softmax_backward_columns(T* __restrict__ gi, const T* __restrict__ g, const T* __restrict__ out,
                             SoftmaxLines l) {
  const int64_t line = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (line < l.outer * l.inner) gpu::softmax_backward_column_line<T, kLog>(gi, g, out, l, line);
}

template <typename T, bool kLog>
__global__ void __launch_bounds__(kSoftmaxMaxThreads)
    softmax_backward_tiles(T* __restrict__ gi, const T* __restrict__ g, const T* __restrict__ out,
                           SoftmaxLines l, int64_t tiles_per_outer) {
  __shared__ T shared[kSoftmaxMaxThreads];
  const gpu::SoftmaxTileLine line =
      gpu::softmax_tile_line(l, blockDim.x, tiles_per_outer, blockIdx.x, threadIdx.x);
  const int y = threadIdx.y, ys = blockDim.y;
  const T sum =
      tile_reduce(line.valid ? gpu::softmax_backward_line_sum<T, kLog>(
                                   g + line.start, out + line.start, l.size, l.inner, y, ys)
                             : T(0),
                  SumOp{}, shared);
  if (line.valid) {
    gpu::softmax_backward_line_write<T, kLog>(gi + line.start, g + line.start, out + line.start,
                                              l.size, l.inner, sum, y, ys);
  }
}

// What both passes' launches share: the lines, the layout (Note [The GPU layouts of a
// softmax]), the grid and the stream. Empty when there is nothing to compute.
struct SoftmaxLaunch {
  SoftmaxLines l;
  SoftmaxLayout layout;
  int64_t tiles_per_outer = 0;  // the tiles layout's
  unsigned blocks;
  dim3 threads;
  cudaStream_t stream;
};

c10::optional<SoftmaxLaunch> plan_launch(const Tensor& t, int64_t dim) {
  SoftmaxLaunch launch;
  launch.l = lines_of(t, dim);
  const SoftmaxLines& l = launch.l;
  if (l.outer * l.inner * l.size == 0) return c10::nullopt;
  const int64_t lines = l.outer * l.inner;
  const gpu::SoftmaxTile tile = gpu::softmax_tile(l);
  launch.layout = gpu::softmax_layout(l);
  int64_t blocks = 0;
  switch (launch.layout) {
    case SoftmaxLayout::Rows:
      blocks = l.outer;
      launch.threads = dim3(gpu::softmax_row_threads(l.size));
      break;
    case SoftmaxLayout::Columns:
      blocks = (lines + kSoftmaxColumnThreads - 1) / kSoftmaxColumnThreads;
      launch.threads = dim3(kSoftmaxColumnThreads);
      break;
    case SoftmaxLayout::Tiles:
      launch.tiles_per_outer = gpu::softmax_tiles_per_outer(l, tile);
      blocks = l.outer * launch.tiles_per_outer;
      launch.threads = dim3(tile.x, tile.y);
      break;
  }
  TORCH_CHECK(blocks <= std::numeric_limits<int>::max(),
              "softmax: too many lines for one CUDA launch (", lines, ")");
  launch.blocks = static_cast<unsigned>(blocks);
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
      switch (p.layout) {
        case SoftmaxLayout::Rows:
          softmax_rows<scalar_t, kLog><<<p.blocks, p.threads, 0, p.stream>>>(out, in, p.l.size);
          break;
        case SoftmaxLayout::Columns:
          softmax_columns<scalar_t, kLog><<<p.blocks, p.threads, 0, p.stream>>>(out, in, p.l);
          break;
        case SoftmaxLayout::Tiles:
          softmax_tiles<scalar_t, kLog>
              <<<p.blocks, p.threads, 0, p.stream>>>(out, in, p.l, p.tiles_per_outer);
          break;
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
      switch (p.layout) {
        case SoftmaxLayout::Rows:
          softmax_backward_rows<scalar_t, kLog>
              <<<p.blocks, p.threads, 0, p.stream>>>(gi, g, out, p.l.size);
          break;
        case SoftmaxLayout::Columns:
          softmax_backward_columns<scalar_t, kLog>
              <<<p.blocks, p.threads, 0, p.stream>>>(gi, g, out, p.l);
          break;
        case SoftmaxLayout::Tiles:
          softmax_backward_tiles<scalar_t, kLog>
              <<<p.blocks, p.threads, 0, p.stream>>>(gi, g, out, p.l, p.tiles_per_outer);
          break;
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
