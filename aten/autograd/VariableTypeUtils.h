#pragma once
// What every autograd kernel (VariableType*.cpp) does around its redispatch, in libtorch's
// order (seed 003, section 8):
//
//   at::Tensor clone(c10::DispatchKeySet ks, const at::Tensor& self, ...) {
//     auto grad_fn = make_node_if<CloneBackward0>(compute_requires_grad(self), self);
//     at::Tensor result = below_autograd_functional([&] {    // AutoDispatchBelowADInplaceOrView
//       return at::_ops::clone::redispatch(ks & c10::after_autograd_keyset, self, ...);
//     });
//     set_history(result, grad_fn);                           // result.grad_fn() == grad_fn
//     return result;
//   }
//
// In-place kernels check_inplace() first and rebase_history() after; view kernels redispatch
// under AutoDispatchBelowAutograd so the ADInplaceOrView kernel records the view.

#include <memory>
#include <utility>

#include "aten/ATen.h"
#include "aten/autograd/AutogradMeta.h"
#include "aten/autograd/GradMode.h"
#include "aten/autograd/Node.h"
#include "c10/core/AutoDispatchGuards.h"
#include "c10/util/FreeList.h"
#include "dispatcher/DispatchTrace.h"

namespace torch {
namespace autograd {
namespace impl {

// Whether the operation must record history: grad mode on and some input requires grad.
template <typename... Tensors>
bool compute_requires_grad(const Tensors&... tensors) {
  return at::GradMode::is_enabled() && (... || (tensors.defined() && tensors.requires_grad()));
}

// Logs "autograd: created MulBackward0 (next edges: AccumulateGrad, None)" when tracing.
TORCH_API void trace_node_created(const Node& node);

// A node of type T whose next edges are the gradient edges of `inputs`, or nullptr when
// `requires_grad` is false (no history is recorded).
template <typename T, typename... Tensors>
std::shared_ptr<T> make_node_if(bool requires_grad, const Tensors&... inputs) {
  if (!requires_grad) return nullptr;
  // Nodes come and go with every differentiable call: see Note [Per-thread free lists].
  auto node = std::allocate_shared<T>(c10::FreeListAllocator<T>());
  // The edges go straight into the node: a returned edge_list was moved in with one 16-byte
  // load of three pointers just stored one by one, which cannot be store-forwarded (the stall of
  // Note [Optionals that travel in memory] in c10/util/Optional.h).
  append_gradient_edges(node->next_edges(), inputs...);
  if (c10::DispatchTrace::enabled()) trace_node_created(*node);
  return node;
}

// Makes `result` output 0 of `grad_fn` (nothing when grad_fn is null: inline, since that is
// every call on tensors that do not require grad).
// Kernels hand over their last reference (std::move): the edge takes it without touching the
// reference count.
TORCH_API void set_history_of(const at::Tensor& result, std::shared_ptr<Node>&& grad_fn);
inline void set_history(const at::Tensor& result, std::shared_ptr<Node> grad_fn) {
  if (grad_fn) set_history_of(result, std::move(grad_fn));
}

// Before an in-place op: libtorch's errors for a leaf that requires grad, a view of one, and a
// view made under no_grad.
TORCH_API void check_inplace(const at::Tensor& self, bool requires_grad);
// After an in-place op: `self` is now output 0 of grad_fn; for a view, its base's history goes
// through a CopySlices (Note [Views and in-place]).
TORCH_API void rebase_history(const at::Tensor& self, std::shared_ptr<Node> grad_fn);

// Runs `f` (the redispatch) with autograd and ADInplaceOrView excluded: functional ops.
template <typename F>
auto below_autograd_functional(F&& f) {
  at::AutoDispatchBelowADInplaceOrView guard;
  return f();
}
// Runs `f` with autograd excluded, ADInplaceOrView still on: in-place and view ops.
template <typename F>
decltype(auto) below_autograd_inplace_or_view(F&& f) {
  at::AutoDispatchBelowAutograd guard;
  return f();
}

// The common shapes of a kernel's middle and end: run the redispatch, then attach history.
template <typename F>
at::Tensor record_functional(std::shared_ptr<Node> grad_fn, F&& redispatch) {
  at::Tensor result = below_autograd_functional(std::forward<F>(redispatch));
  set_history(result, std::move(grad_fn));
  return result;
}
template <typename F>
at::Tensor& record_inplace(at::Tensor& self, std::shared_ptr<Node> grad_fn, F&& redispatch) {
  below_autograd_inplace_or_view([&]() -> at::Tensor& { return redispatch(); });
  rebase_history(self, std::move(grad_fn));
  return self;
}

template <typename F>
at::Tensor record_view(std::shared_ptr<Node> grad_fn, F&& redispatch) {
  at::Tensor result = below_autograd_inplace_or_view(std::forward<F>(redispatch));
  set_history(result, std::move(grad_fn));
  return result;
}

// self's value before an in-place op overwrites it, for the formulas that read it.
inline at::Tensor original_value(const at::Tensor& self) {
  at::AutoDispatchBelowADInplaceOrView guard;
  return self.clone();
}

}  // namespace impl
}  // namespace autograd
}  // namespace torch
