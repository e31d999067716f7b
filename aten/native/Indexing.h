#pragma once
// The kernels behind index_select and masked_fill_ (aten/native/Indexing.cpp): index_select's one
// per CPU capability (aten/native/cpu/IndexSelectKernel.cpp) and, for both, CUDA's
// (aten/native/cuda/IndexingKernels.cu).

#include <cstdint>

#include "aten/native/DispatchStub.h"
#include "aten/native/TensorIterator.h"
#include "c10/core/Scalar.h"

namespace at {
namespace native {

// Rows to gather (Note [Indexing along one dim]): the source is `outer` blocks of `size` rows,
// each row `run` bytes; result row r = o * n + i is source row index[i] of block o. Every index
// is in [0, size). Rows are split across threads, at least `grain` rows a thread. On a device the
// pointers (index included) are the device's.
struct RowGather {
  char* out;
  const char* in;
  const int64_t* index;
  int64_t n;
  int64_t outer;
  int64_t size;
  int64_t run;
  int64_t grain;
};

using index_select_fn = void (*)(const RowGather& rows);
DECLARE_DISPATCH(index_select_fn, index_select_stub);

// masked_fill_ on a device: iter is (self; self, mask), mask Bool and broadcast to self; self
// takes `value` where the mask is true. (The CPU's loop is in Indexing.cpp.)
using masked_fill_fn = void (*)(TensorIteratorBase& iter, const c10::Scalar& value);
DECLARE_DISPATCH(masked_fill_fn, masked_fill_stub);

}  // namespace native
}  // namespace at
