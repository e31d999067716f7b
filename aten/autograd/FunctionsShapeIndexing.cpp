// The backward formulas of the shaping copies and of gather / scatter / masked_select
// (libtorch's derivatives.yaml and FunctionsManual.cpp: repeat_backward, diag_backward,
// constant_pad_nd_backward, gather_backward, masked_select_backward).

#include "aten/autograd/FunctionsShapeIndexing.h"

#include <vector>

#include "aten/ATen.h"
#include "aten/native/TensorIterator.h"

namespace torch {
namespace autograd {
namespace generated {

// Note [repeat's backward]: the gradient, viewed as [r_0, s_0, r_1, s_1, ...] (self's sizes s
// padded with leading 1s), summed over every r_i dim, is self's gradient; the padded leading
// dims then drop away.
variable_list RepeatBackward0::apply(variable_list&& grads) {
  const size_t ndim = repeats.size();
  const size_t new_dims = ndim - self_sizes.size();
  std::vector<int64_t> pairs, repeat_dims;
  for (size_t i = 0; i < ndim; ++i) {
    const int64_t size = i < new_dims ? 1 : self_sizes[i - new_dims];
    repeat_dims.push_back(static_cast<int64_t>(pairs.size()));
    pairs.insert(pairs.end(), {repeats[i], size});
  }
  at::Tensor grad = grads[0].reshape(pairs).sum(repeat_dims);
  return {grad.reshape(self_sizes)};
}

variable_list FlipBackward0::apply(variable_list&& grads) {
  return {grads[0].flip(dims)};
}

// Rolled back by each shift reduced modulo its dim's size (so that negating it cannot overflow:
// a shift may be INT64_MIN).
variable_list RollBackward0::apply(variable_list&& grads) {
  const at::Tensor& grad = grads[0];
  std::vector<int64_t> back(shifts.size());
  for (size_t i = 0; i < shifts.size(); ++i) {
    const int64_t size = dims.empty() ? grad.numel() : grad.size(dims[i]);
    back[i] = size == 0 ? 0 : -(shifts[i] % size);
  }
  return {grad.roll(back, dims)};
}

variable_list TrilBackward0::apply(variable_list&& grads) {
  return {grads[0].tril(diagonal)};
}

variable_list TriuBackward0::apply(variable_list&& grads) {
  return {grads[0].triu(diagonal)};
}

// A vector's gradient is the gradient's diagonal; a matrix's is zeros with the gradient on it.
variable_list DiagBackward0::apply(variable_list&& grads) {
  if (self_sizes.size() == 1) return {grads[0].diagonal(diagonal).clone()};
  at::Tensor grad_self = at::zeros(self_sizes, grads[0].options());
  if (grads[0].numel() > 0) grad_self.diagonal(diagonal).copy_(grads[0]);
  return {grad_self};
}

// Padding the gradient by the negated pads crops what the forward added (and pads with zeros
// what it cropped).
variable_list ConstantPadNdBackward0::apply(variable_list&& grads) {
  std::vector<int64_t> negated(pad.size());
  for (size_t i = 0; i < pad.size(); ++i) negated[i] = -pad[i];
  return {at::constant_pad_nd(grads[0], negated, 0)};
}

variable_list GatherBackward0::apply(variable_list&& grads) {
  at::Tensor grad_self = at::zeros(self_sizes, grads[0].options());
  return {grad_self.scatter_add_(dim, index_.unpack(), grads[0])};
}

namespace {

// Note [scatter's source gradient has the source's shape]
// scatter reads src only where index has elements: src's gradient is the gradient gathered at
// the index, placed in a zero tensor of src's shape (src may be larger than index in any dim).
// libtorch 1.13's formula stops at the gather, of index's shape, which its engine then refuses
// ("Function ScatterBackward0 returned an invalid gradient at index 1 - got [2, 4] but expected
// shape compatible with [2, 5]").
at::Tensor source_gradient(const at::Tensor& grad, int64_t dim, const at::Tensor& index,
                           const std::vector<int64_t>& src_sizes) {
  at::Tensor gathered = grad.gather(dim, index);
  if (gathered.sizes().equals(src_sizes)) return gathered;
  if (static_cast<size_t>(gathered.dim()) != src_sizes.size()) {
    return gathered.reshape(src_sizes);  // a 0-dim src, a one-element index
  }
  at::Tensor result = at::zeros(src_sizes, gathered.options());
  at::Tensor window = result;
  for (int64_t d = 0; d < gathered.dim(); ++d) window = window.narrow(d, 0, gathered.size(d));
  window.copy_(gathered);
  return result;
}

}  // namespace

// self keeps the gradient where scatter did not write; src gets the gradient it was written to.
variable_list ScatterBackward0::apply(variable_list&& grads) {
  variable_list result(2);
  const at::Tensor index = index_.unpack();
  if (should_compute_output(0)) result[0] = grads[0].scatter(dim, index, 0);
  if (should_compute_output(1)) result[1] = source_gradient(grads[0], dim, index, src_sizes);
  return result;
}

variable_list ScatterBackward1::apply(variable_list&& grads) {
  return {grads[0].scatter(dim, index_.unpack(), 0)};
}

variable_list ScatterAddBackward0::apply(variable_list&& grads) {
  variable_list result(2);
  if (should_compute_output(0)) result[0] = grads[0];
  if (should_compute_output(1)) {
    result[1] = source_gradient(grads[0], dim, index_.unpack(), src_sizes);
  }
  return result;
}

// The selected elements' gradients go back where they were taken from, in the broadcast shape
// of self and mask (the engine sums a broadcast self's gradient back down).
variable_list MaskedSelectBackward0::apply(variable_list&& grads) {
  const at::Tensor mask = mask_.unpack();
  const c10::DimVector shape = at::infer_size_dimvector(self_sizes, mask.sizes());
  at::Tensor grad_self = at::zeros(shape, grads[0].options());
  return {grad_self.masked_scatter_(mask, grads[0])};
}

c10::List<c10::optional<at::Tensor>> IndexListNode::unpack_indices() const {
  c10::List<c10::optional<at::Tensor>> list;
  for (const SavedVariable& v : indices_) {
    at::Tensor t = v.unpack();
    list.push_back(t.defined() ? c10::optional<at::Tensor>(std::move(t)) : c10::nullopt);
  }
  return list;
}

// Each element's gradient goes back where it was read; repeated indices add up.
variable_list IndexBackward0::apply(variable_list&& grads) {
  at::Tensor grad_self = at::zeros(self_sizes, self_options);
  return {grad_self.index_put_(unpack_indices(), grads[0], /*accumulate=*/true)};
}

// Written elements lose self's gradient (unless added to); values get the gradient of where they
// went (summed down to values' shape when they were broadcast).
variable_list IndexPutBackward0::apply(variable_list&& grads) {
  variable_list result(2);
  const c10::List<c10::optional<at::Tensor>> indices = unpack_indices();
  if (should_compute_output(0)) {
    result[0] = accumulate ? grads[0]
                           : grads[0].index_put(indices, at::zeros_like(values_.unpack()), false);
  }
  if (should_compute_output(1)) result[1] = grads[0].index(indices);
  return result;
}

}  // namespace generated
}  // namespace autograd
}  // namespace torch
