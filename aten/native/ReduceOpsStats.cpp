// The statistics: var and std (with a correction), logsumexp and norm (libtorch's ReduceOps.cpp
// and LinearAlgebra.cpp). Each is written in other operators (mean, sum, amax, abs, pow), called
// from inside the kernel, so below autograd; their derivatives are their own nodes
// (VarBackward0, LogsumexpBackward0, NormBackward1, ...).
//
//   at::var(t, {1}, /*correction=*/0, /*keepdim=*/false)   // divides by N - correction
//   t.std()                                                 // unbiased: correction 1
//   at::logsumexp(t, {-1})
//   at::norm(t, 1, {0})   // p: 0 (count of nonzeros), +-inf (largest/smallest |x|), any real
//
// Note [How var is computed]
// Two passes, as the definition reads: the mean over the reduced dims, then the sum of the
// squared distances to it, divided by max(0, N - correction), so N <= correction gives inf (or
// NaN for 0/0), as libtorch's does. libtorch 1.13 runs Welford's one-pass algorithm instead; the
// two agree to rounding (the two-pass form is the more accurate of the two). A complex input
// has a real variance: the sum of |x - mean|^2. Half and BFloat16 are computed in float and
// rounded once.

#include <cmath>
#include <limits>

#include "aten/ATen.h"
#include "aten/generated/NativeFunctions.h"
#include "aten/native/ReduceOps.h"
#include "aten/native/ReduceOpsUtils.h"
#include "aten/native/Resize.h"

namespace at {
namespace native {

namespace {

// The float dtype integer inputs are promoted to (libtorch's default dtype).
constexpr ScalarType kDefaultFloat = kFloat;

Tensor in_opmath(const Tensor& t) {
  return c10::isReducedFloatingType(t.scalar_type()) ? t.to(kFloat) : t;
}

// |x|^2, real for a complex x.
Tensor squared_magnitude(const Tensor& x) {
  if (!x.is_complex()) return x * x;
  const Tensor re = at::real(x), im = at::imag(x);
  return re * re + im * im;
}

void check_var_dtype(ScalarType type) {
  TORCH_CHECK(c10::isFloatingType(type) || c10::isComplexType(type),
              "std and var only support floating point and complex dtypes");
}

// See Note [How var is computed]. The result has the reduced shape in self's real dtype.
Tensor var_impl(const Tensor& self, OptionalIntArrayRef dim, c10::optional<int64_t> correction,
                bool keepdim, bool take_sqrt) {
  check_var_dtype(self.scalar_type());
  const DimMask mask = make_dim_mask(dim, self.dim());
  const ScalarType out_type = c10::toRealValueType(self.scalar_type());
  if (self.is_meta()) {
    return at::empty(reduced_shape(self.sizes(), mask, keepdim), self.options().dtype(out_type));
  }
  // The dims as a list: [] means every dim to mean and sum as well.
  const Tensor x = in_opmath(self);
  const Tensor mean = at::mean(x, dim, /*keepdim=*/true);
  Tensor result = at::sum(squared_magnitude(x - mean), dim, keepdim);
  const double n = static_cast<double>(reduced_count(self.sizes(), mask));
  result.div_(std::max(0.0, n - static_cast<double>(correction.value_or(1))));
  if (take_sqrt) result.sqrt_();
  return result.scalar_type() == out_type ? result : result.to(out_type);
}

Tensor& var_out_impl(const Tensor& self, OptionalIntArrayRef dim, c10::optional<int64_t> correction,
                     bool keepdim, Tensor& out, bool take_sqrt) {
  check_var_dtype(self.scalar_type());
  TORCH_CHECK(c10::isFloatingType(out.scalar_type()) || c10::isComplexType(out.scalar_type()),
              "\"std_cpu\" not implemented for '", out.scalar_type(), "'");
  const Tensor result = var_impl(self, dim, correction, keepdim, take_sqrt);
  resize_out(out, result.sizes(), self, out.scalar_type());
  if (!out.is_meta()) out.copy_(result);
  return out;
}

}  // namespace

// ---- var, std -------------------------------------------------------------------------------

Tensor var(const Tensor& self, OptionalIntArrayRef dim, c10::optional<int64_t> correction,
           bool keepdim) {
  return var_impl(self, dim, correction, keepdim, /*take_sqrt=*/false);
}

Tensor& var_out(const Tensor& self, OptionalIntArrayRef dim, c10::optional<int64_t> correction,
                bool keepdim, Tensor& out) {
  return var_out_impl(self, dim, correction, keepdim, out, /*take_sqrt=*/false);
}

Tensor std(const Tensor& self, OptionalIntArrayRef dim, c10::optional<int64_t> correction,
           bool keepdim) {
  return var_impl(self, dim, correction, keepdim, /*take_sqrt=*/true);
}

Tensor& std_out(const Tensor& self, OptionalIntArrayRef dim, c10::optional<int64_t> correction,
                bool keepdim, Tensor& out) {
  return var_out_impl(self, dim, correction, keepdim, out, /*take_sqrt=*/true);
}

// The unbiased overloads: correction 1 (unbiased) or 0.
Tensor var(const Tensor& self, bool unbiased) {
  return at::var(self, c10::nullopt, c10::optional<int64_t>(unbiased ? 1 : 0), false);
}

Tensor var(const Tensor& self, OptionalIntArrayRef dim, bool unbiased, bool keepdim) {
  return at::var(self, dim, c10::optional<int64_t>(unbiased ? 1 : 0), keepdim);
}

Tensor& var_out(const Tensor& self, OptionalIntArrayRef dim, bool unbiased, bool keepdim,
                Tensor& out) {
  return at::var_out(out, self, dim, c10::optional<int64_t>(unbiased ? 1 : 0), keepdim);
}

Tensor std(const Tensor& self, bool unbiased) {
  return at::std(self, c10::nullopt, c10::optional<int64_t>(unbiased ? 1 : 0), false);
}

Tensor std(const Tensor& self, OptionalIntArrayRef dim, bool unbiased, bool keepdim) {
  return at::std(self, dim, c10::optional<int64_t>(unbiased ? 1 : 0), keepdim);
}

Tensor& std_out(const Tensor& self, OptionalIntArrayRef dim, bool unbiased, bool keepdim,
                Tensor& out) {
  return at::std_out(out, self, dim, c10::optional<int64_t>(unbiased ? 1 : 0), keepdim);
}

// ---- logsumexp ------------------------------------------------------------------------------

// Note [logsumexp over no dims]
// log(sum(exp(x - m))) + m with m the largest element of each reduction (an infinite m taken as
// 0, so that all -inf gives -inf and a +inf gives +inf rather than NaN). dim = [] means every
// dim here, as for sum and amax; libtorch 1.13 fails on it ("output with shape [] doesn't match
// the broadcast shape [1, 1, 1]": its amax keeps every dim, its sum reduces them all), which
// later versions fixed the same way.
Tensor& logsumexp_out(const Tensor& self, IntArrayRef dim, bool keepdim, Tensor& out) {
  TORCH_CHECK(
      c10::isFloatingType(out.scalar_type()),
      "logsumexp(): Expected floating point type for result tensor, but got: ", out.scalar_type());
  const Tensor x =
      c10::isIntegralType(self.scalar_type(), /*includeBool=*/true) ? self.to(kDefaultFloat) : self;
  const DimMask mask = make_dim_mask(dim, x.dim());
  const DimVector shape = reduced_shape(x.sizes(), mask, keepdim);
  resize_out(out, shape, x, out.scalar_type());
  // On Meta the same steps run on meta tensors: each gives its geometry and its errors.
  if (x.numel() == 0) {
    // Nothing to subtract: the sum of no terms is 0, its log -inf.
    return out.copy_(at::sum(at::exp(x), dim, keepdim).log_());
  }
  Tensor maxes = at::amax(x, dim, /*keepdim=*/true);
  maxes.masked_fill_(maxes.abs() == std::numeric_limits<double>::infinity(), 0);
  const Tensor sums = at::sum(at::exp(x - maxes), dim, keepdim);
  return out.copy_(sums.log_().add_(maxes.view(shape)));
}

Tensor logsumexp(const Tensor& self, IntArrayRef dim, bool keepdim) {
  const ScalarType type = c10::isIntegralType(self.scalar_type(), /*includeBool=*/true)
                              ? kDefaultFloat
                              : self.scalar_type();
  Tensor out = at::empty({0}, self.options().dtype(type));
  return at::logsumexp_out(out, self, dim, keepdim);
}

// ---- norm -----------------------------------------------------------------------------------

namespace {

// The 1- or 2-norm of a real CPU tensor in one pass: the sum of |x| or x * x (norm_sum_stub),
// then the root. See Note [The 1- and 2-norms are sums] in cpu/SumKernel.cpp.
Tensor fused_norm(const Tensor& x, int p, IntArrayRef dim, bool keepdim) {
  const DimMask mask = make_dim_mask(dim, x.dim());
  Tensor result = at::empty(reduced_shape(x.sizes(), mask, keepdim), x.options());
  reduce_into_zeroed(x, mask, keepdim, result,
                     [p](TensorIterator& iter) { norm_sum_stub(kCPU, iter, p); });
  return p == 2 ? result.sqrt_() : result;
}

// The p-norm of self over dim, in opmath (float for Half and BFloat16).
Tensor norm_impl(const Tensor& self, const c10::optional<Scalar>& opt_p, IntArrayRef dim,
                 bool keepdim) {
  const double p = opt_p.has_value() ? opt_p->toDouble() : 2.0;
  if ((p == 1 || p == 2) && self.is_cpu() && !self.is_complex() && self.numel() != 0) {
    return fused_norm(in_opmath(self), static_cast<int>(p), dim, keepdim);
  }
  const Tensor x = in_opmath(self).abs();
  if (x.numel() == 0) {
    // libtorch 1.13's norm of no elements is 0 for every p, -inf and negative p included.
    const DimMask mask = make_dim_mask(dim, x.dim());
    return at::zeros(reduced_shape(x.sizes(), mask, keepdim), x.options());
  }
  if (p == 0) return at::sum(x.ne(0).to(x.scalar_type()), dim, keepdim);
  if (p == 1) return at::sum(x, dim, keepdim);
  if (p == 2) return at::sum(x * x, dim, keepdim).sqrt_();
  if (std::isinf(p)) return p > 0 ? at::amax(x, dim, keepdim) : at::amin(x, dim, keepdim);
  return at::sum(x.pow(p), dim, keepdim).pow_(1.0 / p);
}

void check_norm_dtype(ScalarType type) {
  TORCH_CHECK(c10::isFloatingType(type) || c10::isComplexType(type),
              "norm(): input dtype should be either floating point or complex. Got ", type,
              " instead.");
}

}  // namespace

Tensor& norm_out(const Tensor& self, const c10::optional<Scalar>& p, IntArrayRef dim, bool keepdim,
                 Tensor& out) {
  check_norm_dtype(self.scalar_type());
  TORCH_CHECK(c10::isFloatingType(out.scalar_type()) || c10::isComplexType(out.scalar_type()),
              "\"norm_cpu\" not implemented for '", out.scalar_type(), "'");
  const DimMask mask = make_dim_mask(dim, self.dim());
  resize_out(out, reduced_shape(self.sizes(), mask, keepdim), self, out.scalar_type());
  if (out.is_meta()) return out;
  return out.copy_(norm_impl(self, p, dim, keepdim));
}

Tensor norm(const Tensor& self, const c10::optional<Scalar>& p, IntArrayRef dim, bool keepdim) {
  check_norm_dtype(self.scalar_type());
  Tensor out = at::empty({0}, self.options().dtype(c10::toRealValueType(self.scalar_type())));
  return at::norm_out(out, self, p, dim, keepdim);
}

Tensor norm(const Tensor& self, const Scalar& p) {
  return at::norm(self, c10::optional<Scalar>(p), IntArrayRef{}, false);
}

}  // namespace native
}  // namespace at
