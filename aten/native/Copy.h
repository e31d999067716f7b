#pragma once
// The copy kernel behind copy_ (and every layout-changing copy: contiguous, clone, to), one per
// CPU capability (aten/native/cpu/CopyKernel.cpp).

#include "aten/native/DispatchStub.h"
#include "aten/native/TensorIterator.h"

namespace at {
namespace native {

// Copies input 1 of the iterator into output 0, converting dtypes.
using copy_fn = void (*)(TensorIteratorBase& iter);
DECLARE_DISPATCH(copy_fn, copy_stub);

// Which loop the copy kernel chose for its last block on this thread (for tests and the trace):
// "memcpy", "streaming", "vectorized", "basic", "blocked transpose", "convert". See Note [Which
// copy loop runs] in aten/native/cpu/CopyKernel.cpp.
TORCH_API const char* last_copy_loop();
// Called by the kernels: one thread-local slot shared by every capability's copy.
TORCH_API void set_last_copy_loop(const char* loop);

}  // namespace native
}  // namespace at
