#pragma once
// The GPU half of copy_ (aten/native/cuda/CopyKernel.cu): a copy whose operands are both CUDA
// tensors, already checked and, across devices, with peer access arranged by the caller
// (copy_kernel_cuda in aten/native/cuda/Copy.cpp).

#include "aten/native/TensorIterator.h"

namespace at {
namespace native {

// Same dtype and contiguous as iterated: one cudaMemcpyAsync. Same dtype with the output
// contiguous along one dim and the input along another: the tiled transpose kernel. Anything
// else: gpu_kernel, converting dtypes in the kernel. On the source device's current stream;
// across devices the two devices' current streams wait on each other around it.
void copy_device_to_device(TensorIteratorBase& iter, bool non_blocking);

}  // namespace native
}  // namespace at
