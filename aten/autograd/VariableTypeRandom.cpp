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

namespace {

// An in-place fill whose gradient is zero (NodeT's formula), as normal_ and uniform_ above.
template <typename NodeT, typename Redispatch>
at::Tensor& zero_grad_fill(at::Tensor& self, bool requires_grad, Redispatch redispatch) {
  check_inplace(self, requires_grad);
  auto grad_fn = make_node_if<NodeT>(requires_grad, self);
  below_autograd_inplace_or_view([&]() -> at::Tensor& { return redispatch(); });
  rebase_history(self, std::move(grad_fn));
  return self;
}

}  // namespace

at::Tensor& bernoulli__Tensor(c10::DispatchKeySet ks, at::Tensor& self, const at::Tensor& p,
                              c10::optional<at::Generator> generator) {
  const bool requires_grad = compute_requires_grad(self, p);
  check_inplace(self, requires_grad);
  auto grad_fn = make_node_if<BernoulliBackward1>(requires_grad, self, p);
  below_autograd_inplace_or_view([&]() -> at::Tensor& {
    return at::_ops::bernoulli__Tensor::redispatch(ks & c10::after_autograd_keyset, self, p,
                                                   std::move(generator));
  });
  rebase_history(self, std::move(grad_fn));
  return self;
}

at::Tensor& bernoulli__float(c10::DispatchKeySet ks, at::Tensor& self, double p,
                             c10::optional<at::Generator> generator) {
  return zero_grad_fill<BernoulliBackward2>(
      self, compute_requires_grad(self), [&]() -> at::Tensor& {
        return at::_ops::bernoulli__float::redispatch(ks & c10::after_autograd_keyset, self, p,
                                                      std::move(generator));
      });
}

at::Tensor& random__from(c10::DispatchKeySet ks, at::Tensor& self, int64_t from,
                         c10::optional<int64_t> to, c10::optional<at::Generator> generator) {
  return zero_grad_fill<RandomBackward0>(self, compute_requires_grad(self), [&]() -> at::Tensor& {
    return at::_ops::random__from::redispatch(ks & c10::after_autograd_keyset, self, from, to,
                                              std::move(generator));
  });
}

at::Tensor& random__to(c10::DispatchKeySet ks, at::Tensor& self, int64_t to,
                       c10::optional<at::Generator> generator) {
  return zero_grad_fill<RandomBackward1>(self, compute_requires_grad(self), [&]() -> at::Tensor& {
    return at::_ops::random__to::redispatch(ks & c10::after_autograd_keyset, self, to,
                                            std::move(generator));
  });
}

// The draws follow the probabilities, but the gradient does not: zeros for self.
at::Tensor bernoulli(c10::DispatchKeySet ks, const at::Tensor& self,
                     c10::optional<at::Generator> generator) {
  auto grad_fn = make_node_if<BernoulliBackward0>(compute_requires_grad(self), self);
  return record_functional(std::move(grad_fn), [&] {
    return at::_ops::bernoulli::redispatch(ks & c10::after_autograd_keyset, self,
                                           std::move(generator));
  });
}

}  // namespace VariableType

TORCH_LIBRARY_IMPL(aten, Autograd, m) {
  m.impl("normal_", TORCH_FN(VariableType::normal_));
  m.impl("uniform_", TORCH_FN(VariableType::uniform_));
  m.impl("bernoulli", TORCH_FN(VariableType::bernoulli));
  m.impl("bernoulli_.Tensor", TORCH_FN(VariableType::bernoulli__Tensor));
  m.impl("bernoulli_.float", TORCH_FN(VariableType::bernoulli__float));
  m.impl("random_.from", TORCH_FN(VariableType::random__from));
  m.impl("random_.to", TORCH_FN(VariableType::random__to));
}

}  // namespace autograd
}  // namespace torch
