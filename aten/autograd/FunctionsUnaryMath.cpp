// The backward formulas of the math functions (sin, tanh, sigmoid, pow, clamp, maximum, ...), as
// libtorch's derivatives.yaml and FunctionsManual.cpp state them.

#include <cmath>

#include "aten/ATen.h"
#include "aten/autograd/Functions.h"

namespace torch {
namespace autograd {
namespace generated {

namespace {

// grad where `mask`, zero elsewhere (libtorch's grad * mask, without 0 * inf = NaN).
at::Tensor grad_where(const at::Tensor& mask, const at::Tensor& grad) {
  return at::where(mask, grad, at::zeros({}, grad.options()));
}

}  // namespace

// ---- Saving self -------------------------------------------------------------------------------

variable_list Log2Backward0::apply(variable_list&& grads) {
  return {grads[0] / (self_.unpack() * M_LN2)};
}
variable_list Log10Backward0::apply(variable_list&& grads) {
  return {grads[0] / (self_.unpack() * M_LN10)};
}
variable_list Log1PBackward0::apply(variable_list&& grads) {
  return {grads[0] / (self_.unpack() + 1)};
}
variable_list SinBackward0::apply(variable_list&& grads) {
  return {grads[0] * self_.unpack().cos()};
}
variable_list CosBackward0::apply(variable_list&& grads) {
  return {grads[0] * -self_.unpack().sin()};
}
variable_list AsinBackward0::apply(variable_list&& grads) {
  const at::Tensor self = self_.unpack();
  return {grads[0] * (-self * self + 1).rsqrt()};
}
variable_list AcosBackward0::apply(variable_list&& grads) {
  const at::Tensor self = self_.unpack();
  return {grads[0] * -(-self * self + 1).rsqrt()};
}
variable_list AtanBackward0::apply(variable_list&& grads) {
  const at::Tensor self = self_.unpack();
  return {grads[0] / (self * self + 1)};
}
variable_list SinhBackward0::apply(variable_list&& grads) {
  return {grads[0] * self_.unpack().cosh()};
}
variable_list CoshBackward0::apply(variable_list&& grads) {
  return {grads[0] * self_.unpack().sinh()};
}
// d/dx erf(x) = 2 / sqrt(pi) * exp(-x^2).
variable_list ErfBackward0::apply(variable_list&& grads) {
  const at::Tensor self = self_.unpack();
  return {grads[0] * ((-self * self).exp() * M_2_SQRTPI)};
}
variable_list ErfcBackward0::apply(variable_list&& grads) {
  const at::Tensor self = self_.unpack();
  return {grads[0] * ((-self * self).exp() * -M_2_SQRTPI)};
}
// silu(x) = x * s, s = sigmoid(x): d/dx = s * (1 + x * (1 - s)).
variable_list SiluBackward0::apply(variable_list&& grads) {
  const at::Tensor self = self_.unpack();
  const at::Tensor s = self.sigmoid();
  return {grads[0] * s * (1 + self * (1 - s))};
}

// "none": Phi(x) + x * phi(x); "tanh": the derivative of 0.5 x (1 + tanh(k (x + c x^3))).
variable_list GeluBackward0::apply(variable_list&& grads) {
  const at::Tensor x = self_.unpack();
  if (approximate == "tanh") {
    const double beta = M_SQRT2 * M_2_SQRTPI * 0.5, kappa = 0.044715;
    const at::Tensor x_sq = x * x;
    const at::Tensor tanh_inner = ((x + x_sq * x * kappa) * beta).tanh();
    const at::Tensor left_derivative = (tanh_inner + 1) * 0.5;
    const at::Tensor right_derivative =
        x * 0.5 * (1 - tanh_inner * tanh_inner) * ((x_sq * (3 * kappa) + 1) * beta);
    return {grads[0] * (left_derivative + right_derivative)};
  }
  const at::Tensor cdf = ((x * M_SQRT1_2).erf() + 1) * 0.5;
  const at::Tensor pdf = (x * x * -0.5).exp() * (M_2_SQRTPI * M_SQRT1_2 * 0.5);
  return {grads[0] * (cdf + x * pdf)};
}

// ---- Saving the result
// ---------------------------------------------------------------------------

variable_list Expm1Backward0::apply(variable_list&& grads) {
  return {grads[0] * (result_.unpack() + 1)};
}
variable_list Exp2Backward0::apply(variable_list&& grads) {
  return {grads[0] * result_.unpack() * M_LN2};
}
variable_list TanBackward0::apply(variable_list&& grads) {
  const at::Tensor result = result_.unpack();
  return {grads[0] * (result * result + 1)};
}
variable_list TanhBackward0::apply(variable_list&& grads) {
  const at::Tensor result = result_.unpack();
  return {grads[0] * (1 - result * result)};
}
variable_list RsqrtBackward0::apply(variable_list&& grads) {
  const at::Tensor result = result_.unpack();
  return {grads[0] * result * result * result * -0.5};
}
variable_list ReciprocalBackward0::apply(variable_list&& grads) {
  const at::Tensor result = result_.unpack();
  return {-grads[0] * (result * result)};
}
variable_list SigmoidBackward0::apply(variable_list&& grads) {
  const at::Tensor result = result_.unpack();
  return {grads[0] * (1 - result) * result};
}

// ---- Piecewise constant
// --------------------------------------------------------------------------

variable_list FloorBackward0::apply(variable_list&& grads) {
  return {at::zeros_like(grads[0])};
}
variable_list CeilBackward0::apply(variable_list&& grads) {
  return {at::zeros_like(grads[0])};
}
variable_list TruncBackward0::apply(variable_list&& grads) {
  return {at::zeros_like(grads[0])};
}
variable_list RoundBackward0::apply(variable_list&& grads) {
  return {at::zeros_like(grads[0])};
}
variable_list SignBackward0::apply(variable_list&& grads) {
  return {at::zeros_like(grads[0])};
}

// ---- clamp: the gradient passes where self is within the bounds (ends included) --------------

variable_list ClampBackward1::apply(variable_list&& grads) {
  const at::Tensor self = self_.unpack();
  if (min.has_value() && max.has_value()) {
    return {grad_where(at::logical_and(self >= *min, self <= *max), grads[0])};
  }
  if (min.has_value()) return {grad_where(self >= *min, grads[0])};
  if (max.has_value()) return {grad_where(self <= *max, grads[0])};
  return {grads[0]};
}
variable_list ClampMinBackward0::apply(variable_list&& grads) {
  return {grad_where(self_.unpack() >= min, grads[0])};
}
variable_list ClampMaxBackward0::apply(variable_list&& grads) {
  return {grad_where(self_.unpack() <= max, grads[0])};
}

// ---- pow
// -------------------------------------------------------------------------------------------

// exponent * self^(exponent - 1), and zero for a zero exponent (libtorch's pow_backward).
variable_list PowBackward0::apply(variable_list&& grads) {
  const bool zero =
      exponent.isFloatingPoint() ? exponent.toDouble() == 0.0 : exponent.toLong() == 0;
  if (zero) return {at::zeros_like(grads[0])};
  const at::Tensor self = self_.unpack();
  const at::Scalar minus_one = exponent.isFloatingPoint() ? at::Scalar(exponent.toDouble() - 1.0)
                                                          : at::Scalar(exponent.toLong() - 1);
  return {grads[0] * (self.pow(minus_one) * exponent)};
}

// self: exponent * self^(exponent - 1), zero where the exponent is 0; exponent: result * log(self),
// zero where self is 0 and the exponent non-negative (libtorch's pow_backward_self/_exponent).
variable_list PowBackward1::apply(variable_list&& grads) {
  variable_list result(2);
  const at::Tensor self = self_.unpack(), exponent = other_.unpack();
  const at::Tensor zero = at::zeros({}, grads[0].options());
  if (should_compute_output(0)) {
    result[0] = at::where(exponent == 0, zero, grads[0] * (exponent * self.pow(exponent - 1)));
  }
  if (should_compute_output(1)) {
    const at::Tensor cond = at::logical_and(self == 0, exponent >= 0);
    result[1] = grads[0] * at::where(cond, zero, result_.unpack() * self.log());
  }
  return result;
}

// ---- The other binary functions
// ------------------------------------------------------------------

variable_list Atan2Backward0::apply(variable_list&& grads) {
  variable_list result(2);
  const at::Tensor self = self_.unpack(), other = other_.unpack();
  const at::Tensor recip = (self * self + other * other).reciprocal();
  if (should_compute_output(0)) result[0] = grads[0] * other * recip;
  if (should_compute_output(1)) result[1] = grads[0] * -self * recip;
  return result;
}

variable_list HypotBackward0::apply(variable_list&& grads) {
  variable_list result(2);
  const at::Tensor r = result_.unpack();
  if (should_compute_output(0)) result[0] = grads[0] * self_.unpack() / r;
  if (should_compute_output(1)) result[1] = grads[0] * other_.unpack() / r;
  return result;
}

// fmod(a, b) = a - trunc(a / b) * b.
variable_list FmodBackward1::apply(variable_list&& grads) {
  variable_list result(2);
  if (should_compute_output(0)) result[0] = grads[0];
  if (should_compute_output(1)) {
    result[1] = -grads[0] * self_.unpack().div(other_.unpack(), "trunc");
  }
  return result;
}

variable_list RemainderBackward0::apply(variable_list&& grads) {
  return {grads[0]};
}

// remainder(a, b) = a - floor(a / b) * b.
variable_list RemainderBackward1::apply(variable_list&& grads) {
  variable_list result(2);
  if (should_compute_output(0)) result[0] = grads[0];
  if (should_compute_output(1)) {
    result[1] = -grads[0] * self_.unpack().div(other_.unpack(), "floor");
  }
  return result;
}

// The larger input takes the gradient; on a tie each takes half (libtorch's formula).
namespace {
variable_list extreme_backward(const Node& node, const at::Tensor& grad, const at::Tensor& self,
                               const at::Tensor& other, bool is_max) {
  variable_list result(2);
  const at::Tensor zero = at::zeros({}, grad.options());
  const at::Tensor shared = at::where(self == other, grad / 2, grad);
  if (node.should_compute_output(0)) {
    result[0] = at::where(is_max ? self < other : self > other, zero, shared);
  }
  if (node.should_compute_output(1)) {
    result[1] = at::where(is_max ? self > other : self < other, zero, shared);
  }
  return result;
}
}  // namespace

variable_list MaximumBackward0::apply(variable_list&& grads) {
  return extreme_backward(*this, grads[0], self_.unpack(), other_.unpack(), /*is_max=*/true);
}
variable_list MinimumBackward0::apply(variable_list&& grads) {
  return extreme_backward(*this, grads[0], self_.unpack(), other_.unpack(), /*is_max=*/false);
}

}  // namespace generated
}  // namespace autograd
}  // namespace torch
