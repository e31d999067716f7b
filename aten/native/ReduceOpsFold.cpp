// The reductions that fold their elements with one operation: prod, amax/amin, max()/min() (every
// element), any/all (libtorch's ReduceOps.cpp and TensorCompare.cpp). Each works out the
// output's dtype and shape, fills it with the operation's identity and hands the fold to its
// kernel (cpu/FoldReduceKernel.cpp, through the stubs in ReduceOps.h).
//
//   at::prod(t, /*dim=*/1, /*keepdim=*/true)   // integers and Bool multiply as Long
//   t.amax({0, 2})                             // NaN propagates; [] means every dim
//   t.any(0)                                   // Bool (Byte for a Byte input)
//
// Outputs follow Note [Reduction outputs] in ReduceOps.cpp: new outputs are contiguous, out=
// tensors must have the output dtype and are resized.

#include <limits>

#include "aten/ATen.h"
#include "aten/Dispatch.h"
#include "aten/generated/NativeFunctions.h"
#include "aten/native/ReduceOps.h"
#include "aten/native/ReduceOpsUtils.h"
#include "aten/native/Resize.h"
#include "aten/native/TensorIterator.h"

namespace at {
namespace native {

DEFINE_DISPATCH(prod_stub);
DEFINE_DISPATCH(max_values_stub);
DEFINE_DISPATCH(min_values_stub);
DEFINE_DISPATCH(and_stub);
DEFINE_DISPATCH(or_stub);

namespace {

// result (the reduced shape, input's dtype) = the fold of input over the dims in mask.
// An out= tensor that shares memory with the input gets the result through a temporary: filling
// it with the identity first would overwrite the input (libtorch 1.13's amax_out(x, x, ...)
// returns the identity there).
template <typename Stub>
void fold_impl(Stub& stub, const Tensor& input, const DimMask& mask, bool keepdim,
               const Tensor& result, const Scalar& identity) {
  if (result.is_meta()) return;
  if (result.is_alias_of(input)) {
    const Tensor fresh = at::empty_like(result);
    fold_impl(stub, input, mask, keepdim, fresh, identity);
    result.copy_(fresh);
    return;
  }
  Tensor viewed = review_reduce_result(result, input.dim(), mask, keepdim);
  auto iter = TensorIterator::reduce_op(viewed, input);
  result.fill_(identity);
  if (iter.numel() == 0) return;
  stub(iter.device_type(), iter);
}

// libtorch's zero_numel_check_dims: max and min have no identity to give an empty reduction. The
// dims are named as the caller wrote them (-1, not its wrapped 1), as libtorch does.
void check_nonempty_reduction(const Tensor& self, OptionalIntArrayRef dims, const char* name) {
  if (self.numel() != 0) return;
  if (!dims.has_value() || dims->empty()) {
    TORCH_CHECK_INDEX(self.dim() == 0, name,
                      "(): Expected reduction dim to be specified for input.numel() == 0. "
                      "Specify the reduction dim with the 'dim' argument.");
    return;
  }
  for (const int64_t d : *dims) {
    TORCH_CHECK_INDEX(self.dim() == 0 || self.size(c10::maybe_wrap_dim(d, self.dim())) != 0, name,
                      "(): Expected reduction dim ", d, " to have non-zero size.");
  }
}

// The identity of max (is_max) or min in `type`: the lowest or greatest value, -inf or inf.
Scalar extremum_identity(ScalarType type, bool is_max) {
  Scalar identity;
  AT_DISPATCH_ALL_TYPES_AND3(kHalf, kBFloat16, kBool, type, "extremum_identity", [&] {
    using limits = std::numeric_limits<scalar_t>;
    if (limits::has_infinity) {
      identity = is_max ? -limits::infinity() : limits::infinity();
    } else {
      identity = is_max ? limits::lowest() : limits::max();
    }
  });
  return identity;
}

void extremum_fold(const Tensor& self, OptionalIntArrayRef dims, bool keepdim, const Tensor& result,
                   bool is_max, const char* name) {
  const DimMask mask = make_dim_mask(dims, self.dim());
  check_nonempty_reduction(self, dims, name);
  TORCH_CHECK(!self.is_complex(), "\"", is_max ? "max_values" : "min_values",
              self.is_cuda() ? "_cuda" : "_cpu", "\" not implemented for '", self.scalar_type(),
              "'");
  resize_out(result, reduced_shape(self.sizes(), mask, keepdim), self, self.scalar_type());
  const Scalar identity = extremum_identity(self.scalar_type(), is_max);
  if (is_max) {
    fold_impl(max_values_stub, self, mask, keepdim, result, identity);
  } else {
    fold_impl(min_values_stub, self, mask, keepdim, result, identity);
  }
}

Tensor extremum_all(const Tensor& self, bool is_max) {
  const char* name = is_max ? "max" : "min";
  check_nonempty_reduction(self, c10::nullopt, name);
  TORCH_CHECK(!self.is_complex(), "\"", name, "_all\" not implemented for '", self.scalar_type(),
              "'");
  Tensor result = at::empty({}, self.options());
  extremum_fold(self, c10::nullopt, false, result, is_max, name);
  return result;
}

void prod_impl(const Tensor& self, OptionalIntArrayRef dims, bool keepdim, const Tensor& result) {
  const DimMask mask = make_dim_mask(dims, self.dim());
  resize_out(result, reduced_shape(self.sizes(), mask, keepdim), self, result.scalar_type());
  const Tensor input =
      self.scalar_type() == result.scalar_type() ? self : self.to(result.scalar_type());
  fold_impl(prod_stub, input, mask, keepdim, result, 1);
}

// any/all: Bool out, or Byte for a Byte input (libtorch keeps uint8 for NumPy's sake).
ScalarType logical_fold_dtype(const Tensor& self) {
  return self.scalar_type() == kByte ? kByte : kBool;
}

void logical_fold(const Tensor& self, OptionalIntArrayRef dims, bool keepdim, const Tensor& result,
                  bool is_and) {
  const char* name = is_and ? "all" : "any";
  TORCH_CHECK(result.scalar_type() == kBool || result.scalar_type() == kByte, name,
              " only supports bool tensor for result, got: ", result.scalar_type());
  const DimMask mask = make_dim_mask(dims, self.dim());
  resize_out(result, reduced_shape(self.sizes(), mask, keepdim), self, result.scalar_type());
  // Every element as true (nonzero, NaN included) or false, in the output's dtype: the kernels
  // fold 0s and 1s (a Byte 2 becomes 1).
  const Tensor input = self.scalar_type() == kBool && result.scalar_type() == kBool
                           ? self
                           : self.ne(0).to(result.scalar_type());
  if (is_and) {
    fold_impl(and_stub, input, mask, keepdim, result, true);
  } else {
    fold_impl(or_stub, input, mask, keepdim, result, false);
  }
}

}  // namespace

// ---- prod -----------------------------------------------------------------------------------

Tensor prod(const Tensor& self, c10::optional<ScalarType> dtype) {
  Tensor result = at::empty({}, self.options().dtype(dtype_or_promoted(self, dtype)));
  prod_impl(self, c10::nullopt, false, result);
  return result;
}

Tensor prod(const Tensor& self, int64_t dim, bool keepdim, c10::optional<ScalarType> dtype) {
  Tensor result = at::empty({0}, self.options().dtype(dtype_or_promoted(self, dtype)));
  prod_impl(self, IntArrayRef{dim}, keepdim, result);
  return result;
}

Tensor& prod_out(const Tensor& self, int64_t dim, bool keepdim, c10::optional<ScalarType> dtype,
                 Tensor& out) {
  const ScalarType out_dtype = dtype.value_or(out.scalar_type());
  resize_out(out, out.sizes(), self, out_dtype);
  prod_impl(self, IntArrayRef{dim}, keepdim, out);
  return out;
}

// ---- amax, amin, max(), min() ---------------------------------------------------------------

Tensor amax(const Tensor& self, IntArrayRef dim, bool keepdim) {
  Tensor result = at::empty({0}, self.options());
  extremum_fold(self, dim, keepdim, result, /*is_max=*/true, "amax");
  return result;
}

Tensor& amax_out(const Tensor& self, IntArrayRef dim, bool keepdim, Tensor& out) {
  TORCH_CHECK(self.scalar_type() == out.scalar_type(),
              "Expected the dtype for input and out to match, but got ", self.scalar_type(),
              " for input's dtype and ", out.scalar_type(), " for out's dtype.");
  extremum_fold(self, dim, keepdim, out, /*is_max=*/true, "amax");
  return out;
}

Tensor amin(const Tensor& self, IntArrayRef dim, bool keepdim) {
  Tensor result = at::empty({0}, self.options());
  extremum_fold(self, dim, keepdim, result, /*is_max=*/false, "amin");
  return result;
}

Tensor& amin_out(const Tensor& self, IntArrayRef dim, bool keepdim, Tensor& out) {
  TORCH_CHECK(self.scalar_type() == out.scalar_type(),
              "Expected the dtype for input and out to match, but got ", self.scalar_type(),
              " for input's dtype and ", out.scalar_type(), " for out's dtype.");
  extremum_fold(self, dim, keepdim, out, /*is_max=*/false, "amin");
  return out;
}

Tensor max(const Tensor& self) {
  return extremum_all(self, /*is_max=*/true);
}

Tensor min(const Tensor& self) {
  return extremum_all(self, /*is_max=*/false);
}

// max(a, b) and min(a, b) are maximum and minimum.
Tensor max(const Tensor& self, const Tensor& other) {
  return at::maximum(self, other);
}

Tensor& max_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return at::maximum_out(out, self, other);
}

Tensor min(const Tensor& self, const Tensor& other) {
  return at::minimum(self, other);
}

Tensor& min_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return at::minimum_out(out, self, other);
}

// ---- any, all -------------------------------------------------------------------------------

Tensor any(const Tensor& self) {
  Tensor result = at::empty({}, self.options().dtype(logical_fold_dtype(self)));
  logical_fold(self, c10::nullopt, false, result, /*is_and=*/false);
  return result;
}

Tensor any(const Tensor& self, int64_t dim, bool keepdim) {
  Tensor result = at::empty({0}, self.options().dtype(logical_fold_dtype(self)));
  logical_fold(self, IntArrayRef{dim}, keepdim, result, /*is_and=*/false);
  return result;
}

Tensor& any_out(const Tensor& self, int64_t dim, bool keepdim, Tensor& out) {
  logical_fold(self, IntArrayRef{dim}, keepdim, out, /*is_and=*/false);
  return out;
}

Tensor all(const Tensor& self) {
  Tensor result = at::empty({}, self.options().dtype(logical_fold_dtype(self)));
  logical_fold(self, c10::nullopt, false, result, /*is_and=*/true);
  return result;
}

Tensor all(const Tensor& self, int64_t dim, bool keepdim) {
  Tensor result = at::empty({0}, self.options().dtype(logical_fold_dtype(self)));
  logical_fold(self, IntArrayRef{dim}, keepdim, result, /*is_and=*/true);
  return result;
}

Tensor& all_out(const Tensor& self, int64_t dim, bool keepdim, Tensor& out) {
  logical_fold(self, IntArrayRef{dim}, keepdim, out, /*is_and=*/true);
  return out;
}

}  // namespace native
}  // namespace at
