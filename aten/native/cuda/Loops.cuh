#pragma once
// gpu_kernel: run a functor over every element of a TensorIterator on the GPU, ATen's
// aten/src/ATen/native/cuda/Loops.cuh. Only .cu files include this.
//
//   void fill_kernel_cuda(TensorIteratorBase& iter, const Scalar& value) {
//     AT_DISPATCH_ALL_TYPES(iter.dtype(), "fill_cuda", [&] {
//       const scalar_t v = value.to<scalar_t>();
//       gpu_kernel(iter, [v] GPU_LAMBDA() -> scalar_t { return v; });
//     });
//   }
//
// The functor is a __host__ __device__ lambda (GPU_LAMBDA; nvcc's --extended-lambda) taking
// the inputs' types and returning the output's; operands of other dtypes are converted in the
// kernel. Which loop runs, and why, is Note [Which GPU loop runs] in ElementwiseBody.h; the
// bodies are there, shared with the CPU tests. This file only launches them: one kernel
// template for every body, kNumThreads threads a block, on the current stream of the
// iterator's device.

#include "aten/native/cuda/ElementwiseBody.h"
#include "aten/native/cuda/TransposeBody.h"
#include "c10/cuda/CUDAGuard.h"
#include "c10/cuda/CUDAStream.h"

#define GPU_LAMBDA __host__ __device__

namespace at {
namespace native {
namespace gpu {

// __launch_bounds__: at most kNumThreads threads a block, so the compiler may use up to 255
// registers a thread without the launch failing.
template <typename Body>
__global__ void __launch_bounds__(kNumThreads) elementwise_kernel(Body body) {
  body(static_cast<int>(blockIdx.x), static_cast<int>(threadIdx.x));
}

template <typename Body>
__global__ void __launch_bounds__(kTileCols* Body::kRows) transpose_kernel(Body body) {
  __shared__ typename Body::Tile smem;
  for (uint32_t b = blockIdx.y; b < body.nbatch; b += gridDim.y) {
    body.load(blockIdx.x, b, threadIdx.x, threadIdx.y, smem);
    __syncthreads();
    body.store(blockIdx.x, b, threadIdx.x, threadIdx.y, smem);
    __syncthreads();
  }
}

struct DeviceLauncher {
  template <typename Body>
  static void launch(int64_t blocks, const Body& body) {
    if (blocks == 0) return;
    const cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
    elementwise_kernel<Body><<<static_cast<unsigned>(blocks), kNumThreads, 0, stream>>>(body);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  }

  template <typename Body>
  static void launch_transpose(const Body& body) {
    const uint32_t tiles = body.num_tiles();
    if (tiles == 0 || body.nbatch == 0) return;
    const dim3 grid(tiles, std::min<uint32_t>(body.nbatch, 65535));
    const dim3 block(kTileCols, Body::kRows);
    const cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
    transpose_kernel<Body><<<grid, block, 0, stream>>>(body);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  }
};

}  // namespace gpu

namespace gpu {
inline void check_all_on_cuda(const TensorIteratorBase& iter) {
  for (int arg = 0; arg < iter.ntensors(); ++arg) {
    TORCH_INTERNAL_ASSERT(iter.device(arg).is_cuda(), "gpu_kernel: operand ", arg, " is on ",
                          iter.device(arg));
  }
}
}  // namespace gpu

template <typename func_t>
void gpu_kernel(TensorIteratorBase& iter, const func_t& f) {
  gpu::check_all_on_cuda(iter);
  const c10::cuda::CUDAGuard guard(iter.device(0));
  gpu::elementwise<gpu::DeviceLauncher>(iter, f);
}

// As gpu_kernel for operands that already have f's dtypes, as the op kernels' do (Note [Operands
// are converted before a CUDA op kernel]): two loops compiled per functor, not four (ATen's
// gpu_kernel_nocast). An output temporary of the iterator is copied back after.
template <typename func_t>
void gpu_kernel_nocast(TensorIteratorBase& iter, const func_t& f) {
  gpu::check_all_on_cuda(iter);
  const c10::cuda::CUDAGuard guard(iter.device(0));
  gpu::elementwise<gpu::DeviceLauncher, false>(iter, f);
  iter.cast_outputs();
}

// A binary functor with a CPU scalar operand: see Note [A CPU scalar rides along as a kernel
// argument] in ElementwiseBody.h.
// mirror(x, s) == f(s, x) runs when the first input is the scalar; without one, f swapped.
template <typename func_t, typename mirror_t>
void gpu_kernel_with_scalars(TensorIteratorBase& iter, const func_t& f, const mirror_t& mirror) {
  TORCH_INTERNAL_ASSERT(iter.device(0).is_cuda(), "gpu_kernel: the output is on ", iter.device(0));
  const c10::cuda::CUDAGuard guard(iter.device(0));
  gpu::elementwise_with_scalars<gpu::DeviceLauncher>(iter, f, mirror);
}

template <typename func_t>
void gpu_kernel_with_scalars(TensorIteratorBase& iter, const func_t& f) {
  gpu_kernel_with_scalars(iter, f, gpu::Swapped<func_t>{f});
}

// out[i] = f(i), i the linear index of a contiguous output (arange).
template <typename func_t>
void gpu_kernel_with_index(TensorIteratorBase& iter, const func_t& f) {
  const c10::cuda::CUDAGuard guard(iter.device(0));
  gpu::elementwise_with_index<gpu::DeviceLauncher>(iter, f);
}

}  // namespace native
}  // namespace at
