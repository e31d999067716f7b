// The autograd kernels of the reductions: sum, sum.dim_IntList, mean, mean.dim, cumsum. Their
// nodes keep the input's sizes and the reduced dims; the formulas (FunctionsMath.cpp) expand
// the gradient back.

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
std::vector<int64_t> dims_or_all(at::OptionalIntArrayRef dim) {
  return dim.has_value() ? dim->vec() : std::vector<int64_t>();  // empty: every dim
}
}  // namespace

at::Tensor sum(c10::DispatchKeySet ks, const at::Tensor& self,
               c10::optional<at::ScalarType> dtype) {
  auto grad_fn = make_node_if<SumBackward0>(compute_requires_grad(self), self);
  if (grad_fn) grad_fn->self_sizes = self.sizes().vec();
  return record_functional(
      grad_fn, [&] { return at::_ops::sum::redispatch(ks & kAfterAutograd, self, dtype); });
}

at::Tensor sum_dim_IntList(c10::DispatchKeySet ks, const at::Tensor& self,
                           at::OptionalIntArrayRef dim, bool keepdim,
                           c10::optional<at::ScalarType> dtype) {
  auto grad_fn = make_node_if<SumBackward1>(compute_requires_grad(self), self);
  if (grad_fn) {
    grad_fn->self_sizes = self.sizes().vec();
    grad_fn->dim = dims_or_all(dim);
    grad_fn->keepdim = keepdim;
  }
  return record_functional(std::move(grad_fn), [&] {
    return at::_ops::sum_dim_IntList::redispatch(ks & kAfterAutograd, self, dim, keepdim, dtype);
  });
}

at::Tensor mean(c10::DispatchKeySet ks, const at::Tensor& self,
                c10::optional<at::ScalarType> dtype) {
  auto grad_fn = make_node_if<MeanBackward0>(compute_requires_grad(self), self);
  if (grad_fn) {
    grad_fn->self_sizes = self.sizes().vec();
    grad_fn->self_numel = self.numel();
  }
  return record_functional(
      grad_fn, [&] { return at::_ops::mean::redispatch(ks & kAfterAutograd, self, dtype); });
}

at::Tensor mean_dim(c10::DispatchKeySet ks, const at::Tensor& self, at::OptionalIntArrayRef dim,
                    bool keepdim, c10::optional<at::ScalarType> dtype) {
  auto grad_fn = make_node_if<MeanBackward1>(compute_requires_grad(self), self);
  if (grad_fn) {
    grad_fn->self_sizes = self.sizes().vec();
    grad_fn->dim = dims_or_all(dim);
    grad_fn->keepdim = keepdim;
  }
  return record_functional(std::move(grad_fn), [&] {
    return at::_ops::mean_dim::redispatch(ks & kAfterAutograd, self, dim, keepdim, dtype);
  });
}

at::Tensor cumsum(c10::DispatchKeySet ks, const at::Tensor& self, int64_t dim,
                  c10::optional<at::ScalarType> dtype) {
  auto grad_fn = make_node_if<CumsumBackward0>(compute_requires_grad(self), self);
  if (grad_fn) grad_fn->dim = dim;
  return record_functional(
      grad_fn, [&] { return at::_ops::cumsum::redispatch(ks & kAfterAutograd, self, dim, dtype); });
}

}  // namespace VariableType

TORCH_LIBRARY_IMPL(aten, Autograd, m) {
  m.impl("sum", TORCH_FN(VariableType::sum));
  m.impl("sum.dim_IntList", TORCH_FN(VariableType::sum_dim_IntList));
  m.impl("mean", TORCH_FN(VariableType::mean));
  m.impl("mean.dim", TORCH_FN(VariableType::mean_dim));
  m.impl("cumsum", TORCH_FN(VariableType::cumsum));
}

}  // namespace autograd
}  // namespace torch
