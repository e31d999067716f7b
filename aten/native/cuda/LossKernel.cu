// nll_loss's forward and backward on the GPU, behind nll_loss_forward_stub and
// nll_loss_backward_stub (Loss.h). Loss.cpp has checked the shapes, the target's dtype and the
// devices, and answered an empty target itself. The values are the CPU loops' (Loss.cpp):
// per-sample losses -weight[c] * self[i, c]; the sum and the mean accumulate in double, as the
// CPU's, so a float loss differs from the CPU's only by the order of the adds.
//
// Note [A GPU thread cannot raise for a bad target]
// The CPU raises "Target 7 is out of bounds." A kernel cannot raise, and checking the targets
// on the host first would cost a device-to-host copy and a sync per call. As PyTorch's CUDA
// kernel (its CUDA_KERNEL_ASSERT), a thread that meets a target outside [0, C) (and not
// ignore_index) stops the kernel: the launch fails with a device-side error that the next
// synchronizing call reports, and the CUDA context is unusable afterwards, as in PyTorch.
//
// Each thread's work is a host-device function of NllLossBody.h, which the CPU tests run thread
// by thread against the CPU loops.

#include <cuda_runtime_api.h>

#include "aten/Dispatch.h"
#include "aten/core/Reduction.h"
#include "aten/core/Tensor.h"
#include "aten/generated/TensorMethods.h"  // Tensor::to, zero_
#include "aten/native/BinaryCrossEntropy.h"
#include "aten/native/Loss.h"
#include "aten/native/cuda/Loops.cuh"
#include "aten/native/cuda/NllLossBody.h"
#include "c10/cuda/CUDAException.h"
#include "c10/cuda/CUDAGuard.h"
#include "c10/cuda/CUDAStream.h"

namespace at {
namespace native {

namespace {

using gpu::kNllReduceThreads;
using gpu::kNllThreads;
using gpu::NllRows;

// reduction None on a 2-D self: one loss per sample.
template <typename T>
__global__ void nll_per_sample(T* out, int64_t out_stride, NllRows<T> r, int64_t ignore_index) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < r.rows) out[i * out_stride] = gpu::nll_sample_loss(r, i, ignore_index);
}

// Sum, mean, or a single sample's loss: one block walks every sample and combines in shared
// memory. total_weight gets the counted samples' weights (0 for reduction None, as the CPU).
template <typename T>
__global__ void __launch_bounds__(kNllReduceThreads)
    nll_reduce(T* out, T* total_weight, NllRows<T> r, int64_t ignore_index, int64_t reduction) {
  __shared__ double loss_part[kNllReduceThreads];
  __shared__ double weight_part[kNllReduceThreads];
  const gpu::NllPartial p = gpu::nll_thread_partial(r, ignore_index, threadIdx.x, blockDim.x);
  loss_part[threadIdx.x] = p.loss;
  weight_part[threadIdx.x] = p.weight;
  __syncthreads();
  for (unsigned half = blockDim.x / 2; half > 0; half >>= 1) {
    if (threadIdx.x < half) {
      loss_part[threadIdx.x] += loss_part[threadIdx.x + half];
      weight_part[threadIdx.x] += weight_part[threadIdx.x + half];
    }
    __syncthreads();
  }
  if (threadIdx.x != 0) return;
  if (reduction == Reduction::None) {
    *out = static_cast<T>(loss_part[0]);
    *total_weight = T(0);
    return;
  }
  *out =
      static_cast<T>(reduction == Reduction::Mean ? loss_part[0] / weight_part[0] : loss_part[0]);
  *total_weight = static_cast<T>(weight_part[0]);
}

template <typename T>
__global__ void nll_backward(T* grad_input, int64_t gi_row, const T* grad, int64_t grad_stride,
                             const T* total_weight, bool mean, NllRows<T> r, int64_t ignore_index) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= r.rows) return;
  const T scale = mean ? T(1) / *total_weight : T(1);
  gpu::nll_sample_backward(grad_input, gi_row, grad, grad_stride, scale, r, i, ignore_index);
}

unsigned blocks_for(int64_t n) {
  return static_cast<unsigned>((n + kNllThreads - 1) / kNllThreads);
}

void nll_loss_forward_cuda(const Tensor& output, const Tensor& total_weight, const Tensor& self,
                           const Tensor& target, const Tensor& weight, int64_t reduction,
                           int64_t ignore_index) {
  const c10::cuda::CUDAGuard guard(self.device());
  const cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
  const bool per_sample = reduction == Reduction::None && self.dim() == 2;
  AT_DISPATCH_FLOATING_TYPES_AND2(
      kHalf, kBFloat16, self.scalar_type(), "nll_loss_forward_out_cuda_template", [&] {
        const NllRows<scalar_t> r = native::nll_rows_of<scalar_t>(self, target, weight);
        if (per_sample) {
          nll_per_sample<scalar_t><<<blocks_for(r.rows), kNllThreads, 0, stream>>>(
              output.data_ptr<scalar_t>(), output.stride(0), r, ignore_index);
          C10_CUDA_KERNEL_LAUNCH_CHECK();
          total_weight.zero_();
          return;
        }
        nll_reduce<scalar_t><<<1, kNllReduceThreads, 0, stream>>>(output.data_ptr<scalar_t>(),
                                                                  total_weight.data_ptr<scalar_t>(),
                                                                  r, ignore_index, reduction);
        C10_CUDA_KERNEL_LAUNCH_CHECK();
      });
}

void nll_loss_backward_cuda(const Tensor& grad_input, const Tensor& grad_output, const Tensor& self,
                            const Tensor& target, const Tensor& weight, int64_t reduction,
                            int64_t ignore_index, const Tensor& total_weight) {
  const c10::cuda::CUDAGuard guard(self.device());
  const cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
  const bool per_sample = reduction == Reduction::None && self.dim() == 2;
  AT_DISPATCH_FLOATING_TYPES_AND2(
      kHalf, kBFloat16, self.scalar_type(), "nll_loss_backward_out_cuda_template", [&] {
        const NllRows<scalar_t> r = native::nll_rows_of<scalar_t>(self, target, weight);
        const Tensor grad = grad_output.to(self.scalar_type());
        const Tensor tw = total_weight.to(self.scalar_type());
        nll_backward<scalar_t><<<blocks_for(r.rows), kNllThreads, 0, stream>>>(
            grad_input.data_ptr<scalar_t>(), self.dim() == 1 ? 0 : grad_input.stride(0),
            grad.data_ptr<scalar_t>(), per_sample ? grad.stride(0) : 0, tw.data_ptr<scalar_t>(),
            reduction == Reduction::Mean, r, ignore_index);
        C10_CUDA_KERNEL_LAUNCH_CHECK();
      });
}

// binary_cross_entropy: the CPU's element formulas (BinaryCrossEntropy.h), in the same type. The
// input's range was checked by Loss.cpp.
void binary_cross_entropy_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_TYPES_AND2(
      kHalf, kBFloat16, iter.dtype(0), "binary_cross_entropy_out_cuda", [&] {
        gpu_kernel_nocast(iter, [] GPU_LAMBDA(scalar_t x, scalar_t y) -> scalar_t {
          return binary_cross_entropy_element(x, y);
        });
      });
}

void binary_cross_entropy_backward_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_TYPES_AND2(
      kHalf, kBFloat16, iter.dtype(0), "binary_cross_entropy_backward_out_cuda", [&] {
        gpu_kernel_nocast(iter, [] GPU_LAMBDA(scalar_t g, scalar_t x, scalar_t y) -> scalar_t {
          return binary_cross_entropy_grad_element(g, x, y);
        });
      });
}

}  // namespace

REGISTER_CUDA_DISPATCH(binary_cross_entropy_stub, &binary_cross_entropy_cuda);
REGISTER_CUDA_DISPATCH(binary_cross_entropy_backward_stub, &binary_cross_entropy_backward_cuda);
REGISTER_CUDA_DISPATCH(nll_loss_forward_stub, &nll_loss_forward_cuda);
REGISTER_CUDA_DISPATCH(nll_loss_backward_stub, &nll_loss_backward_cuda);

}  // namespace native
}  // namespace at
