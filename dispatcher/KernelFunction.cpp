#include "dispatcher/KernelFunction.h"

#include "dispatcher/Dispatcher.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace c10 {

// Note [A racing call can reach a fallthrough kernel]
// A call reads its operator's fallthrough mask, then the table slot of the key the mask leaves
// highest: two loads. A registration stores the slots, then the mask (OperatorEntry::
// updateDispatchTable), so a call that overlaps it can read the mask from before a key became
// a fallthrough and the slot from after, and land here. Whatever order the stores came in, a
// call preempted between its two loads could see a mask older than the slot. So the kernel
// does what the newer mask would have done: it skips its key and redispatches below it (remove
// drops the key's functionality, as the mask does). Only a call with no key left to skip is the
// misuse libtorch reports.
void BoxedKernel::fallthrough_kernel(OperatorKernel*, const OperatorHandle& op, DispatchKeySet ks,
                                     torch::jit::Stack* stack) {
  const DispatchKey key = ks.highestPriorityTypeId();
  if (key != DispatchKey::Undefined) {
    op.redispatchBoxed(ks.remove(key), stack);
    return;
  }
  TORCH_INTERNAL_ASSERT(false,
                        "fallthrough_kernel was executed but it should have been short-circuited "
                        "by the dispatcher. This could occur if you registered a fallthrough "
                        "kernel as a override for a specific operator (as opposed to a backend "
                        "fallback); this is NOT currently supported, and we do not intend to add "
                        "support for it in the near future.  If you do find yourself in need of "
                        "this, let us know in the bug tracker.");
}

void BoxedKernel::ambiguous_autogradother_kernel(OperatorKernel*, const OperatorHandle& op,
                                                 DispatchKeySet, torch::jit::Stack*) {
  TORCH_INTERNAL_ASSERT(
      false, op.operator_name(),
      " has kernels registered to both CompositeImplicitAutograd and a backend mapped to "
      "AutogradOther. This makes the backend kernel unreachable; the dispatcher will always "
      "prefer the CompositeImplicitAutograd lowering (see Note [Ambiguity in AutogradOther "
      "kernel]). If you want to override CompositeImplicitAutograd, please open an issue to "
      "request a dedicated Autograd dispatch key for the backend.\n",
      "If you only want to run inference instead of training, add `c10::InferenceMode mode;` "
      "before model.forward(). Note this guard is only available in C++ but not Python at "
      "present.",
      "\nCanonical state\n~~~~~~~~~~~\n", op.dumpState(), "\n\n");
}

void BoxedKernel::named_not_supported_kernel(OperatorKernel*, const OperatorHandle& op,
                                             DispatchKeySet, torch::jit::Stack*) {
  TORCH_CHECK(false, op.operator_name(),
              " is not yet supported with named tensors. Please drop names via "
              "`tensor = tensor.rename(None)`, call the op with an unnamed tensor, and set names "
              "on the result of the operation.");
}

std::string KernelFunction::dumpState() const {
  std::string s;
  if (isFallthrough()) return "fallthrough";
  if (isValid()) s += "boxed";
  if (isValidUnboxed()) s += s.empty() ? "unboxed" : " unboxed";
  return s.empty() ? "invalid" : s;
}

namespace impl {

std::string CppSignature::name() const {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> demangled(
      abi::__cxa_demangle(signature_.name(), nullptr, nullptr, &status), std::free);
  return status == 0 && demangled ? std::string(demangled.get()) : std::string(signature_.name());
}

}  // namespace impl
}  // namespace c10
