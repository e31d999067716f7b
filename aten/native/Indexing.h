#pragma once
// The kernel behind index_select (aten/native/Indexing.cpp): one per CPU capability
// (aten/native/cpu/IndexSelectKernel.cpp).

#include <cstdint>

#include "aten/native/DispatchStub.h"

namespace at {
namespace native {

// Rows to gather (Note [Indexing along one dim]): the source is `outer` blocks of `size` rows,
// each row `run` bytes; result row r = o * n + i is source row index[i] of block o. Every index
// is in [0, size). Rows are split across threads, at least `grain` rows a thread.
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

}  // namespace native
}  // namespace at
