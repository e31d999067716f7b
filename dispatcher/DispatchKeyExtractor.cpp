#include "dispatcher/DispatchKeyExtractor.h"

namespace c10 {

DispatchKeyExtractor::DispatchKeyExtractor()
    : non_fallthrough_keys_(DispatchKeySet(DispatchKeySet::FULL).raw_repr()) {
  for (auto& mask : non_fallthrough_keys_per_backend_) {
    mask.store(DispatchKeySet(DispatchKeySet::FULL).raw_repr(), std::memory_order_relaxed);
  }
}

DispatchKeyExtractor::DispatchKeyExtractor(const DispatchKeyExtractor& rhs)
    : dispatch_arg_indices_reverse_(rhs.dispatch_arg_indices_reverse_),
      num_args_(rhs.num_args_),
      non_fallthrough_keys_(rhs.non_fallthrough_keys_.load()) {
  for (size_t b = 0; b < non_fallthrough_keys_per_backend_.size(); ++b) {
    non_fallthrough_keys_per_backend_[b].store(rhs.non_fallthrough_keys_per_backend_[b].load(),
                                               std::memory_order_relaxed);
  }
}

// See Note [Fallthrough masks are per backend].
void DispatchKeyExtractor::setNonFallthroughKeys(
    const std::array<DispatchKeySet, num_backends>& per_backend) {
  bool all_equal = true;
  for (size_t b = 0; b < per_backend.size(); ++b) {
    non_fallthrough_keys_per_backend_[b].store(per_backend[b].raw_repr(),
                                               std::memory_order_release);
    all_equal &= per_backend[b] == per_backend[0];
  }
  non_fallthrough_keys_.store(per_backend[0].raw_repr() | (all_equal ? 0 : kMasksDifferPerBackend),
                              std::memory_order_release);
}

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
      visitor(ivalue.toTensorListRef());
    } else if (ivalue.isOptionalTensorList()) {
      visitor(ivalue.toOptionalTensorList());
    }
  }
  return computeDispatchKeySet(visitor.ts);
}

}  // namespace c10
