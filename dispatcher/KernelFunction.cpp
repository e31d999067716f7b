#include "dispatcher/KernelFunction.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace c10 {

void KernelFunction::fallthrough_kernel(OperatorKernel*, const OperatorHandle&, DispatchKeySet,
                                        torch::jit::Stack*) {
  TORCH_INTERNAL_ASSERT(false,
                        "fallthrough_kernel was executed but it should have been short-circuited "
                        "by the dispatcher. This could occur if you registered a fallthrough "
                        "kernel as a override for a specific operator (as opposed to a backend "
                        "fallback); this is NOT currently supported.");
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
