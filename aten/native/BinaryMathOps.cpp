// atan2, hypot, fmod, remainder, maximum, minimum: the binary math functions. Argument checks and
// the TensorIterator here, kernels in aten/native/cpu/BinaryMathKernel.cpp. libtorch's
// aten/src/ATen/native/BinaryOps.cpp.
//
// atan2 promotes integer inputs to the default float dtype (binary_float_op); hypot, fmod,
// maximum and minimum compute in the common dtype (binary_op), so hypot of Long tensors is
// libtorch's "hypot_cpu" not implemented for 'Long', and fmod of integers stays integer. The
// functional, in-place and out= forms share one body each (see Note [Functional, in-place and
// out= share one body] in BinaryOps.cpp).

#include "aten/ATen.h"
#include "aten/generated/NativeFunctions.h"
#include "aten/native/BinaryOps.h"
#include "aten/native/MetaStub.h"

namespace at {
namespace native {

DEFINE_DISPATCH(atan2_stub);
DEFINE_DISPATCH(hypot_stub);
DEFINE_DISPATCH(fmod_stub);
DEFINE_DISPATCH(remainder_stub);
DEFINE_DISPATCH(maximum_stub);
DEFINE_DISPATCH(minimum_stub);

namespace {

template <typename Stub>
TensorIterator run_binary(Stub& stub, Tensor& out, const Tensor& self, const Tensor& other) {
  auto iter = TensorIterator::binary_op(out, self, other);
  run_stub(stub, iter);
  return iter;
}

template <typename Stub>
TensorIterator run_binary_float(Stub& stub, Tensor& out, const Tensor& self, const Tensor& other) {
  auto iter = TensorIterator::binary_float_op(out, self, other);
  run_stub(stub, iter);
  return iter;
}

void extremum_check(const char* name, const Tensor& self, const Tensor& other) {
  TORCH_CHECK(!self.is_complex() && !other.is_complex(), name,
              " not implemented for complex tensors.");
}

}  // namespace

#define MINIATEN_DEFINE_BINARY_MATH(name, run)                               \
  Tensor name(const Tensor& self, const Tensor& other) {                     \
    Tensor out;                                                              \
    return run(name##_stub, out, self, other).output();                      \
  }                                                                          \
  Tensor& name##_(Tensor& self, const Tensor& other) {                       \
    run(name##_stub, self, self, other);                                     \
    return self;                                                             \
  }                                                                          \
  Tensor& name##_out(const Tensor& self, const Tensor& other, Tensor& out) { \
    run(name##_stub, out, self, other);                                      \
    return out;                                                              \
  }

MINIATEN_DEFINE_BINARY_MATH(atan2, run_binary_float)
MINIATEN_DEFINE_BINARY_MATH(hypot, run_binary)
MINIATEN_DEFINE_BINARY_MATH(fmod, run_binary)
MINIATEN_DEFINE_BINARY_MATH(remainder, run_binary)

#undef MINIATEN_DEFINE_BINARY_MATH

// fmod with a Scalar divisor: the Scalar as a wrapped number (see Note [Scalar overloads wrap
// their Scalar] in BinaryOps.cpp).
Tensor fmod(const Tensor& self, const Scalar& other) {
  return at::fmod(self, wrapped_scalar_for(self, other));
}

Tensor& fmod_(Tensor& self, const Scalar& other) {
  return self.fmod_(wrapped_scalar_for(self, other));
}

Tensor& fmod_out(const Tensor& self, const Scalar& other, Tensor& out) {
  return at::fmod_out(out, self, wrapped_scalar_for(self, other));
}

// remainder's Scalar overloads, the same way; a Scalar dividend is wrapped likewise.
Tensor remainder(const Tensor& self, const Scalar& other) {
  return at::remainder(self, wrapped_scalar_for(self, other));
}

Tensor& remainder_(Tensor& self, const Scalar& other) {
  return self.remainder_(wrapped_scalar_for(self, other));
}

Tensor& remainder_out(const Tensor& self, const Scalar& other, Tensor& out) {
  return at::remainder_out(out, self, wrapped_scalar_for(self, other));
}

Tensor remainder(const Scalar& self, const Tensor& other) {
  return at::remainder(wrapped_scalar_for(other, self), other);
}

// maximum and minimum have no in-place forms in libtorch.
Tensor maximum(const Tensor& self, const Tensor& other) {
  extremum_check("maximum", self, other);
  Tensor out;
  return run_binary(maximum_stub, out, self, other).output();
}

Tensor& maximum_out(const Tensor& self, const Tensor& other, Tensor& out) {
  extremum_check("maximum", self, other);
  run_binary(maximum_stub, out, self, other);
  return out;
}

Tensor minimum(const Tensor& self, const Tensor& other) {
  extremum_check("minimum", self, other);
  Tensor out;
  return run_binary(minimum_stub, out, self, other).output();
}

Tensor& minimum_out(const Tensor& self, const Tensor& other, Tensor& out) {
  extremum_check("minimum", self, other);
  run_binary(minimum_stub, out, self, other);
  return out;
}

}  // namespace native
}  // namespace at
