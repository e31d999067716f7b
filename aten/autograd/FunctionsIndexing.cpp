// The backward formulas of cat, stack, index_select, index_add and masked_fill (libtorch's
// derivatives.yaml: cat_tensors_backward, stack via unbind, index_select_backward, ...).

#include "aten/ATen.h"
#include "aten/autograd/Functions.h"

namespace torch {
namespace autograd {
namespace generated {

// Each input gets its slice of the gradient; a skipped empty 1-D input an empty one.
variable_list CatBackward0::apply(variable_list&& grads) {
  variable_list result(tensors_args_sizes.size());
  int64_t offset = 0;
  for (size_t i = 0; i < tensors_args_sizes.size(); ++i) {
    const std::vector<int64_t>& sizes = tensors_args_sizes[i];
    if (sizes.size() == 1 && sizes[0] == 0) {  // skipped by cat: an empty gradient
      if (should_compute_output(i)) result[i] = at::zeros({0}, grads[0].options());
      continue;
    }
    const int64_t n = sizes[static_cast<size_t>(dim)];
    if (should_compute_output(i)) result[i] = grads[0].narrow(dim, offset, n);
    offset += n;
  }
  return result;
}

variable_list StackBackward0::apply(variable_list&& grads) {
  variable_list result(num_outputs());
  for (size_t i = 0; i < num_outputs(); ++i) {
    if (should_compute_output(i)) result[i] = grads[0].select(dim, static_cast<int64_t>(i));
  }
  return result;
}

// zeros of self's shape with the gradient's rows added back where they were picked.
variable_list IndexSelectBackward0::apply(variable_list&& grads) {
  const at::Tensor index = index_.unpack();
  at::Tensor grad_self = at::zeros(self_sizes, grads[0].options());
  return {grad_self.index_add_(dim, index, grads[0])};
}

variable_list IndexAddBackward0::apply(variable_list&& grads) {
  variable_list result(2);
  if (should_compute_output(0)) result[0] = grads[0];
  if (should_compute_output(1)) {
    const at::Tensor index = index_.unpack();
    at::Tensor picked = grads[0].dim() == 0 ? grads[0] : grads[0].index_select(dim, index);
    if (source_dim == 0) picked = picked.reshape({});
    result[1] = at::mul(picked, alpha);
  }
  return result;
}

variable_list MaskedFillBackward0::apply(variable_list&& grads) {
  return {grads[0].masked_fill(mask_.unpack(), 0)};
}

// value's gradient is the sum of the gradient where the mask put it.
variable_list MaskedFillBackward1::apply(variable_list&& grads) {
  variable_list result(2);
  const at::Tensor mask = mask_.unpack();
  if (should_compute_output(0)) result[0] = grads[0].masked_fill(mask, 0);
  if (should_compute_output(1)) {
    result[1] = at::where(mask, grads[0], at::zeros({}, grads[0].options())).sum();
  }
  return result;
}

}  // namespace generated
}  // namespace autograd
}  // namespace torch
