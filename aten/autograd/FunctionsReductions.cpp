// The backward formulas of the folds (max, min, amax, amin, prod), the statistics (var, std,
// logsumexp, norm) and the pointwise ops of three tensors (lerp, addcmul, addcdiv), as libtorch's
// derivatives.yaml and FunctionsManual.cpp state them. Each reduction's gradient first gets the
// reduced dims back (restore_reduced_dims), so it broadcasts against the input.

#include <cmath>

#include "aten/ATen.h"
#include "aten/autograd/Functions.h"

namespace torch {
namespace autograd {
namespace generated {

using namespace details;

namespace {

// The gradient shared evenly among the elements equal to the selected value (libtorch's
// evenly_distribute_backward, with amax's per-reduction count): `mask` marks them.
at::Tensor share_among(const at::Tensor& grad, const at::Tensor& mask, c10::IntArrayRef dims) {
  const at::Tensor m = mask.to(grad.scalar_type());
  const at::Tensor count = dims.empty() ? m.sum() : m.sum(dims, /*keepdim=*/true);
  return m * (grad / count);
}

// The reduced dims as a list: [] stands for every dim of an ndim-dim input.
std::vector<int64_t> dims_or_every(c10::IntArrayRef dim, int64_t ndim) {
  std::vector<int64_t> dims = dim.vec();
  if (dims.empty()) {
    for (int64_t d = 0; d < ndim; ++d) dims.push_back(d);
  }
  return dims;
}

// Where the input equals the reduction's value; a NaN value marks the NaNs.
at::Tensor equals_value(const at::Tensor& self, const at::Tensor& value) {
  return at::logical_or(self == value, at::logical_and(self.isnan(), value.isnan()));
}

// The elements that are not the extreme get exactly 0, even for an infinite or NaN gradient
// (libtorch's evenly_distribute_backward on the CPU).
at::Tensor extremum_all_backward(const at::Tensor& grad, const at::Tensor& self,
                                 const at::Tensor& result) {
  const at::Tensor mask = equals_value(self, result);
  return at::zeros_like(self).masked_fill_(mask, grad / mask.sum());
}

at::Tensor amax_backward(const at::Tensor& grad, const at::Tensor& self, const at::Tensor& result,
                         c10::IntArrayRef dim, bool keepdim) {
  const at::Tensor g = restore_reduced_dims(grad, self.sizes(), dim, keepdim);
  const at::Tensor r = restore_reduced_dims(result, self.sizes(), dim, keepdim);
  if (self.dim() == 0) return g * (self == r).to(g.scalar_type());
  return share_among(g, self == r, dims_or_every(dim, self.dim()));
}

// max.dim / min.dim: zeros with grad at the selected index along dim (libtorch's
// value_selecting_reduction_backward, as a comparison with the positions instead of a scatter).
at::Tensor value_selecting_backward(const at::Tensor& grad, int64_t dim, const at::Tensor& indices,
                                    c10::IntArrayRef sizes, bool keepdim) {
  if (sizes.empty()) return grad;
  const int64_t ndim = static_cast<int64_t>(sizes.size());
  dim = c10::maybe_wrap_dim(dim, ndim);
  const at::Tensor g = keepdim ? grad : grad.unsqueeze(dim);
  const at::Tensor index = keepdim ? indices : indices.unsqueeze(dim);
  std::vector<int64_t> line(sizes.size(), 1);
  line[static_cast<size_t>(dim)] = sizes[static_cast<size_t>(dim)];
  const at::Tensor positions =
      at::arange(sizes[static_cast<size_t>(dim)], index.options()).view(line);
  return at::where(positions == index, g, at::zeros({}, g.options())).expand(sizes);
}

// d prod / d x_i is the product of the other elements: result / x_i when no element is zero;
// with one zero, the product of the rest at the zero and 0 elsewhere; with two, 0 everywhere.
// Worked out per reduction with masks (libtorch uses cumulative products for the one-zero case).
at::Tensor prod_backward(const at::Tensor& grad, const at::Tensor& self, const at::Tensor& result,
                         c10::IntArrayRef dim, bool keepdim) {
  if (self.dim() == 0) return grad;
  const at::Tensor g = restore_reduced_dims(grad, self.sizes(), dim, keepdim);
  const at::Tensor r = restore_reduced_dims(result, self.sizes(), dim, keepdim);
  const at::Tensor zero = self == 0;
  const auto over_dims = [&](const at::Tensor& t, bool is_sum) {
    if (dim.empty()) {
      const at::Tensor all = is_sum ? t.sum() : t.prod();
      return all.view(std::vector<int64_t>(static_cast<size_t>(self.dim()), 1));
    }
    return is_sum ? t.sum(dim, true) : t.prod(dim[0], true);
  };
  const at::Tensor zeros = over_dims(zero, /*is_sum=*/true);
  const at::Tensor rest = over_dims(at::where(zero, at::ones({}, self.options()), self),
                                    /*is_sum=*/false);
  const at::Tensor none_zero = r / self;
  const at::Tensor one_zero = at::where(zero, rest, at::zeros({}, self.options()));
  const at::Tensor d = at::where(zeros == 0, none_zero,
                                 at::where(zeros == 1, one_zero, at::zeros({}, self.options())));
  return g * d;
}

// 2 (x - mean) / (N - correction), times the gradient.
at::Tensor var_backward(const at::Tensor& grad, const at::Tensor& self, c10::IntArrayRef dim,
                        int64_t correction, bool keepdim) {
  const at::Tensor g = restore_reduced_dims(grad, self.sizes(), dim, keepdim);
  const double n = static_cast<double>(reduced_numel(self.sizes(), dim));
  const at::Tensor mean =
      dim.empty() ? self.mean() : self.mean(at::OptionalIntArrayRef(dim), /*keepdim=*/true);
  return (2.0 / (n - static_cast<double>(correction))) * g * (self - mean);
}

// d std = d var / (2 std); 0 where std is 0.
at::Tensor std_backward(const at::Tensor& grad, const at::Tensor& self, const at::Tensor& result,
                        c10::IntArrayRef dim, int64_t correction, bool keepdim) {
  const at::Tensor grad_var = (grad / (result * 2)).masked_fill_(result == 0, 0);
  return var_backward(grad_var, self, dim, correction, keepdim);
}

at::Tensor logsumexp_backward(const at::Tensor& grad, const at::Tensor& self,
                              const at::Tensor& result, c10::IntArrayRef dim, bool keepdim) {
  const at::Tensor g = restore_reduced_dims(grad, self.sizes(), dim, keepdim);
  const at::Tensor r = restore_reduced_dims(result, self.sizes(), dim, keepdim);
  return g * (self - r).exp();
}

// libtorch's norm_backward, by p.
at::Tensor norm_backward(const at::Tensor& grad, const at::Tensor& self, double p,
                         const at::Tensor& norm, c10::IntArrayRef dim, bool keepdim) {
  const at::Tensor g = restore_reduced_dims(grad, self.sizes(), dim, keepdim);
  const at::Tensor n = restore_reduced_dims(norm, self.sizes(), dim, keepdim);
  if (p == 0.0) return at::zeros_like(self);
  if (p == 1.0) return self.sign() * g;
  if (p == 2.0) return g * (self / n).masked_fill_(n == 0, 0);
  if (std::isinf(p)) {
    // The gradient shared among the elements whose |x| is the norm.
    const at::Tensor is_extreme = equals_value(self.abs(), n);
    if (self.dim() == 0) return self.sign() * g * is_extreme.to(g.scalar_type());
    return self.sign() * share_among(g, is_extreme, dims_or_every(dim, self.dim()));
  }
  if (p < 1.0) {
    const at::Tensor scaled = self.sign() * self.abs().pow(p - 1).masked_fill_(self == 0, 0);
    return scaled * g * n.pow(1 - p);
  }
  const at::Tensor scaled =
      p < 2.0 ? self.sign() * self.abs().pow(p - 1) : self * self.abs().pow(p - 2);
  return scaled * (g / n.pow(p - 1)).masked_fill_(n == 0, 0);
}

}  // namespace

variable_list MaxBackward1::apply(variable_list&& grads) {
  return {extremum_all_backward(grads[0], self_.unpack(), result_.unpack())};
}

variable_list MinBackward1::apply(variable_list&& grads) {
  return {extremum_all_backward(grads[0], self_.unpack(), result_.unpack())};
}

variable_list AmaxBackward0::apply(variable_list&& grads) {
  return {amax_backward(grads[0], self_.unpack(), result_.unpack(), dim, keepdim)};
}

variable_list AminBackward0::apply(variable_list&& grads) {
  return {amax_backward(grads[0], self_.unpack(), result_.unpack(), dim, keepdim)};
}

variable_list MaxBackward0::apply(variable_list&& grads) {
  return {value_selecting_backward(grads[0], dim, indices_.unpack(), self_sizes, keepdim)};
}

variable_list MinBackward0::apply(variable_list&& grads) {
  return {value_selecting_backward(grads[0], dim, indices_.unpack(), self_sizes, keepdim)};
}

// self in the result's dtype (prod(x, dtype=kDouble) of a float x), as libtorch's formula reads
// it: the products of the other elements are then taken in that dtype.
variable_list ProdBackward0::apply(variable_list&& grads) {
  const at::Tensor self = self_.unpack().to(grads[0].scalar_type());
  return {prod_backward(grads[0], self, result_.unpack(), {}, false)};
}

variable_list ProdBackward1::apply(variable_list&& grads) {
  const at::Tensor self = self_.unpack().to(grads[0].scalar_type());
  return {prod_backward(grads[0], self, result_.unpack(), dim, keepdim)};
}

variable_list VarBackward0::apply(variable_list&& grads) {
  return {var_backward(grads[0], self_.unpack(), dim, correction, keepdim)};
}

variable_list StdBackward0::apply(variable_list&& grads) {
  const at::Tensor self = self_.unpack();
  const at::Tensor result = restore_reduced_dims(result_.unpack(), self.sizes(), dim, keepdim);
  const at::Tensor grad = restore_reduced_dims(grads[0], self.sizes(), dim, keepdim);
  return {std_backward(grad, self, result, dim, correction, /*keepdim=*/true)};
}

variable_list LogsumexpBackward0::apply(variable_list&& grads) {
  return {logsumexp_backward(grads[0], self_.unpack(), result_.unpack(), dim, keepdim)};
}

variable_list NormBackward0::apply(variable_list&& grads) {
  return {norm_backward(grads[0], self_.unpack(), p.toDouble(), result_.unpack(), {}, false)};
}

variable_list NormBackward1::apply(variable_list&& grads) {
  const double p_value = p.has_value() ? p->toDouble() : 2.0;
  return {norm_backward(grads[0], self_.unpack(), p_value, result_.unpack(), dim, keepdim)};
}

// ---- lerp, addcmul, addcdiv -----------------------------------------------------------------

variable_list LerpBackward0::apply(variable_list&& grads) {
  const at::Tensor& grad = grads[0];
  variable_list result(2);
  if (should_compute_output(0)) result[0] = grad * (1 - weight.toDouble());
  if (should_compute_output(1)) result[1] = grad * weight;
  return result;
}

variable_list LerpBackward1::apply(variable_list&& grads) {
  const at::Tensor& grad = grads[0];
  variable_list result(3);
  const at::Tensor weight = weight_.unpack();
  if (should_compute_output(0)) result[0] = grad * (1 - weight);
  if (should_compute_output(1)) result[1] = grad * weight;
  if (should_compute_output(2)) result[2] = grad * (end_.unpack() - self_.unpack());
  return result;
}

variable_list AddcmulBackward0::apply(variable_list&& grads) {
  const at::Tensor& grad = grads[0];
  variable_list result(3);
  if (should_compute_output(0)) result[0] = grad;
  if (should_compute_output(1)) result[1] = grad * tensor2_.unpack() * value;
  if (should_compute_output(2)) result[2] = grad * tensor1_.unpack() * value;
  return result;
}

variable_list AddcdivBackward0::apply(variable_list&& grads) {
  const at::Tensor& grad = grads[0];
  variable_list result(3);
  if (should_compute_output(0)) result[0] = grad;
  if (should_compute_output(1)) result[1] = grad * value / tensor2_.unpack();
  if (should_compute_output(2)) {
    const at::Tensor t2 = tensor2_.unpack();
    result[2] = -grad * value * tensor1_.unpack() / (t2 * t2);
  }
  return result;
}

}  // namespace generated
}  // namespace autograd
}  // namespace torch
