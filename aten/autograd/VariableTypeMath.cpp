// The autograd kernels of arithmetic: add/sub/mul/div (Tensor and Scalar, and in place), neg,
// abs, exp, log, sqrt (and in place), where, and the ops of three tensors lerp, addcmul, addcdiv
// (their formulas in FunctionsReductions.cpp). What each
// saves is what its formula in FunctionsMath.cpp reads, and only when that gradient is needed
// (as libtorch's generated code does).

#include "aten/ATen.h"
#include "aten/autograd/Functions.h"
#include "aten/autograd/VariableTypeUtils.h"
#include "dispatcher/Library.h"

namespace torch {
namespace autograd {
namespace VariableType {

using namespace impl;

constexpr c10::DispatchKeySet kAfterAutograd = c10::after_autograd_keyset;

// ---- add / sub ---------------------------------------------------------------------------------

at::Tensor add_Tensor(c10::DispatchKeySet ks, const at::Tensor& self, const at::Tensor& other,
                      const at::Scalar& alpha) {
  auto grad_fn = make_node_if<AddBackward0>(compute_requires_grad(self, other), self, other);
  if (grad_fn) grad_fn->alpha = alpha;
  return record_functional(std::move(grad_fn), [&] {
    return at::_ops::add_Tensor::redispatch(ks & kAfterAutograd, self, other, alpha);
  });
}

at::Tensor& add__Tensor(c10::DispatchKeySet ks, at::Tensor& self, const at::Tensor& other,
                        const at::Scalar& alpha) {
  const bool requires_grad = compute_requires_grad(self, other);
  check_inplace(self, requires_grad);
  auto grad_fn = make_node_if<AddBackward0>(requires_grad, self, other);
  if (grad_fn) grad_fn->alpha = alpha;
  return record_inplace(self, grad_fn, [&]() -> at::Tensor& {
    return at::_ops::add__Tensor::redispatch(ks & kAfterAutograd, self, other, alpha);
  });
}

at::Tensor add_Scalar(c10::DispatchKeySet ks, const at::Tensor& self, const at::Scalar& other,
                      const at::Scalar& alpha) {
  auto grad_fn = make_node_if<AddBackward1>(compute_requires_grad(self), self);
  return record_functional(std::move(grad_fn), [&] {
    return at::_ops::add_Scalar::redispatch(ks & kAfterAutograd, self, other, alpha);
  });
}

at::Tensor& add__Scalar(c10::DispatchKeySet ks, at::Tensor& self, const at::Scalar& other,
                        const at::Scalar& alpha) {
  const bool requires_grad = compute_requires_grad(self);
  check_inplace(self, requires_grad);
  auto grad_fn = make_node_if<AddBackward1>(requires_grad, self);
  return record_inplace(self, grad_fn, [&]() -> at::Tensor& {
    return at::_ops::add__Scalar::redispatch(ks & kAfterAutograd, self, other, alpha);
  });
}

at::Tensor sub_Tensor(c10::DispatchKeySet ks, const at::Tensor& self, const at::Tensor& other,
                      const at::Scalar& alpha) {
  auto grad_fn = make_node_if<SubBackward0>(compute_requires_grad(self, other), self, other);
  if (grad_fn) grad_fn->alpha = alpha;
  return record_functional(std::move(grad_fn), [&] {
    return at::_ops::sub_Tensor::redispatch(ks & kAfterAutograd, self, other, alpha);
  });
}

at::Tensor& sub__Tensor(c10::DispatchKeySet ks, at::Tensor& self, const at::Tensor& other,
                        const at::Scalar& alpha) {
  const bool requires_grad = compute_requires_grad(self, other);
  check_inplace(self, requires_grad);
  auto grad_fn = make_node_if<SubBackward0>(requires_grad, self, other);
  if (grad_fn) grad_fn->alpha = alpha;
  return record_inplace(self, grad_fn, [&]() -> at::Tensor& {
    return at::_ops::sub__Tensor::redispatch(ks & kAfterAutograd, self, other, alpha);
  });
}

at::Tensor sub_Scalar(c10::DispatchKeySet ks, const at::Tensor& self, const at::Scalar& other,
                      const at::Scalar& alpha) {
  auto grad_fn = make_node_if<SubBackward1>(compute_requires_grad(self), self);
  return record_functional(std::move(grad_fn), [&] {
    return at::_ops::sub_Scalar::redispatch(ks & kAfterAutograd, self, other, alpha);
  });
}

at::Tensor& sub__Scalar(c10::DispatchKeySet ks, at::Tensor& self, const at::Scalar& other,
                        const at::Scalar& alpha) {
  const bool requires_grad = compute_requires_grad(self);
  check_inplace(self, requires_grad);
  auto grad_fn = make_node_if<SubBackward1>(requires_grad, self);
  return record_inplace(self, grad_fn, [&]() -> at::Tensor& {
    return at::_ops::sub__Scalar::redispatch(ks & kAfterAutograd, self, other, alpha);
  });
}

// ---- mul / div ---------------------------------------------------------------------------------

at::Tensor mul_Tensor(c10::DispatchKeySet ks, const at::Tensor& self, const at::Tensor& other) {
  auto grad_fn = make_node_if<MulBackward0>(compute_requires_grad(self, other), self, other);
  if (grad_fn) {
    if (grad_fn->should_compute_output(1)) grad_fn->self_ = SavedVariable(self, false);
    if (grad_fn->should_compute_output(0)) grad_fn->other_ = SavedVariable(other, false);
  }
  return record_functional(
      grad_fn, [&] { return at::_ops::mul_Tensor::redispatch(ks & kAfterAutograd, self, other); });
}

at::Tensor& mul__Tensor(c10::DispatchKeySet ks, at::Tensor& self, const at::Tensor& other) {
  const bool requires_grad = compute_requires_grad(self, other);
  check_inplace(self, requires_grad);
  auto grad_fn = make_node_if<MulBackward0>(requires_grad, self, other);
  if (grad_fn) {
    if (grad_fn->should_compute_output(1))
      grad_fn->self_ = SavedVariable(original_value(self), false);
    if (grad_fn->should_compute_output(0)) grad_fn->other_ = SavedVariable(other, false);
  }
  return record_inplace(self, grad_fn, [&]() -> at::Tensor& {
    return at::_ops::mul__Tensor::redispatch(ks & kAfterAutograd, self, other);
  });
}

at::Tensor mul_Scalar(c10::DispatchKeySet ks, const at::Tensor& self, const at::Scalar& other) {
  auto grad_fn = make_node_if<MulBackward1>(compute_requires_grad(self), self);
  if (grad_fn) grad_fn->other = other;
  return record_functional(
      grad_fn, [&] { return at::_ops::mul_Scalar::redispatch(ks & kAfterAutograd, self, other); });
}

at::Tensor& mul__Scalar(c10::DispatchKeySet ks, at::Tensor& self, const at::Scalar& other) {
  const bool requires_grad = compute_requires_grad(self);
  check_inplace(self, requires_grad);
  auto grad_fn = make_node_if<MulBackward1>(requires_grad, self);
  if (grad_fn) grad_fn->other = other;
  return record_inplace(self, grad_fn, [&]() -> at::Tensor& {
    return at::_ops::mul__Scalar::redispatch(ks & kAfterAutograd, self, other);
  });
}

at::Tensor div_Tensor(c10::DispatchKeySet ks, const at::Tensor& self, const at::Tensor& other) {
  auto grad_fn = make_node_if<DivBackward0>(compute_requires_grad(self, other), self, other);
  if (grad_fn) {
    if (grad_fn->should_compute_output(1)) grad_fn->self_ = SavedVariable(self, false);
    grad_fn->other_ = SavedVariable(other, false);
  }
  return record_functional(
      grad_fn, [&] { return at::_ops::div_Tensor::redispatch(ks & kAfterAutograd, self, other); });
}

at::Tensor& div__Tensor(c10::DispatchKeySet ks, at::Tensor& self, const at::Tensor& other) {
  const bool requires_grad = compute_requires_grad(self, other);
  check_inplace(self, requires_grad);
  auto grad_fn = make_node_if<DivBackward0>(requires_grad, self, other);
  if (grad_fn) {
    if (grad_fn->should_compute_output(1))
      grad_fn->self_ = SavedVariable(original_value(self), false);
    grad_fn->other_ = SavedVariable(other, false);
  }
  return record_inplace(self, grad_fn, [&]() -> at::Tensor& {
    return at::_ops::div__Tensor::redispatch(ks & kAfterAutograd, self, other);
  });
}

at::Tensor div_Scalar(c10::DispatchKeySet ks, const at::Tensor& self, const at::Scalar& other) {
  auto grad_fn = make_node_if<DivBackward1>(compute_requires_grad(self), self);
  if (grad_fn) grad_fn->other = other;
  return record_functional(
      grad_fn, [&] { return at::_ops::div_Scalar::redispatch(ks & kAfterAutograd, self, other); });
}

at::Tensor& div__Scalar(c10::DispatchKeySet ks, at::Tensor& self, const at::Scalar& other) {
  const bool requires_grad = compute_requires_grad(self);
  check_inplace(self, requires_grad);
  auto grad_fn = make_node_if<DivBackward1>(requires_grad, self);
  if (grad_fn) grad_fn->other = other;
  return record_inplace(self, grad_fn, [&]() -> at::Tensor& {
    return at::_ops::div__Scalar::redispatch(ks & kAfterAutograd, self, other);
  });
}

at::Tensor div_Tensor_mode(c10::DispatchKeySet ks, const at::Tensor& self, const at::Tensor& other,
                           c10::optional<c10::string_view> rounding_mode) {
  auto grad_fn = make_node_if<DivBackward2>(compute_requires_grad(self, other), self, other);
  if (grad_fn) {
    if (!rounding_mode.has_value()) {
      if (grad_fn->should_compute_output(1)) grad_fn->self_ = SavedVariable(self, false);
      grad_fn->other_ = SavedVariable(other, false);
    } else {
      grad_fn->rounding_mode = std::string(*rounding_mode);
    }
  }
  return record_functional(std::move(grad_fn), [&] {
    return at::_ops::div_Tensor_mode::redispatch(ks & kAfterAutograd, self, other, rounding_mode);
  });
}

at::Tensor& div__Tensor_mode(c10::DispatchKeySet ks, at::Tensor& self, const at::Tensor& other,
                             c10::optional<c10::string_view> rounding_mode) {
  const bool requires_grad = compute_requires_grad(self, other);
  check_inplace(self, requires_grad);
  auto grad_fn = make_node_if<DivBackward2>(requires_grad, self, other);
  if (grad_fn) {
    if (!rounding_mode.has_value()) {
      if (grad_fn->should_compute_output(1))
        grad_fn->self_ = SavedVariable(original_value(self), false);
      grad_fn->other_ = SavedVariable(other, false);
    } else {
      grad_fn->rounding_mode = std::string(*rounding_mode);
    }
  }
  return record_inplace(self, grad_fn, [&]() -> at::Tensor& {
    return at::_ops::div__Tensor_mode::redispatch(ks & kAfterAutograd, self, other, rounding_mode);
  });
}

at::Tensor div_Scalar_mode(c10::DispatchKeySet ks, const at::Tensor& self, const at::Scalar& other,
                           c10::optional<c10::string_view> rounding_mode) {
  auto grad_fn = make_node_if<DivBackward3>(compute_requires_grad(self), self);
  if (grad_fn) {
    grad_fn->other = other;
    if (rounding_mode.has_value()) grad_fn->rounding_mode = std::string(*rounding_mode);
  }
  return record_functional(std::move(grad_fn), [&] {
    return at::_ops::div_Scalar_mode::redispatch(ks & kAfterAutograd, self, other, rounding_mode);
  });
}

at::Tensor& div__Scalar_mode(c10::DispatchKeySet ks, at::Tensor& self, const at::Scalar& other,
                             c10::optional<c10::string_view> rounding_mode) {
  const bool requires_grad = compute_requires_grad(self);
  check_inplace(self, requires_grad);
  auto grad_fn = make_node_if<DivBackward3>(requires_grad, self);
  if (grad_fn) {
    grad_fn->other = other;
    if (rounding_mode.has_value()) grad_fn->rounding_mode = std::string(*rounding_mode);
  }
  return record_inplace(self, grad_fn, [&]() -> at::Tensor& {
    return at::_ops::div__Scalar_mode::redispatch(ks & kAfterAutograd, self, other, rounding_mode);
  });
}

// The in-place comparisons: self becomes 1 or 0, so its history is a node whose gradients are
// all zero (libtorch's EqBackward0 / EqBackward1 ...).
#define MINIATEN_INPLACE_COMPARISON(op, Op)                                                  \
  at::Tensor& op##__Scalar(c10::DispatchKeySet ks, at::Tensor& self, const at::Scalar& other) { \
    const bool requires_grad = compute_requires_grad(self);                                 \
    check_inplace(self, requires_grad);                                                     \
    auto grad_fn = make_node_if<Op##Backward0>(requires_grad, self);                        \
    if (grad_fn) {                                                                          \
      grad_fn->self_sizes = self.sizes().vec();                                             \
      grad_fn->self_options = self.options();                                               \
    }                                                                                       \
    return record_inplace(self, grad_fn, [&]() -> at::Tensor& {                             \
      return at::_ops::op##__Scalar::redispatch(ks & kAfterAutograd, self, other);          \
    });                                                                                     \
  }                                                                                         \
  at::Tensor& op##__Tensor(c10::DispatchKeySet ks, at::Tensor& self, const at::Tensor& other) { \
    const bool requires_grad = compute_requires_grad(self, other);                          \
    check_inplace(self, requires_grad);                                                     \
    auto grad_fn = make_node_if<Op##Backward1>(requires_grad, self, other);                 \
    if (grad_fn) {                                                                          \
      grad_fn->self_sizes = self.sizes().vec();                                             \
      grad_fn->self_options = self.options();                                               \
      grad_fn->other_sizes = other.sizes().vec();                                           \
      grad_fn->other_options = other.options();                                             \
    }                                                                                       \
    return record_inplace(self, grad_fn, [&]() -> at::Tensor& {                             \
      return at::_ops::op##__Tensor::redispatch(ks & kAfterAutograd, self, other);          \
    });                                                                                     \
  }
MINIATEN_INPLACE_COMPARISON(eq, Eq)
MINIATEN_INPLACE_COMPARISON(ne, Ne)
MINIATEN_INPLACE_COMPARISON(lt, Lt)
MINIATEN_INPLACE_COMPARISON(le, Le)
MINIATEN_INPLACE_COMPARISON(gt, Gt)
MINIATEN_INPLACE_COMPARISON(ge, Ge)
#undef MINIATEN_INPLACE_COMPARISON

// ---- lerp, addcmul, addcdiv ---------------------------------------------------------------------

at::Tensor lerp_Scalar(c10::DispatchKeySet ks, const at::Tensor& self, const at::Tensor& end,
                       const at::Scalar& weight) {
  auto grad_fn = make_node_if<LerpBackward0>(compute_requires_grad(self, end), self, end);
  if (grad_fn) grad_fn->weight = weight;
  return record_functional(grad_fn, [&] {
    return at::_ops::lerp_Scalar::redispatch(ks & kAfterAutograd, self, end, weight);
  });
}

at::Tensor& lerp__Scalar(c10::DispatchKeySet ks, at::Tensor& self, const at::Tensor& end,
                         const at::Scalar& weight) {
  const bool requires_grad = compute_requires_grad(self, end);
  check_inplace(self, requires_grad);
  auto grad_fn = make_node_if<LerpBackward0>(requires_grad, self, end);
  if (grad_fn) grad_fn->weight = weight;
  return record_inplace(self, grad_fn, [&]() -> at::Tensor& {
    return at::_ops::lerp__Scalar::redispatch(ks & kAfterAutograd, self, end, weight);
  });
}

void save_lerp_inputs(LerpBackward1& node, const at::Tensor& self, const at::Tensor& end,
                      const at::Tensor& weight) {
  if (node.should_compute_output(0) || node.should_compute_output(1)) {
    node.weight_ = SavedVariable(weight, false);
  }
  if (node.should_compute_output(2)) {
    node.self_ = SavedVariable(self, false);
    node.end_ = SavedVariable(end, false);
  }
}

at::Tensor lerp_Tensor(c10::DispatchKeySet ks, const at::Tensor& self, const at::Tensor& end,
                       const at::Tensor& weight) {
  auto grad_fn =
      make_node_if<LerpBackward1>(compute_requires_grad(self, end, weight), self, end, weight);
  if (grad_fn) save_lerp_inputs(*grad_fn, self, end, weight);
  return record_functional(grad_fn, [&] {
    return at::_ops::lerp_Tensor::redispatch(ks & kAfterAutograd, self, end, weight);
  });
}

at::Tensor& lerp__Tensor(c10::DispatchKeySet ks, at::Tensor& self, const at::Tensor& end,
                         const at::Tensor& weight) {
  const bool requires_grad = compute_requires_grad(self, end, weight);
  check_inplace(self, requires_grad);
  auto grad_fn = make_node_if<LerpBackward1>(requires_grad, self, end, weight);
  // See Note [What the in-place math saves] in VariableTypeUnaryMath.cpp.
  if (grad_fn) {
    save_lerp_inputs(*grad_fn, grad_fn->should_compute_output(2) ? original_value(self) : self, end,
                     weight);
  }
  return record_inplace(self, grad_fn, [&]() -> at::Tensor& {
    return at::_ops::lerp__Tensor::redispatch(ks & kAfterAutograd, self, end, weight);
  });
}

template <typename NodeT>
void save_addc_inputs(NodeT& node, const at::Tensor& tensor1, const at::Tensor& tensor2,
                      const at::Scalar& value) {
  node.value = value;
  if (node.should_compute_output(1) || node.should_compute_output(2)) {
    node.tensor2_ = SavedVariable(tensor2, false);
  }
  if (node.should_compute_output(2)) node.tensor1_ = SavedVariable(tensor1, false);
}

template <typename NodeT, typename Op>
at::Tensor addc(c10::DispatchKeySet ks, const at::Tensor& self, const at::Tensor& tensor1,
                const at::Tensor& tensor2, const at::Scalar& value) {
  auto grad_fn =
      make_node_if<NodeT>(compute_requires_grad(self, tensor1, tensor2), self, tensor1, tensor2);
  if (grad_fn) save_addc_inputs(*grad_fn, tensor1, tensor2, value);
  return record_functional(
      grad_fn, [&] { return Op::redispatch(ks & kAfterAutograd, self, tensor1, tensor2, value); });
}

// self's old value is not read by either formula: nothing to copy.
template <typename NodeT, typename Op>
at::Tensor& addc_(c10::DispatchKeySet ks, at::Tensor& self, const at::Tensor& tensor1,
                  const at::Tensor& tensor2, const at::Scalar& value) {
  const bool requires_grad = compute_requires_grad(self, tensor1, tensor2);
  check_inplace(self, requires_grad);
  auto grad_fn = make_node_if<NodeT>(requires_grad, self, tensor1, tensor2);
  if (grad_fn) save_addc_inputs(*grad_fn, tensor1, tensor2, value);
  return record_inplace(self, grad_fn, [&]() -> at::Tensor& {
    return Op::redispatch(ks & kAfterAutograd, self, tensor1, tensor2, value);
  });
}

}  // namespace VariableType

TORCH_LIBRARY_IMPL(aten, Autograd, m) {
  m.impl("eq_.Scalar", TORCH_FN(VariableType::eq__Scalar));
  m.impl("eq_.Tensor", TORCH_FN(VariableType::eq__Tensor));
  m.impl("ne_.Scalar", TORCH_FN(VariableType::ne__Scalar));
  m.impl("ne_.Tensor", TORCH_FN(VariableType::ne__Tensor));
  m.impl("lt_.Scalar", TORCH_FN(VariableType::lt__Scalar));
  m.impl("lt_.Tensor", TORCH_FN(VariableType::lt__Tensor));
  m.impl("le_.Scalar", TORCH_FN(VariableType::le__Scalar));
  m.impl("le_.Tensor", TORCH_FN(VariableType::le__Tensor));
  m.impl("gt_.Scalar", TORCH_FN(VariableType::gt__Scalar));
  m.impl("gt_.Tensor", TORCH_FN(VariableType::gt__Tensor));
  m.impl("ge_.Scalar", TORCH_FN(VariableType::ge__Scalar));
  m.impl("ge_.Tensor", TORCH_FN(VariableType::ge__Tensor));

  m.impl("div.Tensor_mode", TORCH_FN(VariableType::div_Tensor_mode));
  m.impl("div_.Tensor_mode", TORCH_FN(VariableType::div__Tensor_mode));
  m.impl("div.Scalar_mode", TORCH_FN(VariableType::div_Scalar_mode));
  m.impl("div_.Scalar_mode", TORCH_FN(VariableType::div__Scalar_mode));
  m.impl("add.Tensor", TORCH_FN(VariableType::add_Tensor));
  m.impl("add_.Tensor", TORCH_FN(VariableType::add__Tensor));
  m.impl("add.Scalar", TORCH_FN(VariableType::add_Scalar));
  m.impl("add_.Scalar", TORCH_FN(VariableType::add__Scalar));
  m.impl("sub.Tensor", TORCH_FN(VariableType::sub_Tensor));
  m.impl("sub_.Tensor", TORCH_FN(VariableType::sub__Tensor));
  m.impl("sub.Scalar", TORCH_FN(VariableType::sub_Scalar));
  m.impl("sub_.Scalar", TORCH_FN(VariableType::sub__Scalar));
  m.impl("mul.Tensor", TORCH_FN(VariableType::mul_Tensor));
  m.impl("mul_.Tensor", TORCH_FN(VariableType::mul__Tensor));
  m.impl("mul.Scalar", TORCH_FN(VariableType::mul_Scalar));
  m.impl("mul_.Scalar", TORCH_FN(VariableType::mul__Scalar));
  m.impl("div.Tensor", TORCH_FN(VariableType::div_Tensor));
  m.impl("div_.Tensor", TORCH_FN(VariableType::div__Tensor));
  m.impl("div.Scalar", TORCH_FN(VariableType::div_Scalar));
  m.impl("div_.Scalar", TORCH_FN(VariableType::div__Scalar));
  m.impl("lerp.Scalar", TORCH_FN(VariableType::lerp_Scalar));
  m.impl("lerp_.Scalar", TORCH_FN(VariableType::lerp__Scalar));
  m.impl("lerp.Tensor", TORCH_FN(VariableType::lerp_Tensor));
  m.impl("lerp_.Tensor", TORCH_FN(VariableType::lerp__Tensor));
  m.impl("addcmul", TORCH_FN((VariableType::addc<AddcmulBackward0, at::_ops::addcmul>)));
  m.impl("addcmul_", TORCH_FN((VariableType::addc_<AddcmulBackward0, at::_ops::addcmul_>)));
  m.impl("addcdiv", TORCH_FN((VariableType::addc<AddcdivBackward0, at::_ops::addcdiv>)));
  m.impl("addcdiv_", TORCH_FN((VariableType::addc_<AddcdivBackward0, at::_ops::addcdiv_>)));
}

}  // namespace autograd
}  // namespace torch
