#pragma once
// KernelFunction: one registered kernel, callable both ways — an unboxed function pointer (the
// fast path of typed calls) and a boxed function over a Stack (what boxed calls, fallbacks and
// the trace use). Registering either kind makes the other available:
//
//   auto k1 = KernelFunction::makeFromUnboxedFunction(TORCH_FN(my_add));   // + boxed wrapper
//   auto k2 = KernelFunction::makeFromBoxedFunction<&my_boxed_fallback>(); // typed calls box
//   auto k3 = KernelFunction::makeFallthrough();                           // "skip this key"

#include <memory>
#include <string>
#include <type_traits>

#include "dispatcher/CppSignature.h"
#include "dispatcher/impl/Boxing.h"

namespace c10 {

class OperatorHandle;

// Base of every kernel functor; a lambda or a runtime function pointer is wrapped in one.
struct OperatorKernel : public c10::intrusive_ptr_target {
  ~OperatorKernel() override = default;
};

namespace impl {

// Note [Arguments by reference down the chain]
// One call goes through several kernels (Autograd, ADInplaceOrView, CPU), each entered through
// the unboxed function pointer below. A by-value argument that the x86-64 ABI passes in memory
// (a type that is not trivially copyable, such as c10::optional<int64_t>, or one over 16
// bytes) was copied afresh at every one of those entries. The pointer's type takes such an
// argument as T&& instead: the chain hands down a reference to the caller's one copy, and only
// the kernel at the end, which takes its argument by value, copies it. The signatures users
// write and see (kernels, TypedOperatorHandle, the at:: functions) do not change.
template <class T>
using unboxed_arg_t = std::conditional_t<std::is_reference<T>::value ||
                                             (std::is_trivially_copyable<T>::value &&
                                              sizeof(T) <= 16),
                                         T, T&&>;

// Calls the functor from the typed fast path, dropping the DispatchKeySet if it takes none.
//
// Note [One call per kernel]
// This wrapper is instantiated where the kernel is registered, which is nearly always the file
// that defines it (TORCH_FN(VariableType::slice_Tensor) next to slice_Tensor), yet GCC kept
// the kernel out of line: every hop of a call was two calls, with the arguments marshalled
// twice. flatten inlines the kernel, and whatever the kernel inlines, into the wrapper, so a
// hop is one call. Calls into other files stay calls. It took 60-100 instructions off each view
// (three or four hops) for 3% more library code.
template <class KernelFunctor, class FuncType>
struct wrap_kernel_functor_unboxed;
template <class KernelFunctor, class Return, class... Params>
struct wrap_kernel_functor_unboxed<KernelFunctor, Return(Params...)> {
  __attribute__((flatten)) static Return call(OperatorKernel* functor, DispatchKeySet ks,
                                              unboxed_arg_t<Params>... args) {
    KernelFunctor* f = static_cast<KernelFunctor*>(functor);
    if constexpr (guts::remove_DispatchKeySet_arg_from_func<
                      typename guts::infer_function_traits_t<KernelFunctor>::func_type>::has_ks) {
      return (*f)(ks, std::forward<Params>(args)...);
    } else {
      (void)ks;
      return (*f)(std::forward<Params>(args)...);
    }
  }
};

// A function known at compile time, as a stateless functor (the call is direct).
template <class FuncPtr, class FuncType = typename FuncPtr::FuncType>
struct WrapFunctionIntoFunctor;
template <class FuncPtr, class Return, class... Params>
struct WrapFunctionIntoFunctor<FuncPtr, Return(Params...)> final : OperatorKernel {
  C10_ALWAYS_INLINE Return operator()(Params... args) {
    return (*FuncPtr::func_ptr())(std::forward<Params>(args)...);
  }
};

// A runtime function pointer or a lambda, stored in the functor.
template <class Func, class FuncType>
struct WrapRuntimeIntoFunctor;
template <class Func, class Return, class... Params>
struct WrapRuntimeIntoFunctor<Func, Return(Params...)> final : OperatorKernel {
  explicit WrapRuntimeIntoFunctor(Func&& f) : f_(std::move(f)) {}
  Return operator()(Params... args) { return f_(std::forward<Params>(args)...); }
  Func f_;
};

}  // namespace impl

class C10_API KernelFunction final {
 public:
  using InternalBoxedKernelFunction = impl::InternalBoxedKernelFunction;
  using BoxedKernelFunction = void(const OperatorHandle&, torch::jit::Stack*);
  using BoxedKernelFunction_withDispatchKeys = void(const OperatorHandle&, DispatchKeySet,
                                                    torch::jit::Stack*);

  // An invalid kernel: isValid() is false.
  KernelFunction() = default;

  bool isValid() const { return boxed_kernel_func_ != nullptr; }
  bool isValidUnboxed() const { return unboxed_kernel_func_ != nullptr; }
  bool isFallthrough() const { return boxed_kernel_func_ == &fallthrough_kernel; }
  // The same functor and the same entry points: calls through either do the same thing.
  bool isSameAs(const KernelFunction& other) const {
    return functor_.get() == other.functor_.get() &&
           boxed_kernel_func_ == other.boxed_kernel_func_ &&
           unboxed_kernel_func_ == other.unboxed_kernel_func_;
  }

  void callBoxed(const OperatorHandle& op, DispatchKeySet ks, torch::jit::Stack* stack) const {
    (*boxed_kernel_func_)(functor_.get(), op, ks, stack);
  }

  // The typed fast path: a direct call when the kernel was registered unboxed, else boxes.
  template <class Return, class... Args>
  C10_ALWAYS_INLINE Return call(const OperatorHandle& op, DispatchKeySet ks, Args&&... args) const {
    if (C10_LIKELY(unboxed_kernel_func_ != nullptr)) {
      using Unboxed = Return(OperatorKernel*, DispatchKeySet, impl::unboxed_arg_t<Args>...);
      return (*reinterpret_cast<Unboxed*>(unboxed_kernel_func_))(functor_.get(), ks,
                                                                 std::forward<Args>(args)...);
    }
    return impl::BoxedKernelWrapper<Return(Args...)>::call(boxed_kernel_func_, functor_.get(), op,
                                                           ks, std::forward<Args>(args)...);
  }

  // ---- Boxed kernels ------------------------------------------------------------------------
  template <BoxedKernelFunction* func>
  static KernelFunction makeFromBoxedFunction() {
    return KernelFunction(nullptr, &boxed_trampoline<func>, nullptr);
  }
  template <BoxedKernelFunction_withDispatchKeys* func>
  static KernelFunction makeFromBoxedFunction() {
    return KernelFunction(nullptr, &boxed_trampoline_with_keys<func>, nullptr);
  }
  // "Not here: go to the next key." The dispatcher skips fallthrough keys before choosing.
  static KernelFunction makeFallthrough() {
    return KernelFunction(nullptr, &fallthrough_kernel, nullptr);
  }

  // ---- Unboxed kernels (a boxed wrapper is made for each) ----------------------------------
  template <class KernelFunctor>
  static KernelFunction makeFromUnboxedFunctor(std::unique_ptr<OperatorKernel> functor) {
    using Sig = typename guts::remove_DispatchKeySet_arg_from_func<
        typename guts::infer_function_traits_t<KernelFunctor>::func_type>::func_type;
    return KernelFunction(
        c10::intrusive_ptr<OperatorKernel>::adopt_new(functor.release()),
        &impl::make_boxed_from_unboxed_functor<KernelFunctor>::call,
        reinterpret_cast<void*>(&impl::wrap_kernel_functor_unboxed<KernelFunctor, Sig>::call));
  }
  // TORCH_FN(f): f is called directly from the wrapper.
  template <class FuncPtr,
            std::enable_if_t<is_compile_time_function_pointer<FuncPtr>::value, int> = 0>
  static KernelFunction makeFromUnboxedFunction(FuncPtr) {
    using Functor = impl::WrapFunctionIntoFunctor<FuncPtr>;
    return makeFromUnboxedFunctor<Functor>(std::make_unique<Functor>());
  }
  template <class FuncType>
  static KernelFunction makeFromUnboxedRuntimeFunction(FuncType* func) {
    TORCH_INTERNAL_ASSERT(func != nullptr, "Kernel function cannot be nullptr");
    using Functor = impl::WrapRuntimeIntoFunctor<FuncType*, FuncType>;
    return makeFromUnboxedFunctor<Functor>(std::make_unique<Functor>(std::move(func)));
  }
  template <class Lambda>
  static KernelFunction makeFromUnboxedLambda(Lambda&& lambda) {
    using L = std::decay_t<Lambda>;
    using FuncType = typename guts::infer_function_traits_t<L>::func_type;
    using Functor = impl::WrapRuntimeIntoFunctor<L, FuncType>;
    return makeFromUnboxedFunctor<Functor>(std::make_unique<Functor>(std::forward<Lambda>(lambda)));
  }

  std::string dumpState() const;

 private:
  KernelFunction(c10::intrusive_ptr<OperatorKernel> functor, InternalBoxedKernelFunction* boxed,
                 void* unboxed)
      : functor_(std::move(functor)), boxed_kernel_func_(boxed), unboxed_kernel_func_(unboxed) {}

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

  c10::intrusive_ptr<OperatorKernel> functor_;
  InternalBoxedKernelFunction* boxed_kernel_func_ = nullptr;
  void* unboxed_kernel_func_ = nullptr;
};

}  // namespace c10
