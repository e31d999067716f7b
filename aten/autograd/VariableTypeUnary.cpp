// The autograd kernels of the unary pointwise operators (neg, abs, exp, log, sqrt and their
// in-place forms) and where. exp and sqrt save their result (is_output: see SavedVariable.h);
// the in-place forms save it after the write, abs_ and log_ save self's value before it.

#include "aten/ATen.h"
#include "aten/autograd/Functions.h"
#include "aten/autograd/VariableTypeUtils.h"
#include "dispatcher/Library.h"

namespace torch {
namespace autograd {
namespace VariableType {

using namespace impl;

constexpr c10::DispatchKeySet kAfterAutograd = c10::after_autograd_keyset;

at::Tensor neg(c10::DispatchKeySet ks, const at::Tensor& self) {
  auto grad_fn = make_node_if<NegBackward0>(compute_requires_grad(self), self);
  return record_functional(std::move(grad_fn),
                           [&] { return at::_ops::neg::redispatch(ks & kAfterAutograd, self); });
}

at::Tensor& neg_(c10::DispatchKeySet ks, at::Tensor& self) {
  const bool requires_grad = compute_requires_grad(self);
  check_inplace(self, requires_grad);
  auto grad_fn = make_node_if<NegBackward0>(requires_grad, self);
  return record_inplace(self, grad_fn, [&]() -> at::Tensor& {
    return at::_ops::neg_::redispatch(ks & kAfterAutograd, self);
  });
}

at::Tensor abs(c10::DispatchKeySet ks, const at::Tensor& self) {
  auto grad_fn = make_node_if<AbsBackward0>(compute_requires_grad(self), self);
  if (grad_fn) grad_fn->self_ = SavedVariable(self, false);
  return record_functional(std::move(grad_fn),
                           [&] { return at::_ops::abs::redispatch(ks & kAfterAutograd, self); });
}

at::Tensor& abs_(c10::DispatchKeySet ks, at::Tensor& self) {
  const bool requires_grad = compute_requires_grad(self);
  check_inplace(self, requires_grad);
  auto grad_fn = make_node_if<AbsBackward0>(requires_grad, self);
  if (grad_fn) grad_fn->self_ = SavedVariable(original_value(self), false);
  return record_inplace(self, grad_fn, [&]() -> at::Tensor& {
    return at::_ops::abs_::redispatch(ks & kAfterAutograd, self);
  });
}

at::Tensor exp(c10::DispatchKeySet ks, const at::Tensor& self) {
  auto grad_fn = make_node_if<ExpBackward0>(compute_requires_grad(self), self);
  at::Tensor result = record_functional(
      grad_fn, [&] { return at::_ops::exp::redispatch(ks & kAfterAutograd, self); });
  if (grad_fn) grad_fn->result_ = SavedVariable(result, true);
  return result;
}

at::Tensor& exp_(c10::DispatchKeySet ks, at::Tensor& self) {
  const bool requires_grad = compute_requires_grad(self);
  check_inplace(self, requires_grad);
  auto grad_fn = make_node_if<ExpBackward0>(requires_grad, self);
  record_inplace(self, grad_fn, [&]() -> at::Tensor& {
    return at::_ops::exp_::redispatch(ks & kAfterAutograd, self);
  });
  if (grad_fn) grad_fn->result_ = SavedVariable(self, true);
  return self;
}

at::Tensor log(c10::DispatchKeySet ks, const at::Tensor& self) {
  auto grad_fn = make_node_if<LogBackward0>(compute_requires_grad(self), self);
  if (grad_fn) grad_fn->self_ = SavedVariable(self, false);
  return record_functional(std::move(grad_fn),
                           [&] { return at::_ops::log::redispatch(ks & kAfterAutograd, self); });
}

at::Tensor& log_(c10::DispatchKeySet ks, at::Tensor& self) {
  const bool requires_grad = compute_requires_grad(self);
  check_inplace(self, requires_grad);
  auto grad_fn = make_node_if<LogBackward0>(requires_grad, self);
  if (grad_fn) grad_fn->self_ = SavedVariable(original_value(self), false);
  return record_inplace(self, grad_fn, [&]() -> at::Tensor& {
    return at::_ops::log_::redispatch(ks & kAfterAutograd, self);
  });
}

at::Tensor sqrt(c10::DispatchKeySet ks, const at::Tensor& self) {
  auto grad_fn = make_node_if<SqrtBackward0>(compute_requires_grad(self), self);
  at::Tensor result = record_functional(
      grad_fn, [&] { return at::_ops::sqrt::redispatch(ks & kAfterAutograd, self); });
  if (grad_fn) grad_fn->result_ = SavedVariable(result, true);
  return result;
}

at::Tensor& sqrt_(c10::DispatchKeySet ks, at::Tensor& self) {
  const bool requires_grad = compute_requires_grad(self);
  check_inplace(self, requires_grad);
  auto grad_fn = make_node_if<SqrtBackward0>(requires_grad, self);
  record_inplace(self, grad_fn, [&]() -> at::Tensor& {
    return at::_ops::sqrt_::redispatch(ks & kAfterAutograd, self);
  });
  if (grad_fn) grad_fn->result_ = SavedVariable(self, true);
  return self;
}

// condition is not differentiable: the node's edges are self's and other's.
at::Tensor where_self(c10::DispatchKeySet ks, const at::Tensor& condition, const at::Tensor& self,
                      const at::Tensor& other) {
  auto grad_fn = make_node_if<WhereBackward0>(compute_requires_grad(self, other), self, other);
  if (grad_fn) grad_fn->condition_ = SavedVariable(condition, false);
  return record_functional(std::move(grad_fn), [&] {
    return at::_ops::where_self::redispatch(ks & kAfterAutograd, condition, self, other);
  });
}

}  // namespace VariableType

TORCH_LIBRARY_IMPL(aten, Autograd, m) {
  m.impl("neg", TORCH_FN(VariableType::neg));
  m.impl("neg_", TORCH_FN(VariableType::neg_));
  m.impl("abs", TORCH_FN(VariableType::abs));
  m.impl("abs_", TORCH_FN(VariableType::abs_));
  m.impl("exp", TORCH_FN(VariableType::exp));
  m.impl("exp_", TORCH_FN(VariableType::exp_));
  m.impl("log", TORCH_FN(VariableType::log));
  m.impl("log_", TORCH_FN(VariableType::log_));
  m.impl("sqrt", TORCH_FN(VariableType::sqrt));
  m.impl("sqrt_", TORCH_FN(VariableType::sqrt_));
  m.impl("where.self", TORCH_FN(VariableType::where_self));
}

}  // namespace autograd
}  // namespace torch
