// The backward formulas of the matrix products, relu, softmax and the losses, as libtorch's
// derivatives.yaml states them. The products' gradients are products again (mm_mat1_backward:
// grad @ mat2^T; mm_mat2_backward: mat1^T @ grad), so their transposed operands reach BLAS as
// transposes, not copies (Note [Matrices as BLAS sees them] in aten/native/Blas.h).

#include <array>
#include <tuple>

#include "aten/ATen.h"
#include "aten/autograd/Functions.h"
#include "aten/core/Reduction.h"

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

// The input's gradient is binary_cross_entropy_backward's; the target's is
// grad * w * (log(1 - x) - log(x)), over numel for the mean (libtorch's
// binary_cross_entropy_target_backward).
variable_list BinaryCrossEntropyBackward0::apply(variable_list&& grads) {
  variable_list result(2);
  const at::Tensor self = self_.unpack(), target = target_.unpack();
  const at::Tensor weight = weight_.unpack();
  const c10::optional<at::Tensor> w =
      weight.defined() ? c10::optional<at::Tensor>(weight) : c10::nullopt;
  if (should_compute_output(0)) {
    result[0] = at::binary_cross_entropy_backward(grads[0], self, target, w, reduction);
  }
  if (should_compute_output(1)) {
    at::Tensor grad_target = at::log1p(self.neg()).sub_(at::log(self)).mul_(grads[0]);
    if (weight.defined()) grad_target.mul_(weight);
    if (reduction == at::Reduction::Mean) grad_target.div_(target.numel());
    result[1] = grad_target;
  }
  return result;
}

variable_list EmbeddingBackward0::apply(variable_list&& grads) {
  return {at::embedding_dense_backward(grads[0], indices_.unpack(), weight_size0, padding_idx,
                                       scale_grad_by_freq)};
}

variable_list NativeLayerNormBackward0::apply(variable_list&& grads) {
  auto optional_of = [](const at::Tensor& t) {
    return t.defined() ? c10::optional<at::Tensor>(t) : c10::nullopt;
  };
  const at::Tensor weight = weight_.unpack(), bias = bias_.unpack();
  const std::array<bool, 3> mask = {should_compute_output(0),
                                    weight.defined() && should_compute_output(1),
                                    bias.defined() && should_compute_output(2)};
  auto outputs = at::native_layer_norm_backward(grads[0], input_.unpack(), normalized_shape,
                                                result1_.unpack(), result2_.unpack(),
                                                optional_of(weight), optional_of(bias), mask);
  return {std::get<0>(outputs), std::get<1>(outputs), std::get<2>(outputs)};
}

// threshold_backward(g, self, t) passes g where self > t: linear in g (the same mask), flat in
// self. relu's second derivative goes through it.
variable_list ThresholdBackwardBackward0::apply(variable_list&& grads) {
  variable_list result(2);
  if (should_compute_output(0)) {
    result[0] = at::threshold_backward(grads[0], self_.unpack(), threshold);
  }
  if (should_compute_output(1)) result[1] = at::zeros_like(grads[0]);
  return result;
}

}  // namespace generated
}  // namespace autograd
}  // namespace torch
