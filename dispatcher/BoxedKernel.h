#pragma once
// BoxedKernel: a kernel callable only through a Stack — a function pointer plus, optionally, a
// functor holding state. Backend fallbacks and boxed-only kernels are BoxedKernels; every
// KernelFunction holds one (its boxed half) beside its optional unboxed entry point.
//
//   void my_fallback(const c10::OperatorHandle& op, torch::jit::Stack* stack);
//   auto k = c10::BoxedKernel::makeFromFunction<&my_fallback>();
//   k.callBoxed(op, ks, &stack);
//
//   struct Logger final : c10::OperatorKernel {   // a boxed functor keeps state
//     void operator()(const c10::OperatorHandle&, c10::DispatchKeySet, torch::jit::Stack*);
//   };
//   auto k2 = c10::BoxedKernel::makeFromFunctor(std::make_unique<Logger>());

#include <memory>

#include "c10/core/DispatchKeySet.h"
#include "c10/util/intrusive_ptr.h"
#include "dispatcher/Stack.h"

namespace c10 {

class OperatorHandle;
using Stack = torch::jit::Stack;  // libtorch spells it c10::Stack in kernel signatures

// Base of every kernel functor; a lambda or a runtime function pointer is wrapped in one.
struct OperatorKernel : public c10::intrusive_ptr_target {
  ~OperatorKernel() override = default;
};

class C10_API BoxedKernel final {
 public:
  using InternalBoxedKernelFunction = void(OperatorKernel*, const OperatorHandle&, DispatchKeySet,
                                           torch::jit::Stack*);
  using BoxedKernelFunction = void(const OperatorHandle&, torch::jit::Stack*);
  using BoxedKernelFunction_withDispatchKeys = void(const OperatorHandle&, DispatchKeySet,
                                                    torch::jit::Stack*);

  // An invalid kernel: isValid() is false.
  BoxedKernel() = default;
  BoxedKernel(c10::intrusive_ptr<OperatorKernel> functor, InternalBoxedKernelFunction* boxed)
      : functor_(std::move(functor)), boxed_kernel_func_(boxed) {}

  bool isValid() const { return boxed_kernel_func_ != nullptr; }
  bool isFallthrough() const { return boxed_kernel_func_ == &fallthrough_kernel; }

  void callBoxed(const OperatorHandle& op, DispatchKeySet ks, torch::jit::Stack* stack) const {
    (*boxed_kernel_func_)(functor_.get(), op, ks, stack);
  }

  template <BoxedKernelFunction* func>
  static BoxedKernel makeFromFunction() {
    return BoxedKernel(nullptr, &boxed_trampoline<func>);
  }
  template <BoxedKernelFunction_withDispatchKeys* func>
  static BoxedKernel makeFromFunction() {
    return BoxedKernel(nullptr, &boxed_trampoline_with_keys<func>);
  }
  // KernelFunctor: an OperatorKernel with operator()(const OperatorHandle&, DispatchKeySet,
  // Stack*).
  template <class KernelFunctor>
  static BoxedKernel makeFromFunctor(std::unique_ptr<KernelFunctor> functor) {
    static_assert(std::is_base_of<OperatorKernel, KernelFunctor>::value,
                  "Tried to call BoxedKernel::makeFromFunctor<KernelFunctor>, but the functor "
                  "doesn't inherit from c10::OperatorKernel. Please have the functor inherit "
                  "from it.");
    return BoxedKernel(
        c10::intrusive_ptr<OperatorKernel>::adopt_new(functor.release()),
        [](OperatorKernel* kernel, const OperatorHandle& op, DispatchKeySet ks,
           torch::jit::Stack* stack) { (*static_cast<KernelFunctor*>(kernel))(op, ks, stack); });
  }

  // "Not here: go to the next key." The dispatcher skips fallthrough keys before choosing; a
  // call racing a registration may still run the kernel, which then skips its key itself (See
  // Note [A racing call can reach a fallthrough kernel] in KernelFunction.cpp).
  static BoxedKernel makeFallthrough() { return BoxedKernel(nullptr, &fallthrough_kernel); }
  // What the dispatch table holds for AutogradOther when a backend mapped to it has a kernel
  // and the operator also has a CompositeImplicitAutograd one: calling it is an error.
  static BoxedKernel makeAmbiguousAutogradOther() {
    return BoxedKernel(nullptr, &ambiguous_autogradother_kernel);
  }
  // For the Named key of operators that do not support named tensors.
  static BoxedKernel makeNamedNotSupported() {
    return BoxedKernel(nullptr, &named_not_supported_kernel);
  }

  // Internal (KernelFunction's fast path and isSameAs read these).
  OperatorKernel* getFunctor() const { return functor_.get(); }
  InternalBoxedKernelFunction* getFnPtr() const { return boxed_kernel_func_; }

 private:
  template <BoxedKernelFunction* func>
  static void boxed_trampoline(OperatorKernel*, const OperatorHandle& op, DispatchKeySet,
                               torch::jit::Stack* stack) {
    func(op, stack);
  }
  template <BoxedKernelFunction_withDispatchKeys* func>
  static void boxed_trampoline_with_keys(OperatorKernel*, const OperatorHandle& op,
                                         DispatchKeySet ks, torch::jit::Stack* stack) {
    func(op, ks, stack);
  }
  static void fallthrough_kernel(OperatorKernel*, const OperatorHandle&, DispatchKeySet,
                                 torch::jit::Stack*);
  static void ambiguous_autogradother_kernel(OperatorKernel*, const OperatorHandle&, DispatchKeySet,
                                             torch::jit::Stack*);
  static void named_not_supported_kernel(OperatorKernel*, const OperatorHandle&, DispatchKeySet,
                                         torch::jit::Stack*);

  c10::intrusive_ptr<OperatorKernel> functor_;
  InternalBoxedKernelFunction* boxed_kernel_func_ = nullptr;
};

}  // namespace c10
