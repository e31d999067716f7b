#pragma once
// The two adapters between the calling conventions (REFERENCE.md section 7):
//
//  * make_boxed_from_unboxed_functor<F>: a boxed function that pops F's arguments off a Stack,
//    calls F, and pushes its returns — registering an unboxed kernel creates this for it.
//  * BoxedKernelWrapper<Ret(Args...)>: calls a boxed-only kernel with typed arguments: pushes
//    them (schema order; the caller passes every argument, defaults included), runs the kernel,
//    and unboxes its returns.

#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "dispatcher/BoxedKernel.h"
#include "dispatcher/IValue.h"
#include "dispatcher/List.h"
#include "dispatcher/Stack.h"
#include "dispatcher/impl/FunctionTraits.h"

namespace c10 {

class OperatorHandle;
struct OperatorKernel;

namespace impl {

template <class T>
struct always_false : std::false_type {};

// ---- IValue -> C++ argument ----------------------------------------------------------------
// The returned value (or reference into the stack) must stay valid for the kernel call: views
// such as IntArrayRef point into the IValue, which lives on the stack until the call ends.
template <class T, class Enable = void>
struct ivalue_to_arg {
  static T call(IValue& v) { return std::move(v).to<T>(); }
};
// Narrower integers travel as int.
template <class T>
struct ivalue_to_arg<T, std::enable_if_t<std::is_integral<T>::value && !std::is_same<T, bool>::value &&
                                         !std::is_same<T, int64_t>::value>> {
  static T call(IValue& v) { return static_cast<T>(v.toInt()); }
};
template <>
struct ivalue_to_arg<at::Tensor> {
  static at::Tensor& call(IValue& v) { return v.toTensor(); }
};
template <>
struct ivalue_to_arg<c10::string_view> {
  static c10::string_view call(IValue& v) { return v.toStringView(); }
};
template <>
struct ivalue_to_arg<IntArrayRef> {
  static IntArrayRef call(IValue& v) { return v.toIntListRef(); }
};
template <>
struct ivalue_to_arg<ArrayRef<double>> {
  static ArrayRef<double> call(IValue& v) { return v.toDoubleListRef(); }
};
template <>
struct ivalue_to_arg<ArrayRef<at::Tensor>> {
  static ArrayRef<at::Tensor> call(IValue& v) { return v.toTensorList(); }
};
template <>
struct ivalue_to_arg<c10::optional<IntArrayRef>> {
  static c10::optional<IntArrayRef> call(IValue& v) {
    if (v.isNone()) return c10::nullopt;
    return IntArrayRef(v.toIntListRef());
  }
};
template <>
struct ivalue_to_arg<c10::OptionalIntArrayRef> {
  static c10::OptionalIntArrayRef call(IValue& v) {
    if (v.isNone()) return c10::nullopt;
    return IntArrayRef(v.toIntListRef());
  }
};
template <>
struct ivalue_to_arg<c10::optional<ArrayRef<double>>> {
  static c10::optional<ArrayRef<double>> call(IValue& v) {
    if (v.isNone()) return c10::nullopt;
    return ArrayRef<double>(v.toDoubleListRef());
  }
};
template <>
struct ivalue_to_arg<c10::optional<c10::string_view>> {
  static c10::optional<c10::string_view> call(IValue& v) {
    if (v.isNone()) return c10::nullopt;
    return v.toStringView();
  }
};
// Any other ArrayRef<T> (e.g. of strings) views a vector made for the call: it lives until the
// end of the full expression that calls the kernel.
template <class T>
struct ivalue_to_arg<ArrayRef<T>> {
  static std::vector<T> call(IValue& v) { return v.to<std::vector<T>>(); }
};

template <>
struct ivalue_to_arg<c10::List<c10::optional<at::Tensor>>> {
  static c10::List<c10::optional<at::Tensor>> call(IValue& v) {
    return v.to<c10::List<c10::optional<at::Tensor>>>();  // shares the stack's list
  }
};

// ---- C++ argument -> IValue -------------------------------------------------------------------
template <class T>
IValue to_ivalue(const T& x) {
  return IValue(x);
}
inline IValue to_ivalue(const c10::OptionalIntArrayRef& x) {
  return x.has_value() ? IValue(*x) : IValue();
}

// ---- C++ return -> IValues on the stack -----------------------------------------------------
template <class T>
struct push_outputs {
  static void call(T&& output, torch::jit::Stack* stack) {
    stack->emplace_back(IValue(std::forward<T>(output)));
  }
};
template <>
struct push_outputs<void> {};
template <class... T>
struct push_outputs<std::tuple<T...>> {
  static void call(std::tuple<T...>&& output, torch::jit::Stack* stack) {
    std::apply([&](auto&&... elems) { (stack->emplace_back(IValue(elems)), ...); }, output);
  }
};

// A kernel's return as the boxed wrapper holds it: by value, tuple elements too.
template <class T>
struct stored_output {
  using type = std::decay_t<T>;
};
template <class... T>
struct stored_output<std::tuple<T...>> {
  using type = std::tuple<std::decay_t<T>...>;
};
template <class T>
using stored_output_t = typename stored_output<std::decay_t<T>>::type;

// ---- unboxed functor -> boxed function ------------------------------------------------------
template <class KernelFunctor>
struct make_boxed_from_unboxed_functor final {
  using traits = guts::infer_function_traits_t<KernelFunctor>;
  using stripped = guts::remove_DispatchKeySet_arg_from_func<typename traits::func_type>;

  static void call(OperatorKernel* functor, const OperatorHandle&, DispatchKeySet ks,
                   torch::jit::Stack* stack) {
    call_on_stack(static_cast<KernelFunctor*>(functor), ks, stack);
  }
  // The same for any functor, outside the dispatcher (custom class methods use it).
  static void call_on_stack(KernelFunctor* functor, DispatchKeySet ks, torch::jit::Stack* stack) {
    call_(
        functor, ks, stack,
        static_cast<
            typename guts::infer_function_traits_t<typename stripped::func_type>::parameter_types*>(
            nullptr));
  }

 private:
  template <class... Params>
  static void call_(KernelFunctor* functor, DispatchKeySet ks, torch::jit::Stack* stack,
                    guts::typelist<Params...>*) {
    constexpr size_t num_inputs = sizeof...(Params);
    using Return = typename traits::return_type;
    TORCH_INTERNAL_ASSERT(stack->size() >= num_inputs, "boxed kernel needs ", num_inputs,
                          " arguments but the stack holds ", stack->size());
    invoke_<Return, Params...>(functor, ks, stack, std::index_sequence_for<Params...>());
  }

  template <class Return, class... Params, size_t... I>
  static void invoke_(KernelFunctor* functor, DispatchKeySet ks, torch::jit::Stack* stack,
                      std::index_sequence<I...>) {
    constexpr size_t N = sizeof...(Params);
    if constexpr (std::is_void<Return>::value) {
      call_functor<Params...>(functor, ks,
                              ivalue_to_arg<std::decay_t<Params>>::call(
                                  torch::jit::peek(*stack, I, N))...);
      torch::jit::drop(*stack, N);
    } else {
      // Held by value before dropping: reference returns (Tensor&, and each Tensor& of a
      // tuple such as max.dim_max's) point at the arguments on the stack.
      using Stored = stored_output_t<Return>;
      Stored output = call_functor<Params...>(
          functor, ks,
          ivalue_to_arg<std::decay_t<Params>>::call(torch::jit::peek(*stack, I, N))...);
      torch::jit::drop(*stack, N);
      push_outputs<Stored>::call(std::move(output), stack);
    }
  }

  template <class... Params, class... Converted>
  static decltype(auto) call_functor(KernelFunctor* functor, DispatchKeySet ks,
                                     Converted&&... args) {
    if constexpr (stripped::has_ks) {
      return (*functor)(ks, std::forward<Converted>(args)...);
    } else {
      (void)ks;
      return (*functor)(std::forward<Converted>(args)...);
    }
  }
};

// ---- typed call -> boxed kernel -------------------------------------------------------------
using InternalBoxedKernelFunction = BoxedKernel::InternalBoxedKernelFunction;

template <class FuncType>
struct BoxedKernelWrapper;

template <class Return, class... Args>
struct BoxedKernelWrapper<Return(Args...)> {
  static Return call(InternalBoxedKernelFunction* boxed, OperatorKernel* functor,
                     const OperatorHandle& op, DispatchKeySet ks, Args&&... args) {
    torch::jit::Stack stack;
    stack.reserve(sizeof...(Args));
    (stack.emplace_back(to_ivalue(args)), ...);
    (*boxed)(functor, op, ks, &stack);
    return unbox_returns(stack, std::forward<Args>(args)...);
  }

 private:
  static Return unbox_returns(torch::jit::Stack& stack, Args... args) {
    using R = std::decay_t<Return>;
    if constexpr (std::is_void<Return>::value) {
      (void)stack;
      ((void)args, ...);
    } else if constexpr (std::is_same<Return, at::Tensor&>::value) {
      // In-place ops return their first argument, out= ops their last (both are Tensor&).
      ((void)stack);
      return mutable_tensor_arg(args...);
    } else if constexpr (is_tuple_of_tensor_refs<Return>::value) {
      // Out= ops with several outputs return references to their last arguments.
      constexpr size_t N = std::tuple_size<Return>::value;
      TORCH_CHECK(stack.size() == N, "Boxed kernel was expected to return ", N,
                  " values on the stack, ", "but instead returned ", stack.size(), ". ");
      return last_args<N>(std::forward_as_tuple(args...),
                          std::make_index_sequence<N>());
    } else if constexpr (is_tuple<R>::value) {
      ((void)args, ...);
      TORCH_CHECK(stack.size() == std::tuple_size<R>::value, "Boxed kernel was expected to return ",
                  std::tuple_size<R>::value, " values on the stack, but instead returned ",
                  stack.size(), ".");
      return tuple_from_stack<R>(stack, std::make_index_sequence<std::tuple_size<R>::value>());
    } else {
      ((void)args, ...);
      TORCH_CHECK(stack.size() == 1, "Boxed kernel was expected to return one value on the stack, ",
                  "but instead pushed ", stack.size(), " values.");
      return std::move(stack[0]).template to<R>();
    }
  }

  template <class T>
  struct is_tuple : std::false_type {};
  template <class... T>
  struct is_tuple<std::tuple<T...>> : std::true_type {};

  template <class T>
  struct is_tuple_of_tensor_refs : std::false_type {};
  template <class... T>
  struct is_tuple_of_tensor_refs<std::tuple<T...>>
      : std::integral_constant<bool, (sizeof...(T) > 0) &&
                                         (std::is_same<T, at::Tensor&>::value && ...)> {};

  template <size_t N, class ArgTuple, size_t... I>
  static Return last_args(ArgTuple all, std::index_sequence<I...>) {
    constexpr size_t first = std::tuple_size<ArgTuple>::value - N;
    return Return(std::get<first + I>(all)...);
  }

  template <class R, size_t... I>
  static R tuple_from_stack(torch::jit::Stack& stack, std::index_sequence<I...>) {
    return R(std::move(stack[I]).template to<std::decay_t<std::tuple_element_t<I, R>>>()...);
  }

  static at::Tensor& mutable_tensor_arg(Args... args) {
    at::Tensor* first = nullptr;
    at::Tensor* last = nullptr;
    auto visit = [&](auto&& a) {
      using A = decltype(a);
      if constexpr (std::is_same<A, at::Tensor&>::value) {
        if (!first) first = &a;
        last = &a;
      }
    };
    (visit(std::forward<Args>(args)), ...);
    TORCH_INTERNAL_ASSERT(first != nullptr, "a Tensor& return needs a Tensor& argument");
    using FirstArg = std::tuple_element_t<0, std::tuple<Args...>>;
    return std::is_same<FirstArg, at::Tensor&>::value ? *first : *last;
  }
};

}  // namespace impl
}  // namespace c10
