#include "dispatcher/DispatchKeyExtractor.h"

namespace c10 {

void DispatchKeyExtractor::registerSchema(const FunctionSchema& schema) {
  const auto& args = schema.arguments();
  TORCH_CHECK(args.size() <= 64, "The dispatcher supports at most 64 arguments, ",
              schema.operator_name(), " has ", args.size());
  num_args_ = args.size();
  dispatch_arg_indices_reverse_ = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    const TypePtr& type = args[i].type();
    // A null type means Tensor (see Argument).
    const bool tensorish = !type || type->isTensor() || type->isOptionalTensor() ||
                           type->isTensorList() || type->isOptionalTensorList();
    if (tensorish) dispatch_arg_indices_reverse_ |= uint64_t(1) << (args.size() - 1 - i);
  }
}

DispatchKeySet DispatchKeyExtractor::getDispatchKeySetBoxed(const torch::jit::Stack* stack) const {
  detail::MultiDispatchKeySet visitor;
  uint64_t bits = dispatch_arg_indices_reverse_;
  while (bits != 0) {
    const int reverse_index = __builtin_ctzll(bits);
    bits &= bits - 1;
    if (static_cast<size_t>(reverse_index) >= stack->size()) continue;
    const IValue& ivalue = (*stack)[stack->size() - 1 - reverse_index];
    if (ivalue.isTensor()) {
      visitor(ivalue.toTensor());
    } else if (ivalue.isTensorList()) {
      visitor(ivalue.toTensorList());
    } else if (ivalue.isOptionalTensorList()) {
      visitor(ivalue.toOptionalTensorList());
    }
  }
  return computeDispatchKeySet(visitor.ts);
}

}  // namespace c10
