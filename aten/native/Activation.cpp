// relu, silu and gelu, and relu's backward (threshold_backward). silu and gelu keep the input's
// dtype (an integer tensor is libtorch's "silu_cpu" / "GeluKernelImpl" not implemented error,
// not a promotion). libtorch's aten/src/ATen/native/Activation.cpp; kernels in
// aten/native/cpu/ActivationKernel.cpp.

#include "aten/native/Activation.h"
#include "aten/ATen.h"
#include "aten/generated/NativeFunctions.h"
#include "aten/native/MetaStub.h"

namespace at {
namespace native {

DEFINE_DISPATCH(silu_stub);
DEFINE_DISPATCH(gelu_stub);
DEFINE_DISPATCH(threshold_backward_stub);

namespace {

GeluType gelu_type(c10::string_view approximate) {
  if (approximate == "none") return GeluType::None;
  if (approximate == "tanh") return GeluType::Tanh;
  TORCH_CHECK(false, "approximate argument must be either none or tanh.");
}

TensorIterator run_silu(Tensor& out, const Tensor& self) {
  auto iter = TensorIterator::unary_op(out, self);
  run_stub(silu_stub, iter);
  return iter;
}

TensorIterator run_gelu(Tensor& out, const Tensor& self, c10::string_view approximate) {
  const GeluType type = gelu_type(approximate);
  auto iter = TensorIterator::unary_op(out, self);
  run_stub(gelu_stub, iter, type);
  return iter;
}

}  // namespace

Tensor silu(const Tensor& self) {
  Tensor out;
  return run_silu(out, self).output();
}

Tensor& silu_(Tensor& self) {
  run_silu(self, self);
  return self;
}

Tensor& silu_out(const Tensor& self, Tensor& out) {
  run_silu(out, self);
  return out;
}

Tensor gelu(const Tensor& self, c10::string_view approximate) {
  Tensor out;
  return run_gelu(out, self, approximate).output();
}

Tensor& gelu_(Tensor& self, c10::string_view approximate) {
  run_gelu(self, self, approximate);
  return self;
}

Tensor& gelu_out(const Tensor& self, c10::string_view approximate, Tensor& out) {
  run_gelu(out, self, approximate);
  return out;
}

// relu is clamp_min(self, 0), as libtorch's CPU kernel; Bool is refused rather than clamped.
Tensor relu(const Tensor& self) {
  TORCH_CHECK(self.scalar_type() != at::kBool, "Boolean inputs not supported for relu");
  return at::clamp_min(self, 0);
}

Tensor& relu_(Tensor& self) {
  TORCH_CHECK(self.scalar_type() != at::kBool, "Boolean inputs not supported for relu");
  return at::clamp_min_(self, 0);
}

// relu's backward (and threshold's): the gradient where self > threshold, zero elsewhere, in the
// promoted dtype of grad_output and self, broadcast as a binary op.
Tensor threshold_backward(const Tensor& grad_output, const Tensor& self, const Scalar& threshold) {
  Tensor out;
  // self first, as libtorch's iterator has it (its broadcast errors name self "tensor a").
  auto iter = TensorIterator::binary_op(out, self, grad_output);
  run_stub(threshold_backward_stub, iter, threshold);
  return iter.output();
}

}  // namespace native
}  // namespace at
