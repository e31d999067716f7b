#pragma once
// c10::function_ref<Sig>: a non-owning reference to any callable — two words, no allocation.
// Loops take their body this way (TensorIterator::for_each); the callable must outlive the
// call it is passed to.

#include <cstdint>
#include <type_traits>
#include <utility>

namespace c10 {

template <typename Fn>
class function_ref;

template <typename Ret, typename... Params>
class function_ref<Ret(Params...)> {
  Ret (*callback_)(intptr_t callable, Params... params) = nullptr;
  intptr_t callable_;

  template <typename Callable>
  static Ret callback_fn(intptr_t callable, Params... params) {
    return (*reinterpret_cast<Callable*>(callable))(std::forward<Params>(params)...);
  }

 public:
  function_ref() = default;
  function_ref(std::nullptr_t) {}  // NOLINT

  // Only callables that can be called with Params (so overloads on function_ref types of
  // different arity, like TensorIterator::for_each, stay unambiguous).
  template <typename Callable,
            typename = std::enable_if_t<
                !std::is_same<std::remove_reference_t<Callable>, function_ref>::value &&
                std::is_invocable<Callable&, Params...>::value>>
  function_ref(Callable&& callable)  // NOLINT
      : callback_(callback_fn<std::remove_reference_t<Callable>>),
        callable_(reinterpret_cast<intptr_t>(&callable)) {}

  Ret operator()(Params... params) const {
    return callback_(callable_, std::forward<Params>(params)...);
  }
  explicit operator bool() const { return callback_ != nullptr; }
};

}  // namespace c10
