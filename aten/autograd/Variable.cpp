// The autograd methods of at::TensorBase and at::Tensor (declared in the "Autograd
// (aten/autograd)" blocks of aten/core/TensorBase.h and Tensor.h), as libtorch's
// torch/csrc/autograd/variable.cpp implements them.

#include <stdexcept>

#include "aten/ATen.h"
#include "aten/autograd/AutogradMeta.h"
#include "aten/autograd/Engine.h"
#include "aten/native/TensorShape.h"

namespace at {

using torch::autograd::AutogradMeta;
namespace autograd_impl = torch::autograd::impl;

namespace {
const Tensor& undefined_tensor() {
  static const Tensor undefined;
  return undefined;
}
}  // namespace

const TensorBase& TensorBase::set_requires_grad(bool requires_grad) const {
  c10::TensorImpl* self = impl("set_requires_grad");
  if (!requires_grad && self->autograd_meta() == nullptr) return *this;
  autograd_impl::materialize_autograd_meta(*this)->set_requires_grad(requires_grad, self);
  return *this;
}

const Tensor& TensorBase::grad() const {
  const AutogradMeta* meta = autograd_impl::get_autograd_meta(*this);
  return meta ? meta->grad_ : undefined_tensor();
}

Tensor& TensorBase::mutable_grad() const {
  return autograd_impl::materialize_autograd_meta(*this)->grad_;
}

const std::shared_ptr<torch::autograd::Node>& TensorBase::grad_fn() const {
  return autograd_impl::grad_fn(*this);
}

bool TensorBase::is_leaf() const {
  return grad_fn() == nullptr;
}

int64_t TensorBase::output_nr() const {
  const AutogradMeta* meta = autograd_impl::get_autograd_meta(*this);
  return meta ? meta->output_nr_ : 0;
}

void TensorBase::retain_grad() const {
  TORCH_CHECK(requires_grad(), "can't retain_grad on Tensor that has requires_grad=False");
  if (is_leaf()) return;  // a leaf's grad() is always kept
  AutogradMeta* meta = autograd_impl::materialize_autograd_meta(*this);
  if (meta->retains_grad_) return;
  // The hook lives on grad_fn and points back at this meta; ~AutogradMeta removes it.
  grad_fn()->add_retains_grad_hook(meta->output_nr_, [meta](const Tensor& grad) {
    meta->grad_ = meta->grad_.defined() ? at::add(meta->grad_, grad)
                                        : grad.clone(at::MemoryFormat::Contiguous);
  });
  meta->retains_grad_ = true;
}

// libtorch's texts; see AutogradMeta::cpp_hooks_ for where the hooks run.
unsigned TensorBase::_register_hook(std::function<TensorBase(const TensorBase&)> hook) const {
  TORCH_CHECK(requires_grad(),
              "cannot register a hook on a variable that doesn't require gradient");
  AutogradMeta* meta = autograd_impl::materialize_autograd_meta(*this);
  if (!meta->cpp_hooks_) {
    meta->cpp_hooks_ = std::make_shared<torch::autograd::Node::TensorHookList>();
    if (const auto& fn = grad_fn()) fn->add_tensor_pre_hook(meta->output_nr_, meta->cpp_hooks_);
  }
  meta->cpp_hooks_->push_back(std::move(hook));
  return static_cast<unsigned>(meta->cpp_hooks_->size() - 1);
}

void TensorBase::remove_hook(unsigned pos) const {
  AutogradMeta* meta = autograd_impl::get_autograd_meta(*this);
  TORCH_CHECK(meta != nullptr && meta->cpp_hooks_ && meta->cpp_hooks_->size() > pos,
              "Invalid index, no hook at position ", pos);
  (*meta->cpp_hooks_)[pos] = nullptr;
}

bool TensorBase::retains_grad() const {
  const AutogradMeta* meta = autograd_impl::get_autograd_meta(*this);
  return meta != nullptr && meta->retains_grad_;
}

const Tensor& TensorBase::_base() const {
  const AutogradMeta* meta = autograd_impl::get_autograd_meta(*this);
  // libtorch throws std::runtime_error here and in requires_grad_; a c10::Error with the same
  // text, as every bad input is (see infer_size_dv in aten/native/TensorShape.h).
  TORCH_CHECK(meta != nullptr && meta->is_view_, "Can't get base of non-view Tensor");
  return meta->base_;
}

bool TensorBase::is_view() const {
  const AutogradMeta* meta = autograd_impl::get_autograd_meta(*this);
  return meta != nullptr && meta->is_view_;
}

Tensor& Tensor::requires_grad_(bool requires_grad) const {
  // libtorch asks is_leaf() first, which refuses an undefined tensor in these words.
  TORCH_CHECK(defined(), "cannot call get_autograd_meta() on undefined tensor");
  TORCH_CHECK(requires_grad || is_leaf(),
              "you can only change requires_grad flags of leaf variables. If you want to use a "
              "computed variable in a subgraph that doesn't require differentiation use "
              "var_no_grad = var.detach().");
  set_requires_grad(requires_grad);
  return const_cast<Tensor&>(*this);
}

Tensor Tensor::detach() const {
  // Same storage, geometry and version counter; no autograd state at all.
  return native::make_view(*this, sizes(), strides(), storage_offset());
}

Tensor& Tensor::detach_() const {
  TORCH_CHECK(!is_view(),
              "Can't detach views in-place. Use detach() instead. If you are using "
              "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set as "
              "True, gradients are views of DDP buckets, and hence detach_() cannot be called on "
              "these gradients. To fix this error, please refer to the Optimizer.zero_grad() "
              "function in torch/optim/optimizer.py as the solution.");
  AutogradMeta* meta = autograd_impl::materialize_autograd_meta(*this);
  meta->set_requires_grad(false, unsafeGetTensorImpl());
  if (meta->retains_grad_ && meta->grad_fn_)
    meta->grad_fn_->pop_retains_grad_hook(meta->output_nr_);
  meta->retains_grad_ = false;
  meta->grad_fn_.reset();
  meta->output_nr_ = 0;
  return const_cast<Tensor&>(*this);
}

void Tensor::backward(const Tensor& gradient, c10::optional<bool> retain_graph, bool create_graph,
                      c10::optional<c10::ArrayRef<Tensor>> inputs) const {
  std::vector<Tensor> input_list;
  if (inputs.has_value()) input_list.assign(inputs->begin(), inputs->end());
  torch::autograd::backward({*this}, {gradient}, retain_graph, create_graph, input_list);
}

}  // namespace at
