#pragma once
// AccumulateGrad: the node at the end of every path, one per leaf that requires grad. It adds
// the gradient arriving for the leaf into leaf.grad().
//
//   auto x = torch::ones({2}, torch::requires_grad());
//   auto acc = x.clone().grad_fn()->next_edges()[0].function;   // this node, for x
//   acc->name();                                                //
//   "torch::autograd::AccumulateGrad"
//
// Note [Gradient layout contract]
// As in libtorch, a leaf's first .grad() is laid out like the leaf when the leaf is
// non-overlapping and dense (same strides: a channels-last leaf gets a channels-last gradient),
// else contiguous. The incoming gradient is stolen without a copy when nothing else holds it
// and it already has that layout; otherwise it is copied into a fresh tensor of that layout.
// Later gradients are added in place.

#include "aten/autograd/Node.h"

namespace torch {
namespace autograd {

struct TORCH_API AccumulateGrad final : public Node {
  explicit AccumulateGrad(at::Tensor variable);

  std::string name() const override { return "torch::autograd::AccumulateGrad"; }

  at::Tensor variable;

 protected:
  variable_list apply(variable_list&& grads) override;
};

namespace impl {
// Whether `grad` may become variable.grad() as is: see Note [Gradient layout contract].
TORCH_API bool obeys_layout_contract(const at::Tensor& grad, const at::Tensor& variable);
// A copy of `grad` laid out as the contract wants.
TORCH_API at::Tensor clone_obey_contract(const at::Tensor& grad, const at::Tensor& variable);
}  // namespace impl

}  // namespace autograd
}  // namespace torch
