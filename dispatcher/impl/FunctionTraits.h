#pragma once
// Compile-time facts about callables: return type and parameter types of functions, function
// pointers, functors and lambdas. Used to wrap kernels and to check their signatures.

#include <cstddef>
#include <tuple>
#include <type_traits>

#include "c10/core/DispatchKeySet.h"

namespace c10 {
namespace guts {

template <class... T>
struct typelist final {
  static constexpr size_t size = sizeof...(T);
};

template <class Func>
struct function_traits;

template <class Return, class... Args>
struct function_traits<Return(Args...)> {
  using func_type = Return(Args...);
  using return_type = Return;
  using parameter_types = typelist<Args...>;
  static constexpr size_t number_of_parameters = sizeof...(Args);
};
template <class Return, class... Args>
struct function_traits<Return (*)(Args...)> : function_traits<Return(Args...)> {};

// Functors and lambdas: the traits of their operator().
template <class Functor>
struct infer_function_traits : infer_function_traits<decltype(&Functor::operator())> {};
template <class Return, class... Args>
struct infer_function_traits<Return(Args...)> : function_traits<Return(Args...)> {};
template <class Return, class... Args>
struct infer_function_traits<Return (*)(Args...)> : function_traits<Return(Args...)> {};
template <class C, class Return, class... Args>
struct infer_function_traits<Return (C::*)(Args...)> : function_traits<Return(Args...)> {};
template <class C, class Return, class... Args>
struct infer_function_traits<Return (C::*)(Args...) const> : function_traits<Return(Args...)> {};

template <class T>
using infer_function_traits_t = infer_function_traits<T>;

// A function type (not a pointer to one): void(int64_t), at::Tensor(const at::Tensor&).
template <class T>
using is_function_type = std::is_function<T>;

// A class with one (non-template, non-overloaded) operator(): functors and lambdas.
template <class T, class Enable = void>
struct is_functor : std::false_type {};
template <class T>
struct is_functor<T, std::enable_if_t<std::is_class<T>::value &&
                                      std::is_member_function_pointer<
                                          decltype(&T::operator())>::value>> : std::true_type {};

// A lambda without captures: one that converts to a plain function pointer.
template <class T, class Enable = void>
struct is_stateless_lambda : std::false_type {};
template <class T>
struct is_stateless_lambda<T, std::enable_if_t<is_functor<T>::value>>
    : std::is_convertible<T, typename infer_function_traits<T>::func_type*> {};

// A leading DispatchKeySet parameter is the dispatcher's business, not the operator's: the
// signature an operator is called with never has it.
template <class FuncType>
struct remove_DispatchKeySet_arg_from_func {
  using func_type = FuncType;
  static constexpr bool has_ks = false;
};
template <class Return, class... Args>
struct remove_DispatchKeySet_arg_from_func<Return(DispatchKeySet, Args...)> {
  using func_type = Return(Args...);
  static constexpr bool has_ks = true;
};

}  // namespace guts

// A function known at compile time: TORCH_FN(f) lets the kernel wrapper call f directly (no
// indirect call, inlinable), and remembers f's name for the trace and the table dumps.
template <class FuncType_, FuncType_* func_ptr_>
struct CompileTimeFunctionPointer final {
  static_assert(std::is_function<FuncType_>::value,
                "TORCH_FN can only wrap function types.");
  using FuncType = FuncType_;
  constexpr CompileTimeFunctionPointer() = default;
  constexpr explicit CompileTimeFunctionPointer(const char* name) : name_(name) {}
  static constexpr FuncType* func_ptr() { return func_ptr_; }
  const char* name() const { return name_; }

 private:
  const char* name_ = nullptr;
};

template <class T>
struct is_compile_time_function_pointer : std::false_type {};
template <class FuncType, FuncType* func_ptr>
struct is_compile_time_function_pointer<CompileTimeFunctionPointer<FuncType, func_ptr>>
    : std::true_type {};

}  // namespace c10

#define TORCH_FN_TYPE(func)                                                            \
  ::c10::CompileTimeFunctionPointer<std::remove_pointer_t<std::remove_reference_t<decltype(func)>>, \
                                    func>
#define TORCH_FN(func) TORCH_FN_TYPE(func)(#func)
