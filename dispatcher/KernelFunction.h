#pragma once
// KernelFunction: one registered kernel, callable both ways — an unboxed function pointer (the
// fast path of typed calls) and a boxed function over a Stack (what boxed calls, fallbacks and
// the trace use). Registering either kind makes the other available:
//
//   auto k1 = KernelFunction::makeFromUnboxedFunction(TORCH_FN(my_add));   // + boxed wrapper
//   auto k2 = KernelFunction::makeFromUnboxedLambda([](int64_t a) { return a; });
//   auto k3 = KernelFunction::makeFromBoxedFunction<&my_boxed_fallback>(); // typed calls box
//   auto k4 = KernelFunction::makeFallthrough();                           // "skip this key"
//
//   int64_t r = k2.call<int64_t, int64_t>(op, ks, 3);     // typed
//   k2.callBoxed(op, ks, &stack);                         // boxed
//
// The factories have libtorch's template forms, AllowLegacyTypes included (it is accepted and
// not checked: miniaten's boxing takes std::vector and std::unordered_map arguments anyway).

#include <memory>
#include <string>
#include <type_traits>

#include "dispatcher/BoxedKernel.h"
#include "dispatcher/CppSignature.h"
#include "dispatcher/impl/Boxing.h"

namespace c10 {

class OperatorHandle;

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

// An argument of KernelFunction::call as callForwarded takes it (Args&&): an rvalue of type A
// is passed on as it is; anything else becomes a fresh A (a copy or a conversion), as a by-value
// parameter would. Reference types bind as references do.
template <class A, class P>
C10_ALWAYS_INLINE std::conditional_t<
    std::is_same<std::decay_t<P>, std::decay_t<A>>::value &&
        (std::is_reference<A>::value || !std::is_lvalue_reference<P>::value),
    A&&, std::decay_t<A>>
pass_as(P&& p) {
  return std::forward<P>(p);
}

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
  template <class F>
  explicit WrapRuntimeIntoFunctor(F&& f) : f_(std::forward<F>(f)) {}
  Return operator()(Params... args) { return f_(std::forward<Params>(args)...); }
  Func f_;
};

}  // namespace impl

class C10_API KernelFunction final {
 public:
  using InternalBoxedKernelFunction = BoxedKernel::InternalBoxedKernelFunction;
  using BoxedKernelFunction = BoxedKernel::BoxedKernelFunction;
  using BoxedKernelFunction_withDispatchKeys = BoxedKernel::BoxedKernelFunction_withDispatchKeys;

  // An invalid kernel: isValid() is false.
  KernelFunction() = default;
  KernelFunction(BoxedKernel boxed, void* unboxed_kernel_func)
      : boxed_kernel_func_(std::move(boxed)), unboxed_kernel_func_(unboxed_kernel_func) {}

  bool isValid() const { return boxed_kernel_func_.isValid(); }
  bool isValidUnboxed() const { return unboxed_kernel_func_ != nullptr; }
  bool isFallthrough() const { return boxed_kernel_func_.isFallthrough(); }
  // The same functor and the same entry points: calls through either do the same thing.
  bool isSameAs(const KernelFunction& other) const {
    return boxed_kernel_func_.getFunctor() == other.boxed_kernel_func_.getFunctor() &&
           boxed_kernel_func_.getFnPtr() == other.boxed_kernel_func_.getFnPtr() &&
           unboxed_kernel_func_ == other.unboxed_kernel_func_;
  }
  bool _equalsBoxedAndUnboxed(const KernelFunction& other) const { return isSameAs(other); }

  void callBoxed(const OperatorHandle& op, DispatchKeySet ks, torch::jit::Stack* stack) const {
    boxed_kernel_func_.callBoxed(op, ks, stack);
  }

  // A typed call: Return and Args are given explicitly (call<int64_t, int64_t>(op, ks, x)), and
  // the arguments convert to Args as they would for a function taking Args by value.
  template <class Return, class... Args, class... Passed>
  Return call(const OperatorHandle& op, DispatchKeySet ks, Passed&&... args) const {
    static_assert(sizeof...(Args) == sizeof...(Passed),
                  "KernelFunction::call<Return, Args...> got a different number of arguments");
    return callForwarded<Return, Args...>(op, ks,
                                          impl::pass_as<Args>(std::forward<Passed>(args))...);
  }

  // The dispatcher's fast path: a direct call when the kernel was registered unboxed, else
  // boxes. Arguments arrive as Args&& (See Note [Arguments are forwarded, not copied] in
  // Dispatcher.h).
  template <class Return, class... Args>
  C10_ALWAYS_INLINE Return callForwarded(const OperatorHandle& op, DispatchKeySet ks,
                                         Args&&... args) const {
    if (C10_LIKELY(unboxed_kernel_func_ != nullptr)) {
      using Unboxed = Return(OperatorKernel*, DispatchKeySet, impl::unboxed_arg_t<Args>...);
      return (*reinterpret_cast<Unboxed*>(unboxed_kernel_func_))(boxed_kernel_func_.getFunctor(),
                                                                 ks, std::forward<Args>(args)...);
    }
    return impl::BoxedKernelWrapper<Return(Args...)>::call(boxed_kernel_func_.getFnPtr(),
                                                           boxed_kernel_func_.getFunctor(), op,
                                                           ks, std::forward<Args>(args)...);
  }

  // ---- Boxed kernels ------------------------------------------------------------------------
  static KernelFunction makeFromBoxedKernel(BoxedKernel boxed) {
    return KernelFunction(std::move(boxed), nullptr);
  }
  template <BoxedKernelFunction* func>
  static KernelFunction makeFromBoxedFunction() {
    return makeFromBoxedKernel(BoxedKernel::makeFromFunction<func>());
  }
  template <BoxedKernelFunction_withDispatchKeys* func>
  static KernelFunction makeFromBoxedFunction() {
    return makeFromBoxedKernel(BoxedKernel::makeFromFunction<func>());
  }
  template <class KernelFunctor>
  static KernelFunction makeFromBoxedFunctor(std::unique_ptr<KernelFunctor> functor) {
    return makeFromBoxedKernel(BoxedKernel::makeFromFunctor(std::move(functor)));
  }
  // "Not here: go to the next key." The dispatcher skips fallthrough keys before choosing.
  static KernelFunction makeFallthrough() {
    return makeFromBoxedKernel(BoxedKernel::makeFallthrough());
  }
  static KernelFunction makeAmbiguousAutogradOther() {
    return makeFromBoxedKernel(BoxedKernel::makeAmbiguousAutogradOther());
  }
  static KernelFunction makeNamedNotSupported() {
    return makeFromBoxedKernel(BoxedKernel::makeNamedNotSupported());
  }

  // ---- Unboxed kernels (a boxed wrapper is made for each) ----------------------------------
  // KernelFunctor: an OperatorKernel whose operator() is the kernel; `functor` is one of them.
  template <bool AllowLegacyTypes = false, class KernelFunctor>
  static KernelFunction makeFromUnboxedFunctor(std::unique_ptr<OperatorKernel> functor) {
    static_assert(std::is_base_of<OperatorKernel, KernelFunctor>::value,
                  "Tried to call KernelFunction::makeFromUnboxedFunctor<KernelFunctor>, but the "
                  "functor doesn't inherit from c10::OperatorKernel. Please have the functor "
                  "inherit from it.");
    using Sig = typename guts::remove_DispatchKeySet_arg_from_func<
        typename guts::infer_function_traits_t<KernelFunctor>::func_type>::func_type;
    return KernelFunction(
        BoxedKernel(c10::intrusive_ptr<OperatorKernel>::adopt_new(functor.release()),
                    &impl::make_boxed_from_unboxed_functor<KernelFunctor>::call),
        reinterpret_cast<void*>(&impl::wrap_kernel_functor_unboxed<KernelFunctor, Sig>::call));
  }
  // TORCH_FN(f): f is called directly from the wrapper.
  template <class FuncPtr, bool AllowLegacyTypes = false>
  static KernelFunction makeFromUnboxedFunction(FuncPtr) {
    static_assert(is_compile_time_function_pointer<FuncPtr>::value,
                  "Tried to call KernelFunction::makeFromUnboxedFunction with an invalid "
                  "parameter. It must be a function pointer created with TORCH_FN.");
    using Functor = impl::WrapFunctionIntoFunctor<FuncPtr>;
    return makeFromUnboxedFunctor<AllowLegacyTypes, Functor>(std::make_unique<Functor>());
  }
  template <bool AllowLegacyTypes = false, class FuncType>
  static KernelFunction makeFromUnboxedRuntimeFunction(FuncType* func) {
    static_assert(std::is_function<FuncType>::value,
                  "Tried to call KernelFunction::makeFromUnboxedRuntimeFunction with a "
                  "non-function type.");
    TORCH_INTERNAL_ASSERT(func != nullptr, "Kernel function cannot be nullptr");
    using Functor = impl::WrapRuntimeIntoFunctor<FuncType*, FuncType>;
    return makeFromUnboxedFunctor<AllowLegacyTypes, Functor>(
        std::make_unique<Functor>(std::move(func)));
  }
  // A lambda (with or without captures) or any other functor that is not an OperatorKernel.
  template <bool AllowLegacyTypes = false, class Lambda>
  static KernelFunction makeFromUnboxedLambda(Lambda&& lambda) {
    using L = std::decay_t<Lambda>;
    static_assert(!std::is_base_of<OperatorKernel, L>::value,
                  "Tried to call KernelFunction::makeFromUnboxedLambda with a functor that "
                  "inherits from c10::OperatorKernel; use makeFromUnboxedFunctor instead.");
    using FuncType = typename guts::infer_function_traits_t<L>::func_type;
    using Functor = impl::WrapRuntimeIntoFunctor<L, FuncType>;
    return makeFromUnboxedFunctor<AllowLegacyTypes, Functor>(
        std::make_unique<Functor>(std::forward<Lambda>(lambda)));
  }

  std::string dumpState() const;

 private:
  BoxedKernel boxed_kernel_func_;
  void* unboxed_kernel_func_ = nullptr;
};

}  // namespace c10
