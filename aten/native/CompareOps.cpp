// The comparisons eq, ne, lt, le, gt, ge and the selection where: argument checks and the
// TensorIterator; kernels in aten/native/cpu/BinaryOpsKernel.cpp. libtorch's
// BinaryOps.cpp (comparisons) and TensorCompare.cpp (where).
//
// Note [Comparison outputs]
// Inputs are compared in their common dtype (u8 tensor >= -1 compares with -1 converted to
// uint8, i.e. 255, as libtorch does). The functional form's output is Bool: an empty Bool tensor
// that TensorIterator resizes with the inputs' layout. An out= tensor keeps its dtype; when that
// is not Bool the kernel writes 1 or 0 in the common dtype and TensorIterator casts it back
// (libtorch's "special-case bool outputs").

#include <algorithm>
#include <limits>

#include "aten/ATen.h"
#include "aten/generated/NativeFunctions.h"
#include "aten/native/BinaryOps.h"
#include "aten/native/MetaStub.h"
#include "aten/native/TypePromotion.h"

namespace at {
namespace native {

DEFINE_DISPATCH(eq_stub);
DEFINE_DISPATCH(ne_stub);
DEFINE_DISPATCH(lt_stub);
DEFINE_DISPATCH(le_stub);
DEFINE_DISPATCH(gt_stub);
DEFINE_DISPATCH(ge_stub);
DEFINE_DISPATCH(where_stub);
DEFINE_DISPATCH(logical_and_stub);
DEFINE_DISPATCH(logical_or_stub);
DEFINE_DISPATCH(logical_xor_stub);
DEFINE_DISPATCH(logical_not_stub);

namespace {

// libtorch's build_comparison_op (other given), or logical_not's iterator (one input). See Note
// [Comparison outputs].
TensorIterator comparison_iter(Tensor& out, const Tensor& self, const Tensor* other) {
  TensorIteratorConfig config;
  config.set_check_mem_overlap(true).add_output(out).add_input(self);
  if (other != nullptr) config.add_input(*other).allow_cpu_scalars(true);
  config.promote_inputs_to_common_dtype(true);
  if (out.scalar_type() != c10::ScalarType::Bool) config.cast_common_dtype_to_outputs(true);
  return config.build();
}

template <typename Stub>
Tensor& compare_out(Stub& stub, const Tensor& self, const Tensor* other, Tensor& out) {
  auto iter = comparison_iter(out, self, other);
  // See Note [Meta kernels stop before the stub] in BinaryOps.cpp.
  run_stub(stub, iter);
  return out;
}

template <typename Stub>
Tensor& compare_out(Stub& stub, const Tensor& self, const Tensor& other, Tensor& out) {
  return compare_out(stub, self, &other, out);
}

template <typename Stub>
Tensor compare(Stub& stub, const Tensor& self, const Tensor* other) {
  Tensor out = at::empty({0}, self.options().dtype(c10::ScalarType::Bool));
  return compare_out(stub, self, other, out);
}

template <typename Stub>
Tensor compare(Stub& stub, const Tensor& self, const Tensor& other) {
  return compare(stub, self, &other);
}

}  // namespace

// Six overloads per comparison (functional, out=, in place); the Scalar ones wrap it (see Note [Scalar overloads wrap their
// Scalar] in BinaryOps.cpp).
#define MINIATEN_DEFINE_COMPARISON(name)                                         \
  Tensor name(const Tensor& self, const Tensor& other) {                         \
    return compare(name##_stub, self, other);                                    \
  }                                                                              \
  Tensor name(const Tensor& self, const Scalar& other) {                         \
    return compare(name##_stub, self, wrapped_scalar_for(self, other));          \
  }                                                                              \
  Tensor& name##_out(const Tensor& self, const Tensor& other, Tensor& out) {     \
    return compare_out(name##_stub, self, other, out);                           \
  }                                                                              \
  Tensor& name##_out(const Tensor& self, const Scalar& other, Tensor& out) {     \
    return compare_out(name##_stub, self, wrapped_scalar_for(self, other), out); \
  }                                                                              \
  Tensor& name##_(Tensor& self, const Tensor& other) {                           \
    return compare_out(name##_stub, self, other, self);                          \
  }                                                                              \
  Tensor& name##_(Tensor& self, const Scalar& other) {                           \
    return compare_out(name##_stub, self, wrapped_scalar_for(self, other), self); \
  }

MINIATEN_DEFINE_COMPARISON(eq)
MINIATEN_DEFINE_COMPARISON(ne)
MINIATEN_DEFINE_COMPARISON(lt)
MINIATEN_DEFINE_COMPARISON(le)
MINIATEN_DEFINE_COMPARISON(gt)
MINIATEN_DEFINE_COMPARISON(ge)

#undef MINIATEN_DEFINE_COMPARISON

// ---- Logical ops -----------------------------------------------------------------------------
// libtorch's logical_and & co. are comparisons (comparison_op, comparison_op_out,
// comparison_op_): the same iterator, a Bool result or 1/0 of an out='s dtype.
#define MINIATEN_DEFINE_LOGICAL(name)                                        \
  Tensor name(const Tensor& self, const Tensor& other) {                     \
    return compare(name##_stub, self, other);                                \
  }                                                                          \
  Tensor& name##_out(const Tensor& self, const Tensor& other, Tensor& out) { \
    return compare_out(name##_stub, self, other, out);                       \
  }                                                                          \
  Tensor& name##_(Tensor& self, const Tensor& other) {                       \
    return compare_out(name##_stub, self, other, self);                      \
  }

MINIATEN_DEFINE_LOGICAL(logical_and)
MINIATEN_DEFINE_LOGICAL(logical_or)
MINIATEN_DEFINE_LOGICAL(logical_xor)

#undef MINIATEN_DEFINE_LOGICAL

// !self: a Bool out gets true where self is zero; an out= of another dtype gets 1 or 0 computed
// in self's dtype and converted (libtorch converts each element the same way).
Tensor& logical_not_out(const Tensor& self, Tensor& out) {
  return compare_out(logical_not_stub, self, nullptr, out);
}

Tensor logical_not(const Tensor& self) {
  return compare(logical_not_stub, self, nullptr);
}

Tensor& logical_not_(Tensor& self) {
  return compare_out(logical_not_stub, self, nullptr, self);
}

// ---- isnan, isinf (composite, as libtorch's) ---------------------------------------------------

Tensor isnan(const Tensor& self) {
  return self != self;
}

Tensor isinf(const Tensor& self) {
  // Integral values are never infinite.
  if (c10::isIntegralType(self.scalar_type(), /*includeBool=*/true)) {
    return at::zeros_like(self, self.options().dtype(at::kBool), at::MemoryFormat::Preserve);
  }
  // A complex value is infinite when either part is.
  if (self.is_complex()) {
    return at::logical_or(at::isinf(at::real(self)), at::isinf(at::imag(self)));
  }
  return at::eq(at::abs(self), std::numeric_limits<double>::infinity());
}

// ---- where -----------------------------------------------------------------------------------

// out = condition ? self : other, broadcasting all three; the result type is
// result_type(self, other), to which self and other are converted first.
Tensor& where_self_out(const Tensor& condition, const Tensor& self, const Tensor& other,
                       Tensor& out) {
  const c10::ScalarType result_type = at::result_type(self, other);
  // libtorch 1.13 trips an internal assert in its kernel here; later versions say this.
  TORCH_CHECK(out.scalar_type() == result_type, "Expected out type to be ", result_type,
              " but got ", out.scalar_type());
  const Tensor self_c = self.scalar_type() == result_type ? self : self.to(result_type);
  const Tensor other_c = other.scalar_type() == result_type ? other : other.to(result_type);
  Tensor cond = condition;
  if (cond.scalar_type() == c10::ScalarType::Byte) {
    TORCH_WARN_ONCE(
        "where received a uint8 condition tensor. This behavior is deprecated and "
        "will be removed in a future version of PyTorch. Use a boolean condition "
        "instead.");
    cond = cond.to(c10::ScalarType::Bool);
  }
  TORCH_CHECK(cond.scalar_type() == c10::ScalarType::Bool,
              "where expected condition to be a boolean tensor, but got a tensor with dtype ",
              cond.scalar_type());
  auto iter = TensorIteratorConfig()
                  .check_all_same_dtype(false)
                  .add_output(out)
                  .add_input(cond)
                  .add_input(self_c)
                  .add_input(other_c)
                  .build();
  // See Note [Meta kernels stop before the stub] in BinaryOps.cpp.
  run_stub(where_stub, iter);
  return out;
}

Tensor where(const Tensor& condition, const Tensor& self, const Tensor& other) {
  Tensor out = at::empty({0}, self.options().dtype(at::result_type(self, other)));
  return native::where_self_out(condition, self, other, out);
}

// The Scalar forms make 0-dim tensors of the result type (not wrapped numbers: the type is
// already decided), as libtorch 1.13 does.
Tensor where(const Tensor& condition, const Scalar& self, const Tensor& other) {
  const c10::ScalarType result_type = at::result_type(other, self);
  return at::where(condition, at::scalar_tensor(self, other.options().dtype(result_type)),
                   other.to(result_type));
}

Tensor where(const Tensor& condition, const Tensor& self, const Scalar& other) {
  const c10::ScalarType result_type = at::result_type(self, other);
  return at::where(condition, self.to(result_type),
                   at::scalar_tensor(other, self.options().dtype(result_type)));
}

Tensor where(const Tensor& condition, const Scalar& self, const Scalar& other) {
  ResultTypeState state = update_result_type_state(self, ResultTypeState{});
  state = update_result_type_state(other, state);
  const c10::ScalarType result_type = native::result_type(state);
  return at::where(condition, at::scalar_tensor(self, condition.options().dtype(result_type)),
                   at::scalar_tensor(other, condition.options().dtype(result_type)));
}

// libtorch's cpu_equal: same sizes and every element equal in the common dtype (so a NaN makes
// two tensors unequal); sizes that differ are unequal, not an error.
bool cpu_equal(const Tensor& self, const Tensor& other) {
  TORCH_CHECK(self.device() == other.device(),
              "Cannot compare two tensors on different devices. Got: ", self.device(), " and ",
              other.device());
  if (!self.sizes().equals(other.sizes())) return false;
  const Tensor same = at::eq(self, other).contiguous();
  const bool* flags = same.data_ptr<bool>();
  return std::all_of(flags, flags + same.numel(), [](bool b) { return b; });
}

// libtorch's cuda_equal: the same answer, from one comparison and one reduction on the device
// (an empty pair is equal: all() of nothing is true).
bool cuda_equal(const Tensor& self, const Tensor& other) {
  TORCH_CHECK(self.device() == other.device(),
              "Cannot compare two tensors on different devices. Got: ", self.device(), " and ",
              other.device());
  if (!self.sizes().equals(other.sizes())) return false;
  return at::eq(self, other).all().item<bool>();
}

}  // namespace native
}  // namespace at
