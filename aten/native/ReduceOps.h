#pragma once
// The kernels behind the reductions (sum, mean) and scans (cumsum): one DispatchStub each, called
// by the operators in ReduceOps.cpp and filled by aten/native/cpu/SumKernel.cpp and
// aten/native/cpu/ReduceOpsKernel.cpp (once per CPU capability; see Note [Kernels are compiled
// once per CPU capability]).
//
//   Tensor viewed = ...;                                   // result with reduced dims of stride 0
//   auto iter = TensorIterator::reduce_op(viewed, self);   // self already in result's dtype
//   result.zero_();
//   sum_stub(iter.device_type(), iter);                    // result += sum over the reduced dims
//
//   cumsum_stub(kCPU, result, self, dim);   // result[..., i, ...] = sum of self[..., :i+1, ...]
//
// The operators have already checked arguments, computed the output dtype and shape and
// converted self to the output dtype; kernels see one dtype.

#include "aten/native/DispatchStub.h"
#include "aten/native/ReduceOpsUtils.h"
#include "aten/native/TensorIterator.h"
#include "c10/util/FunctionRef.h"

namespace at {
namespace native {

// Adds the sum over the iterator's reduced dims (output stride 0) into iter.output(), which the
// caller has initialised (to zero for a sum). Accumulating rather than overwriting is what lets
// parallel_reduce combine per-thread partial sums; see Note [How reductions iterate and
// parallelise] in TensorIteratorReduce.h.
using reduce_fn = void (*)(TensorIterator&);
DECLARE_DISPATCH(reduce_fn, sum_stub);

// What sum and the fused norms share: zeroes result (self's shape reduced over mask, in self's
// dtype, on a real device) and, unless there is nothing to reduce, runs kernel (sum_stub,
// norm_sum_stub) on the reduction iterator of result and self.
TORCH_API void reduce_into_zeroed(const Tensor& self, const DimMask& mask, bool keepdim,
                                  const Tensor& result,
                                  c10::function_ref<void(TensorIterator&)> kernel);

// As sum_stub, of |x| (p = 1) or x * x (p = 2): what norm (ReduceOpsStats.cpp) reduces before its
// root, in one pass (Note [The 1- and 2-norms are sums] in cpu/SumKernel.cpp). Float and double;
// CPU only (other devices compose norm of abs, mul and sum).
using norm_sum_fn = void (*)(TensorIterator&, int p);
DECLARE_DISPATCH(norm_sum_fn, norm_sum_stub);

// The folds of ReduceOpsFold.cpp (cpu/FoldReduceKernel.cpp): iter.output() = op(iter.output(),
// every input element it reduces), the output already holding the op's identity (1 for prod,
// the lowest value for max, true for and). max and min propagate NaN; and/or read any nonzero
// element as true and write 0 or 1 in the output's dtype (Bool or Byte).
DECLARE_DISPATCH(reduce_fn, prod_stub);
DECLARE_DISPATCH(reduce_fn, max_values_stub);
DECLARE_DISPATCH(reduce_fn, min_values_stub);
DECLARE_DISPATCH(reduce_fn, and_stub);
DECLARE_DISPATCH(reduce_fn, or_stub);

// The first greatest (is_max) or least element of each row of `input`, a contiguous rows x n
// tensor: its index into `indices` (Long, rows elements, contiguous) and, where `values` is
// defined, its value (input's dtype, rows elements, contiguous). A NaN wins over every number
// (the first NaN). argmax, argmin, max.dim and min.dim (ReduceOps.cpp) run on it; the CPU's
// kernel is cpu/ExtremumRowsKernel.cpp, the GPU's cuda/ExtremumRowsKernel.cu.
using extremum_rows_fn = void (*)(const Tensor& input, const Tensor& values, const Tensor& indices,
                                  bool is_max);
DECLARE_DISPATCH(extremum_rows_fn, extremum_rows_stub);

// result (self's sizes, self's dtype, any strides) = the running sum of self along dim.
// self has at least one dim and one element; dim is already wrapped.
using cumsum_fn = void (*)(const Tensor& result, const Tensor& self, int64_t dim);
DECLARE_DISPATCH(cumsum_fn, cumsum_stub);

}  // namespace native
}  // namespace at
