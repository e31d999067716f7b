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
// The backward has the same two layouts, with a sum in place of the max pass.

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "aten/Dispatch.h"
#include "aten/core/Tensor.h"
#include "aten/native/SoftMax.h"
#include "c10/cuda/CUDAException.h"
#include "c10/cuda/CUDAGuard.h"
#include "c10/cuda/CUDAStream.h"

namespace at {
namespace native {

namespace {

constexpr int kMaxThreads = 512;
constexpr int kColumnThreads = 256;

// The line geometry of Note [Two GPU layouts of a softmax].
struct Lines {
  int64_t outer = 1, size = 1, inner = 1;
};

Lines lines_of(const Tensor& t, int64_t dim) {
  Lines l;
  if (t.dim() == 0) return l;
  for (int64_t d = 0; d < dim; ++d) l.outer *= t.size(d);
  l.size = t.size(dim);
  for (int64_t d = dim + 1; d < t.dim(); ++d) l.inner *= t.size(d);
  return l;
}

// A NaN wins, as in the CPU kernel's max.
template <typename T>
__device__ T nan_max(T a, T b) {
  return (a != a || a > b) ? a : b;
}

struct MaxOp {
  template <typename T>
  __device__ T operator()(T a, T b) const {
    return nan_max(a, b);
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
  for (int offset = 16; offset > 0; offset >>= 1)
    v = op(v, __shfl_xor_sync(0xffffffffu, v, offset));
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int warps = static_cast<int>(blockDim.x) >> 5;
  __syncthreads();  // the previous reduction's readers are done with shared
  if (lane == 0) shared[warp] = v;
  __syncthreads();
  v = shared[0];
  for (int w = 1; w < warps; ++w) v = op(v, shared[w]);
  return v;
}

template <typename T, bool kLog>
__global__ void __launch_bounds__(kMaxThreads)
    softmax_rows(T* __restrict__ out, const T* __restrict__ in, int64_t size) {
  __shared__ T shared[kMaxThreads / 32];
  const int64_t base = static_cast<int64_t>(blockIdx.x) * size;
  in += base;
  out += base;
  T m = -std::numeric_limits<T>::infinity();
  for (int64_t i = threadIdx.x; i < size; i += blockDim.x) m = nan_max(in[i], m);
  m = block_reduce(m, MaxOp{}, shared);
  T sum = 0;
  for (int64_t i = threadIdx.x; i < size; i += blockDim.x) sum += std::exp(in[i] - m);
  sum = block_reduce(sum, SumOp{}, shared);
  if constexpr (kLog) {
    const T shift = m + std::log(sum);
    for (int64_t i = threadIdx.x; i < size; i += blockDim.x) out[i] = in[i] - shift;
  } else {
    const T scale = T(1) / sum;
    for (int64_t i = threadIdx.x; i < size; i += blockDim.x) out[i] = std::exp(in[i] - m) * scale;
  }
}

template <typename T, bool kLog>
__global__ void __launch_bounds__(kColumnThreads)
    softmax_columns(T* __restrict__ out, const T* __restrict__ in, Lines l) {
  const int64_t line = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (line >= l.outer * l.inner) return;
  const int64_t base = (line / l.inner) * l.size * l.inner + line % l.inner;
  in += base;
  out += base;
  T m = -std::numeric_limits<T>::infinity();
  for (int64_t i = 0; i < l.size; ++i) m = nan_max(in[i * l.inner], m);
  T sum = 0;
  for (int64_t i = 0; i < l.size; ++i) sum += std::exp(in[i * l.inner] - m);
  if constexpr (kLog) {
    const T shift = m + std::log(sum);
    for (int64_t i = 0; i < l.size; ++i) out[i * l.inner] = in[i * l.inner] - shift;
  } else {
    const T scale = T(1) / sum;
    for (int64_t i = 0; i < l.size; ++i) out[i * l.inner] = std::exp(in[i * l.inner] - m) * scale;
  }
}

// softmax: gi = out * (g - sum(g * out)); log_softmax: gi = g - exp(out) * sum(g).
template <typename T, bool kLog>
__device__ T backward_term(T g, T out) {
  return kLog ? g : g * out;
}
template <typename T, bool kLog>
__device__ T backward_value(T g, T out, T sum) {
  return kLog ? g - std::exp(out) * sum : out * (g - sum);
}

template <typename T, bool kLog>
__global__ void __launch_bounds__(kMaxThreads)
    softmax_backward_rows(T* __restrict__ gi, const T* __restrict__ g, const T* __restrict__ out,
                          int64_t size) {
  __shared__ T shared[kMaxThreads / 32];
  const int64_t base = static_cast<int64_t>(blockIdx.x) * size;
  gi += base;
  g += base;
  out += base;
  T sum = 0;
  for (int64_t i = threadIdx.x; i < size; i += blockDim.x)
    sum += backward_term<T, kLog>(g[i], out[i]);
  sum = block_reduce(sum, SumOp{}, shared);
  for (int64_t i = threadIdx.x; i < size; i += blockDim.x) {
    gi[i] = backward_value<T, kLog>(g[i], out[i], sum);
  }
}

template <typename T, bool kLog>
__global__ void __launch_bounds__(kColumnThreads)
    softmax_backward_columns(T* __restrict__ gi, const T* __restrict__ g, const T* __restrict__ out,
                             Lines l) {
  const int64_t line = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (line >= l.outer * l.inner) return;
  const int64_t base = (line / l.inner) * l.size * l.inner + line % l.inner;
  gi += base;
  g += base;
  out += base;
  T sum = 0;
  for (int64_t i = 0; i < l.size; ++i)
    sum += backward_term<T, kLog>(g[i * l.inner], out[i * l.inner]);
  for (int64_t i = 0; i < l.size; ++i) {
    gi[i * l.inner] = backward_value<T, kLog>(g[i * l.inner], out[i * l.inner], sum);
  }
}

// A block one warp wide for short rows, wider (in powers of two) while each thread would still
// have four or more elements.
int row_threads(int64_t size) {
  int threads = 32;
  while (threads < kMaxThreads && threads * 4 < size) threads *= 2;
  return threads;
}

unsigned column_blocks(const Lines& l) {
  return static_cast<unsigned>((l.outer * l.inner + kColumnThreads - 1) / kColumnThreads);
}

void check_grid(const Lines& l) {
  TORCH_CHECK(l.outer * l.inner <= static_cast<int64_t>(std::numeric_limits<int>::max()) *
                                       (l.inner == 1 ? 1 : kColumnThreads),
              "softmax: too many lines for one CUDA launch (", l.outer * l.inner, ")");
}

void softmax_kernel_cuda(const Tensor& result, const Tensor& self, int64_t dim, bool log) {
  const c10::cuda::CUDAGuard guard(self.device());
  const Lines l = lines_of(self, dim);
  if (l.outer * l.inner * l.size == 0) return;
  check_grid(l);
  const cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "host_softmax", [&] {
    scalar_t* out = result.data_ptr<scalar_t>();
    const scalar_t* in = self.data_ptr<scalar_t>();
    if (l.inner == 1) {
      const auto blocks = static_cast<unsigned>(l.outer);
      const int threads = row_threads(l.size);
      if (log) {
        softmax_rows<scalar_t, true><<<blocks, threads, 0, stream>>>(out, in, l.size);
      } else {
        softmax_rows<scalar_t, false><<<blocks, threads, 0, stream>>>(out, in, l.size);
      }
    } else if (log) {
      softmax_columns<scalar_t, true><<<column_blocks(l), kColumnThreads, 0, stream>>>(out, in, l);
    } else {
      softmax_columns<scalar_t, false><<<column_blocks(l), kColumnThreads, 0, stream>>>(out, in, l);
    }
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  });
}

void softmax_backward_kernel_cuda(const Tensor& grad_input, const Tensor& grad,
                                  const Tensor& output, int64_t dim, bool log) {
  const c10::cuda::CUDAGuard guard(grad.device());
  const Lines l = lines_of(output, dim);
  if (l.outer * l.inner * l.size == 0) return;
  check_grid(l);
  const cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(grad.scalar_type(), "host_softmax_backward", [&] {
    scalar_t* gi = grad_input.data_ptr<scalar_t>();
    const scalar_t* g = grad.data_ptr<scalar_t>();
    const scalar_t* out = output.data_ptr<scalar_t>();
    if (l.inner == 1) {
      const auto blocks = static_cast<unsigned>(l.outer);
      const int threads = row_threads(l.size);
      if (log) {
        softmax_backward_rows<scalar_t, true><<<blocks, threads, 0, stream>>>(gi, g, out, l.size);
      } else {
        softmax_backward_rows<scalar_t, false><<<blocks, threads, 0, stream>>>(gi, g, out, l.size);
      }
    } else if (log) {
      softmax_backward_columns<scalar_t, true>
          <<<column_blocks(l), kColumnThreads, 0, stream>>>(gi, g, out, l);
    } else {
      softmax_backward_columns<scalar_t, false>
          <<<column_blocks(l), kColumnThreads, 0, stream>>>(gi, g, out, l);
    }
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(softmax_stub, &softmax_kernel_cuda);
REGISTER_CUDA_DISPATCH(softmax_backward_stub, &softmax_backward_kernel_cuda);

}  // namespace native
}  // namespace at
