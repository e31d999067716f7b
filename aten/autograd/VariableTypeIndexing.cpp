// The autograd kernels of cat, stack, index_select, index_add / index_add_ and masked_fill /
// masked_fill_. cat and stack take a list: their nodes get one edge per tensor of it. Formulas
// in FunctionsIndexing.cpp.

#include <vector>

#include "aten/ATen.h"
#include "aten/autograd/Functions.h"
#include "aten/autograd/VariableTypeUtils.h"
#include "dispatcher/Library.h"

namespace torch {
namespace autograd {
namespace VariableType {

using namespace impl;

constexpr c10::DispatchKeySet kAfterAutograd = c10::after_autograd_keyset;

namespace {

bool any_requires_grad(at::TensorList tensors) {
  if (!at::GradMode::is_enabled()) return false;
  for (const at::Tensor& t : tensors) {
    if (t.defined() && t.requires_grad()) return true;
  }
  return false;
}

// A node whose edges are those of every tensor of the list.
template <typename NodeT>
std::shared_ptr<NodeT> make_list_node_if(at::TensorList tensors) {
  auto grad_fn = make_node_if<NodeT>(any_requires_grad(tensors));
  if (grad_fn) {
    for (const at::Tensor& t : tensors) {
      grad_fn->next_edges().push_back(t.defined() ? gradient_edge(t) : Edge());
    }
  }
  return grad_fn;
}

}  // namespace

at::Tensor cat(c10::DispatchKeySet ks, at::TensorList tensors, int64_t dim) {
  auto grad_fn = make_list_node_if<CatBackward0>(tensors);
  at::Tensor result = record_functional(
      grad_fn, [&] { return at::_ops::cat::redispatch(ks & kAfterAutograd, tensors, dim); });
  if (grad_fn) {
    for (const at::Tensor& t : tensors) grad_fn->tensors_args_sizes.push_back(t.sizes().vec());
    // The dim as cat wrapped it: against the result, which has the inputs' rank.
    grad_fn->dim = c10::maybe_wrap_dim(dim, result.dim());
  }
  return result;
}

at::Tensor stack(c10::DispatchKeySet ks, at::TensorList tensors, int64_t dim) {
  auto grad_fn = make_list_node_if<StackBackward0>(tensors);
  at::Tensor result = record_functional(
      grad_fn, [&] { return at::_ops::stack::redispatch(ks & kAfterAutograd, tensors, dim); });
  if (grad_fn) grad_fn->dim = c10::maybe_wrap_dim(dim, result.dim());
  return result;
}

at::Tensor index_select(c10::DispatchKeySet ks, const at::Tensor& self, int64_t dim,
                        const at::Tensor& index) {
  auto grad_fn = make_node_if<IndexSelectBackward0>(compute_requires_grad(self), self);
  if (grad_fn) {
    grad_fn->self_sizes = self.sizes().vec();
    grad_fn->dim = c10::maybe_wrap_dim(dim, self.dim());
    grad_fn->index_ = SavedVariable(index, false);
  }
  return record_functional(std::move(grad_fn), [&] {
    return at::_ops::index_select::redispatch(ks & kAfterAutograd, self, dim, index);
  });
}

namespace {
std::shared_ptr<IndexAddBackward0> index_add_node(bool requires_grad, const at::Tensor& self,
                                                  int64_t dim, const at::Tensor& index,
                                                  const at::Tensor& source,
                                                  const at::Scalar& alpha) {
  auto grad_fn = make_node_if<IndexAddBackward0>(requires_grad, self, source);
  if (grad_fn) {
    grad_fn->dim = c10::maybe_wrap_dim(dim, self.dim());
    grad_fn->source_dim = source.dim();
    grad_fn->alpha = alpha;
    grad_fn->index_ = SavedVariable(index, false);
  }
  return grad_fn;
}
}  // namespace

at::Tensor index_add(c10::DispatchKeySet ks, const at::Tensor& self, int64_t dim,
                     const at::Tensor& index, const at::Tensor& source, const at::Scalar& alpha) {
  auto grad_fn =
      index_add_node(compute_requires_grad(self, source), self, dim, index, source, alpha);
  return record_functional(std::move(grad_fn), [&] {
    return at::_ops::index_add::redispatch(ks & kAfterAutograd, self, dim, index, source, alpha);
  });
}

at::Tensor& index_add_(c10::DispatchKeySet ks, at::Tensor& self, int64_t dim,
                       const at::Tensor& index, const at::Tensor& source, const at::Scalar& alpha) {
  const bool requires_grad = compute_requires_grad(self, source);
  check_inplace(self, requires_grad);
  auto grad_fn = index_add_node(requires_grad, self, dim, index, source, alpha);
  return record_inplace(self, grad_fn, [&]() -> at::Tensor& {
    return at::_ops::index_add_::redispatch(ks & kAfterAutograd, self, dim, index, source, alpha);
  });
}

at::Tensor masked_fill_Scalar(c10::DispatchKeySet ks, const at::Tensor& self,
                              const at::Tensor& mask, const at::Scalar& value) {
  auto grad_fn = make_node_if<MaskedFillBackward0>(compute_requires_grad(self), self);
  if (grad_fn) grad_fn->mask_ = SavedVariable(mask, false);
  return record_functional(std::move(grad_fn), [&] {
    return at::_ops::masked_fill_Scalar::redispatch(ks & kAfterAutograd, self, mask, value);
  });
}

at::Tensor& masked_fill__Scalar(c10::DispatchKeySet ks, at::Tensor& self, const at::Tensor& mask,
                                const at::Scalar& value) {
  const bool requires_grad = compute_requires_grad(self);
  check_inplace(self, requires_grad);
  auto grad_fn = make_node_if<MaskedFillBackward0>(requires_grad, self);
  if (grad_fn) grad_fn->mask_ = SavedVariable(mask, false);
  return record_inplace(self, grad_fn, [&]() -> at::Tensor& {
    return at::_ops::masked_fill__Scalar::redispatch(ks & kAfterAutograd, self, mask, value);
  });
}

at::Tensor masked_fill_Tensor(c10::DispatchKeySet ks, const at::Tensor& self,
                              const at::Tensor& mask, const at::Tensor& value) {
  auto grad_fn = make_node_if<MaskedFillBackward1>(compute_requires_grad(self, value), self, value);
  if (grad_fn) grad_fn->mask_ = SavedVariable(mask, false);
  return record_functional(std::move(grad_fn), [&] {
    return at::_ops::masked_fill_Tensor::redispatch(ks & kAfterAutograd, self, mask, value);
  });
}

at::Tensor& masked_fill__Tensor(c10::DispatchKeySet ks, at::Tensor& self, const at::Tensor& mask,
                                const at::Tensor& value) {
  const bool requires_grad = compute_requires_grad(self, value);
  check_inplace(self, requires_grad);
  auto grad_fn = make_node_if<MaskedFillBackward1>(requires_grad, self, value);
  if (grad_fn) grad_fn->mask_ = SavedVariable(mask, false);
  return record_inplace(self, grad_fn, [&]() -> at::Tensor& {
    return at::_ops::masked_fill__Tensor::redispatch(ks & kAfterAutograd, self, mask, value);
  });
}

}  // namespace VariableType

TORCH_LIBRARY_IMPL(aten, Autograd, m) {
  m.impl("cat", TORCH_FN(VariableType::cat));
  m.impl("stack", TORCH_FN(VariableType::stack));
  m.impl("index_select", TORCH_FN(VariableType::index_select));
  m.impl("index_add", TORCH_FN(VariableType::index_add));
  m.impl("index_add_", TORCH_FN(VariableType::index_add_));
  m.impl("masked_fill.Scalar", TORCH_FN(VariableType::masked_fill_Scalar));
  m.impl("masked_fill_.Scalar", TORCH_FN(VariableType::masked_fill__Scalar));
  m.impl("masked_fill.Tensor", TORCH_FN(VariableType::masked_fill_Tensor));
  m.impl("masked_fill_.Tensor", TORCH_FN(VariableType::masked_fill__Tensor));
}

}  // namespace autograd
}  // namespace torch
