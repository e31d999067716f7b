// neg, abs, conj_physical, exp, log, sqrt: argument checks, the TensorIterator, and the kernel stub
// (aten/native/cpu/UnaryOpsKernel.cpp). libtorch's aten/src/ATen/native/UnaryOps.cpp.
//
// neg and abs keep the input's dtype (unary_op: an out= tensor must have it too, "Found dtype
// Float but expected Long"). exp, log and sqrt promote integer and bool inputs to the default
// float dtype (unary_float_op: exp_ of a Long tensor is "result type Float can't be cast to the
// desired output type Long"). The functional, in-place and out= forms share one body each, as in
// BinaryOps.cpp (see Note [Functional, in-place and out= share one body] there).

#include "aten/native/UnaryOps.h"
#include "aten/ATen.h"
#include "aten/generated/NativeFunctions.h"

namespace at {
namespace native {

DEFINE_DISPATCH(neg_stub);
DEFINE_DISPATCH(abs_stub);
DEFINE_DISPATCH(exp_stub);
DEFINE_DISPATCH(log_stub);
DEFINE_DISPATCH(sqrt_stub);
DEFINE_DISPATCH(conj_physical_stub);

namespace {

// Same dtype in and out.
template <typename Stub>
TensorIterator run_unary(Stub& stub, Tensor& out, const Tensor& self) {
  auto iter = TensorIterator::unary_op(out, self);
  // See Note [Meta kernels stop before the stub] in BinaryOps.cpp.
  if (iter.device_type() != c10::kMeta) stub(iter.device_type(), iter);
  return iter;
}

// Integers and bool compute in the default float dtype.
template <typename Stub>
TensorIterator run_unary_float(Stub& stub, Tensor& out, const Tensor& self) {
  auto iter = TensorIterator::unary_float_op(out, self);
  if (iter.device_type() != c10::kMeta) stub(iter.device_type(), iter);
  return iter;
}

void neg_check(const Tensor& self) {
  TORCH_CHECK(self.scalar_type() != c10::ScalarType::Bool,
              "Negation, the `-` operator, on a bool tensor is not supported. "
              "If you are trying to invert a mask, use the `~` or `logical_not()` operator "
              "instead.");
}

}  // namespace

// ---- neg -------------------------------------------------------------------------------------

Tensor neg(const Tensor& self) {
  neg_check(self);
  Tensor out;
  return run_unary(neg_stub, out, self).output();
}

Tensor& neg_(Tensor& self) {
  neg_check(self);
  run_unary(neg_stub, self, self);
  return self;
}

Tensor& neg_out(const Tensor& self, Tensor& out) {
  neg_check(self);
  run_unary(neg_stub, out, self);
  return out;
}

// ---- abs: CompositeExplicitAutograd in libtorch, through abs.out ------------------------------

// abs of a complex tensor is real: |z| in the type of z's parts (abs(ComplexFloat) is Float).
Tensor abs(const Tensor& self) {
  Tensor out = at::empty({0}, self.options().dtype(c10::toRealValueType(self.scalar_type())));
  return at::abs_out(out, self);
}

Tensor& abs_(Tensor& self) {
  TORCH_CHECK(!self.is_complex(), "In-place abs is not supported for complex tensors.");
  return at::abs_out(self, self);
}

Tensor& abs_out(const Tensor& self, Tensor& out) {
  if (self.is_complex() && !out.is_complex()) {
    // libtorch's unary_op_impl_with_complex_to_float_out: the real result is computed in the
    // real value type, then copied to out if out has another (wider) type.
    const c10::ScalarType real_type = c10::toRealValueType(self.scalar_type());
    TORCH_CHECK(c10::canCast(real_type, out.scalar_type()), "result type ", real_type,
                " can't be cast to the desired output type ", out.scalar_type());
    Tensor real =
        out.scalar_type() == real_type ? out : at::empty({0}, out.options().dtype(real_type));
    auto iter = TensorIteratorConfig()
                    .set_check_mem_overlap(true)
                    .add_output(real)
                    .add_input(self)
                    .check_all_same_dtype(false)
                    .build();
    abs_stub(iter.device_type(), iter);
    if (!real.is_same(out)) {
      out.resize_(iter.output().sizes());
      out.copy_(iter.output());
    }
    return out;
  }
  run_unary(abs_stub, out, self);
  return out;
}

// ---- conj_physical -----------------------------------------------------------------------------
// The conjugate, computed now. libtorch 1.13's at::conj is a lazy view with a conjugate bit;
// miniaten has no conjugate bit, so only the eager form exists. A real tensor is its own
// conjugate: conj_physical returns it as it is, as libtorch does.

Tensor conj_physical(const Tensor& self) {
  if (!self.is_complex()) return self;
  Tensor out;
  return run_unary(conj_physical_stub, out, self).output();
}

Tensor& conj_physical_(Tensor& self) {
  if (!self.is_complex()) return self;
  run_unary(conj_physical_stub, self, self);
  return self;
}

// ---- exp, log, sqrt --------------------------------------------------------------------------

#define MINIATEN_DEFINE_UNARY_FLOAT(name)                    \
  Tensor name(const Tensor& self) {                          \
    Tensor out;                                              \
    return run_unary_float(name##_stub, out, self).output(); \
  }                                                          \
  Tensor& name##_(Tensor& self) {                            \
    run_unary_float(name##_stub, self, self);                \
    return self;                                             \
  }                                                          \
  Tensor& name##_out(const Tensor& self, Tensor& out) {      \
    run_unary_float(name##_stub, out, self);                 \
    return out;                                              \
  }

MINIATEN_DEFINE_UNARY_FLOAT(exp)
MINIATEN_DEFINE_UNARY_FLOAT(log)
MINIATEN_DEFINE_UNARY_FLOAT(sqrt)

#undef MINIATEN_DEFINE_UNARY_FLOAT

}  // namespace native
}  // namespace at
