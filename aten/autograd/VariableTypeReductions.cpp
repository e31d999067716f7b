// The autograd kernels of the reductions: sum, mean, cumsum (formulas in FunctionsMath.cpp), and
// max, min, amax, amin, prod, var, std, logsumexp, norm (formulas in FunctionsReductions.cpp).
// Their nodes keep what the formula reads: the input's sizes and the reduced dims, and for the
// folds and statistics the input and the result.

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

// ---- Folds and statistics ----------------------------------------------------------------------

// Runs a reduction whose node saves self and the result; `fill` sets the node's other fields.
template <typename NodeT, typename Fill, typename F>
at::Tensor reduction_saving_result(const at::Tensor& self, Fill&& fill, F&& redispatch) {
  auto grad_fn = make_node_if<NodeT>(compute_requires_grad(self), self);
  if (grad_fn) {
    grad_fn->self_ = SavedVariable(self, false);
    fill(*grad_fn);
  }
  at::Tensor result = record_functional(grad_fn, std::forward<F>(redispatch));
  if (grad_fn) grad_fn->result_ = SavedVariable(result, true);
  return result;
}

constexpr auto kNoFields = [](auto&) {};

at::Tensor max(c10::DispatchKeySet ks, const at::Tensor& self) {
  return reduction_saving_result<MaxBackward1>(
      self, kNoFields, [&] { return at::_ops::max::redispatch(ks & kAfterAutograd, self); });
}

at::Tensor min(c10::DispatchKeySet ks, const at::Tensor& self) {
  return reduction_saving_result<MinBackward1>(
      self, kNoFields, [&] { return at::_ops::min::redispatch(ks & kAfterAutograd, self); });
}

at::Tensor amax(c10::DispatchKeySet ks, const at::Tensor& self, at::IntArrayRef dim, bool keepdim) {
  return reduction_saving_result<AmaxBackward0>(
      self,
      [&](AmaxBackward0& node) {
        node.dim = dim.vec();
        node.keepdim = keepdim;
      },
      [&] { return at::_ops::amax::redispatch(ks & kAfterAutograd, self, dim, keepdim); });
}

at::Tensor amin(c10::DispatchKeySet ks, const at::Tensor& self, at::IntArrayRef dim, bool keepdim) {
  return reduction_saving_result<AminBackward0>(
      self,
      [&](AminBackward0& node) {
        node.dim = dim.vec();
        node.keepdim = keepdim;
      },
      [&] { return at::_ops::amin::redispatch(ks & kAfterAutograd, self, dim, keepdim); });
}

at::Tensor prod(c10::DispatchKeySet ks, const at::Tensor& self,
                c10::optional<at::ScalarType> dtype) {
  return reduction_saving_result<ProdBackward0>(self, kNoFields, [&] {
    return at::_ops::prod::redispatch(ks & kAfterAutograd, self, dtype);
  });
}

at::Tensor prod_dim_int(c10::DispatchKeySet ks, const at::Tensor& self, int64_t dim, bool keepdim,
                        c10::optional<at::ScalarType> dtype) {
  return reduction_saving_result<ProdBackward1>(
      self,
      [&](ProdBackward1& node) {
        node.dim = {dim};
        node.keepdim = keepdim;
      },
      [&] {
        return at::_ops::prod_dim_int::redispatch(ks & kAfterAutograd, self, dim, keepdim, dtype);
      });
}

at::Tensor var_correction(c10::DispatchKeySet ks, const at::Tensor& self,
                          at::OptionalIntArrayRef dim, c10::optional<int64_t> correction,
                          bool keepdim) {
  return reduction_saving_result<VarBackward0>(
      self,
      [&](VarBackward0& node) {
        node.dim = dims_or_all(dim);
        node.keepdim = keepdim;
        node.correction = correction.value_or(1);
      },
      [&] {
        return at::_ops::var_correction::redispatch(ks & kAfterAutograd, self, dim, correction,
                                                    keepdim);
      });
}

at::Tensor std_correction(c10::DispatchKeySet ks, const at::Tensor& self,
                          at::OptionalIntArrayRef dim, c10::optional<int64_t> correction,
                          bool keepdim) {
  return reduction_saving_result<StdBackward0>(
      self,
      [&](StdBackward0& node) {
        node.dim = dims_or_all(dim);
        node.keepdim = keepdim;
        node.correction = correction.value_or(1);
      },
      [&] {
        return at::_ops::std_correction::redispatch(ks & kAfterAutograd, self, dim, correction,
                                                    keepdim);
      });
}

at::Tensor logsumexp(c10::DispatchKeySet ks, const at::Tensor& self, at::IntArrayRef dim,
                     bool keepdim) {
  return reduction_saving_result<LogsumexpBackward0>(
      self,
      [&](LogsumexpBackward0& node) {
        node.dim = dim.vec();
        node.keepdim = keepdim;
      },
      [&] { return at::_ops::logsumexp::redispatch(ks & kAfterAutograd, self, dim, keepdim); });
}

at::Tensor norm_Scalar(c10::DispatchKeySet ks, const at::Tensor& self, const at::Scalar& p) {
  return reduction_saving_result<NormBackward0>(
      self, [&](NormBackward0& node) { node.p = p; },
      [&] { return at::_ops::norm_Scalar::redispatch(ks & kAfterAutograd, self, p); });
}

at::Tensor norm_ScalarOpt_dim(c10::DispatchKeySet ks, const at::Tensor& self,
                              const c10::optional<at::Scalar>& p, at::IntArrayRef dim,
                              bool keepdim) {
  return reduction_saving_result<NormBackward1>(
      self,
      [&](NormBackward1& node) {
        node.p = p;
        node.dim = dim.vec();
        node.keepdim = keepdim;
      },
      [&] {
        return at::_ops::norm_ScalarOpt_dim::redispatch(ks & kAfterAutograd, self, p, dim, keepdim);
      });
}

// max.dim / min.dim: the values are differentiable, the indices are not (saved for the formula).
template <typename NodeT, typename Op>
std::tuple<at::Tensor, at::Tensor> extremum_dim(c10::DispatchKeySet ks, const at::Tensor& self,
                                                int64_t dim, bool keepdim) {
  auto grad_fn = make_node_if<NodeT>(compute_requires_grad(self), self);
  if (grad_fn) {
    grad_fn->self_sizes = self.sizes().vec();
    grad_fn->dim = dim;
    grad_fn->keepdim = keepdim;
  }
  auto result = below_autograd_functional(
      [&] { return Op::redispatch(ks & kAfterAutograd, self, dim, keepdim); });
  if (grad_fn) {
    set_history(std::get<0>(result), grad_fn);
    grad_fn->indices_ = SavedVariable(std::get<1>(result), true);
  }
  return result;
}

}  // namespace VariableType

TORCH_LIBRARY_IMPL(aten, Autograd, m) {
  m.impl("sum", TORCH_FN(VariableType::sum));
  m.impl("sum.dim_IntList", TORCH_FN(VariableType::sum_dim_IntList));
  m.impl("mean", TORCH_FN(VariableType::mean));
  m.impl("mean.dim", TORCH_FN(VariableType::mean_dim));
  m.impl("cumsum", TORCH_FN(VariableType::cumsum));
  m.impl("max", TORCH_FN(VariableType::max));
  m.impl("min", TORCH_FN(VariableType::min));
  m.impl("max.dim", TORCH_FN((VariableType::extremum_dim<MaxBackward0, at::_ops::max_dim>)));
  m.impl("min.dim", TORCH_FN((VariableType::extremum_dim<MinBackward0, at::_ops::min_dim>)));
  m.impl("amax", TORCH_FN(VariableType::amax));
  m.impl("amin", TORCH_FN(VariableType::amin));
  m.impl("prod", TORCH_FN(VariableType::prod));
  m.impl("prod.dim_int", TORCH_FN(VariableType::prod_dim_int));
  m.impl("var.correction", TORCH_FN(VariableType::var_correction));
  m.impl("std.correction", TORCH_FN(VariableType::std_correction));
  m.impl("logsumexp", TORCH_FN(VariableType::logsumexp));
  m.impl("norm.Scalar", TORCH_FN(VariableType::norm_Scalar));
  m.impl("norm.ScalarOpt_dim", TORCH_FN(VariableType::norm_ScalarOpt_dim));
}

}  // namespace autograd
}  // namespace torch
