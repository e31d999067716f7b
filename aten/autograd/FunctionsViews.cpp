// The backward formulas of the view operations: each puts the gradient of the view back into
// the shape of its input (derivatives.yaml).

#include "aten/ATen.h"
#include "aten/autograd/Functions.h"

namespace torch {
namespace autograd {
namespace generated {

using namespace details;

variable_list AsStridedBackward0::apply(variable_list&& grads) {
  return {as_strided_backward(grads[0], self_geometry, size, stride, storage_offset)};
}

variable_list ViewBackward0::apply(variable_list&& grads) {
  return {grads[0].reshape(self_sizes)};
}

variable_list ReshapeAliasBackward0::apply(variable_list&& grads) {
  return {grads[0].reshape(self_sizes)};
}

variable_list UnsafeViewBackward0::apply(variable_list&& grads) {
  return {grads[0].reshape(self_sizes)};
}

variable_list ExpandBackward0::apply(variable_list&& grads) {
  return {sum_to(grads[0], self_sizes)};
}

variable_list PermuteBackward0::apply(variable_list&& grads) {
  return {permute_backwards(grads[0], dims)};
}

variable_list TransposeBackward0::apply(variable_list&& grads) {
  return {grads[0].transpose(dim0, dim1)};
}

variable_list TBackward0::apply(variable_list&& grads) {
  return {grads[0].t()};
}

variable_list SqueezeBackward0::apply(variable_list&& grads) {
  return {unsqueeze_to(grads[0], self_sizes)};
}

variable_list SqueezeBackward1::apply(variable_list&& grads) {
  return {unsqueeze_to(grads[0], dim, self_sizes)};
}

variable_list UnsqueezeBackward0::apply(variable_list&& grads) {
  return {grads[0].squeeze(dim)};
}

variable_list TransposeBackward1::apply(variable_list&& grads) {
  return {grads[0].transpose(dim0, dim1)};
}

variable_list TBackward1::apply(variable_list&& grads) {
  return {grads[0].t()};
}

variable_list SqueezeBackward2::apply(variable_list&& grads) {
  return {unsqueeze_to(grads[0], self_sizes)};
}

variable_list SqueezeBackward3::apply(variable_list&& grads) {
  return {unsqueeze_to(grads[0], dim, self_sizes)};
}

variable_list UnsqueezeBackward1::apply(variable_list&& grads) {
  return {grads[0].squeeze(dim)};
}

variable_list AsStridedBackward1::apply(variable_list&& grads) {
  return {as_strided_backward(grads[0], self_geometry, size, stride, storage_offset)};
}

variable_list SliceBackward0::apply(variable_list&& grads) {
  return {slice_backward(grads[0], self_sizes, dim, start, end, step)};
}

variable_list SplitBackward0::apply(variable_list&& grads) {
  at::Tensor grad_input = at::zeros(self_sizes, self_options);
  for (size_t i = 0; i < grads.size(); ++i) {
    if (!grads[i].defined()) continue;
    const int64_t start = static_cast<int64_t>(i) * split_size;
    grad_input.narrow(dim, start, grads[i].size(dim)).copy_(grads[i]);
  }
  return {grad_input};
}

variable_list SplitWithSizesBackward0::apply(variable_list&& grads) {
  at::Tensor grad_input = at::zeros(self_sizes, self_options);
  int64_t start = 0;
  for (size_t i = 0; i < grads.size(); ++i) {
    if (grads[i].defined()) grad_input.narrow(dim, start, split_sizes[i]).copy_(grads[i]);
    start += split_sizes[i];
  }
  return {grad_input};
}

variable_list UnbindBackward0::apply(variable_list&& grads) {
  at::Tensor grad_input = at::zeros(self_sizes, self_options);
  for (size_t i = 0; i < grads.size(); ++i) {
    if (grads[i].defined()) grad_input.select(dim, static_cast<int64_t>(i)).copy_(grads[i]);
  }
  return {grad_input};
}

variable_list SelectBackward0::apply(variable_list&& grads) {
  return {select_backward(grads[0], self_sizes, dim, index)};
}

variable_list DiagonalBackward0::apply(variable_list&& grads) {
  return {diagonal_backward(grads[0], self_sizes, offset, dim1, dim2)};
}

variable_list UnfoldBackward0::apply(variable_list&& grads) {
  return {unfold_backward(grads[0], self_sizes, dimension, size, step)};
}

}  // namespace generated
}  // namespace autograd
}  // namespace torch
