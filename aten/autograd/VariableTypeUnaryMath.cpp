// The autograd kernels of the math functions: the unary ones (sin, tanh, sigmoid, floor, ...)
// through three templates by what their formula reads (self, the result, nothing), and the ones
// with more arguments (gelu, clamp, clamp_min/max, pow, atan2, hypot, fmod, remainder, maximum,
// minimum) written out. Formulas in FunctionsUnaryMath.cpp.
//
// Note [What the in-place math saves]
// An in-place op overwrites self, so a formula reading self gets a copy of its value from before
// the write (original_value), and one reading the result saves self after it (as an output, so a
// later in-place write is caught by the version check); those reading nothing save nothing.

#include <string>

#include "aten/ATen.h"
#include "aten/autograd/Functions.h"
#include "aten/autograd/VariableTypeUtils.h"
#include "dispatcher/Library.h"

namespace torch {
namespace autograd {
namespace VariableType {

using namespace impl;

constexpr c10::DispatchKeySet kAfterAutograd = c10::after_autograd_keyset;

enum class Saves { Self, Result, Nothing };

template <typename NodeT, typename Op, Saves saves>
at::Tensor unary(c10::DispatchKeySet ks, const at::Tensor& self) {
  auto grad_fn = make_node_if<NodeT>(compute_requires_grad(self), self);
  if constexpr (saves == Saves::Self) {
    if (grad_fn) grad_fn->self_ = SavedVariable(self, false);
  }
  at::Tensor result =
      record_functional(grad_fn, [&] { return Op::redispatch(ks & kAfterAutograd, self); });
  if constexpr (saves == Saves::Result) {
    if (grad_fn) grad_fn->result_ = SavedVariable(result, true);
  }
  return result;
}

// Note [What the in-place math saves]
template <typename NodeT, typename Op, Saves saves>
at::Tensor& unary_(c10::DispatchKeySet ks, at::Tensor& self) {
  const bool requires_grad = compute_requires_grad(self);
  check_inplace(self, requires_grad);
  auto grad_fn = make_node_if<NodeT>(requires_grad, self);
  if constexpr (saves == Saves::Self) {
    if (grad_fn) grad_fn->self_ = SavedVariable(original_value(self), false);
  }
  record_inplace(self, grad_fn,
                 [&]() -> at::Tensor& { return Op::redispatch(ks & kAfterAutograd, self); });
  if constexpr (saves == Saves::Result) {
    if (grad_fn) grad_fn->result_ = SavedVariable(self, true);
  }
  return self;
}

// ---- Functions with more arguments -----------------------------------------------------------

// Runs a functional op whose node saves self (set up by `fill`).
template <typename NodeT, typename Fill, typename Redispatch>
at::Tensor saving_self(const at::Tensor& self, const Fill& fill, const Redispatch& redispatch) {
  auto grad_fn = make_node_if<NodeT>(compute_requires_grad(self), self);
  if (grad_fn) {
    grad_fn->self_ = SavedVariable(self, false);
    fill(*grad_fn);
  }
  return record_functional(std::move(grad_fn), redispatch);
}

// The in-place twin: self's value before the write is saved.
template <typename NodeT, typename Fill, typename Redispatch>
at::Tensor& saving_self_(at::Tensor& self, const Fill& fill, const Redispatch& redispatch) {
  const bool requires_grad = compute_requires_grad(self);
  check_inplace(self, requires_grad);
  auto grad_fn = make_node_if<NodeT>(requires_grad, self);
  if (grad_fn) {
    grad_fn->self_ = SavedVariable(original_value(self), false);
    fill(*grad_fn);
  }
  return record_inplace(self, grad_fn, redispatch);
}

at::Tensor gelu(c10::DispatchKeySet ks, const at::Tensor& self, c10::string_view approximate) {
  return saving_self<GeluBackward0>(
      self, [&](GeluBackward0& n) { n.approximate = std::string(approximate); },
      [&] { return at::_ops::gelu::redispatch(ks & kAfterAutograd, self, approximate); });
}
at::Tensor& gelu_(c10::DispatchKeySet ks, at::Tensor& self, c10::string_view approximate) {
  return saving_self_<GeluBackward0>(
      self, [&](GeluBackward0& n) { n.approximate = std::string(approximate); },
      [&]() -> at::Tensor& {
        return at::_ops::gelu_::redispatch(ks & kAfterAutograd, self, approximate);
      });
}

at::Tensor clamp(c10::DispatchKeySet ks, const at::Tensor& self,
                 const c10::optional<at::Scalar>& min, const c10::optional<at::Scalar>& max) {
  return saving_self<ClampBackward1>(
      self,
      [&](ClampBackward1& n) {
        n.min = min;
        n.max = max;
      },
      [&] { return at::_ops::clamp::redispatch(ks & kAfterAutograd, self, min, max); });
}
at::Tensor& clamp_(c10::DispatchKeySet ks, at::Tensor& self, const c10::optional<at::Scalar>& min,
                   const c10::optional<at::Scalar>& max) {
  return saving_self_<ClampBackward1>(
      self,
      [&](ClampBackward1& n) {
        n.min = min;
        n.max = max;
      },
      [&]() -> at::Tensor& {
        return at::_ops::clamp_::redispatch(ks & kAfterAutograd, self, min, max);
      });
}

at::Tensor clamp_min(c10::DispatchKeySet ks, const at::Tensor& self, const at::Scalar& min) {
  return saving_self<ClampMinBackward0>(
      self, [&](ClampMinBackward0& n) { n.min = min; },
      [&] { return at::_ops::clamp_min::redispatch(ks & kAfterAutograd, self, min); });
}
at::Tensor& clamp_min_(c10::DispatchKeySet ks, at::Tensor& self, const at::Scalar& min) {
  return saving_self_<ClampMinBackward0>(
      self, [&](ClampMinBackward0& n) { n.min = min; },
      [&]() -> at::Tensor& {
        return at::_ops::clamp_min_::redispatch(ks & kAfterAutograd, self, min);
      });
}

at::Tensor clamp_max(c10::DispatchKeySet ks, const at::Tensor& self, const at::Scalar& max) {
  return saving_self<ClampMaxBackward0>(
      self, [&](ClampMaxBackward0& n) { n.max = max; },
      [&] { return at::_ops::clamp_max::redispatch(ks & kAfterAutograd, self, max); });
}
at::Tensor& clamp_max_(c10::DispatchKeySet ks, at::Tensor& self, const at::Scalar& max) {
  return saving_self_<ClampMaxBackward0>(
      self, [&](ClampMaxBackward0& n) { n.max = max; },
      [&]() -> at::Tensor& {
        return at::_ops::clamp_max_::redispatch(ks & kAfterAutograd, self, max);
      });
}

at::Tensor pow_Tensor_Scalar(c10::DispatchKeySet ks, const at::Tensor& self,
                             const at::Scalar& exponent) {
  return saving_self<PowBackward0>(
      self, [&](PowBackward0& n) { n.exponent = exponent; },
      [&] { return at::_ops::pow_Tensor_Scalar::redispatch(ks & kAfterAutograd, self, exponent); });
}
at::Tensor& pow__Scalar(c10::DispatchKeySet ks, at::Tensor& self, const at::Scalar& exponent) {
  return saving_self_<PowBackward0>(
      self, [&](PowBackward0& n) { n.exponent = exponent; },
      [&]() -> at::Tensor& {
        return at::_ops::pow__Scalar::redispatch(ks & kAfterAutograd, self, exponent);
      });
}

// The binary functions save both inputs, and the result where the formula reads it.
template <typename NodeT, bool kSavesResult, typename Op>
at::Tensor binary(c10::DispatchKeySet ks, const at::Tensor& self, const at::Tensor& other) {
  auto grad_fn = make_node_if<NodeT>(compute_requires_grad(self, other), self, other);
  if (grad_fn) {
    grad_fn->self_ = SavedVariable(self, false);
    grad_fn->other_ = SavedVariable(other, false);
  }
  at::Tensor result =
      record_functional(grad_fn, [&] { return Op::redispatch(ks & kAfterAutograd, self, other); });
  if (kSavesResult && grad_fn) grad_fn->result_ = SavedVariable(result, true);
  return result;
}

template <typename NodeT, bool kSavesResult, typename Op>
at::Tensor& binary_(c10::DispatchKeySet ks, at::Tensor& self, const at::Tensor& other) {
  const bool requires_grad = compute_requires_grad(self, other);
  check_inplace(self, requires_grad);
  auto grad_fn = make_node_if<NodeT>(requires_grad, self, other);
  if (grad_fn) {
    grad_fn->self_ = SavedVariable(original_value(self), false);
    grad_fn->other_ = SavedVariable(other, false);
  }
  record_inplace(self, grad_fn,
                 [&]() -> at::Tensor& { return Op::redispatch(ks & kAfterAutograd, self, other); });
  if (kSavesResult && grad_fn) grad_fn->result_ = SavedVariable(self, true);
  return self;
}

// remainder with a Scalar divisor: its own node (libtorch's RemainderBackward0), where the
// composite would record the Tensor overload's.
at::Tensor remainder_Scalar(c10::DispatchKeySet ks, const at::Tensor& self,
                            const at::Scalar& other) {
  auto grad_fn = make_node_if<RemainderBackward0>(compute_requires_grad(self), self);
  return record_functional(grad_fn, [&] {
    return at::_ops::remainder_Scalar::redispatch(ks & kAfterAutograd, self, other);
  });
}

at::Tensor& remainder__Scalar(c10::DispatchKeySet ks, at::Tensor& self, const at::Scalar& other) {
  const bool requires_grad = compute_requires_grad(self);
  check_inplace(self, requires_grad);
  auto grad_fn = make_node_if<RemainderBackward0>(requires_grad, self);
  return record_inplace(self, grad_fn, [&]() -> at::Tensor& {
    return at::_ops::remainder__Scalar::redispatch(ks & kAfterAutograd, self, other);
  });
}

}  // namespace VariableType

TORCH_LIBRARY_IMPL(aten, Autograd, m) {
  using namespace VariableType;
#define MINIATEN_UNARY(op, Node, saves)                             \
  m.impl(#op, TORCH_FN((unary<Node, at::_ops::op, Saves::saves>))); \
  m.impl(#op "_", TORCH_FN((unary_<Node, at::_ops::op##_, Saves::saves>)));
  MINIATEN_UNARY(log2, Log2Backward0, Self)
  MINIATEN_UNARY(log10, Log10Backward0, Self)
  MINIATEN_UNARY(log1p, Log1PBackward0, Self)
  MINIATEN_UNARY(sin, SinBackward0, Self)
  MINIATEN_UNARY(cos, CosBackward0, Self)
  MINIATEN_UNARY(asin, AsinBackward0, Self)
  MINIATEN_UNARY(acos, AcosBackward0, Self)
  MINIATEN_UNARY(atan, AtanBackward0, Self)
  MINIATEN_UNARY(sinh, SinhBackward0, Self)
  MINIATEN_UNARY(cosh, CoshBackward0, Self)
  MINIATEN_UNARY(erf, ErfBackward0, Self)
  MINIATEN_UNARY(erfc, ErfcBackward0, Self)
  MINIATEN_UNARY(silu, SiluBackward0, Self)
  MINIATEN_UNARY(expm1, Expm1Backward0, Result)
  MINIATEN_UNARY(exp2, Exp2Backward0, Result)
  MINIATEN_UNARY(tan, TanBackward0, Result)
  MINIATEN_UNARY(tanh, TanhBackward0, Result)
  MINIATEN_UNARY(rsqrt, RsqrtBackward0, Result)
  MINIATEN_UNARY(reciprocal, ReciprocalBackward0, Result)
  MINIATEN_UNARY(sigmoid, SigmoidBackward0, Result)
  MINIATEN_UNARY(floor, FloorBackward0, Nothing)
  MINIATEN_UNARY(ceil, CeilBackward0, Nothing)
  MINIATEN_UNARY(trunc, TruncBackward0, Nothing)
  MINIATEN_UNARY(round, RoundBackward0, Nothing)
  MINIATEN_UNARY(sign, SignBackward0, Nothing)
#undef MINIATEN_UNARY
  m.impl("gelu", TORCH_FN(gelu));
  m.impl("gelu_", TORCH_FN(gelu_));
  m.impl("clamp", TORCH_FN(clamp));
  m.impl("clamp_", TORCH_FN(clamp_));
  m.impl("clamp_min", TORCH_FN(clamp_min));
  m.impl("clamp_min_", TORCH_FN(clamp_min_));
  m.impl("clamp_max", TORCH_FN(clamp_max));
  m.impl("clamp_max_", TORCH_FN(clamp_max_));
  m.impl("pow.Tensor_Scalar", TORCH_FN(pow_Tensor_Scalar));
  m.impl("pow_.Scalar", TORCH_FN(pow__Scalar));
#define MINIATEN_BINARY(name, inplace_name, Op, InplaceOp, Node, saves_result) \
  m.impl(name, TORCH_FN((binary<Node, saves_result, at::_ops::Op>)));          \
  m.impl(inplace_name, TORCH_FN((binary_<Node, saves_result, at::_ops::InplaceOp>)));
  MINIATEN_BINARY("pow.Tensor_Tensor", "pow_.Tensor", pow_Tensor_Tensor, pow__Tensor, PowBackward1,
                  true)
  MINIATEN_BINARY("atan2", "atan2_", atan2, atan2_, Atan2Backward0, false)
  MINIATEN_BINARY("hypot", "hypot_", hypot, hypot_, HypotBackward0, true)
  MINIATEN_BINARY("fmod.Tensor", "fmod_.Tensor", fmod_Tensor, fmod__Tensor, FmodBackward1, false)
  MINIATEN_BINARY("remainder.Tensor", "remainder_.Tensor", remainder_Tensor, remainder__Tensor,
                  RemainderBackward1, false)
  m.impl("remainder.Scalar", TORCH_FN(VariableType::remainder_Scalar));
  m.impl("remainder_.Scalar", TORCH_FN(VariableType::remainder__Scalar));
#undef MINIATEN_BINARY
  m.impl("maximum", TORCH_FN((binary<MaximumBackward0, false, at::_ops::maximum>)));
  m.impl("minimum", TORCH_FN((binary<MinimumBackward0, false, at::_ops::minimum>)));
}

}  // namespace autograd
}  // namespace torch
