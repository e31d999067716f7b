// add, sub, mul, div: argument checks, the TensorIterator, and the kernel stub
// (aten/native/cpu/BinaryOpsKernel.cpp). libtorch's aten/src/ATen/native/BinaryOps.cpp.
//
// Note [Functional, in-place and out= share one body]
// libtorch declares add.out as a structured kernel and generates add and add_ from it: the
// three differ only in the output handed to TensorIterator. Here they are written out and call
// one builder each: the functional form passes an undefined output (TensorIterator allocates it
// with the layout of the inputs), the in-place form passes self (which makes self read-write,
// so it may not be resized and the result type must cast to it), and out= passes out (resized,
// with the deprecation warning, when it has the wrong shape).
//
// Note [Scalar overloads wrap their Scalar]
// add(t, 2.5) is add(t, wrapped_scalar_tensor(2.5)): a 0-dim tensor marked as a wrapped number,
// so type promotion treats it as the lowest-priority operand (int tensor + 2.5 -> Float, not
// Double) and the vectorized loop sees a broadcast input (stride 0). libtorch does the same,
// with the number as a Double (or Long, Bool) tensor that TensorIterator then converts to the
// common dtype: a second tensor and a copy_. wrapped_scalar_for makes the wrapped tensor in
// that dtype, result_type(self, other), from the start, converting the value as copy_ would
// (uint8 + 300 adds 44, as in libtorch). Promotion is unchanged: a wrapped number of the result
// dtype can only lead to the same result dtype.
//
// Note [Meta kernels stop before the stub]
// The elementwise ops are registered for Meta with the same body as for CPU: the TensorIterator
// it builds makes every check (broadcasting, type promotion, overlap, and the device check that
// turns add(cpu, meta) into "Expected all tensors to be on the same device, but found at least
// two devices, meta and cpu!") and gives the output its shape, dtype and strides. A meta tensor
// has no data, so the body stops there, as libtorch's structured kernels stop after their meta
// function; run_stub only hands the CPU kernel a one-element stand-in, to ask it whether it
// takes these dtypes (Note [Meta asks the CPU kernel which dtypes it takes] in MetaStub.h).

#include "aten/native/BinaryOps.h"
#include "aten/ATen.h"
#include "aten/generated/NativeFunctions.h"
#include "aten/native/MetaStub.h"
#include "aten/native/TypePromotion.h"
#include "c10/util/TypeCast.h"
#include "dispatcher/DispatchTrace.h"

namespace at {
namespace native {

DEFINE_DISPATCH(add_stub);
DEFINE_DISPATCH(mul_stub);
DEFINE_DISPATCH(div_true_stub);
DEFINE_DISPATCH(div_trunc_stub);
DEFINE_DISPATCH(div_floor_stub);
DEFINE_DISPATCH(add_dense_stub);
DEFINE_DISPATCH(mul_dense_stub);
DEFINE_DISPATCH(div_true_dense_stub);

namespace {

void alpha_check(c10::ScalarType dtype, const Scalar& alpha) {
  TORCH_CHECK(!alpha.isBoolean() || dtype == c10::ScalarType::Bool,
              "Boolean alpha only supported for Boolean results.");
  TORCH_CHECK(c10::isFloatingType(dtype) || c10::isComplexType(dtype) || alpha.isIntegral(true),
              "For integral input tensors, argument alpha must not be a floating point number.");
  TORCH_CHECK(c10::isComplexType(dtype) || !alpha.isComplex(),
              "For non-complex input tensors, argument alpha must not be a complex number.");
}

void sub_check(const Tensor& self, const Tensor& other) {
  TORCH_CHECK(
      self.scalar_type() != c10::ScalarType::Bool || other.scalar_type() != c10::ScalarType::Bool,
      "Subtraction, the `-` operator, with two bool tensors is not supported. "
      "Use the `^` or `logical_xor()` operator instead.");
  TORCH_CHECK(
      self.scalar_type() != c10::ScalarType::Bool && other.scalar_type() != c10::ScalarType::Bool,
      "Subtraction, the `-` operator, with a bool tensor is not supported. "
      "If you are trying to invert a mask, use the `~` or `logical_not()` operator "
      "instead.");
}

// See Note [The dense fast path]: the output TensorIterator's fast setup would allocate, or an
// undefined tensor when the operands need TensorIterator.
Tensor dense_output(const Tensor& self, const Tensor& other) {
  if (!self.is_cpu() || !other.is_cpu() || self.scalar_type() != other.scalar_type()) {
    return Tensor();
  }
  if (!self.sizes().equals(other.sizes())) {
    // A wrapped number broadcast over a dense self: self's layout decides the output's.
    if (!other.unsafeGetTensorImpl()->is_wrapped_number()) return Tensor();
    const c10::ScalarType dtype = self.scalar_type();
    if (self.is_contiguous()) return at::detail::empty_cpu(self.sizes(), dtype);
    if (self.is_contiguous(c10::MemoryFormat::ChannelsLast)) {
      return at::detail::empty_cpu(self.sizes(), dtype, c10::MemoryFormat::ChannelsLast);
    }
    if (self.is_non_overlapping_and_dense()) {
      return at::detail::empty_strided_cpu(self.sizes(), self.strides(), dtype);
    }
    return Tensor();
  }
  // Straight to the CPU allocator, as libtorch's structured CPU kernels allocate outputs.
  const c10::ScalarType dtype = self.scalar_type();
  if (self.is_contiguous() && other.is_contiguous()) {
    return at::detail::empty_cpu(self.sizes(), dtype);
  }
  if (self.is_contiguous(c10::MemoryFormat::ChannelsLast) &&
      other.is_contiguous(c10::MemoryFormat::ChannelsLast)) {
    return at::detail::empty_cpu(self.sizes(), dtype, c10::MemoryFormat::ChannelsLast);
  }
  if (self.is_non_overlapping_and_dense() && self.strides().equals(other.strides())) {
    return at::detail::empty_strided_cpu(self.sizes(), self.strides(), dtype);
  }
  return Tensor();
}

// The trace shows this step where it would otherwise show TensorIterator's decisions.
DenseBinaryArgs dense_args(const Tensor& out, const Tensor& self, const Tensor& other) {
  if (c10::DispatchTrace::enabled()) {
    c10::DispatchTrace::log("dense fast path: " + std::to_string(out.numel()) +
                            " elements, no TensorIterator");
  }
  const bool other_is_scalar = !other.sizes().equals(out.sizes());
  return {static_cast<char*>(out.data_ptr()), static_cast<const char*>(self.data_ptr()),
          static_cast<const char*>(other.data_ptr()), out.numel(), out.scalar_type(),
          other_is_scalar};
}

// The shared bodies; `out` is undefined, self, or the out= tensor. See Note [Functional,
// in-place and out= share one body].
TensorIterator run_add(Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha) {
  auto iter = TensorIterator::binary_op(out, self, other);
  alpha_check(iter.dtype(), alpha);
  run_stub(add_stub, iter, alpha);
  return iter;
}

TensorIterator run_sub(Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha) {
  sub_check(self, other);
  auto iter = TensorIterator::binary_op(out, self, other);
  alpha_check(iter.dtype(), alpha);
  run_stub(add_stub, iter, -alpha);
  return iter;
}

TensorIterator run_mul(Tensor& out, const Tensor& self, const Tensor& other) {
  auto iter = TensorIterator::binary_op(out, self, other);
  run_stub(mul_stub, iter);
  return iter;
}

// True division: integer and bool inputs compute in the default float dtype.
TensorIterator run_div(Tensor& out, const Tensor& self, const Tensor& other) {
  auto iter = TensorIterator::binary_float_op(out, self, other);
  run_stub(div_true_stub, iter);
  return iter;
}

// div with a rounding mode: None is true division; "trunc" and "floor" promote as add does
// (integers stay integers) and round the quotient.
TensorIterator run_div_mode(Tensor& out, const Tensor& self, const Tensor& other,
                            c10::optional<c10::string_view> rounding_mode) {
  if (!rounding_mode.has_value()) return run_div(out, self, other);
  const bool trunc = *rounding_mode == "trunc";
  TORCH_CHECK(trunc || *rounding_mode == "floor",
              "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '",
              *rounding_mode, "'");
  auto iter = TensorIterator::binary_op(out, self, other);
  if (trunc) {
    run_stub(div_trunc_stub, iter);
  } else {
    run_stub(div_floor_stub, iter);
  }
  return iter;
}

}  // namespace

Tensor wrapped_scalar_for(const Tensor& self, const Scalar& other) {
  const c10::ScalarType dtype = at::result_type(self, other);
  Tensor t = at::detail::empty_cpu({}, dtype);
  void* data = t.data_ptr();
  if (other.isFloatingPoint()) {
    c10::cast_and_store(dtype, data, other.toDouble());
  } else if (other.isComplex()) {
    c10::cast_and_store(dtype, data, other.toComplexDouble());
  } else if (other.isBoolean()) {
    c10::cast_and_store(dtype, data, other.toBool());
  } else {
    c10::cast_and_store(dtype, data, other.toLong());
  }
  t.unsafeGetTensorImpl()->set_wrapped_number(true);
  return t;
}

// ---- add -------------------------------------------------------------------------------------

Tensor add(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  Tensor out = dense_output(self, other);
  if (out.defined()) {
    alpha_check(self.scalar_type(), alpha);
    add_dense_stub(c10::DeviceType::CPU, dense_args(out, self, other), alpha);
    return out;
  }
  return run_add(out, self, other, alpha).output();
}

Tensor& add_(Tensor& self, const Tensor& other, const Scalar& alpha) {
  run_add(self, self, other, alpha);
  return self;
}

Tensor& add_out(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out) {
  run_add(out, self, other, alpha);
  return out;
}

// See Note [Scalar overloads wrap their Scalar].
Tensor add(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return at::add(self, wrapped_scalar_for(self, other), alpha);
}

Tensor& add_(Tensor& self, const Scalar& other, const Scalar& alpha) {
  self.add_(wrapped_scalar_for(self, other), alpha);
  return self;
}

// ---- sub -------------------------------------------------------------------------------------

Tensor sub(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  sub_check(self, other);
  Tensor out = dense_output(self, other);
  if (out.defined()) {
    alpha_check(self.scalar_type(), alpha);
    add_dense_stub(c10::DeviceType::CPU, dense_args(out, self, other), -alpha);
    return out;
  }
  return run_sub(out, self, other, alpha).output();
}

Tensor& sub_(Tensor& self, const Tensor& other, const Scalar& alpha) {
  run_sub(self, self, other, alpha);
  return self;
}

Tensor& sub_out(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out) {
  run_sub(out, self, other, alpha);
  return out;
}

Tensor sub(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return at::sub(self, wrapped_scalar_for(self, other), alpha);
}

Tensor& sub_(Tensor& self, const Scalar& other, const Scalar& alpha) {
  self.sub_(wrapped_scalar_for(self, other), alpha);
  return self;
}

// ---- mul -------------------------------------------------------------------------------------

Tensor mul(const Tensor& self, const Tensor& other) {
  Tensor out = dense_output(self, other);
  if (out.defined()) {
    mul_dense_stub(c10::DeviceType::CPU, dense_args(out, self, other));
    return out;
  }
  return run_mul(out, self, other).output();
}

Tensor& mul_(Tensor& self, const Tensor& other) {
  run_mul(self, self, other);
  return self;
}

Tensor& mul_out(const Tensor& self, const Tensor& other, Tensor& out) {
  run_mul(out, self, other);
  return out;
}

Tensor mul(const Tensor& self, const Scalar& other) {
  return at::mul(self, wrapped_scalar_for(self, other));
}

Tensor& mul_(Tensor& self, const Scalar& other) {
  self.mul_(wrapped_scalar_for(self, other));
  return self;
}

// ---- div -------------------------------------------------------------------------------------

Tensor div(const Tensor& self, const Tensor& other) {
  // Integer inputs are converted to float first: TensorIterator's job.
  const c10::ScalarType st = self.scalar_type();
  Tensor out =
      c10::isFloatingType(st) || c10::isComplexType(st) ? dense_output(self, other) : Tensor();
  if (out.defined()) {
    div_true_dense_stub(c10::DeviceType::CPU, dense_args(out, self, other));
    return out;
  }
  return run_div(out, self, other).output();
}

Tensor& div_(Tensor& self, const Tensor& other) {
  run_div(self, self, other);
  return self;
}

Tensor& div_out(const Tensor& self, const Tensor& other, Tensor& out) {
  run_div(out, self, other);
  return out;
}

Tensor div(const Tensor& self, const Scalar& other) {
  return at::div(self, wrapped_scalar_for(self, other));
}

Tensor div(const Tensor& self, const Tensor& other, c10::optional<c10::string_view> rounding_mode) {
  Tensor out;
  return run_div_mode(out, self, other, rounding_mode).output();
}

Tensor& div_(Tensor& self, const Tensor& other, c10::optional<c10::string_view> rounding_mode) {
  run_div_mode(self, self, other, rounding_mode);
  return self;
}

Tensor& div_out(const Tensor& self, const Tensor& other, c10::optional<c10::string_view> rounding_mode,
                Tensor& out) {
  run_div_mode(out, self, other, rounding_mode);
  return out;
}

Tensor div(const Tensor& self, const Scalar& other, c10::optional<c10::string_view> rounding_mode) {
  return at::div(self, wrapped_scalar_for(self, other), rounding_mode);
}

Tensor& div_(Tensor& self, const Scalar& other, c10::optional<c10::string_view> rounding_mode) {
  self.div_(wrapped_scalar_for(self, other), rounding_mode);
  return self;
}

Tensor& div_(Tensor& self, const Scalar& other) {
  self.div_(wrapped_scalar_for(self, other));
  return self;
}

}  // namespace native
}  // namespace at
