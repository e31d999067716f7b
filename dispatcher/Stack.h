#pragma once
// Stack: the boxed calling convention. A kernel finds its arguments as the last N entries
// (first argument deepest), pops them, and pushes its returns in order.
//
//   torch::jit::Stack stack;
//   torch::jit::push(stack, self, other, /*alpha=*/1);
//   at::Tensor self; at::Tensor other; int64_t alpha;
//   torch::jit::pop(stack, self, other, alpha);   // typed pop, in argument order
//   torch::jit::push(stack, result);
//
// Names and behaviour follow libtorch's ATen/core/stack.h.

#include <utility>
#include <vector>

#include "c10/util/ArrayRef.h"
#include "dispatcher/IValue.h"

namespace torch {
namespace jit {

using c10::IValue;
using Stack = std::vector<IValue>;

// The i-th of the last N entries.
inline IValue& peek(Stack& stack, size_t i, size_t N) {
  return *(stack.end() - N + i);
}
inline IValue& peek(Stack* stack, size_t i, size_t N) {
  return peek(*stack, i, N);
}
inline const IValue& peek(const Stack& stack, size_t i, size_t N) {
  return *(stack.end() - N + i);
}
inline const IValue& peek(const Stack* stack, size_t i, size_t N) {
  return peek(*stack, i, N);
}

// `len` entries starting at the i-th of the last N.
inline c10::ArrayRef<IValue> peekSlice(const Stack& stack, size_t i, size_t len, size_t N) {
  return c10::ArrayRef<IValue>(stack).slice(stack.size() - N + i, len);
}
// The last N entries.
inline c10::ArrayRef<IValue> last(const Stack& stack, size_t N) {
  return peekSlice(stack, 0, N, N);
}
inline c10::ArrayRef<IValue> last(const Stack* stack, size_t N) {
  return last(*stack, N);
}

inline void drop(Stack& stack, size_t n) {
  stack.erase(stack.end() - n, stack.end());
}
inline void drop(Stack* stack, size_t n) {
  drop(*stack, n);
}

inline IValue pop(Stack& stack) {
  TORCH_INTERNAL_ASSERT(!stack.empty(), "pop() on an empty stack");
  IValue result = std::move(stack.back());
  stack.pop_back();
  return result;
}
inline IValue pop(Stack* stack) {
  return pop(*stack);
}

// The last n entries, in stack order.
inline std::vector<IValue> pop(Stack& stack, size_t n) {
  std::vector<IValue> result;
  result.reserve(n);
  for (size_t i = 0; i < n; ++i) result.push_back(std::move(peek(stack, i, n)));
  drop(stack, n);
  return result;
}

// Typed pop of the last sizeof...(args) entries into args, first argument deepest.
template <typename... Types>
inline void pop(Stack& stack, Types&... args) {
  constexpr size_t N = sizeof...(args);
  size_t i = 0;
  ((args = std::move(peek(stack, i++, N)).template to<Types>()), ...);
  drop(stack, N);
}
template <typename... Types>
inline void pop(Stack* stack, Types&... args) {
  pop(*stack, args...);
}

template <typename... Types>
inline void push(Stack& stack, Types&&... args) {
  (stack.emplace_back(std::forward<Types>(args)), ...);
}
template <typename... Types>
inline void push(Stack* stack, Types&&... args) {
  push(*stack, std::forward<Types>(args)...);
}

inline void push_one(Stack& stack, IValue arg) {
  stack.emplace_back(std::move(arg));
}

}  // namespace jit
}  // namespace torch
