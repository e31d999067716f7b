#pragma once
// parallel_reduce: run a reduction's loop over a TensorIterator on several threads without two
// threads ever accumulating into the same output element (libtorch's
// TensorIteratorBase::parallel_reduce, TensorIteratorReduce.cpp).
//
//   auto iter = TensorIterator::reduce_op(viewed_result, self);  // reduced dims: output stride 0
//   result.zero_();                                              // the identity of +
//   parallel_reduce(iter, [](char** data, const int64_t* strides, int64_t size0, int64_t size1) {
//     // data[0] output, data[1] input; strides[0..1] along dim 0, strides[2..3] along dim 1.
//     // Must ADD into the output (*out += ...), never overwrite it.
//   });
//
// Note [How reductions iterate and parallelise]
// A reduction iterator has one output and one input; the output has stride 0 along every
// reduced dim, and build() moves the reduced dims to the front (fastest), so each 2-D block a
// loop receives is "size0 reduced elements x size1 rows" (or, when a block holds no reduced
// dim, an elementwise out += in). A loop adds the block's sums into the output, so an output
// element may be touched by several blocks and must hold the identity before the first.
// Splitting the linear index range across threads, as for_each does, would let two threads
// read-modify-write the same output element. parallel_reduce instead, with n = numel:
//  * n < GRAIN_SIZE, one thread, or already inside a parallel region: serial_for_each.
//  * one output element (a full reduction): two passes. The range is split as for_each splits
//    it, but each thread accumulates into a private slot (a copy of the output's initial value)
//    instead of the output; then the slots are added into the output in thread order (by the
//    `combine` loop where one is given).
//  * otherwise: split along one non-reduced dim (the outermost one with at least as many
//    columns as threads, else the largest), so every output element belongs to exactly one
//    thread; when the input is contiguous along that dim the split points are rounded to
//    128 bytes, keeping vectorised column blocks whole.
// The result is the same with any thread count up to floating-point reassociation: in the
// two-pass case each thread sums its part of the range separately. Integer sums are exact.

#include "aten/native/TensorIterator.h"

namespace at {
namespace native {

TORCH_API void parallel_reduce(TensorIteratorBase& iter, TensorIteratorBase::loop2d_t loop);
// The same, where the per-thread partial results of the two-pass case are added into the output
// by `combine` rather than by `loop`: a loop that maps each element before adding it (the
// 1- and 2-norms add |x| or x * x) must not map the partial sums again.
TORCH_API void parallel_reduce(TensorIteratorBase& iter, TensorIteratorBase::loop2d_t loop,
                               TensorIteratorBase::loop2d_t combine);

}  // namespace native
}  // namespace at
