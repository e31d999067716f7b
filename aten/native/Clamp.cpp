// clamp, clamp_min, clamp_max with Scalar or Tensor bounds. libtorch's
// aten/src/ATen/native/TensorCompare.cpp.
//
// Note [clamp's promotion and NaN bounds]
// As libtorch 1.13. Scalar bounds take part in type promotion only when self is not floating:
// clamp(Long, 0.5, 2) is Float, clamp(Float, 0, 2) stays Float; the in-place form refuses a
// promotion: "result type Float can't be cast to the desired output type Long" (libtorch 1.13
// prints the dtype as a C++ type there, "long int": a slip, not copied). A NaN Scalar bound makes
// every element NaN (clamp with both bounds, clamp_min, clamp_max); clamp with one NaN bound given
// ignores it. Tensor bounds are a TensorIterator over (self, min, max) in their common dtype: with
// one bound, clamp is maximum or minimum (NaN-propagating), with both, NaN anywhere gives NaN.
// Complex tensors and bounds: "clamp is not supported for complex types".

#include "aten/native/Clamp.h"
#include "aten/ATen.h"
#include "aten/generated/NativeFunctions.h"
#include "aten/native/BinaryOps.h"
#include "aten/native/MetaStub.h"
#include "aten/native/TypePromotion.h"

#include <limits>

namespace at {
namespace native {

DEFINE_DISPATCH(clamp_stub);
DEFINE_DISPATCH(clamp_scalar_stub);
DEFINE_DISPATCH(clamp_min_scalar_stub);
DEFINE_DISPATCH(clamp_max_scalar_stub);

namespace {

constexpr const char* kComplexError = "clamp is not supported for complex types";

bool is_nan(const Scalar& s) {
  const double v = s.toDouble();
  return v != v;
}

// The dtype clamp computes in (Note [clamp's promotion and NaN bounds]).
c10::ScalarType clamp_result_type(const Tensor& self, const c10::optional<Scalar>& min,
                                  const c10::optional<Scalar>& max) {
  TORCH_CHECK(!self.is_complex(), kComplexError);
  TORCH_CHECK(!(min && min->isComplex()) && !(max && max->isComplex()), kComplexError);
  if (c10::isFloatingType(self.scalar_type())) return self.scalar_type();
  ResultTypeState state = update_result_type_state(self, {});
  if (min) state = update_result_type_state(*min, state);
  if (max) state = update_result_type_state(*max, state);
  return result_type(state);
}

TensorIterator run_clamp_scalar(Tensor& out, const Tensor& self, const c10::optional<Scalar>& min,
                                const c10::optional<Scalar>& max) {
  TORCH_CHECK(min || max, "torch.clamp: At least one of 'min' or 'max' must not be None");
  const c10::ScalarType dtype = clamp_result_type(self, min, max);
  TORCH_CHECK(dtype == self.scalar_type() || !out.defined() || !out.is_same(self), "result type ",
              dtype, " can't be cast to the desired output type ", self.scalar_type());
  auto iter = TensorIterator::unary_op(out, dtype == self.scalar_type() ? self : self.to(dtype));
  if (min && max) {
    if (is_nan(*min) || is_nan(*max)) {
      iter.output().fill_(std::numeric_limits<double>::quiet_NaN());
    } else {
      run_stub(clamp_scalar_stub, iter, *min, *max);
    }
  } else if (max) {
    run_stub(clamp_max_scalar_stub, iter, *max);
  } else {
    run_stub(clamp_min_scalar_stub, iter, *min);
  }
  return iter;
}

// clamp_min / clamp_max with a Scalar: the same promotion and in-place check.
template <typename Stub>
TensorIterator run_clamp_bound(Stub& stub, Tensor& out, const Tensor& self, const Scalar& bound) {
  const c10::ScalarType dtype = clamp_result_type(self, bound, c10::nullopt);
  TORCH_CHECK(dtype == self.scalar_type() || !out.defined() || !out.is_same(self), "result type ",
              dtype, " can't be cast to the desired output type ", self.scalar_type());
  auto iter = TensorIterator::unary_op(out, dtype == self.scalar_type() ? self : self.to(dtype));
  if (is_nan(bound)) {
    iter.output().fill_(bound);
  } else {
    run_stub(stub, iter, bound);
  }
  return iter;
}

// (out, self, min?, max?) in their common dtype, cast to out's if that is safe.
TensorIterator run_clamp_tensor(Tensor& out, const Tensor& self, const c10::optional<Tensor>& min,
                                const c10::optional<Tensor>& max) {
  const bool has_min = min && min->defined();
  const bool has_max = max && max->defined();
  TORCH_CHECK(has_min || has_max, "torch.clamp: At least one of 'min' or 'max' must not be None");
  TORCH_CHECK(!self.is_complex(), kComplexError);
  TensorIteratorConfig config;
  config.set_check_mem_overlap(true)
      .add_output(out)
      .add_input(self)
      .promote_inputs_to_common_dtype(true)
      .cast_common_dtype_to_outputs(true)
      .enforce_safe_casting_to_output(true);
  if (has_min) config.add_input(*min);
  if (has_max) config.add_input(*max);
  auto iter = config.build();
  if (has_min && has_max) {
    run_stub(clamp_stub, iter);
  } else if (has_min) {
    run_stub(maximum_stub, iter);
  } else {
    run_stub(minimum_stub, iter);
  }
  return iter;
}

}  // namespace

Tensor clamp(const Tensor& self, const c10::optional<Scalar>& min,
             const c10::optional<Scalar>& max) {
  Tensor out;
  return run_clamp_scalar(out, self, min, max).output();
}

Tensor& clamp_(Tensor& self, const c10::optional<Scalar>& min, const c10::optional<Scalar>& max) {
  run_clamp_scalar(self, self, min, max);
  return self;
}

Tensor& clamp_out(const Tensor& self, const c10::optional<Scalar>& min,
                  const c10::optional<Scalar>& max, Tensor& out) {
  run_clamp_scalar(out, self, min, max);
  return out;
}

Tensor clamp(const Tensor& self, const c10::optional<Tensor>& min,
             const c10::optional<Tensor>& max) {
  Tensor out;
  return run_clamp_tensor(out, self, min, max).output();
}

Tensor& clamp_(Tensor& self, const c10::optional<Tensor>& min, const c10::optional<Tensor>& max) {
  run_clamp_tensor(self, self, min, max);
  return self;
}

Tensor& clamp_out(const Tensor& self, const c10::optional<Tensor>& min,
                  const c10::optional<Tensor>& max, Tensor& out) {
  run_clamp_tensor(out, self, min, max);
  return out;
}

#define MINIATEN_DEFINE_CLAMP_BOUND(name, bound_stub, ...)                   \
  Tensor name(const Tensor& self, const Scalar& bound) {                     \
    Tensor out;                                                              \
    return run_clamp_bound(bound_stub, out, self, bound).output();           \
  }                                                                          \
  Tensor& name##_(Tensor& self, const Scalar& bound) {                       \
    run_clamp_bound(bound_stub, self, self, bound);                          \
    return self;                                                             \
  }                                                                          \
  Tensor& name##_out(const Tensor& self, const Scalar& bound, Tensor& out) { \
    run_clamp_bound(bound_stub, out, self, bound);                           \
    return out;                                                              \
  }                                                                          \
  Tensor name(const Tensor& self, const Tensor& bound) {                     \
    Tensor out;                                                              \
    return run_clamp_tensor(out, self, __VA_ARGS__).output();                \
  }                                                                          \
  Tensor& name##_(Tensor& self, const Tensor& bound) {                       \
    run_clamp_tensor(self, self, __VA_ARGS__);                               \
    return self;                                                             \
  }                                                                          \
  Tensor& name##_out(const Tensor& self, const Tensor& bound, Tensor& out) { \
    run_clamp_tensor(out, self, __VA_ARGS__);                                \
    return out;                                                              \
  }

MINIATEN_DEFINE_CLAMP_BOUND(clamp_min, clamp_min_scalar_stub, bound, c10::nullopt)
MINIATEN_DEFINE_CLAMP_BOUND(clamp_max, clamp_max_scalar_stub, c10::nullopt, bound)

#undef MINIATEN_DEFINE_CLAMP_BOUND

}  // namespace native
}  // namespace at
