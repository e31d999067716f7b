// The GPU kernels of clamp (Scalar bounds, and Tensor bounds) and of threshold_backward, so that
// relu (clamp_min(self, 0): Activation.cpp) and its backward run on CUDA tensors. The functors
// are the CPU kernels' scalar ops (aten/native/cpu/BinaryMathKernel.cpp, ActivationKernel.cpp):
// a NaN input stays NaN through a Scalar clamp (std::max(NaN, lo) is its first argument), a NaN
// bound makes a Tensor clamp NaN, and a NaN self passes its gradient through threshold_backward.
// On the GPU Half is taken too, as PyTorch's CUDA kernels do (the CPU's are libtorch 1.13's,
// without it). Operands were converted to one dtype by the iterator (Note [Operands are
// converted before a CUDA op kernel]), so each functor compiles for that dtype only.

#include <algorithm>
#include <type_traits>

#include "aten/Dispatch.h"
#include "aten/native/Activation.h"
#include "aten/native/Clamp.h"
#include "aten/native/cuda/Loops.cuh"

namespace at {
namespace native {

namespace {

// std::min/std::max are constexpr, so usable in device code with --expt-relaxed-constexpr.
template <typename T>
struct ClampFunctor {
  T lo, hi;
  C10_HOST_DEVICE T operator()(T a) const { return std::min(std::max(a, lo), hi); }
};
template <typename T>
struct ClampMinFunctor {
  T lo;
  C10_HOST_DEVICE T operator()(T a) const { return std::max(a, lo); }
};
template <typename T>
struct ClampMaxFunctor {
  T hi;
  C10_HOST_DEVICE T operator()(T a) const { return std::min(a, hi); }
};

template <typename T>
struct ClampTensorFunctor {
  C10_HOST_DEVICE T operator()(T a, T lo, T hi) const {
    if constexpr (!std::is_integral<T>::value) {
      if (a != a) return a;
      if (lo != lo || hi != hi) return static_cast<T>(NAN);
    }
    return std::min(std::max(a, lo), hi);
  }
};

template <typename T>
struct ThresholdBackwardFunctor {
  T threshold;
  C10_HOST_DEVICE T operator()(T x, T grad) const { return x <= threshold ? T(0) : grad; }
};

void clamp_scalar_kernel_cuda(TensorIteratorBase& iter, const c10::Scalar& min,
                              const c10::Scalar& max) {
  AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "clamp_scalar_cuda", [&] {
    gpu_kernel_nocast(iter, ClampFunctor<scalar_t>{min.to<scalar_t>(), max.to<scalar_t>()});
  });
}

void clamp_min_scalar_kernel_cuda(TensorIteratorBase& iter, const c10::Scalar& min) {
  AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "clamp_min_scalar_cuda", [&] {
    gpu_kernel_nocast(iter, ClampMinFunctor<scalar_t>{min.to<scalar_t>()});
  });
}

void clamp_max_scalar_kernel_cuda(TensorIteratorBase& iter, const c10::Scalar& max) {
  AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "clamp_max_scalar_cuda", [&] {
    gpu_kernel_nocast(iter, ClampMaxFunctor<scalar_t>{max.to<scalar_t>()});
  });
}

// (out, self, min, max), all on the device: a CPU 0-dim bound is the iterator's device error.
void clamp_tensor_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "clamp_cuda",
                             [&] { gpu_kernel_nocast(iter, ClampTensorFunctor<scalar_t>{}); });
}

void threshold_backward_kernel_cuda(TensorIteratorBase& iter, const c10::Scalar& threshold) {
  AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "threshold_cuda", [&] {
    gpu_kernel_nocast(iter, ThresholdBackwardFunctor<scalar_t>{threshold.to<scalar_t>()});
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(clamp_scalar_stub, &clamp_scalar_kernel_cuda);
REGISTER_CUDA_DISPATCH(clamp_min_scalar_stub, &clamp_min_scalar_kernel_cuda);
REGISTER_CUDA_DISPATCH(clamp_max_scalar_stub, &clamp_max_scalar_kernel_cuda);
REGISTER_CUDA_DISPATCH(clamp_stub, &clamp_tensor_kernel_cuda);
REGISTER_CUDA_DISPATCH(threshold_backward_stub, &threshold_backward_kernel_cuda);

}  // namespace native
}  // namespace at
