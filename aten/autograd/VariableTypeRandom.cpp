// The autograd kernels of the in-place random fills, normal_ and uniform_ (libtorch's generated
// VariableType): like fill_, they refuse a leaf that requires grad and otherwise record a node
// whose gradient is zero (derivatives.yaml: `self: zeros_like(grad)`). rand and randn need none:
// they are CompositeExplicitAutograd factories whose results are leaves.

#include "aten/ATen.h"
#include "aten/autograd/Functions.h"
#include "aten/autograd/VariableTypeUtils.h"
#include "dispatcher/Library.h"

namespace torch {
namespace autograd {
namespace VariableType {

using namespace impl;

at::Tensor& normal_(c10::DispatchKeySet ks, at::Tensor& self, double mean, double std,
                    c10::optional<at::Generator> generator) {
  const bool requires_grad = compute_requires_grad(self);
  check_inplace(self, requires_grad);
  auto grad_fn = make_node_if<NormalBackward0>(requires_grad, self);
  below_autograd_inplace_or_view([&]() -> at::Tensor& {
    return at::_ops::normal_::redispatch(ks & c10::after_autograd_keyset, self, mean, std,
                                         std::move(generator));
  });
  rebase_history(self, std::move(grad_fn));
  return self;
}

at::Tensor& uniform_(c10::DispatchKeySet ks, at::Tensor& self, double from, double to,
                     c10::optional<at::Generator> generator) {
  const bool requires_grad = compute_requires_grad(self);
  check_inplace(self, requires_grad);
  auto grad_fn = make_node_if<UniformBackward0>(requires_grad, self);
  below_autograd_inplace_or_view([&]() -> at::Tensor& {
    return at::_ops::uniform_::redispatch(ks & c10::after_autograd_keyset, self, from, to,
                                          std::move(generator));
  });
  rebase_history(self, std::move(grad_fn));
  return self;
}

}  // namespace VariableType

TORCH_LIBRARY_IMPL(aten, Autograd, m) {
  m.impl("normal_", TORCH_FN(VariableType::normal_));
  m.impl("uniform_", TORCH_FN(VariableType::uniform_));
}

}  // namespace autograd
}  // namespace torch
