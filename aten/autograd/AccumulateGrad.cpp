#include "aten/autograd/AccumulateGrad.h"

#include <limits>

#include "aten/ATen.h"
#include "aten/autograd/AutogradMeta.h"
#include "aten/autograd/GradMode.h"

namespace torch {
namespace autograd {

// The largest sequence number: a leaf's gradient is accumulated as soon as it is complete.
AccumulateGrad::AccumulateGrad(at::Tensor variable_)
    : Node(std::numeric_limits<uint64_t>::max(), edge_list()), variable(std::move(variable_)) {
  add_input_metadata(variable);
}

namespace impl {

bool obeys_layout_contract(const at::Tensor& grad, const at::Tensor& variable) {
  if (!variable.is_non_overlapping_and_dense()) return grad.is_contiguous();
  const c10::IntArrayRef sizes = grad.sizes();
  const c10::IntArrayRef grad_strides = grad.strides();
  const c10::IntArrayRef variable_strides = variable.strides();
  for (size_t i = 0; i < sizes.size(); ++i) {
    // Only dims of size > 1 have meaningful strides; a 0 stride marks an expanded gradient.
    if (sizes[i] != 1 ? grad_strides[i] != variable_strides[i] : grad_strides[i] == 0) {
      return false;
    }
  }
  return true;
}

at::Tensor clone_obey_contract(const at::Tensor& grad, const at::Tensor& variable) {
  if (variable.is_non_overlapping_and_dense()) {
    at::Tensor result = at::empty_strided(variable.sizes(), variable.strides(), grad.options());
    result.copy_(grad);
    return result;
  }
  return grad.clone(at::MemoryFormat::Contiguous);
}

}  // namespace impl

variable_list AccumulateGrad::apply(variable_list&& grads) {
  at::Tensor new_grad = std::move(grads[0]);
  if (!new_grad.defined() || !variable.requires_grad()) return {};
  // A leaf's register_hook hooks see (and may replace) the gradient before it is accumulated.
  if (const AutogradMeta* meta = impl::get_autograd_meta(variable)) {
    if (meta->cpp_hooks_) run_tensor_hooks(*meta->cpp_hooks_, new_grad);
  }
  at::Tensor& grad = impl::materialize_autograd_meta(variable)->grad_;
  if (!grad.defined()) {
    // Steal when no other handle can see the incoming tensor: see Note [Gradient layout
    // contract].
    if (!at::GradMode::is_enabled() && new_grad.use_count() <= 1 &&
        impl::obeys_layout_contract(new_grad, variable)) {
      // A tensor with autograd state (a view) is detached; a plain one is taken as is.
      grad = impl::get_autograd_meta(new_grad) ? new_grad.detach() : std::move(new_grad);
    } else {
      grad = impl::clone_obey_contract(new_grad, variable);
    }
  } else if (!at::GradMode::is_enabled()) {
    grad.add_(new_grad);
  } else {
    grad = at::add(grad, new_grad);
  }
  return {};
}

}  // namespace autograd
}  // namespace torch
