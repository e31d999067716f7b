#pragma once
// CopySlices: the history of a base after an in-place operation on one of its views (libtorch's
// torch/csrc/autograd/functions/tensor.h). See Note [Views and in-place] in AutogradMeta.h.
//
//   auto y = x.clone();
//   y.select(0, 0).mul_(2);           // y.grad_fn(): torch::autograd::CopySlices
//
// Backward: the base's gradient passes through unchanged outside the view; inside it, the
// in-place op's own node (`fn`, here MulBackward1) maps the slice to the gradient of the
// view's old value, which is written back into the slice.

#include <memory>

#include "aten/autograd/FunctionsManual.h"
#include "aten/autograd/Node.h"

namespace torch {
namespace autograd {

struct TORCH_API CopySlices final : public Node {
  // `fn`'s first next edge is the view's old history; CopySlices replaces it with the base's.
  CopySlices(const at::Tensor& base, const at::Tensor& view, std::shared_ptr<Node> fn);

  std::string name() const override { return "torch::autograd::CopySlices"; }
  void release_variables() override { fn->release_variables(); }

  TensorGeometry base;
  TensorGeometry view;
  std::shared_ptr<Node> fn;

 protected:
  variable_list apply(variable_list&& grads) override;
};

}  // namespace autograd
}  // namespace torch
