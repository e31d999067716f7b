// The Autograd kernel of the operators that have forward kernels and no derivative formulas yet:
// clamp with tensor bounds, masked_scatter, and the backward operators themselves
// (_softmax_backward_data, ...: a second derivative through them).
//
// Note [Operators without derivatives yet]
// Were the Autograd key left to fall through for them, sin of a tensor that requires grad would
// come out detached: a training loop would silently stop learning through it. So this kernel,
// with grad mode on and any tensor argument requiring grad, refuses at the call: "derivative for
// aten::sin is not implemented", the text of libtorch's NotImplemented node (libtorch's
// autogradNotImplementedFallback lets the forward run and raises it in backward; at the call it
// names the operator where it was used, before any work is lost). Otherwise it runs the operator
// below autograd, where the generated ADInplaceOrView kernel bumps the version of what it
// writes (Note [Who bumps the version counter] in codegen/Emit.cpp). The out= forms are not
// here: the generated out= Autograd kernels already refuse a tensor that requires grad (Note
// [out= variants under autograd] in codegen/Emit.cpp).

#include "aten/ATen.h"
#include "aten/autograd/GradMode.h"
#include "dispatcher/Library.h"

namespace torch {
namespace autograd {

namespace {

void derivative_not_implemented(const c10::OperatorHandle& op, c10::DispatchKeySet ks,
                                torch::jit::Stack* stack) {
  const size_t n = op.schema().arguments().size();
  // A stack shorter than the schema is the kernel below's error to report.
  if (at::GradMode::is_enabled() && stack->size() >= n) {
    for (size_t i = 0; i < n; ++i) {
      const c10::IValue& arg = torch::jit::peek(stack, i, n);
      TORCH_CHECK(!(arg.isTensor() && arg.toTensor().defined() && arg.toTensor().requires_grad()),
                  "derivative for ", op.schema().name(), " is not implemented");
    }
  }
  op.redispatchBoxed(ks & c10::after_autograd_keyset, stack);
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, Autograd, m) {
  auto add = [&](const char* name) {
    m.impl(name, torch::CppFunction::makeFromBoxedFunction<&derivative_not_implemented>().debug(
                     "derivative_not_implemented"));
  };
  for (const char* op : {"masked_scatter", "masked_scatter_", "embedding_dense_backward",
                         "native_layer_norm_backward", "binary_cross_entropy_backward",
                         "clamp.Tensor", "clamp_.Tensor", "clamp_min.Tensor", "clamp_min_.Tensor",
                         "clamp_max.Tensor", "clamp_max_.Tensor",
                         // The backward operators: their own derivatives (double backward).
                         "_softmax_backward_data", "_log_softmax_backward_data",
                         "nll_loss_backward", "mse_loss_backward"}) {
    add(op);
  }
}

}  // namespace autograd
}  // namespace torch
