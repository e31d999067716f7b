// silu and gelu: unary operators keeping the input's dtype (an integer tensor is libtorch's
// "silu_cpu" / "GeluKernelImpl" not implemented error, not a promotion). libtorch's
// aten/src/ATen/native/Activation.cpp; kernels in aten/native/cpu/ActivationKernel.cpp.

#include "aten/native/Activation.h"
#include "aten/ATen.h"
#include "aten/generated/NativeFunctions.h"

namespace at {
namespace native {

DEFINE_DISPATCH(silu_stub);
DEFINE_DISPATCH(gelu_stub);

namespace {

GeluType gelu_type(c10::string_view approximate) {
  if (approximate == "none") return GeluType::None;
  if (approximate == "tanh") return GeluType::Tanh;
  TORCH_CHECK(false, "approximate argument must be either none or tanh.");
}

TensorIterator run_silu(Tensor& out, const Tensor& self) {
  auto iter = TensorIterator::unary_op(out, self);
  if (iter.device_type() != c10::kMeta) silu_stub(iter.device_type(), iter);
  return iter;
}

TensorIterator run_gelu(Tensor& out, const Tensor& self, c10::string_view approximate) {
  const GeluType type = gelu_type(approximate);
  auto iter = TensorIterator::unary_op(out, self);
  if (iter.device_type() != c10::kMeta) gelu_stub(iter.device_type(), iter, type);
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

}  // namespace native
}  // namespace at
