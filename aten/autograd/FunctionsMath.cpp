// The backward formulas of copies, arithmetic and reductions, as libtorch's derivatives.yaml
// states them. Gradients of broadcast inputs come out in the broadcast shape; the engine sums
// them down (validate_outputs in Engine.cpp).

#include "aten/ATen.h"
#include "aten/autograd/Functions.h"
#include "c10/util/WrappingArithmetic.h"
#include "c10/util/accumulate.h"

namespace torch {
namespace autograd {
namespace generated {

using details::maybe_multiply;
using details::reduced_numel;
using details::sum_backward;

// ---- Copies ----------------------------------------------------------------------------------

variable_list CloneBackward0::apply(variable_list&& grads) {
  return {std::move(grads[0])};
}

variable_list ToCopyBackward0::apply(variable_list&& grads) {
  return {grads[0].to(self_options.dtype(), /*non_blocking=*/false, /*copy=*/false)};
}

variable_list AliasBackward0::apply(variable_list&& grads) {
  return {std::move(grads[0])};
}

}  // namespace generated

variable_list CopyBackwards::apply(variable_list&& grads) {
  variable_list result(2);
  if (should_compute_output(0)) result[0] = at::zeros_like(grads[0]);
  if (should_compute_output(1)) result[1] = grads[0].to(src_options.dtype());
  return result;
}

namespace generated {

// ---- Arithmetic ------------------------------------------------------------------------------

variable_list AddBackward0::apply(variable_list&& grads) {
  variable_list result(2);
  if (should_compute_output(0)) result[0] = grads[0];
  if (should_compute_output(1)) result[1] = maybe_multiply(grads[0], alpha);
  return result;
}

variable_list AddBackward1::apply(variable_list&& grads) {
  return {std::move(grads[0])};
}

variable_list SubBackward0::apply(variable_list&& grads) {
  variable_list result(2);
  if (should_compute_output(0)) result[0] = grads[0];
  if (should_compute_output(1)) result[1] = maybe_multiply(grads[0].neg(), alpha);
  return result;
}

variable_list SubBackward1::apply(variable_list&& grads) {
  return {std::move(grads[0])};
}

variable_list MulBackward0::apply(variable_list&& grads) {
  variable_list result(2);
  if (should_compute_output(0)) result[0] = at::mul(grads[0], other_.unpack());
  if (should_compute_output(1)) result[1] = at::mul(grads[0], self_.unpack());
  return result;
}

variable_list MulBackward1::apply(variable_list&& grads) {
  return {at::mul(grads[0], other)};
}

namespace {
// True division's gradients: grad / other for self, -grad * self / other^2 for other.
variable_list true_div_backward(const Node& node, const at::Tensor& grad,
                                const SavedVariable& self_, const SavedVariable& other_) {
  variable_list result(2);
  const at::Tensor other = other_.unpack();
  if (node.should_compute_output(0)) result[0] = at::div(grad, other);
  if (node.should_compute_output(1)) {
    const at::Tensor self = self_.unpack();
    result[1] = at::div(at::mul(grad.neg(), self), at::mul(other, other));
  }
  return result;
}
}  // namespace

variable_list DivBackward0::apply(variable_list&& grads) {
  return true_div_backward(*this, grads[0], self_, other_);
}

variable_list DivBackward1::apply(variable_list&& grads) {
  return {at::div(grads[0], other)};
}

variable_list DivBackward2::apply(variable_list&& grads) {
  if (rounding_mode.has_value()) {
    variable_list result(2);
    if (should_compute_output(0)) result[0] = at::mul(grads[0], 0);
    if (should_compute_output(1)) result[1] = at::mul(grads[0], 0);
    return result;
  }
  return true_div_backward(*this, grads[0], self_, other_);
}

variable_list DivBackward3::apply(variable_list&& grads) {
  if (rounding_mode.has_value()) return {at::mul(grads[0], 0)};
  return {at::div(grads[0], other)};
}

#define MINIATEN_COMPARISON_APPLY(Op)                                          \
  variable_list Op##Backward0::apply(variable_list&& grads) {                 \
    (void)grads;                                                              \
    return {at::zeros(self_sizes, self_options)};                             \
  }                                                                           \
  variable_list Op##Backward1::apply(variable_list&& grads) {                 \
    (void)grads;                                                              \
    variable_list result(2);                                                  \
    if (should_compute_output(0)) result[0] = at::zeros(self_sizes, self_options);   \
    if (should_compute_output(1)) result[1] = at::zeros(other_sizes, other_options); \
    return result;                                                            \
  }
MINIATEN_COMPARISON_APPLY(Eq)
MINIATEN_COMPARISON_APPLY(Ne)
MINIATEN_COMPARISON_APPLY(Lt)
MINIATEN_COMPARISON_APPLY(Le)
MINIATEN_COMPARISON_APPLY(Gt)
MINIATEN_COMPARISON_APPLY(Ge)
#undef MINIATEN_COMPARISON_APPLY

variable_list NegBackward0::apply(variable_list&& grads) {
  return {grads[0].neg()};
}

variable_list AbsBackward0::apply(variable_list&& grads) {
  // grad * sgn(self), with sgn(0) = 0.
  const at::Tensor self = self_.unpack();
  const at::Tensor sgn =
      at::sub(at::gt(self, 0).to(self.scalar_type()), at::lt(self, 0).to(self.scalar_type()));
  return {at::mul(grads[0], sgn)};
}

variable_list ExpBackward0::apply(variable_list&& grads) {
  return {at::mul(grads[0], result_.unpack())};
}

variable_list LogBackward0::apply(variable_list&& grads) {
  return {at::div(grads[0], self_.unpack())};
}

variable_list SqrtBackward0::apply(variable_list&& grads) {
  return {at::div(grads[0], at::mul(result_.unpack(), 2))};
}

variable_list WhereBackward0::apply(variable_list&& grads) {
  variable_list result(2);
  const at::Tensor condition = condition_.unpack();
  if (should_compute_output(0)) result[0] = at::where(condition, grads[0], c10::Scalar(0));
  if (should_compute_output(1)) result[1] = at::where(condition, c10::Scalar(0), grads[0]);
  return result;
}

variable_list FillBackward2::apply(variable_list&& grads) {
  return {at::zeros_like(grads[0])};
}

variable_list FillBackward3::apply(variable_list&& grads) {
  variable_list result(2);
  if (should_compute_output(0)) result[0] = at::zeros_like(grads[0]);
  if (should_compute_output(1)) result[1] = at::sum(grads[0]);
  return result;
}

variable_list ZeroBackward0::apply(variable_list&& grads) {
  return {at::zeros_like(grads[0])};
}

// The random fills overwrite self: no gradient flows to what was there before.
variable_list NormalBackward0::apply(variable_list&& grads) {
  return {at::zeros_like(grads[0])};
}

variable_list UniformBackward0::apply(variable_list&& grads) {
  return {at::zeros_like(grads[0])};
}

variable_list BernoulliBackward0::apply(variable_list&& grads) {
  return {at::zeros_like(grads[0])};
}

variable_list BernoulliBackward1::apply(variable_list&& grads) {  // self, p
  variable_list result(2);
  if (should_compute_output(0)) result[0] = at::zeros_like(grads[0]);
  if (should_compute_output(1)) result[1] = at::zeros_like(grads[0]);  // summed down to p's shape
  return result;
}

variable_list BernoulliBackward2::apply(variable_list&& grads) {
  return {at::zeros_like(grads[0])};
}

variable_list RandomBackward0::apply(variable_list&& grads) {
  return {at::zeros_like(grads[0])};
}

variable_list RandomBackward1::apply(variable_list&& grads) {
  return {at::zeros_like(grads[0])};
}

// ---- Reductions ------------------------------------------------------------------------------

variable_list SumBackward0::apply(variable_list&& grads) {
  return {grads[0].expand(self_sizes)};
}

variable_list SumBackward1::apply(variable_list&& grads) {
  return {sum_backward(grads[0], self_sizes, dim, keepdim)};
}

variable_list MeanBackward0::apply(variable_list&& grads) {
  return {at::div(grads[0].expand(self_sizes), self_numel)};
}

variable_list MeanBackward1::apply(variable_list&& grads) {
  return {
      at::div(sum_backward(grads[0], self_sizes, dim, keepdim), reduced_numel(self_sizes, dim))};
}

variable_list CumsumBackward0::apply(variable_list&& grads) {
  // The reversed cumulative sum: element i gets the sum of the gradients of outputs i.. n-1,
  // which is total - cumsum(grad)[i] + grad[i].
  const at::Tensor& grad = grads[0];
  if (grad.dim() == 0) return {grad};
  const at::Tensor total = at::sum(grad, std::vector<int64_t>{dim}, /*keepdim=*/true);
  return {at::add(at::sub(total, at::cumsum(grad, dim)), grad)};
}

}  // namespace generated
}  // namespace autograd
}  // namespace torch
