#pragma once
// The one device kernel behind gather, scatter, scatter_add_, index and index_put_ (and so
// index_add_, masked_select and masked_scatter_, built on them off the CPU): CUDA's is in
// aten/native/cuda/IndexingKernels.cu, its per-thread body in cuda/IndexedCopyBody.h. The CPU
// keeps its own loops (IndexingScatter.cpp, IndexingAdvanced.cpp).
//
// Note [One kernel for gather, scatter, index and index_put_]
// Each of these ops moves (or adds) one element per position p of an iteration shape, from an
// input to an output, where one side's address is not a plain strided offset but depends on the
// values of index tensors at p. Written as a TensorIterator over (out; in, index_0, ...,
// index_{count-1}), the tensors restrided to the iteration shape with stride 0 along the dims the
// indices choose, the element at p moves from
//     in  + offset_in(p)  [+ term(p)]     to     out + offset_out(p)  [+ term(p)],
// term(p) = sum_k index_k[p] * stride_k (a negative index counts from the end of its dim), added
// to the input's side (gather, index) or to the output's (scatter, index_put_):
//   gather(self, dim, index):  out = result, in = self with stride 0 along dim, one index
//   scatter_(dim, index, src): out = self with stride 0 along dim, in = src, one index
//   scatter_(dim, index, v):   as scatter_, in = v as a 0-dim tensor expanded (stride 0)
//   index(self, indices):      out = result, in = self (permuted, Note [How advanced indexing
//                              lays out its result]) with stride 0 along the indexed dims
//   index_put_(indices, v):    out = self restrided so, in = v broadcast to the result's shape
// With `accumulate` the element is added (scatter_add_, index_put_(..., true)), atomically where
// indices repeat. Index values are checked against their dims on the host before the launch
// (the kernel cannot raise), so the index operands must hold valid values. Every index operand
// has the first one's strides (the op code makes them so), so one offset serves them all.

#include <cstdint>

#include "aten/native/DispatchStub.h"
#include "aten/native/TensorIterator.h"
#include "c10/util/Optional.h"
#include "dispatcher/List.h"

namespace at {
namespace native {

// The most index tensors one call takes: one per dim of a tensor, at most 25 (the GPU loops'
// kMaxDims).
constexpr int kMaxIndexTerms = 25;

struct IndexTerms {
  int count = 0;                         // index operands, from operand 2 of the iterator
  bool into_output = false;              // the term moves the output's address, else the input's
  int64_t sizes[kMaxIndexTerms] = {};    // the dim each index chooses along: its size ...
  int64_t strides[kMaxIndexTerms] = {};  // ... and its stride in bytes
};

// iter: (out; in, index_0, ..., index_{terms.count - 1}), index operands Long. No check runs.
using indexed_copy_fn = void (*)(TensorIteratorBase& iter, const IndexTerms& terms,
                                 bool accumulate);
DECLARE_DISPATCH(indexed_copy_fn, indexed_copy_stub);

// The iterator the kernel takes: the iteration `shape`, no broadcasting, no dtype or overlap
// checks (the ops ran theirs), out never resized.
TensorIterator make_indexed_copy_iterator(const Tensor& out, const Tensor& in,
                                          const std::vector<Tensor>& indices, IntArrayRef shape);

// What one op call hands the kernel. The ops make their plans after their own checks; each plan
// checks the index values (the CPU's texts) as it is made. The plans are public so that the CPU
// tests run them with the kernel's body on the host (tests/aten/cuda/GpuIndexedCopy_test.cpp).
struct IndexedCopyPlan {
  TensorIterator iter;
  IndexTerms terms;
};

// gather into result (index's shape) / scatter src into self, along a wrapped dim
// (IndexingScatter.cpp). For a scattered value, src is the value as a 0-dim tensor of self's
// dtype, expanded to index's shape.
IndexedCopyPlan plan_gather(const Tensor& self, int64_t dim, const Tensor& index,
                            const Tensor& result);
IndexedCopyPlan plan_scatter(const Tensor& self, int64_t dim, const Tensor& index,
                             const Tensor& src);
// Whether a plan checks its index values against the sizes (a read back from the device), or the
// caller knows them inside a range at least as narrow (index_add_'s [0, size), checked; the
// positions masked_select and masked_scatter_ made from the mask).
enum class IndexBounds { Check, CheckedByCaller };

// index(self, indices) into result / index_put_(indices, values) into self, once index's and
// index_put_'s own checks have run (IndexingAdvanced.cpp). values has the indexing result's shape.
IndexedCopyPlan plan_index(const Tensor& self, const c10::List<c10::optional<Tensor>>& indices,
                           const Tensor& result, IndexBounds bounds = IndexBounds::Check);
IndexedCopyPlan plan_index_put(const Tensor& self, const c10::List<c10::optional<Tensor>>& indices,
                               const Tensor& values, IndexBounds bounds = IndexBounds::Check);

// The first value of an index tensor (in row-major order) outside [low, high), if any: checked
// where the index lives, by a min and a max reduction and their read back; only when one falls
// outside is the index copied to the host to find it. The ops call it before the launch and
// raise the CPU's text with the value.
c10::optional<int64_t> first_index_outside(const Tensor& index, int64_t low, int64_t high);

// The linear (row-major) positions of the true elements of a contiguous Bool tensor, as a Long
// tensor on its device, in order: what nonzero, masked_select and masked_scatter_ are built on
// off the CPU.
using flagged_positions_fn = void (*)(const Tensor& mask, Tensor& positions);
DECLARE_DISPATCH(flagged_positions_fn, flagged_positions_stub);
Tensor flagged_positions(const Tensor& mask);

}  // namespace native
}  // namespace at
