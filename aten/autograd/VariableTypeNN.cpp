// The autograd kernels of the matrix products (mm, addmm, addmm_, bmm, dot, mv), relu, softmax
// and log_softmax, nll_loss_forward, mse_loss, binary_cross_entropy, embedding and
// native_layer_norm. matmul, linear, softmax.int, cross_entropy_loss
// and nll_loss are composite: their graphs are made of these. Formulas in FunctionsNN.cpp.

#include <tuple>

#include "aten/ATen.h"
#include "aten/autograd/Functions.h"
#include "aten/autograd/VariableTypeUtils.h"
#include "dispatcher/Library.h"

namespace torch {
namespace autograd {
namespace VariableType {

using namespace impl;

constexpr c10::DispatchKeySet kAfterAutograd = c10::after_autograd_keyset;

// ---- Matrix products -------------------------------------------------------------------------
// Each operand is saved only when the other's gradient needs it.

at::Tensor mm(c10::DispatchKeySet ks, const at::Tensor& self, const at::Tensor& mat2) {
  auto grad_fn = make_node_if<MmBackward0>(compute_requires_grad(self, mat2), self, mat2);
  if (grad_fn) {
    if (grad_fn->should_compute_output(1)) grad_fn->self_ = SavedVariable(self, false);
    if (grad_fn->should_compute_output(0)) grad_fn->mat2_ = SavedVariable(mat2, false);
  }
  return record_functional(std::move(grad_fn), [&] {
    return at::_ops::mm::redispatch(ks & kAfterAutograd, self, mat2);
  });
}

namespace {
std::shared_ptr<AddmmBackward0> addmm_node(bool requires_grad, const at::Tensor& self,
                                           const at::Tensor& mat1, const at::Tensor& mat2,
                                           const at::Scalar& beta, const at::Scalar& alpha) {
  auto grad_fn = make_node_if<AddmmBackward0>(requires_grad, self, mat1, mat2);
  if (grad_fn) {
    grad_fn->alpha = alpha;
    grad_fn->beta = beta;
    if (grad_fn->should_compute_output(2)) grad_fn->mat1_ = SavedVariable(mat1, false);
    if (grad_fn->should_compute_output(1)) grad_fn->mat2_ = SavedVariable(mat2, false);
  }
  return grad_fn;
}
}  // namespace

at::Tensor addmm(c10::DispatchKeySet ks, const at::Tensor& self, const at::Tensor& mat1,
                 const at::Tensor& mat2, const at::Scalar& beta, const at::Scalar& alpha) {
  auto grad_fn = addmm_node(compute_requires_grad(self, mat1, mat2), self, mat1, mat2, beta, alpha);
  return record_functional(std::move(grad_fn), [&] {
    return at::_ops::addmm::redispatch(ks & kAfterAutograd, self, mat1, mat2, beta, alpha);
  });
}

at::Tensor& addmm_(c10::DispatchKeySet ks, at::Tensor& self, const at::Tensor& mat1,
                   const at::Tensor& mat2, const at::Scalar& beta, const at::Scalar& alpha) {
  const bool requires_grad = compute_requires_grad(self, mat1, mat2);
  check_inplace(self, requires_grad);
  auto grad_fn = addmm_node(requires_grad, self, mat1, mat2, beta, alpha);
  return record_inplace(self, grad_fn, [&]() -> at::Tensor& {
    return at::_ops::addmm_::redispatch(ks & kAfterAutograd, self, mat1, mat2, beta, alpha);
  });
}

at::Tensor bmm(c10::DispatchKeySet ks, const at::Tensor& self, const at::Tensor& mat2) {
  auto grad_fn = make_node_if<BmmBackward0>(compute_requires_grad(self, mat2), self, mat2);
  if (grad_fn) {
    if (grad_fn->should_compute_output(1)) grad_fn->self_ = SavedVariable(self, false);
    if (grad_fn->should_compute_output(0)) grad_fn->mat2_ = SavedVariable(mat2, false);
  }
  return record_functional(std::move(grad_fn), [&] {
    return at::_ops::bmm::redispatch(ks & kAfterAutograd, self, mat2);
  });
}

at::Tensor dot(c10::DispatchKeySet ks, const at::Tensor& self, const at::Tensor& tensor) {
  auto grad_fn = make_node_if<DotBackward0>(compute_requires_grad(self, tensor), self, tensor);
  if (grad_fn) {
    if (grad_fn->should_compute_output(1)) grad_fn->self_ = SavedVariable(self, false);
    if (grad_fn->should_compute_output(0)) grad_fn->tensor_ = SavedVariable(tensor, false);
  }
  return record_functional(std::move(grad_fn), [&] {
    return at::_ops::dot::redispatch(ks & kAfterAutograd, self, tensor);
  });
}

at::Tensor mv(c10::DispatchKeySet ks, const at::Tensor& self, const at::Tensor& vec) {
  auto grad_fn = make_node_if<MvBackward0>(compute_requires_grad(self, vec), self, vec);
  if (grad_fn) {
    if (grad_fn->should_compute_output(1)) grad_fn->self_ = SavedVariable(self, false);
    if (grad_fn->should_compute_output(0)) grad_fn->vec_ = SavedVariable(vec, false);
  }
  return record_functional(
      std::move(grad_fn), [&] { return at::_ops::mv::redispatch(ks & kAfterAutograd, self, vec); });
}

// ---- relu, softmax -----------------------------------------------------------------------------
// Each saves its result, which its formula reads.

at::Tensor relu(c10::DispatchKeySet ks, const at::Tensor& self) {
  auto grad_fn = make_node_if<ReluBackward0>(compute_requires_grad(self), self);
  at::Tensor result = record_functional(
      grad_fn, [&] { return at::_ops::relu::redispatch(ks & kAfterAutograd, self); });
  if (grad_fn) grad_fn->result_ = SavedVariable(result, true);
  return result;
}

at::Tensor& relu_(c10::DispatchKeySet ks, at::Tensor& self) {
  const bool requires_grad = compute_requires_grad(self);
  check_inplace(self, requires_grad);
  auto grad_fn = make_node_if<ReluBackward0>(requires_grad, self);
  record_inplace(self, grad_fn, [&]() -> at::Tensor& {
    return at::_ops::relu_::redispatch(ks & kAfterAutograd, self);
  });
  if (grad_fn) grad_fn->result_ = SavedVariable(self, true);
  return self;
}

template <typename Node, typename Op>
at::Tensor softmax_like(c10::DispatchKeySet ks, const at::Tensor& self, int64_t dim,
                        bool half_to_float) {
  auto grad_fn = make_node_if<Node>(compute_requires_grad(self), self);
  if (grad_fn) {
    grad_fn->dim = dim;
    grad_fn->self_scalar_type = self.scalar_type();
  }
  at::Tensor result = record_functional(
      grad_fn, [&] { return Op::redispatch(ks & kAfterAutograd, self, dim, half_to_float); });
  if (grad_fn) grad_fn->result_ = SavedVariable(result, true);
  return result;
}

at::Tensor _softmax(c10::DispatchKeySet ks, const at::Tensor& self, int64_t dim,
                    bool half_to_float) {
  return softmax_like<SoftmaxBackward0, at::_ops::_softmax>(ks, self, dim, half_to_float);
}

at::Tensor _log_softmax(c10::DispatchKeySet ks, const at::Tensor& self, int64_t dim,
                        bool half_to_float) {
  return softmax_like<LogSoftmaxBackward0, at::_ops::_log_softmax>(ks, self, dim, half_to_float);
}

// ---- Losses ------------------------------------------------------------------------------------

// Only the loss (output 0) is differentiable, and only with respect to self: a weight that
// requires grad is libtorch's error.
std::tuple<at::Tensor, at::Tensor> nll_loss_forward(c10::DispatchKeySet ks, const at::Tensor& self,
                                                    const at::Tensor& target,
                                                    const c10::optional<at::Tensor>& weight,
                                                    int64_t reduction, int64_t ignore_index) {
  TORCH_CHECK(!(at::GradMode::is_enabled() && weight.has_value() && weight->defined() &&
                weight->requires_grad()),
              "The function 'nll_loss_forward' is not differentiable with respect to argument "
              "'weight'. This input cannot have requires_grad True.");
  auto grad_fn = make_node_if<NllLossBackward0>(compute_requires_grad(self), self);
  if (grad_fn) {
    grad_fn->self_ = SavedVariable(self, false);
    grad_fn->target_ = SavedVariable(target, false);
    if (weight.has_value()) grad_fn->weight_ = SavedVariable(*weight, false);
    grad_fn->reduction = reduction;
    grad_fn->ignore_index = ignore_index;
  }
  auto outputs = below_autograd_functional([&] {
    return at::_ops::nll_loss_forward::redispatch(ks & kAfterAutograd, self, target, weight,
                                                  reduction, ignore_index);
  });
  if (grad_fn) {
    grad_fn->total_weight_ = SavedVariable(std::get<1>(outputs), false);
    set_history(std::get<0>(outputs), std::move(grad_fn));
  }
  return outputs;
}

at::Tensor mse_loss(c10::DispatchKeySet ks, const at::Tensor& self, const at::Tensor& target,
                    int64_t reduction) {
  auto grad_fn = make_node_if<MseLossBackward0>(compute_requires_grad(self, target), self, target);
  if (grad_fn) {
    grad_fn->self_ = SavedVariable(self, false);
    grad_fn->target_ = SavedVariable(target, false);
    grad_fn->reduction = reduction;
  }
  return record_functional(std::move(grad_fn), [&] {
    return at::_ops::mse_loss::redispatch(ks & kAfterAutograd, self, target, reduction);
  });
}

at::Tensor binary_cross_entropy(c10::DispatchKeySet ks, const at::Tensor& self,
                                const at::Tensor& target, const c10::optional<at::Tensor>& weight,
                                int64_t reduction) {
  auto grad_fn =
      make_node_if<BinaryCrossEntropyBackward0>(compute_requires_grad(self, target), self, target);
  if (grad_fn) {
    grad_fn->self_ = SavedVariable(self, false);
    grad_fn->target_ = SavedVariable(target, false);
    if (weight.has_value()) grad_fn->weight_ = SavedVariable(*weight, false);
    grad_fn->reduction = reduction;
  }
  return record_functional(std::move(grad_fn), [&] {
    return at::_ops::binary_cross_entropy::redispatch(ks & kAfterAutograd, self, target, weight,
                                                      reduction);
  });
}

// Differentiable in weight only (indices are integers); a sparse gradient is not supported.
at::Tensor embedding(c10::DispatchKeySet ks, const at::Tensor& weight, const at::Tensor& indices,
                     int64_t padding_idx, bool scale_grad_by_freq, bool sparse) {
  const bool requires_grad = compute_requires_grad(weight);
  TORCH_CHECK(!(sparse && requires_grad),
              "embedding(): sparse gradients (sparse=true) are not supported in miniaten");
  auto grad_fn = make_node_if<EmbeddingBackward0>(requires_grad, weight);
  if (grad_fn) {
    grad_fn->indices_ = SavedVariable(indices, false);
    grad_fn->weight_size0 = weight.dim() > 0 ? weight.size(0) : 0;
    grad_fn->padding_idx = padding_idx;
    grad_fn->scale_grad_by_freq = scale_grad_by_freq;
  }
  return record_functional(std::move(grad_fn), [&] {
    return at::_ops::embedding::redispatch(ks & kAfterAutograd, weight, indices, padding_idx,
                                           scale_grad_by_freq, sparse);
  });
}

// Output 0 (the normalized input) is differentiable; mean and rstd are saved for the backward.
std::tuple<at::Tensor, at::Tensor, at::Tensor> native_layer_norm(
    c10::DispatchKeySet ks, const at::Tensor& input, c10::IntArrayRef normalized_shape,
    const c10::optional<at::Tensor>& weight, const c10::optional<at::Tensor>& bias, double eps) {
  static const at::Tensor undefined;
  const at::Tensor& w = weight.has_value() ? *weight : undefined;
  const at::Tensor& b = bias.has_value() ? *bias : undefined;
  auto grad_fn =
      make_node_if<NativeLayerNormBackward0>(compute_requires_grad(input, w, b), input, w, b);
  auto outputs = below_autograd_functional([&] {
    return at::_ops::native_layer_norm::redispatch(ks & kAfterAutograd, input, normalized_shape,
                                                   weight, bias, eps);
  });
  if (grad_fn) {
    grad_fn->input_ = SavedVariable(input, false);
    grad_fn->weight_ = SavedVariable(w, false);
    grad_fn->bias_ = SavedVariable(b, false);
    grad_fn->result1_ = SavedVariable(std::get<1>(outputs), false);
    grad_fn->result2_ = SavedVariable(std::get<2>(outputs), false);
    grad_fn->normalized_shape = normalized_shape.vec();
    set_history(std::get<0>(outputs), std::move(grad_fn));
  }
  return outputs;
}

// relu's backward, differentiable so that relu has a second derivative (create_graph).
at::Tensor threshold_backward(c10::DispatchKeySet ks, const at::Tensor& grad_output,
                              const at::Tensor& self, const at::Scalar& threshold) {
  auto grad_fn = make_node_if<ThresholdBackwardBackward0>(compute_requires_grad(grad_output, self),
                                                          grad_output, self);
  if (grad_fn) {
    grad_fn->self_ = SavedVariable(self, false);
    grad_fn->threshold = threshold;
  }
  return record_functional(std::move(grad_fn), [&] {
    return at::_ops::threshold_backward::redispatch(ks & kAfterAutograd, grad_output, self,
                                                    threshold);
  });
}

}  // namespace VariableType

TORCH_LIBRARY_IMPL(aten, Autograd, m) {
  m.impl("mm", TORCH_FN(VariableType::mm));
  m.impl("binary_cross_entropy", TORCH_FN(VariableType::binary_cross_entropy));
  m.impl("embedding", TORCH_FN(VariableType::embedding));
  m.impl("native_layer_norm", TORCH_FN(VariableType::native_layer_norm));
  m.impl("threshold_backward", TORCH_FN(VariableType::threshold_backward));
  m.impl("addmm", TORCH_FN(VariableType::addmm));
  m.impl("addmm_", TORCH_FN(VariableType::addmm_));
  m.impl("bmm", TORCH_FN(VariableType::bmm));
  m.impl("dot", TORCH_FN(VariableType::dot));
  m.impl("mv", TORCH_FN(VariableType::mv));
  m.impl("relu", TORCH_FN(VariableType::relu));
  m.impl("relu_", TORCH_FN(VariableType::relu_));
  m.impl("_softmax", TORCH_FN(VariableType::_softmax));
  m.impl("_log_softmax", TORCH_FN(VariableType::_log_softmax));
  m.impl("nll_loss_forward", TORCH_FN(VariableType::nll_loss_forward));
  m.impl("mse_loss", TORCH_FN(VariableType::mse_loss));
}

}  // namespace autograd
}  // namespace torch
