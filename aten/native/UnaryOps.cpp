// The unary elementwise operators: argument checks, the TensorIterator, and the kernel stub
// (aten/native/cpu/UnaryOpsKernel.cpp). libtorch's aten/src/ATen/native/UnaryOps.cpp.
//
// neg, abs, floor, ceil, trunc, round and sign keep the input's dtype (unary_op: an out= tensor
// must have it too, "Found dtype Float but expected Long"). exp, log, sin, sigmoid and the other
// floating-point functions promote integer and bool inputs to the default float dtype
// (unary_float_op: exp_ of a Long tensor is "result type Float can't be cast to the desired output
// type Long"). The functional, in-place and out= forms share one body each, as in BinaryOps.cpp
// (see Note [Functional, in-place and out= share one body] there).

#include "aten/native/UnaryOps.h"
#include "aten/ATen.h"
#include "aten/generated/NativeFunctions.h"
#include "aten/native/MetaStub.h"

namespace at {
namespace native {

DEFINE_DISPATCH(neg_stub);
DEFINE_DISPATCH(abs_stub);
DEFINE_DISPATCH(exp_stub);
DEFINE_DISPATCH(expm1_stub);
DEFINE_DISPATCH(exp2_stub);
DEFINE_DISPATCH(log_stub);
DEFINE_DISPATCH(log2_stub);
DEFINE_DISPATCH(log10_stub);
DEFINE_DISPATCH(log1p_stub);
DEFINE_DISPATCH(sin_stub);
DEFINE_DISPATCH(cos_stub);
DEFINE_DISPATCH(tan_stub);
DEFINE_DISPATCH(asin_stub);
DEFINE_DISPATCH(acos_stub);
DEFINE_DISPATCH(atan_stub);
DEFINE_DISPATCH(sinh_stub);
DEFINE_DISPATCH(cosh_stub);
DEFINE_DISPATCH(tanh_stub);
DEFINE_DISPATCH(erf_stub);
DEFINE_DISPATCH(erfc_stub);
DEFINE_DISPATCH(sqrt_stub);
DEFINE_DISPATCH(rsqrt_stub);
DEFINE_DISPATCH(reciprocal_stub);
DEFINE_DISPATCH(sigmoid_stub);
DEFINE_DISPATCH(floor_stub);
DEFINE_DISPATCH(ceil_stub);
DEFINE_DISPATCH(trunc_stub);
DEFINE_DISPATCH(round_stub);
DEFINE_DISPATCH(sign_stub);
DEFINE_DISPATCH(conj_physical_stub);

namespace {

// Same dtype in and out.
template <typename Stub>
TensorIterator run_unary(Stub& stub, Tensor& out, const Tensor& self) {
  auto iter = TensorIterator::unary_op(out, self);
  // See Note [Meta kernels stop before the stub] in BinaryOps.cpp.
  run_stub(stub, iter);
  return iter;
}

// Integers and bool compute in the default float dtype.
template <typename Stub>
TensorIterator run_unary_float(Stub& stub, Tensor& out, const Tensor& self) {
  auto iter = TensorIterator::unary_float_op(out, self);
  run_stub(stub, iter);
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
    run_stub(abs_stub, iter);
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

// ---- The floating-point functions: exp, log, sin, tanh, sigmoid, rsqrt, ... ------------------

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
MINIATEN_DEFINE_UNARY_FLOAT(expm1)
MINIATEN_DEFINE_UNARY_FLOAT(exp2)
MINIATEN_DEFINE_UNARY_FLOAT(log)
MINIATEN_DEFINE_UNARY_FLOAT(log2)
MINIATEN_DEFINE_UNARY_FLOAT(log10)
MINIATEN_DEFINE_UNARY_FLOAT(log1p)
MINIATEN_DEFINE_UNARY_FLOAT(sin)
MINIATEN_DEFINE_UNARY_FLOAT(cos)
MINIATEN_DEFINE_UNARY_FLOAT(tan)
MINIATEN_DEFINE_UNARY_FLOAT(asin)
MINIATEN_DEFINE_UNARY_FLOAT(acos)
MINIATEN_DEFINE_UNARY_FLOAT(atan)
MINIATEN_DEFINE_UNARY_FLOAT(sinh)
MINIATEN_DEFINE_UNARY_FLOAT(cosh)
MINIATEN_DEFINE_UNARY_FLOAT(tanh)
MINIATEN_DEFINE_UNARY_FLOAT(erf)
MINIATEN_DEFINE_UNARY_FLOAT(erfc)
MINIATEN_DEFINE_UNARY_FLOAT(sqrt)
MINIATEN_DEFINE_UNARY_FLOAT(rsqrt)
MINIATEN_DEFINE_UNARY_FLOAT(reciprocal)
MINIATEN_DEFINE_UNARY_FLOAT(sigmoid)

#undef MINIATEN_DEFINE_UNARY_FLOAT

// ---- floor, ceil, trunc, round, sign: the input's dtype ----------------------------------------
// An integer tensor is already whole: libtorch copies it (a new tensor, nothing in place, a copy
// into out=) without the kernel. Bool reaches the kernel, which raises as libtorch's does.

namespace {

template <typename Stub>
TensorIterator run_rounding(Stub& stub, Tensor& out, const Tensor& self, const char* name) {
  TORCH_CHECK(!self.is_complex(), name, " is not supported for complex inputs");
  auto iter = TensorIterator::unary_op(out, self);
  if (c10::isIntegralType(self.scalar_type(), /*includeBool=*/false)) {
    if (!iter.output().is_same(self)) iter.output().copy_(self);
    return iter;
  }
  run_stub(stub, iter);
  return iter;
}

void sign_check(const Tensor& self) {
  TORCH_CHECK(!self.is_complex(),
              "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use "
              "torch.sgn instead.");
}

}  // namespace

// round of a complex tensor reaches the kernel: "round_vml_cpu" not implemented for
// 'ComplexFloat', libtorch's text (it has no complex check of its own for round).
#define MINIATEN_DEFINE_ROUNDING(name, check_name)                    \
  Tensor name(const Tensor& self) {                                   \
    Tensor out;                                                       \
    return run_rounding(name##_stub, out, self, check_name).output(); \
  }                                                                   \
  Tensor& name##_(Tensor& self) {                                     \
    run_rounding(name##_stub, self, self, check_name);                \
    return self;                                                      \
  }                                                                   \
  Tensor& name##_out(const Tensor& self, Tensor& out) {               \
    run_rounding(name##_stub, out, self, check_name);                 \
    return out;                                                       \
  }

MINIATEN_DEFINE_ROUNDING(floor, "floor")
MINIATEN_DEFINE_ROUNDING(ceil, "ceil")
MINIATEN_DEFINE_ROUNDING(trunc, "trunc")

#undef MINIATEN_DEFINE_ROUNDING

Tensor round(const Tensor& self) {
  Tensor out;
  auto iter = TensorIterator::unary_op(out, self);
  if (c10::isIntegralType(self.scalar_type(), /*includeBool=*/false)) {
    iter.output().copy_(self);
  } else {
    run_stub(round_stub, iter);
  }
  return iter.output();
}

Tensor& round_(Tensor& self) {
  if (c10::isIntegralType(self.scalar_type(), /*includeBool=*/false)) {
    TensorIterator::unary_op(self, self);  // the checks only
    return self;
  }
  run_unary(round_stub, self, self);
  return self;
}

Tensor& round_out(const Tensor& self, Tensor& out) {
  auto iter = TensorIterator::unary_op(out, self);
  if (c10::isIntegralType(self.scalar_type(), /*includeBool=*/false)) {
    if (!out.is_same(self)) out.copy_(self);
  } else {
    run_stub(round_stub, iter);
  }
  return out;
}

Tensor sign(const Tensor& self) {
  sign_check(self);
  Tensor out;
  return run_unary(sign_stub, out, self).output();
}

Tensor& sign_(Tensor& self) {
  sign_check(self);
  run_unary(sign_stub, self, self);
  return self;
}

Tensor& sign_out(const Tensor& self, Tensor& out) {
  sign_check(self);
  run_unary(sign_stub, out, self);
  return out;
}

}  // namespace native
}  // namespace at
