// The autograd kernels of the copying operators (libtorch's generated VariableType): clone,
// _to_copy, copy_, fill_, zero_. Each records its node before redispatching below autograd
// (seed 003, section 8); see VariableTypeUtils.h for the shared steps.

#include "aten/ATen.h"
#include "aten/autograd/Functions.h"
#include "aten/autograd/VariableTypeUtils.h"
#include "dispatcher/Library.h"

namespace torch {
namespace autograd {
namespace VariableType {

using namespace impl;

at::Tensor clone(c10::DispatchKeySet ks, const at::Tensor& self,
                 c10::optional<at::MemoryFormat> memory_format) {
  auto grad_fn = make_node_if<CloneBackward0>(compute_requires_grad(self), self);
  at::Tensor result = below_autograd_functional([&] {
    return at::_ops::clone::redispatch(ks & c10::after_autograd_keyset, self, memory_format);
  });
  set_history(result, std::move(grad_fn));
  return result;
}

at::Tensor _to_copy(c10::DispatchKeySet ks, const at::Tensor& self,
                    c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout,
                    c10::optional<at::Device> device, c10::optional<bool> pin_memory,
                    bool non_blocking, c10::optional<at::MemoryFormat> memory_format) {
  auto grad_fn = make_node_if<ToCopyBackward0>(compute_requires_grad(self), self);
  if (grad_fn) grad_fn->self_options = self.options();
  at::Tensor result = below_autograd_functional([&] {
    return at::_ops::_to_copy::redispatch(ks & c10::after_autograd_keyset, self, dtype, layout,
                                          device, pin_memory, non_blocking, memory_format);
  });
  // Only floating results carry gradients (a copy to an integer type ends the history); a
  // complex one is refused there (Note [No complex autograd] in AutogradMeta.cpp).
  const c10::ScalarType st = result.scalar_type();
  if (c10::isFloatingType(st) || c10::isComplexType(st)) set_history(result, grad_fn);
  return result;
}

at::Tensor alias(c10::DispatchKeySet ks, const at::Tensor& self) {
  auto grad_fn = make_node_if<AliasBackward0>(compute_requires_grad(self), self);
  at::Tensor result = below_autograd_inplace_or_view(
      [&] { return at::_ops::alias::redispatch(ks & c10::after_autograd_keyset, self); });
  set_history(result, std::move(grad_fn));
  return result;
}

at::Tensor& copy_(c10::DispatchKeySet ks, at::Tensor& self, const at::Tensor& src,
                  bool non_blocking) {
  const bool requires_grad = compute_requires_grad(self, src);
  check_inplace(self, requires_grad);
  auto grad_fn = make_node_if<CopyBackwards>(requires_grad, self, src);
  if (grad_fn) grad_fn->src_options = src.options();
  below_autograd_inplace_or_view([&]() -> at::Tensor& {
    return at::_ops::copy_::redispatch(ks & c10::after_autograd_keyset, self, src, non_blocking);
  });
  rebase_history(self, std::move(grad_fn));
  return self;
}

at::Tensor& fill__Scalar(c10::DispatchKeySet ks, at::Tensor& self, const at::Scalar& value) {
  const bool requires_grad = compute_requires_grad(self);
  check_inplace(self, requires_grad);
  auto grad_fn = make_node_if<FillBackward2>(requires_grad, self);
  below_autograd_inplace_or_view([&]() -> at::Tensor& {
    return at::_ops::fill__Scalar::redispatch(ks & c10::after_autograd_keyset, self, value);
  });
  rebase_history(self, std::move(grad_fn));
  return self;
}

at::Tensor& fill__Tensor(c10::DispatchKeySet ks, at::Tensor& self, const at::Tensor& value) {
  const bool requires_grad = compute_requires_grad(self, value);
  check_inplace(self, requires_grad);
  auto grad_fn = make_node_if<FillBackward3>(requires_grad, self, value);
  below_autograd_inplace_or_view([&]() -> at::Tensor& {
    return at::_ops::fill__Tensor::redispatch(ks & c10::after_autograd_keyset, self, value);
  });
  rebase_history(self, std::move(grad_fn));
  return self;
}

at::Tensor& zero_(c10::DispatchKeySet ks, at::Tensor& self) {
  const bool requires_grad = compute_requires_grad(self);
  check_inplace(self, requires_grad);
  auto grad_fn = make_node_if<ZeroBackward0>(requires_grad, self);
  below_autograd_inplace_or_view([&]() -> at::Tensor& {
    return at::_ops::zero_::redispatch(ks & c10::after_autograd_keyset, self);
  });
  rebase_history(self, std::move(grad_fn));
  return self;
}

}  // namespace VariableType

TORCH_LIBRARY_IMPL(aten, Autograd, m) {
  m.impl("clone", TORCH_FN(VariableType::clone));
  m.impl("_to_copy", TORCH_FN(VariableType::_to_copy));
  m.impl("alias", TORCH_FN(VariableType::alias));
  m.impl("copy_", TORCH_FN(VariableType::copy_));
  m.impl("fill_.Scalar", TORCH_FN(VariableType::fill__Scalar));
  m.impl("fill_.Tensor", TORCH_FN(VariableType::fill__Tensor));
  m.impl("zero_", TORCH_FN(VariableType::zero_));
}

}  // namespace autograd
}  // namespace torch
