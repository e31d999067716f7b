#pragma once
// The copy kernel behind copy_ (and every layout-changing copy: contiguous, clone, to).

#include "aten/native/TensorIterator.h"

namespace at {
namespace native {

// Which loop copy_kernel chose for its last call on this thread (for tests and the trace):
// "memcpy", "vectorized", "basic", "blocked transpose", "convert".
TORCH_API const char* last_copy_loop();

// Copies input 1 of `iter` into output 0, converting dtypes.
TORCH_API void copy_kernel(TensorIteratorBase& iter);

}  // namespace native
}  // namespace at
