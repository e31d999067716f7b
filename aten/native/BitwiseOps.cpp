// bitwise_not, bitwise_and, bitwise_or, bitwise_xor: the TensorIterator and the kernel stub
// (aten/native/cpu/BinaryOpsKernel.cpp, UnaryOpsKernel.cpp). libtorch's BinaryOps.cpp and
// UnaryOps.cpp. These are what the Tensor operators ~ & | ^ (and &= |= ^=) call.
//
// Integral and bool tensors only: the kernels dispatch on the common dtype, so a floating
// operand anywhere ("bitwise_and_cpu" not implemented for 'Float') is refused there, as in
// libtorch. Promotion is add's: Byte & Char is Short, a Bool tensor ^ 1 is Long, and an Int
// tensor & 6 stays Int (see Note [Scalar overloads wrap their Scalar] in BinaryOps.cpp). The
// functional, in-place and out= forms share one body (Note [Functional, in-place and out= share
// one body] there). CPU, CUDA (aten/native/cuda/UnaryOpsKernels.cu, BinaryMathKernels.cu) and
// Meta kernels are registered (Note [Meta kernels stop before the stub] there).

#include "aten/ATen.h"
#include "aten/generated/NativeFunctions.h"
#include "aten/native/BinaryOps.h"
#include "aten/native/MetaStub.h"
#include "aten/native/UnaryOps.h"

namespace at {
namespace native {

DEFINE_DISPATCH(bitwise_not_stub);
DEFINE_DISPATCH(bitwise_and_stub);
DEFINE_DISPATCH(bitwise_or_stub);
DEFINE_DISPATCH(bitwise_xor_stub);

namespace {

template <typename Stub>
TensorIterator run_bitwise(Stub& stub, Tensor& out, const Tensor& self, const Tensor& other) {
  auto iter = TensorIterator::binary_op(out, self, other);
  // See Note [Meta kernels stop before the stub] in BinaryOps.cpp.
  run_stub(stub, iter);
  return iter;
}

TensorIterator run_bitwise_not(Tensor& out, const Tensor& self) {
  auto iter = TensorIterator::unary_op(out, self);
  run_stub(bitwise_not_stub, iter);
  return iter;
}

}  // namespace

// ---- bitwise_not -----------------------------------------------------------------------------

Tensor bitwise_not(const Tensor& self) {
  Tensor out;
  return run_bitwise_not(out, self).output();
}

Tensor& bitwise_not_(Tensor& self) {
  run_bitwise_not(self, self);
  return self;
}

Tensor& bitwise_not_out(const Tensor& self, Tensor& out) {
  run_bitwise_not(out, self);
  return out;
}

// ---- bitwise_and, bitwise_or, bitwise_xor: the same eight overloads each ----------------------

#define MINIATEN_BITWISE_BINARY_OP(name)                                                  \
  Tensor name(const Tensor& self, const Tensor& other) {                                  \
    Tensor out;                                                                           \
    return run_bitwise(name##_stub, out, self, other).output();                           \
  }                                                                                       \
  Tensor& name##_(Tensor& self, const Tensor& other) {                                    \
    run_bitwise(name##_stub, self, self, other);                                          \
    return self;                                                                          \
  }                                                                                       \
  Tensor& name##_out(const Tensor& self, const Tensor& other, Tensor& out) {              \
    run_bitwise(name##_stub, out, self, other);                                           \
    return out;                                                                           \
  }                                                                                       \
  Tensor name(const Tensor& self, const Scalar& other) {                                  \
    return at::name(self, wrapped_scalar_for(self, other));                               \
  }                                                                                       \
  Tensor& name##_(Tensor& self, const Scalar& other) {                                    \
    return self.name##_(wrapped_scalar_for(self, other));                                 \
  }                                                                                       \
  Tensor& name##_out(const Tensor& self, const Scalar& other, Tensor& out) {              \
    return at::name##_out(out, self, wrapped_scalar_for(self, other));                    \
  }                                                                                       \
  Tensor name(const Scalar& self, const Tensor& other) {                                  \
    return at::name(wrapped_scalar_for(other, self), other);                              \
  }                                                                                       \
  Tensor& name##_out(const Scalar& self, const Tensor& other, Tensor& out) {              \
    return at::name##_out(out, wrapped_scalar_for(other, self), other);                   \
  }

MINIATEN_BITWISE_BINARY_OP(bitwise_and)
MINIATEN_BITWISE_BINARY_OP(bitwise_or)
MINIATEN_BITWISE_BINARY_OP(bitwise_xor)

#undef MINIATEN_BITWISE_BINARY_OP

}  // namespace native
}  // namespace at
