#pragma once
// A kernel written with cpu_kernel_vec (LoopsTestKernel.cpp, compiled once per CPU capability):
// out = a - 3 * b for all ten dtypes, so Loops_test can run each capability's vectorized_loop.

#include "aten/native/DispatchStub.h"
#include "aten/native/TensorIterator.h"

namespace miniaten_test {

using loops_fn = void (*)(at::TensorIteratorBase&);
DECLARE_DISPATCH(loops_fn, sub3_stub);

}  // namespace miniaten_test
