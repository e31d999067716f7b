#include "aten/native/TypePromotion.h"

#include "aten/ATen.h"

namespace at {
namespace native {

namespace {

c10::ScalarType promote_skip_undefined(c10::ScalarType a, c10::ScalarType b) {
  if (a == c10::ScalarType::Undefined) return b;
  if (b == c10::ScalarType::Undefined) return a;
  return c10::promoteTypes(a, b);
}

// See Note [Promotion categories].
c10::ScalarType combine_categories(c10::ScalarType higher, c10::ScalarType lower) {
  if (c10::isComplexType(higher)) return higher;
  if (c10::isComplexType(lower)) {
    // A floating higher category keeps its precision: float_tensor + 1j is ComplexFloat,
    // double_tensor + 1j ComplexDouble; an integral one takes the complex type as it is.
    return c10::isFloatingType(higher) ? c10::toComplexType(higher) : lower;
  }
  if (c10::isFloatingType(higher)) return higher;
  if (higher == c10::ScalarType::Bool || c10::isFloatingType(lower)) {
    return promote_skip_undefined(higher, lower);
  }
  if (higher != c10::ScalarType::Undefined) return higher;
  return lower;
}

ResultTypeState update(c10::ScalarType current, bool has_dims, bool wrapped,
                       const ResultTypeState& in_state) {
  ResultTypeState s = in_state;
  // A wrapped float counts as the default dtype (Float), a wrapped complex as the default
  // complex dtype (ComplexFloat).
  if (wrapped && c10::isFloatingType(current)) current = c10::ScalarType::Float;
  if (wrapped && c10::isComplexType(current)) current = c10::ScalarType::ComplexFloat;
  if (has_dims) {
    s.dimResult = promote_skip_undefined(in_state.dimResult, current);
  } else if (wrapped) {
    s.wrappedResult = promote_skip_undefined(in_state.wrappedResult, current);
  } else {
    s.zeroResult = promote_skip_undefined(in_state.zeroResult, current);
  }
  return s;
}

}  // namespace

ResultTypeState update_result_type_state(const Tensor& tensor, const ResultTypeState& in_state) {
  if (!tensor.defined()) return in_state;
  return update(tensor.scalar_type(), tensor.dim() > 0,
                tensor.unsafeGetTensorImpl()->is_wrapped_number(), in_state);
}

ResultTypeState update_result_type_state(const c10::Scalar& scalar,
                                         const ResultTypeState& in_state) {
  return update(scalar.type(), /*has_dims=*/false, /*wrapped=*/true, in_state);
}

c10::ScalarType result_type(const ResultTypeState& state) {
  return combine_categories(state.dimResult,
                            combine_categories(state.zeroResult, state.wrappedResult));
}

}  // namespace native

c10::ScalarType result_type(const Tensor& a, const Tensor& b) {
  native::ResultTypeState state;
  state = native::update_result_type_state(a, state);
  state = native::update_result_type_state(b, state);
  return native::result_type(state);
}

c10::ScalarType result_type(const Tensor& a, const c10::Scalar& b) {
  native::ResultTypeState state;
  state = native::update_result_type_state(a, state);
  state = native::update_result_type_state(b, state);
  return native::result_type(state);
}

Tensor wrapped_scalar_tensor(const c10::Scalar& s) {
  Tensor t = at::detail::empty_cpu({}, s.type());
  c10::TensorImpl* impl = t.unsafeGetTensorImpl();
  if (s.isFloatingPoint()) {
    *t.data_ptr<double>() = s.toDouble();
  } else if (s.isComplex()) {
    *t.data_ptr<c10::complex<double>>() = s.toComplexDouble();
  } else if (s.isBoolean()) {
    *t.data_ptr<bool>() = s.toBool();
  } else {
    *t.data_ptr<int64_t>() = s.toLong();
  }
  impl->set_wrapped_number(true);
  return t;
}

}  // namespace at
