// The autograd kernels of the shaping copies (repeat, flip, roll, tril/triu and their in-place
// forms, diag, constant_pad_nd) and of gather, scatter / scatter_add (both forms),
// masked_select, index and index_put_. Nodes in FunctionsShapeIndexing.h.

#include <vector>

#include "aten/ATen.h"
#include "aten/autograd/FunctionsShapeIndexing.h"
#include "aten/autograd/VariableTypeUtils.h"
#include "c10/core/WrapDimMinimal.h"
#include "dispatcher/Library.h"

namespace torch {
namespace autograd {
namespace VariableType {

using namespace impl;

constexpr c10::DispatchKeySet kAfterAutograd = c10::after_autograd_keyset;

at::Tensor repeat(c10::DispatchKeySet ks, const at::Tensor& self, c10::IntArrayRef repeats) {
  auto grad_fn = make_node_if<RepeatBackward0>(compute_requires_grad(self), self);
  if (grad_fn) {
    grad_fn->self_sizes = self.sizes().vec();
    grad_fn->repeats = repeats.vec();
  }
  return record_functional(std::move(grad_fn), [&] {
    return at::_ops::repeat::redispatch(ks & kAfterAutograd, self, repeats);
  });
}

at::Tensor flip(c10::DispatchKeySet ks, const at::Tensor& self, c10::IntArrayRef dims) {
  auto grad_fn = make_node_if<FlipBackward0>(compute_requires_grad(self), self);
  if (grad_fn) grad_fn->dims = dims.vec();
  return record_functional(std::move(grad_fn), [&] {
    return at::_ops::flip::redispatch(ks & kAfterAutograd, self, dims);
  });
}

at::Tensor roll(c10::DispatchKeySet ks, const at::Tensor& self, c10::IntArrayRef shifts,
                c10::IntArrayRef dims) {
  auto grad_fn = make_node_if<RollBackward0>(compute_requires_grad(self), self);
  if (grad_fn) {
    grad_fn->shifts = shifts.vec();
    grad_fn->dims = dims.vec();
  }
  return record_functional(std::move(grad_fn), [&] {
    return at::_ops::roll::redispatch(ks & kAfterAutograd, self, shifts, dims);
  });
}

namespace {

template <typename NodeT, typename Op>
at::Tensor triangle(c10::DispatchKeySet ks, const at::Tensor& self, int64_t diagonal) {
  auto grad_fn = make_node_if<NodeT>(compute_requires_grad(self), self);
  if (grad_fn) grad_fn->diagonal = diagonal;
  return record_functional(std::move(grad_fn),
                           [&] { return Op::redispatch(ks & kAfterAutograd, self, diagonal); });
}

template <typename NodeT, typename Op>
at::Tensor& triangle_(c10::DispatchKeySet ks, at::Tensor& self, int64_t diagonal) {
  const bool requires_grad = compute_requires_grad(self);
  check_inplace(self, requires_grad);
  auto grad_fn = make_node_if<NodeT>(requires_grad, self);
  if (grad_fn) grad_fn->diagonal = diagonal;
  return record_inplace(self, grad_fn, [&]() -> at::Tensor& {
    return Op::redispatch(ks & kAfterAutograd, self, diagonal);
  });
}

}  // namespace

at::Tensor tril(c10::DispatchKeySet ks, const at::Tensor& self, int64_t diagonal) {
  return triangle<TrilBackward0, at::_ops::tril>(ks, self, diagonal);
}
at::Tensor triu(c10::DispatchKeySet ks, const at::Tensor& self, int64_t diagonal) {
  return triangle<TriuBackward0, at::_ops::triu>(ks, self, diagonal);
}
at::Tensor& tril_(c10::DispatchKeySet ks, at::Tensor& self, int64_t diagonal) {
  return triangle_<TrilBackward0, at::_ops::tril_>(ks, self, diagonal);
}
at::Tensor& triu_(c10::DispatchKeySet ks, at::Tensor& self, int64_t diagonal) {
  return triangle_<TriuBackward0, at::_ops::triu_>(ks, self, diagonal);
}

at::Tensor diag(c10::DispatchKeySet ks, const at::Tensor& self, int64_t diagonal) {
  auto grad_fn = make_node_if<DiagBackward0>(compute_requires_grad(self), self);
  if (grad_fn) {
    grad_fn->self_sizes = self.sizes().vec();
    grad_fn->diagonal = diagonal;
  }
  return record_functional(std::move(grad_fn), [&] {
    return at::_ops::diag::redispatch(ks & kAfterAutograd, self, diagonal);
  });
}

at::Tensor constant_pad_nd(c10::DispatchKeySet ks, const at::Tensor& self, c10::IntArrayRef pad,
                           const at::Scalar& value) {
  auto grad_fn = make_node_if<ConstantPadNdBackward0>(compute_requires_grad(self), self);
  if (grad_fn) grad_fn->pad = pad.vec();
  return record_functional(std::move(grad_fn), [&] {
    return at::_ops::constant_pad_nd::redispatch(ks & kAfterAutograd, self, pad, value);
  });
}

// ---- gather and scatter ------------------------------------------------------------------------

namespace {

// The dim as the kernel wraps it against self (0-dim tensors take 0 and -1).
template <typename NodeT>
void save_index(NodeT& node, const at::Tensor& self, int64_t dim, const at::Tensor& index) {
  node.dim = c10::maybe_wrap_dim(dim, self.dim());
  node.index_ = SavedVariable(index, false);
}

// The source's sizes too: Note [scatter's source gradient has the source's shape].
template <typename NodeT>
void save_index(NodeT& node, const at::Tensor& self, int64_t dim, const at::Tensor& index,
                const at::Tensor& src) {
  save_index(node, self, dim, index);
  node.src_sizes = src.sizes().vec();
}

}  // namespace

at::Tensor gather(c10::DispatchKeySet ks, const at::Tensor& self, int64_t dim,
                  const at::Tensor& index, bool sparse_grad) {
  TORCH_CHECK(!(sparse_grad && compute_requires_grad(self)),
              "gather(): sparse gradients are not supported in miniaten");
  auto grad_fn = make_node_if<GatherBackward0>(compute_requires_grad(self), self);
  if (grad_fn) {
    save_index(*grad_fn, self, dim, index);
    grad_fn->self_sizes = self.sizes().vec();
  }
  return record_functional(std::move(grad_fn), [&] {
    return at::_ops::gather::redispatch(ks & kAfterAutograd, self, dim, index, sparse_grad);
  });
}

at::Tensor scatter_src(c10::DispatchKeySet ks, const at::Tensor& self, int64_t dim,
                       const at::Tensor& index, const at::Tensor& src) {
  auto grad_fn = make_node_if<ScatterBackward0>(compute_requires_grad(self, src), self, src);
  if (grad_fn) save_index(*grad_fn, self, dim, index, src);
  return record_functional(std::move(grad_fn), [&] {
    return at::_ops::scatter_src::redispatch(ks & kAfterAutograd, self, dim, index, src);
  });
}

at::Tensor& scatter__src(c10::DispatchKeySet ks, at::Tensor& self, int64_t dim,
                         const at::Tensor& index, const at::Tensor& src) {
  const bool requires_grad = compute_requires_grad(self, src);
  check_inplace(self, requires_grad);
  auto grad_fn = make_node_if<ScatterBackward0>(requires_grad, self, src);
  if (grad_fn) save_index(*grad_fn, self, dim, index, src);
  return record_inplace(self, grad_fn, [&]() -> at::Tensor& {
    return at::_ops::scatter__src::redispatch(ks & kAfterAutograd, self, dim, index, src);
  });
}

at::Tensor scatter_value(c10::DispatchKeySet ks, const at::Tensor& self, int64_t dim,
                         const at::Tensor& index, const at::Scalar& value) {
  auto grad_fn = make_node_if<ScatterBackward1>(compute_requires_grad(self), self);
  if (grad_fn) save_index(*grad_fn, self, dim, index);
  return record_functional(std::move(grad_fn), [&] {
    return at::_ops::scatter_value::redispatch(ks & kAfterAutograd, self, dim, index, value);
  });
}

at::Tensor& scatter__value(c10::DispatchKeySet ks, at::Tensor& self, int64_t dim,
                           const at::Tensor& index, const at::Scalar& value) {
  const bool requires_grad = compute_requires_grad(self);
  check_inplace(self, requires_grad);
  auto grad_fn = make_node_if<ScatterBackward1>(requires_grad, self);
  if (grad_fn) save_index(*grad_fn, self, dim, index);
  return record_inplace(self, grad_fn, [&]() -> at::Tensor& {
    return at::_ops::scatter__value::redispatch(ks & kAfterAutograd, self, dim, index, value);
  });
}

at::Tensor scatter_add(c10::DispatchKeySet ks, const at::Tensor& self, int64_t dim,
                       const at::Tensor& index, const at::Tensor& src) {
  auto grad_fn = make_node_if<ScatterAddBackward0>(compute_requires_grad(self, src), self, src);
  if (grad_fn) save_index(*grad_fn, self, dim, index, src);
  return record_functional(std::move(grad_fn), [&] {
    return at::_ops::scatter_add::redispatch(ks & kAfterAutograd, self, dim, index, src);
  });
}

at::Tensor& scatter_add_(c10::DispatchKeySet ks, at::Tensor& self, int64_t dim,
                         const at::Tensor& index, const at::Tensor& src) {
  const bool requires_grad = compute_requires_grad(self, src);
  check_inplace(self, requires_grad);
  auto grad_fn = make_node_if<ScatterAddBackward0>(requires_grad, self, src);
  if (grad_fn) save_index(*grad_fn, self, dim, index, src);
  return record_inplace(self, grad_fn, [&]() -> at::Tensor& {
    return at::_ops::scatter_add_::redispatch(ks & kAfterAutograd, self, dim, index, src);
  });
}

at::Tensor masked_select(c10::DispatchKeySet ks, const at::Tensor& self, const at::Tensor& mask) {
  auto grad_fn = make_node_if<MaskedSelectBackward0>(compute_requires_grad(self), self);
  if (grad_fn) {
    grad_fn->self_sizes = self.sizes().vec();
    grad_fn->mask_ = SavedVariable(mask, false);
  }
  return record_functional(std::move(grad_fn), [&] {
    return at::_ops::masked_select::redispatch(ks & kAfterAutograd, self, mask);
  });
}

namespace {

void save_indices(IndexListNode& node, const c10::List<c10::optional<at::Tensor>>& indices) {
  for (size_t i = 0; i < indices.size(); ++i) {
    const c10::optional<at::Tensor> index = indices.get(i);
    node.indices_.emplace_back(index.has_value() ? *index : at::Tensor(), false);
  }
}

}  // namespace

at::Tensor index_Tensor(c10::DispatchKeySet ks, const at::Tensor& self,
                        const c10::List<c10::optional<at::Tensor>>& indices) {
  auto grad_fn = make_node_if<IndexBackward0>(compute_requires_grad(self), self);
  if (grad_fn) {
    save_indices(*grad_fn, indices);
    grad_fn->self_sizes = self.sizes().vec();
    grad_fn->self_options = self.options();
  }
  return record_functional(std::move(grad_fn), [&] {
    return at::_ops::index_Tensor::redispatch(ks & kAfterAutograd, self, indices);
  });
}

at::Tensor& index_put_(c10::DispatchKeySet ks, at::Tensor& self,
                       const c10::List<c10::optional<at::Tensor>>& indices,
                       const at::Tensor& values, bool accumulate) {
  const bool requires_grad = compute_requires_grad(self, values);
  check_inplace(self, requires_grad);
  auto grad_fn = make_node_if<IndexPutBackward0>(requires_grad, self, values);
  if (grad_fn) {
    save_indices(*grad_fn, indices);
    grad_fn->accumulate = accumulate;
    grad_fn->values_ = SavedVariable(values, false);
  }
  return record_inplace(self, grad_fn, [&]() -> at::Tensor& {
    return at::_ops::index_put_::redispatch(ks & kAfterAutograd, self, indices, values, accumulate);
  });
}

}  // namespace VariableType

TORCH_LIBRARY_IMPL(aten, Autograd, m) {
  m.impl("repeat", TORCH_FN(VariableType::repeat));
  m.impl("flip", TORCH_FN(VariableType::flip));
  m.impl("roll", TORCH_FN(VariableType::roll));
  m.impl("tril", TORCH_FN(VariableType::tril));
  m.impl("triu", TORCH_FN(VariableType::triu));
  m.impl("tril_", TORCH_FN(VariableType::tril_));
  m.impl("triu_", TORCH_FN(VariableType::triu_));
  m.impl("diag", TORCH_FN(VariableType::diag));
  m.impl("constant_pad_nd", TORCH_FN(VariableType::constant_pad_nd));
  m.impl("gather", TORCH_FN(VariableType::gather));
  m.impl("scatter.src", TORCH_FN(VariableType::scatter_src));
  m.impl("scatter_.src", TORCH_FN(VariableType::scatter__src));
  m.impl("scatter.value", TORCH_FN(VariableType::scatter_value));
  m.impl("scatter_.value", TORCH_FN(VariableType::scatter__value));
  m.impl("scatter_add", TORCH_FN(VariableType::scatter_add));
  m.impl("scatter_add_", TORCH_FN(VariableType::scatter_add_));
  m.impl("masked_select", TORCH_FN(VariableType::masked_select));
  m.impl("index.Tensor", TORCH_FN(VariableType::index_Tensor));
  m.impl("index_put_", TORCH_FN(VariableType::index_put_));
}

}  // namespace autograd
}  // namespace torch
