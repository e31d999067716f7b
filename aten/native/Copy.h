#pragma once
// The copy kernel behind copy_ (and every layout-changing copy: contiguous, clone, to): one per
// CPU capability (aten/native/cpu/CopyKernel.cpp), and the CUDA one for any copy with a CUDA
// side (aten/native/cuda/Copy.cpp).

#include "aten/native/DispatchStub.h"
#include "aten/native/TensorIterator.h"

namespace at {
namespace native {

// Copies input 1 of the iterator into output 0, converting dtypes. non_blocking matters only
// across the host boundary (the CUDA kernel, aten/native/cuda/Copy.cpp).
using copy_fn = void (*)(TensorIteratorBase& iter, bool non_blocking);
DECLARE_DISPATCH(copy_fn, copy_stub);

// Which loop the copy kernel chose for its last block on this thread (for tests and the trace):
// "memcpy", "streaming", "vectorized", "basic", "blocked transpose", "convert" on the CPU (Note
// [Which copy loop runs] in aten/native/cpu/CopyKernel.cpp); on the GPU, the GPU loop's name
// (Note [Which GPU loop runs]: "memcpy", "transpose", "vectorized", "strided", "strided cast")
// or the host <-> device transfer ("cudaMemcpyAsync host to device", ...).
TORCH_API const char* last_copy_loop();
// Called by the kernels: one thread-local slot shared by every capability's copy.
TORCH_API void set_last_copy_loop(const char* loop);

}  // namespace native
}  // namespace at
