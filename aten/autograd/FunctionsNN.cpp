// The backward formulas of the matrix products, relu, softmax and the losses, as libtorch's
// derivatives.yaml states them. The products' gradients are products again (mm_mat1_backward:
// grad @ mat2^T; mm_mat2_backward: mat1^T @ grad), so their transposed operands reach BLAS as
// transposes, not copies (Note [Matrices as BLAS sees them] in aten/native/Blas.h).

#include "aten/ATen.h"
#include "aten/autograd/Functions.h"

namespace torch {
namespace autograd {
namespace generated {

using details::maybe_multiply;

variable_list MmBackward0::apply(variable_list&& grads) {
  variable_list result(2);
  const at::Tensor& grad = grads[0];
  if (should_compute_output(0)) result[0] = grad.mm(mat2_.unpack().t());
  if (should_compute_output(1)) result[1] = self_.unpack().t().mm(grad);
  return result;
}

// self's gradient is beta * grad in the result's shape; the engine sums it down to self's
// (a bias broadcast over the rows).
variable_list AddmmBackward0::apply(variable_list&& grads) {
  variable_list result(3);
  const at::Tensor& grad = grads[0];
  if (should_compute_output(0)) result[0] = maybe_multiply(grad, beta);
  if (should_compute_output(1)) result[1] = maybe_multiply(grad.mm(mat2_.unpack().t()), alpha);
  if (should_compute_output(2)) result[2] = maybe_multiply(mat1_.unpack().t().mm(grad), alpha);
  return result;
}

variable_list BmmBackward0::apply(variable_list&& grads) {
  variable_list result(2);
  const at::Tensor& grad = grads[0];
  if (should_compute_output(0)) result[0] = grad.bmm(mat2_.unpack().transpose(1, 2));
  if (should_compute_output(1)) result[1] = self_.unpack().transpose(1, 2).bmm(grad);
  return result;
}

variable_list DotBackward0::apply(variable_list&& grads) {
  variable_list result(2);
  const at::Tensor& grad = grads[0];
  if (should_compute_output(0)) result[0] = grad * tensor_.unpack();
  if (should_compute_output(1)) result[1] = grad * self_.unpack();
  return result;
}

// self: the outer product grad x vec; vec: self^T @ grad.
variable_list MvBackward0::apply(variable_list&& grads) {
  variable_list result(2);
  const at::Tensor& grad = grads[0];
  if (should_compute_output(0)) result[0] = grad.unsqueeze(1) * vec_.unpack().unsqueeze(0);
  if (should_compute_output(1)) result[1] = self_.unpack().t().mv(grad);
  return result;
}

variable_list ReluBackward0::apply(variable_list&& grads) {
  return {at::threshold_backward(grads[0], result_.unpack(), 0)};
}

variable_list SoftmaxBackward0::apply(variable_list&& grads) {
  return {at::_softmax_backward_data(grads[0], result_.unpack(), dim, self_scalar_type)};
}

variable_list LogSoftmaxBackward0::apply(variable_list&& grads) {
  return {at::_log_softmax_backward_data(grads[0], result_.unpack(), dim, self_scalar_type)};
}

variable_list NllLossBackward0::apply(variable_list&& grads) {
  const at::Tensor weight = weight_.unpack();
  return {at::nll_loss_backward(grads[0], self_.unpack(), target_.unpack(),
                                weight.defined() ? c10::optional<at::Tensor>(weight) : c10::nullopt,
                                reduction, ignore_index, total_weight_.unpack())};
}

variable_list MseLossBackward0::apply(variable_list&& grads) {
  variable_list result(2);
  const at::Tensor self = self_.unpack(), target = target_.unpack();
  if (should_compute_output(0))
    result[0] = at::mse_loss_backward(grads[0], self, target, reduction);
  if (should_compute_output(1))
    result[1] = at::mse_loss_backward(grads[0], target, self, reduction);
  return result;
}

}  // namespace generated
}  // namespace autograd
}  // namespace torch
