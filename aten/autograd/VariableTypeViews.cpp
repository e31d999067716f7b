// The autograd kernels of the view operators. Each records its node, then redispatches under
// AutoDispatchBelowAutograd so that the ADInplaceOrView kernel (ADInplaceOrView.cpp) still runs
// and records the result as a view of self. Composite views need no kernel here: narrow is
// slice, view_as is view, expand_as is expand, movedim is permute, reshape/flatten are view or
// clone + view.

#include "aten/ATen.h"
#include "aten/autograd/Functions.h"
#include "aten/autograd/VariableTypeUtils.h"
#include "dispatcher/Library.h"

namespace torch {
namespace autograd {
namespace VariableType {

using namespace impl;

constexpr c10::DispatchKeySet kAfterAutograd = c10::after_autograd_keyset;

at::Tensor as_strided(c10::DispatchKeySet ks, const at::Tensor& self, at::IntArrayRef size,
                      at::IntArrayRef stride, c10::optional<int64_t> storage_offset) {
  auto grad_fn = make_node_if<AsStridedBackward0>(compute_requires_grad(self), self);
  if (grad_fn) {
    grad_fn->self_geometry = TensorGeometry(self);
    grad_fn->size = size.vec();
    grad_fn->stride = stride.vec();
    grad_fn->storage_offset = storage_offset.value_or(self.storage_offset());
  }
  return record_view(std::move(grad_fn), [&] {
    return at::_ops::as_strided::redispatch(ks & kAfterAutograd, self, size, stride,
                                            storage_offset);
  });
}

at::Tensor view(c10::DispatchKeySet ks, const at::Tensor& self, at::IntArrayRef size) {
  auto grad_fn = make_node_if<ViewBackward0>(compute_requires_grad(self), self);
  if (grad_fn) grad_fn->self_sizes = self.sizes().vec();
  return record_view(std::move(grad_fn),
                     [&] { return at::_ops::view::redispatch(ks & kAfterAutograd, self, size); });
}

at::Tensor _reshape_alias(c10::DispatchKeySet ks, const at::Tensor& self, at::IntArrayRef size,
                          at::IntArrayRef stride) {
  auto grad_fn = make_node_if<ReshapeAliasBackward0>(compute_requires_grad(self), self);
  if (grad_fn) grad_fn->self_sizes = self.sizes().vec();
  return record_view(std::move(grad_fn), [&] {
    return at::_ops::_reshape_alias::redispatch(ks & kAfterAutograd, self, size, stride);
  });
}

// Not a view: functional, under AutoDispatchBelowADInplaceOrView.
at::Tensor _unsafe_view(c10::DispatchKeySet ks, const at::Tensor& self, at::IntArrayRef size) {
  auto grad_fn = make_node_if<UnsafeViewBackward0>(compute_requires_grad(self), self);
  if (grad_fn) grad_fn->self_sizes = self.sizes().vec();
  return record_functional(std::move(grad_fn), [&] {
    return at::_ops::_unsafe_view::redispatch(ks & kAfterAutograd, self, size);
  });
}

at::Tensor expand(c10::DispatchKeySet ks, const at::Tensor& self, at::IntArrayRef size,
                  bool implicit) {
  auto grad_fn = make_node_if<ExpandBackward0>(compute_requires_grad(self), self);
  if (grad_fn) grad_fn->self_sizes = self.sizes().vec();
  return record_view(std::move(grad_fn), [&] {
    return at::_ops::expand::redispatch(ks & kAfterAutograd, self, size, implicit);
  });
}

at::Tensor permute(c10::DispatchKeySet ks, const at::Tensor& self, at::IntArrayRef dims) {
  auto grad_fn = make_node_if<PermuteBackward0>(compute_requires_grad(self), self);
  if (grad_fn) grad_fn->dims = dims.vec();
  return record_view(
      grad_fn, [&] { return at::_ops::permute::redispatch(ks & kAfterAutograd, self, dims); });
}

at::Tensor transpose_int(c10::DispatchKeySet ks, const at::Tensor& self, int64_t dim0,
                         int64_t dim1) {
  auto grad_fn = make_node_if<TransposeBackward0>(compute_requires_grad(self), self);
  if (grad_fn) {
    grad_fn->dim0 = dim0;
    grad_fn->dim1 = dim1;
  }
  return record_view(std::move(grad_fn), [&] {
    return at::_ops::transpose_int::redispatch(ks & kAfterAutograd, self, dim0, dim1);
  });
}

at::Tensor t(c10::DispatchKeySet ks, const at::Tensor& self) {
  auto grad_fn = make_node_if<TBackward0>(compute_requires_grad(self), self);
  return record_view(std::move(grad_fn), [&] { return at::_ops::t::redispatch(ks & kAfterAutograd, self); });
}

at::Tensor squeeze(c10::DispatchKeySet ks, const at::Tensor& self) {
  auto grad_fn = make_node_if<SqueezeBackward0>(compute_requires_grad(self), self);
  if (grad_fn) grad_fn->self_sizes = self.sizes().vec();
  return record_view(std::move(grad_fn),
                     [&] { return at::_ops::squeeze::redispatch(ks & kAfterAutograd, self); });
}

at::Tensor squeeze_dim(c10::DispatchKeySet ks, const at::Tensor& self, int64_t dim) {
  auto grad_fn = make_node_if<SqueezeBackward1>(compute_requires_grad(self), self);
  if (grad_fn) {
    grad_fn->self_sizes = self.sizes().vec();
    grad_fn->dim = dim;
  }
  return record_view(
      grad_fn, [&] { return at::_ops::squeeze_dim::redispatch(ks & kAfterAutograd, self, dim); });
}

at::Tensor unsqueeze(c10::DispatchKeySet ks, const at::Tensor& self, int64_t dim) {
  auto grad_fn = make_node_if<UnsqueezeBackward0>(compute_requires_grad(self), self);
  // The backward squeezes the new dim, counted in the output's rank.
  if (grad_fn) grad_fn->dim = c10::maybe_wrap_dim(dim, self.dim() + 1);
  return record_view(
      grad_fn, [&] { return at::_ops::unsqueeze::redispatch(ks & kAfterAutograd, self, dim); });
}

at::Tensor slice_Tensor(c10::DispatchKeySet ks, const at::Tensor& self, int64_t dim,
                        c10::optional<int64_t> start, c10::optional<int64_t> end, int64_t step) {
  auto grad_fn = make_node_if<SliceBackward0>(compute_requires_grad(self), self);
  if (grad_fn) {
    grad_fn->self_sizes = self.sizes().vec();
    grad_fn->dim = dim;
    grad_fn->start = start;
    grad_fn->end = end;
    grad_fn->step = step;
  }
  return record_view(std::move(grad_fn), [&] {
    return at::_ops::slice_Tensor::redispatch(ks & kAfterAutograd, self, dim, start, end, step);
  });
}

// The multi-output views: piece i is output i of one node.
template <typename F>
std::vector<at::Tensor> record_views(const std::shared_ptr<Node>& grad_fn, F&& redispatch) {
  std::vector<at::Tensor> pieces = below_autograd_inplace_or_view(std::forward<F>(redispatch));
  for (const at::Tensor& piece : pieces) set_history(piece, grad_fn);
  return pieces;
}

std::vector<at::Tensor> split_Tensor(c10::DispatchKeySet ks, const at::Tensor& self,
                                     int64_t split_size, int64_t dim) {
  auto grad_fn = make_node_if<SplitBackward0>(compute_requires_grad(self), self);
  if (grad_fn) {
    grad_fn->self_sizes = self.sizes().vec();
    grad_fn->split_size = split_size;
    grad_fn->dim = dim;
    grad_fn->self_options = self.options();
  }
  return record_views(grad_fn, [&] {
    return at::_ops::split_Tensor::redispatch(ks & kAfterAutograd, self, split_size, dim);
  });
}

std::vector<at::Tensor> split_with_sizes(c10::DispatchKeySet ks, const at::Tensor& self,
                                         at::IntArrayRef split_sizes, int64_t dim) {
  auto grad_fn = make_node_if<SplitWithSizesBackward0>(compute_requires_grad(self), self);
  if (grad_fn) {
    grad_fn->self_sizes = self.sizes().vec();
    grad_fn->split_sizes = split_sizes.vec();
    grad_fn->dim = dim;
    grad_fn->self_options = self.options();
  }
  return record_views(grad_fn, [&] {
    return at::_ops::split_with_sizes::redispatch(ks & kAfterAutograd, self, split_sizes, dim);
  });
}

std::vector<at::Tensor> unbind_int(c10::DispatchKeySet ks, const at::Tensor& self, int64_t dim) {
  auto grad_fn = make_node_if<UnbindBackward0>(compute_requires_grad(self), self);
  if (grad_fn) {
    grad_fn->self_sizes = self.sizes().vec();
    grad_fn->dim = dim;
    grad_fn->self_options = self.options();
  }
  return record_views(grad_fn, [&] {
    return at::_ops::unbind_int::redispatch(ks & kAfterAutograd, self, dim);
  });
}

at::Tensor select_int(c10::DispatchKeySet ks, const at::Tensor& self, int64_t dim, int64_t index) {
  auto grad_fn = make_node_if<SelectBackward0>(compute_requires_grad(self), self);
  if (grad_fn) {
    grad_fn->self_sizes = self.sizes().vec();
    grad_fn->dim = dim;
    grad_fn->index = index;
  }
  return record_view(std::move(grad_fn), [&] {
    return at::_ops::select_int::redispatch(ks & kAfterAutograd, self, dim, index);
  });
}

at::Tensor diagonal(c10::DispatchKeySet ks, const at::Tensor& self, int64_t offset, int64_t dim1,
                    int64_t dim2) {
  auto grad_fn = make_node_if<DiagonalBackward0>(compute_requires_grad(self), self);
  if (grad_fn) {
    grad_fn->self_sizes = self.sizes().vec();
    grad_fn->offset = offset;
    grad_fn->dim1 = dim1;
    grad_fn->dim2 = dim2;
  }
  return record_view(std::move(grad_fn), [&] {
    return at::_ops::diagonal::redispatch(ks & kAfterAutograd, self, offset, dim1, dim2);
  });
}

at::Tensor unfold(c10::DispatchKeySet ks, const at::Tensor& self, int64_t dimension, int64_t size,
                  int64_t step) {
  auto grad_fn = make_node_if<UnfoldBackward0>(compute_requires_grad(self), self);
  if (grad_fn) {
    grad_fn->self_sizes = self.sizes().vec();
    grad_fn->dimension = dimension;
    grad_fn->size = size;
    grad_fn->step = step;
  }
  return record_view(std::move(grad_fn), [&] {
    return at::_ops::unfold::redispatch(ks & kAfterAutograd, self, dimension, size, step);
  });
}

// ---- In-place views ----------------------------------------------------------------------------
// Note [In-place views under autograd]
// libtorch 1.13 (gen_variable_type.py) treats an in-place op whose out-of-place form is a view
// as a view, not as a write: the usual in-place checks (check_inplace: a leaf that requires grad,
// a view made in no_grad mode), then self becomes output 0 of the view's node by set_history,
// never rebased onto its base through a CopySlices, since no element of the base changed. When
// self is itself a view, set_gradient_edge records the version the op bumped, so grad_fn()
// keeps this node instead of rebuilding an AsStridedBackward0 from the base.
template <typename NodeT, typename F>
at::Tensor& record_inplace_view(at::Tensor& self, const std::shared_ptr<NodeT>& grad_fn,
                                F&& redispatch) {
  below_autograd_inplace_or_view([&]() -> at::Tensor& { return redispatch(); });
  set_history(self, grad_fn);
  return self;
}

template <typename NodeT>
std::shared_ptr<NodeT> inplace_view_node(const at::Tensor& self) {
  const bool requires_grad = compute_requires_grad(self);
  check_inplace(self, requires_grad);
  return make_node_if<NodeT>(requires_grad, self);
}

at::Tensor& as_strided_(c10::DispatchKeySet ks, at::Tensor& self, at::IntArrayRef size,
                        at::IntArrayRef stride, c10::optional<int64_t> storage_offset) {
  auto grad_fn = inplace_view_node<AsStridedBackward1>(self);
  if (grad_fn) {
    grad_fn->self_geometry = TensorGeometry(self);
    grad_fn->size = size.vec();
    grad_fn->stride = stride.vec();
    grad_fn->storage_offset = storage_offset.value_or(self.storage_offset());
  }
  return record_inplace_view(self, grad_fn, [&]() -> at::Tensor& {
    return at::_ops::as_strided_::redispatch(ks & kAfterAutograd, self, size, stride,
                                             storage_offset);
  });
}

at::Tensor& transpose_(c10::DispatchKeySet ks, at::Tensor& self, int64_t dim0, int64_t dim1) {
  auto grad_fn = inplace_view_node<TransposeBackward1>(self);
  if (grad_fn) {
    grad_fn->dim0 = dim0;
    grad_fn->dim1 = dim1;
  }
  return record_inplace_view(self, grad_fn, [&]() -> at::Tensor& {
    return at::_ops::transpose_::redispatch(ks & kAfterAutograd, self, dim0, dim1);
  });
}

at::Tensor& t_(c10::DispatchKeySet ks, at::Tensor& self) {
  auto grad_fn = inplace_view_node<TBackward1>(self);
  return record_inplace_view(self, grad_fn, [&]() -> at::Tensor& {
    return at::_ops::t_::redispatch(ks & kAfterAutograd, self);
  });
}

at::Tensor& squeeze_(c10::DispatchKeySet ks, at::Tensor& self) {
  auto grad_fn = inplace_view_node<SqueezeBackward2>(self);
  if (grad_fn) grad_fn->self_sizes = self.sizes().vec();
  return record_inplace_view(self, grad_fn, [&]() -> at::Tensor& {
    return at::_ops::squeeze_::redispatch(ks & kAfterAutograd, self);
  });
}

at::Tensor& squeeze__dim(c10::DispatchKeySet ks, at::Tensor& self, int64_t dim) {
  auto grad_fn = inplace_view_node<SqueezeBackward3>(self);
  if (grad_fn) {
    grad_fn->self_sizes = self.sizes().vec();
    grad_fn->dim = dim;
  }
  return record_inplace_view(self, grad_fn, [&]() -> at::Tensor& {
    return at::_ops::squeeze__dim::redispatch(ks & kAfterAutograd, self, dim);
  });
}

at::Tensor& unsqueeze_(c10::DispatchKeySet ks, at::Tensor& self, int64_t dim) {
  auto grad_fn = inplace_view_node<UnsqueezeBackward1>(self);
  // The backward squeezes the new dim, counted in the output's rank.
  if (grad_fn) grad_fn->dim = c10::maybe_wrap_dim(dim, self.dim() + 1);
  return record_inplace_view(self, grad_fn, [&]() -> at::Tensor& {
    return at::_ops::unsqueeze_::redispatch(ks & kAfterAutograd, self, dim);
  });
}

}  // namespace VariableType

TORCH_LIBRARY_IMPL(aten, Autograd, m) {
  m.impl("as_strided", TORCH_FN(VariableType::as_strided));
  m.impl("view", TORCH_FN(VariableType::view));
  m.impl("_reshape_alias", TORCH_FN(VariableType::_reshape_alias));
  m.impl("_unsafe_view", TORCH_FN(VariableType::_unsafe_view));
  m.impl("expand", TORCH_FN(VariableType::expand));
  m.impl("permute", TORCH_FN(VariableType::permute));
  m.impl("transpose.int", TORCH_FN(VariableType::transpose_int));
  m.impl("t", TORCH_FN(VariableType::t));
  m.impl("squeeze", TORCH_FN(VariableType::squeeze));
  m.impl("squeeze.dim", TORCH_FN(VariableType::squeeze_dim));
  m.impl("unsqueeze", TORCH_FN(VariableType::unsqueeze));
  m.impl("slice.Tensor", TORCH_FN(VariableType::slice_Tensor));
  m.impl("select.int", TORCH_FN(VariableType::select_int));
  m.impl("split.Tensor", TORCH_FN(VariableType::split_Tensor));
  m.impl("split_with_sizes", TORCH_FN(VariableType::split_with_sizes));
  m.impl("unbind.int", TORCH_FN(VariableType::unbind_int));
  m.impl("diagonal", TORCH_FN(VariableType::diagonal));
  m.impl("unfold", TORCH_FN(VariableType::unfold));
  m.impl("as_strided_", TORCH_FN(VariableType::as_strided_));
  m.impl("transpose_", TORCH_FN(VariableType::transpose_));
  m.impl("t_", TORCH_FN(VariableType::t_));
  m.impl("squeeze_", TORCH_FN(VariableType::squeeze_));
  m.impl("squeeze_.dim", TORCH_FN(VariableType::squeeze__dim));
  m.impl("unsqueeze_", TORCH_FN(VariableType::unsqueeze_));
}

}  // namespace autograd
}  // namespace torch
