#pragma once
// function_traits<F>: the arity, result type and argument types of a kernel's scalar or vector
// op (a lambda, functor, function or function pointer), as libtorch's ATen/detail/FunctionTraits.h
// (and, like it, in the global namespace so kernels spell it the same way).
//
//   auto op = [](float a, int64_t b) -> double { return a * b; };
//   using traits = function_traits<decltype(op)>;
//   traits::arity                       == 2
//   traits::result_type                 is double
//   traits::arg<1>::type                is int64_t
//   traits::ArgsTuple                   is std::tuple<float, int64_t>
//
// (The dispatcher has its own c10::guts::function_traits, shaped for schema inference.)

#include <cstddef>
#include <tuple>

// Functors and lambdas: the traits of their operator().
template <typename T>
struct function_traits : public function_traits<decltype(&T::operator())> {};

template <typename ReturnType, typename... Args>
struct function_traits<ReturnType(Args...)> {
  static constexpr int arity = sizeof...(Args);
  using ArgsTuple = std::tuple<Args...>;
  using result_type = ReturnType;
  template <std::size_t i>
  struct arg {
    using type = typename std::tuple_element<i, std::tuple<Args...>>::type;
  };
};

template <typename ClassType, typename ReturnType, typename... Args>
struct function_traits<ReturnType (ClassType::*)(Args...) const>
    : public function_traits<ReturnType(Args...)> {};
template <typename ClassType, typename ReturnType, typename... Args>
struct function_traits<ReturnType (ClassType::*)(Args...)>
    : public function_traits<ReturnType(Args...)> {};
template <typename T>
struct function_traits<T&> : public function_traits<T> {};
template <typename T>
struct function_traits<T&&> : public function_traits<T> {};
template <typename T>
struct function_traits<T*> : public function_traits<T> {};
template <typename T>
struct function_traits<const T> : public function_traits<T> {};
