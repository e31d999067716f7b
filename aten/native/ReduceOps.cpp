// Reductions and scans: sum, mean, cumsum (libtorch's ReduceOps.cpp). Each operator works out
// the output's dtype and shape (what libtorch's structured "meta" functions do), allocates or
// resizes the output, and hands the work to the kernels behind sum_stub / cumsum_stub
// (cpu/SumKernel.cpp, cpu/ReduceOpsKernel.cpp).
//
//   at::sum(t)                                  // every dim; Long for integral and Bool input
//   t.sum(at::IntArrayRef{0, -1}, /*keepdim=*/true)   // dims wrapped, duplicates rejected
//   at::mean(t, at::IntArrayRef{1}, false, at::kDouble)
//   at::cumsum(t, /*dim=*/1)
//
// Note [Reduction outputs]
// As libtorch 1.13: a new sum/mean/cumsum output is contiguous, whatever the input's layout
// (sum over dim 1 of a channels-last [N, C, H, W] with keepdim is [N, 1, H, W] with strides
// (HW, HW, W, 1)); an out= tensor must have the output dtype, is resized (with libtorch's
// deprecation warning when it had elements) and otherwise keeps its strides. The sum kernel
// sees the output through review_reduce_result: the reduced dims put back with size 1 and
// stride 0, so TensorIterator lines it up with the input and recognises the reduced dims. The
// input is first converted to the output dtype (self.to(dtype)), so that is the dtype the
// kernel accumulates in; see Note [Cascade sum] in cpu/SumKernel.cpp.

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "aten/ATen.h"
#include "aten/Dispatch.h"
#include "aten/NumericUtils.h"
#include "aten/OpMathType.h"
#include "aten/Parallel.h"
#include "aten/generated/NativeFunctions.h"
#include "aten/native/MetaStub.h"
#include "aten/native/ReduceOps.h"
#include "aten/native/ReduceOpsUtils.h"
#include "aten/native/Resize.h"
#include "aten/native/TensorIterator.h"
#include "c10/core/WrapDimMinimal.h"
#include "c10/util/WrappingArithmetic.h"

namespace at {
namespace native {

DEFINE_DISPATCH(sum_stub);
DEFINE_DISPATCH(norm_sum_stub);
DEFINE_DISPATCH(cumsum_stub);
DEFINE_DISPATCH(extremum_rows_stub);

// ---- Shape arithmetic (ReduceOpsUtils.h) ----------------------------------------------------

DimMask make_dim_mask(OptionalIntArrayRef opt_dims, int64_t ndim) {
  DimMask mask;
  if (!opt_dims.has_value() || opt_dims->empty()) return mask.flip();
  TORCH_CHECK(ndim <= static_cast<int64_t>(kMaxReductionDims), "only tensors with up to ",
              kMaxReductionDims, " dims are supported");
  c10::DimVector dims(opt_dims->begin(), opt_dims->end());
  for (int64_t& dim : dims) dim = c10::maybe_wrap_dim(dim, ndim);
  for (const int64_t dim : dims) {
    TORCH_CHECK(!mask[dim], "dim ", dim, " appears multiple times in the list of dims");
    mask.set(dim);
  }
  return mask;
}

DimVector reduced_shape(IntArrayRef sizes, const DimMask& mask, bool keepdim) {
  DimVector shape;
  for (size_t dim = 0; dim < sizes.size(); ++dim) {
    if (!mask[dim]) {
      shape.push_back(sizes[dim]);
    } else if (keepdim) {
      shape.push_back(1);
    }
  }
  return shape;
}

int64_t reduced_count(IntArrayRef sizes, const DimMask& mask) {
  int64_t count = 1;
  for (size_t dim = 0; dim < sizes.size(); ++dim) {
    if (mask[dim]) count = c10::wrapping_mul(count, sizes[dim]);
  }
  return count;
}

Tensor review_reduce_result(const Tensor& result, int64_t ndim, const DimMask& mask, bool keepdim) {
  if (keepdim) return result;
  DimVector shape(result.sizes().begin(), result.sizes().end());
  DimVector strides(result.strides().begin(), result.strides().end());
  for (int64_t dim = 0; dim < ndim; ++dim) {
    if (mask[dim]) {
      shape.insert(shape.begin() + dim, 1);
      strides.insert(strides.begin() + dim, 0);
    }
  }
  return result.as_strided(shape, strides);
}

ScalarType dtype_or_promoted(const Tensor& self, c10::optional<ScalarType> dtype) {
  if (dtype.has_value()) return *dtype;
  return c10::isIntegralType(self.scalar_type(), /*includeBool=*/true) ? kLong : self.scalar_type();
}

void reduce_into_zeroed(const Tensor& self, const DimMask& mask, bool keepdim, const Tensor& result,
                        c10::function_ref<void(TensorIterator&)> kernel) {
  Tensor viewed = review_reduce_result(result, self.dim(), mask, keepdim);
  auto iter = TensorIterator::reduce_op(viewed, self);
  result.zero_();
  if (iter.numel() == 0) return;
  kernel(iter);
}

namespace {

// result = the sum of self over the dims in mask. result has the reduced shape and its dtype
// is the accumulation dtype.
void sum_impl(const Tensor& self, const DimMask& mask, bool keepdim, const Tensor& result) {
  if (result.is_meta()) return;
  const Tensor input =
      self.scalar_type() == result.scalar_type() ? self : self.to(result.scalar_type());
  reduce_into_zeroed(input, mask, keepdim, result,
                     [](TensorIterator& iter) { sum_stub(iter.device_type(), iter); });
}

// result /= count, elementwise in result's dtype (libtorch's div_ with a Scalar divisor).
void divide_by_count(const Tensor& result, int64_t count) {
  if (!result.is_cpu()) {
    // The same division by a wrapped number, run by the device's div kernel.
    Tensor out = result;
    out.div_(c10::Scalar(count));
    return;
  }
  Tensor out = result;
  auto iter = TensorIterator::nullary_op(out);
  AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES(result.scalar_type(), "mean_cpu", [&] {
    // A complex sum is divided by a complex divisor (count, 0), as libtorch's div_ does.
    const scalar_t divisor = static_cast<scalar_t>(count);
    iter.for_each([divisor](char** data, const int64_t* strides, int64_t n) {
      for (int64_t i = 0; i < n; ++i) {
        scalar_t* p = reinterpret_cast<scalar_t*>(data[0] + i * strides[0]);
        *p = *p / divisor;
      }
    });
  });
}

// libtorch's mean.dim meta check: only floating dtypes have a mean.
void check_mean_dtype(const Tensor& self, c10::optional<ScalarType> dtype) {
  const ScalarType st = dtype_or_promoted(self, dtype);
  TORCH_CHECK(c10::isFloatingType(st) || c10::isComplexType(st),
              "mean(): could not infer output dtype. ", dtype.has_value() ? "Optional" : "Input",
              " dtype must be either a floating point or complex dtype. Got: ",
              dtype.has_value() ? *dtype : self.scalar_type());
}

// libtorch 1.13's CPU mean: a sum in the output dtype divided by the count; Half and BFloat16
// sum and divide in float and round once at the end.
void mean_impl(const Tensor& self, const DimMask& mask, bool keepdim, const Tensor& result) {
  if (result.is_meta()) return;
  // What dividing an integral out= tensor in place would say.
  TORCH_CHECK(c10::isFloatingType(result.scalar_type()) || c10::isComplexType(result.scalar_type()),
              "result type Float can't be cast to the desired output type ", result.scalar_type());
  const int64_t count = reduced_count(self.sizes(), mask);
  if (c10::isReducedFloatingType(result.scalar_type())) {
    Tensor sum = at::empty(result.sizes(), result.options().dtype(kFloat));
    sum_impl(self, mask, keepdim, sum);
    divide_by_count(sum, count);
    result.copy_(sum);
    return;
  }
  sum_impl(self, mask, keepdim, result);
  divide_by_count(result, count);
}

void cumsum_impl(const Tensor& self, int64_t dim, const Tensor& result) {
  if (result.is_meta()) {
    // Note [Meta asks the CPU kernel which dtypes it takes] (MetaStub.h).
    if (self.dim() > 0 && self.numel() > 0) {
      // The input as the kernel sees it, converted to the result's dtype (and of its dims).
      cumsum_stub(kCPU, cpu_stand_in(result), cpu_stand_in(result),
                  c10::maybe_wrap_dim(dim, self.dim()));
    }
    return;
  }
  if (self.dim() == 0) {
    result.fill_(self);
  } else if (self.numel() == 0) {
    result.zero_();
  } else {
    dim = c10::maybe_wrap_dim(dim, self.dim());
    const Tensor input =
        self.scalar_type() == result.scalar_type() ? self : self.to(result.scalar_type());
    cumsum_stub(self.device().type(), result, input, dim);
  }
}

}  // namespace

// ---- sum ------------------------------------------------------------------------------------

Tensor sum_cpu(const Tensor& self, OptionalIntArrayRef dim, bool keepdim,
               c10::optional<ScalarType> dtype) {
  const ScalarType out_dtype = dtype_or_promoted(self, dtype);
  const DimMask mask = make_dim_mask(dim, self.dim());
  Tensor result =
      at::empty(reduced_shape(self.sizes(), mask, keepdim), self.options().dtype(out_dtype));
  sum_impl(self, mask, keepdim, result);
  return result;
}

Tensor& sum_out(const Tensor& self, OptionalIntArrayRef dim, bool keepdim,
                c10::optional<ScalarType> dtype, Tensor& out) {
  const ScalarType out_dtype = dtype.value_or(out.scalar_type());
  const DimMask mask = make_dim_mask(dim, self.dim());
  resize_out(out, reduced_shape(self.sizes(), mask, keepdim), self, out_dtype);
  sum_impl(self, mask, keepdim, out);
  return out;
}

Tensor sum(const Tensor& self, c10::optional<ScalarType> dtype) {
  return at::sum(self, IntArrayRef{}, false, dtype);
}

// ---- mean -----------------------------------------------------------------------------------

Tensor mean_cpu(const Tensor& self, OptionalIntArrayRef dim, bool keepdim,
                c10::optional<ScalarType> dtype) {
  check_mean_dtype(self, dtype);
  const ScalarType out_dtype = dtype_or_promoted(self, dtype);
  const DimMask mask = make_dim_mask(dim, self.dim());
  Tensor result =
      at::empty(reduced_shape(self.sizes(), mask, keepdim), self.options().dtype(out_dtype));
  mean_impl(self, mask, keepdim, result);
  return result;
}

Tensor& mean_out(const Tensor& self, OptionalIntArrayRef dim, bool keepdim,
                 c10::optional<ScalarType> dtype, Tensor& out) {
  check_mean_dtype(self, dtype);
  const ScalarType out_dtype = dtype.value_or(out.scalar_type());
  const DimMask mask = make_dim_mask(dim, self.dim());
  resize_out(out, reduced_shape(self.sizes(), mask, keepdim), self, out_dtype);
  mean_impl(self, mask, keepdim, out);
  return out;
}

Tensor mean(const Tensor& self, c10::optional<ScalarType> dtype) {
  return at::mean(self, IntArrayRef{}, false, dtype);
}

// ---- cumsum ---------------------------------------------------------------------------------

Tensor cumsum_cpu(const Tensor& self, int64_t dim, c10::optional<ScalarType> dtype) {
  c10::maybe_wrap_dim(dim, self.dim());
  Tensor result = at::empty(self.sizes(), self.options().dtype(dtype_or_promoted(self, dtype)));
  cumsum_impl(self, dim, result);
  return result;
}

Tensor& cumsum_out(const Tensor& self, int64_t dim, c10::optional<ScalarType> dtype, Tensor& out) {
  c10::maybe_wrap_dim(dim, self.dim());
  resize_out(out, self.sizes(), self, dtype.value_or(out.scalar_type()));
  cumsum_impl(self, dim, out);
  return out;
}

}  // namespace native
}  // namespace at

// ---- argmax / argmin, max.dim / min.dim ----------------------------------------------------

namespace at {
namespace native {

namespace {

// The reduction of self along `dim` (every element when dim is None) as rows of a contiguous
// matrix, and the output's shape.
struct ExtremumRows {
  Tensor rows;
  std::vector<int64_t> out_shape;
  bool single = false;  // the reduced dim has one element: index 0, value self
};

ExtremumRows extremum_rows_of(const Tensor& self, c10::optional<int64_t> dim, bool keepdim,
                              const char* name) {
  ExtremumRows r;
  if (dim.has_value()) {
    const int64_t d = c10::maybe_wrap_dim(*dim, self.dim());
    if (self.dim() > 0) {
      TORCH_CHECK_INDEX(self.size(d) != 0, name, "(): Expected reduction dim ", d,
                        " to have non-zero size.");
      r.out_shape = self.sizes().vec();
      if (keepdim) {
        r.out_shape[static_cast<size_t>(d)] = 1;
      } else {
        r.out_shape.erase(r.out_shape.begin() + d);
      }
    }
    r.rows = self.dim() == 0 ? self.reshape({1, 1}) : self.movedim(d, -1);
    r.single = self.dim() == 0 || self.size(d) == 1;
  } else {
    TORCH_CHECK_INDEX(self.numel() != 0, name,
                      "(): Expected reduction dim to be specified for input.numel() == 0.");
    if (keepdim) r.out_shape.assign(static_cast<size_t>(self.dim()), 1);
    r.rows = self.reshape({1, -1});
  }
  return r;
}

// Fills `indices` (Long, the output's shape) and, when defined, `values` (self's dtype).
void extremum_impl(const Tensor& self, const ExtremumRows& r, const Tensor& values,
                   const Tensor& indices, bool is_max) {
  if (indices.is_meta() || indices.numel() == 0) return;
  // A dim of one element: every index is 0, before any dtype is looked at (libtorch's shortcut).
  if (r.single) {
    indices.zero_();
    if (values.defined()) values.copy_(self.reshape(r.out_shape));
    return;
  }
  const Tensor input = r.rows.contiguous();
  const int64_t n = input.dim() == 0 ? 1 : input.size(-1);
  const int64_t rows = input.numel() / n;
  Tensor index_rows = at::empty({rows}, indices.options());
  Tensor value_rows = values.defined() ? at::empty({rows}, values.options()) : Tensor();
  extremum_rows_stub(input.device().type(), input.view({rows, n}), value_rows, index_rows, is_max);
  indices.copy_(index_rows.view(r.out_shape));
  if (values.defined()) values.copy_(value_rows.view(r.out_shape));
}

Tensor arg_reduce(const Tensor& self, c10::optional<int64_t> dim, bool keepdim, bool is_max) {
  const char* name = is_max ? "argmax" : "argmin";
  const ExtremumRows r = extremum_rows_of(self, dim, keepdim, name);
  Tensor result = at::empty(r.out_shape, self.options().dtype(kLong));
  if (!r.single && result.numel() != 0) {  // Meta too: the check needs no data
    const ScalarType type = self.scalar_type();
    TORCH_CHECK(type != kBool && !c10::isComplexType(type), "\"", name,
                self.is_cuda() ? "_cuda" : "_cpu", "\" not implemented for '", type, "'");
  }
  extremum_impl(self, r, Tensor(), result, is_max);
  return result;
}

void extremum_dim_out(const Tensor& self, int64_t dim, bool keepdim, const Tensor& values,
                      const Tensor& indices, bool is_max) {
  const char* name = is_max ? "max" : "min";
  TORCH_CHECK(!self.is_complex(), name, "(): does not support complex input");
  const ExtremumRows r = extremum_rows_of(self, dim, keepdim, name);
  resize_out(values, r.out_shape, self, self.scalar_type());
  resize_out(indices, r.out_shape, self, kLong);
  extremum_impl(self, r, values, indices, is_max);
}

std::tuple<Tensor, Tensor> extremum_dim(const Tensor& self, int64_t dim, bool keepdim,
                                        bool is_max) {
  Tensor values = at::empty({0}, self.options());
  Tensor indices = at::empty({0}, self.options().dtype(kLong));
  extremum_dim_out(self, dim, keepdim, values, indices, is_max);
  return std::make_tuple(values, indices);
}

}  // namespace

Tensor argmax(const Tensor& self, c10::optional<int64_t> dim, bool keepdim) {
  return arg_reduce(self, dim, keepdim, /*is_max=*/true);
}

Tensor argmin(const Tensor& self, c10::optional<int64_t> dim, bool keepdim) {
  return arg_reduce(self, dim, keepdim, /*is_max=*/false);
}

std::tuple<Tensor, Tensor> max(const Tensor& self, int64_t dim, bool keepdim) {
  return extremum_dim(self, dim, keepdim, /*is_max=*/true);
}

std::tuple<Tensor&, Tensor&> max_out(const Tensor& self, int64_t dim, bool keepdim, Tensor& max,
                                     Tensor& max_values) {
  extremum_dim_out(self, dim, keepdim, max, max_values, /*is_max=*/true);
  return std::forward_as_tuple(max, max_values);
}

std::tuple<Tensor, Tensor> min(const Tensor& self, int64_t dim, bool keepdim) {
  return extremum_dim(self, dim, keepdim, /*is_max=*/false);
}

std::tuple<Tensor&, Tensor&> min_out(const Tensor& self, int64_t dim, bool keepdim, Tensor& min,
                                     Tensor& min_indices) {
  extremum_dim_out(self, dim, keepdim, min, min_indices, /*is_max=*/false);
  return std::forward_as_tuple(min, min_indices);
}

}  // namespace native
}  // namespace at
