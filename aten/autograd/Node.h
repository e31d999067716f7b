#pragma once
// Node: one step of the backward graph. A kernel on the Autograd key makes one per operation
// on tensors that require grad; its apply() maps the gradients of the operation's outputs to
// the gradients of its inputs, which flow along next_edges() to the nodes that made them.
//
//   auto y = x.clone();                       // x requires grad
//   auto fn = y.grad_fn();                    // CloneBackward0
//   fn->name();                               // "CloneBackward0"
//   fn->next_edges()[0].function->name();     // "torch::autograd::AccumulateGrad" (x is a leaf)
//   (*fn)({at::ones({2})});                   // {grad for x}
//
// A new node type overrides apply() and name(); it saves what it needs as SavedVariable
// members (see SavedVariable.h) and frees them in release_variables().

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "aten/core/Tensor.h"
#include "c10/core/Device.h"
#include "c10/core/ScalarType.h"
#include "c10/util/FreeList.h"
#include "c10/util/Optional.h"
#include "c10/util/SmallVector.h"

namespace torch {
namespace autograd {

struct Node;
using variable_list = std::vector<at::Tensor>;

// Input `input_nr` of `function`: where a gradient goes. Invalid (no function) when the
// tensor needs no gradient.
struct TORCH_API Edge {
  Edge() noexcept : input_nr(0) {}
  Edge(std::shared_ptr<Node> function_, uint32_t input_nr_) noexcept
      : function(std::move(function_)), input_nr(input_nr_) {}
  bool is_valid() const noexcept { return function != nullptr; }
  bool operator==(const Edge& other) const noexcept {
    return function == other.function && input_nr == other.input_nr;
  }

  std::shared_ptr<Node> function;
  uint32_t input_nr;
};

}  // namespace autograd
}  // namespace torch

// Note [Edge lists from free lists]
// Every node a differentiable call makes owns its next edges in a std::vector<Edge>, nearly
// always of one or two: glibc's malloc and free of that buffer were 5% of clone() with grad
// (16 of 296 ns), the largest single piece of its autograd part. libtorch's edge_list is
// std::vector<Edge>, and code written for libtorch names that type, so the type stays, and
// std::allocator<Edge> is specialized instead: C++17 [namespace.std] allows specializing a
// standard class template for a program-defined type, if the specialization meets the
// original's requirements (this one has every member of C++17's std::allocator). Buffers of up
// to kCachedEdges edges come from per-thread free lists, one per length (Note [Per-thread free
// lists] in c10/util/FreeList.h); longer ones from the global operator new, as std's.
namespace std {
template <>
class allocator<torch::autograd::Edge> {
 public:
  using value_type = torch::autograd::Edge;
  using pointer = value_type*;
  using const_pointer = const value_type*;
  using reference = value_type&;
  using const_reference = const value_type&;
  using size_type = size_t;
  using difference_type = ptrdiff_t;
  using propagate_on_container_move_assignment = true_type;
  using is_always_equal = true_type;
  template <class U>
  struct rebind {
    using other = allocator<U>;
  };

  allocator() noexcept = default;
  allocator(const allocator&) noexcept = default;
  allocator& operator=(const allocator&) noexcept = default;
  template <class U>
  allocator(const allocator<U>&) noexcept {}  // NOLINT: rebinding converts implicitly

  value_type* allocate(size_t n, const void* /*hint*/ = nullptr) {
    if (n > max_size()) throw std::bad_array_new_length();
    const size_t bytes = n * sizeof(value_type);
    // n - 1 wraps for n == 0, which then goes to the global heap as std's would.
    void* p = n - 1 < kCachedEdges ? blocks(n).allocate(bytes, bytes) : ::operator new(bytes);
    return static_cast<value_type*>(p);
  }
  void deallocate(value_type* p, size_t n) {
    if (n - 1 < kCachedEdges) {
      const size_t bytes = n * sizeof(value_type);
      blocks(n).deallocate(p, bytes, bytes);
    } else {
      ::operator delete(p);
    }
  }
  size_t max_size() const noexcept { return size_t(PTRDIFF_MAX) / sizeof(value_type); }
  value_type* address(value_type& x) const noexcept { return std::addressof(x); }
  const value_type* address(const value_type& x) const noexcept { return std::addressof(x); }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
  template <class U>
  void destroy(U* p) {
    p->~U();
  }

  friend bool operator==(const allocator&, const allocator&) noexcept { return true; }
  friend bool operator!=(const allocator&, const allocator&) noexcept { return false; }

 private:
  static constexpr size_t kCachedEdges = 4;
  static c10::FreeList& blocks(size_t n) {
    static C10_TLS_FAST thread_local c10::FreeList lists[kCachedEdges];  // zero-initialized
    return lists[n - 1];
  }
};
}  // namespace std

namespace torch {
namespace autograd {

using edge_list = std::vector<Edge>;

// What a node expects of the gradient for one of its inputs (a forward output): the engine
// reduces a broadcast gradient to this shape and casts it to this dtype and device.
struct TORCH_API InputMetadata {
  explicit InputMetadata(const at::TensorBase& t)
      : shape_(t.sizes().begin(), t.sizes().end()), dtype_(t.scalar_type()), device_(t.device()) {}
  c10::IntArrayRef shape() const { return shape_; }
  c10::ScalarType dtype() const { return dtype_; }
  c10::Device device() const { return device_; }
  at::TensorOptions options() const { return at::TensorOptions().dtype(dtype_).device(device_); }
  // A zero gradient, for an output that received none.
  at::Tensor zeros_like() const;

 private:
  c10::DimVector shape_;
  c10::ScalarType dtype_;
  c10::Device device_;
};

// A hook run after a node's apply(), with its outputs and the gradients it was given; what it
// returns replaces the outputs (libtorch's FunctionPostHook). DDP's Reducer hangs one on each
// parameter's AccumulateGrad to learn that the parameter's .grad() is complete.
struct TORCH_API FunctionPostHook {
  virtual ~FunctionPostHook() = default;
  virtual variable_list operator()(const variable_list& outputs, const variable_list& inputs) = 0;
};

// The next sequence number on this thread (libtorch's at::sequence_number).
TORCH_API uint64_t next_sequence_nr();

struct TORCH_API Node : std::enable_shared_from_this<Node> {
  // Takes the thread's next sequence number: a node made later runs earlier in backward. See
  // Note [Engine ordering] in Engine.h.
  explicit Node(edge_list&& next_edges = edge_list())
      : Node(next_sequence_nr(), std::move(next_edges)) {}
  Node(uint64_t sequence_nr, edge_list&& next_edges)
      : sequence_nr_(sequence_nr), next_edges_(std::move(next_edges)) {}
  virtual ~Node() = default;
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  // Runs the tensor hooks, then the retain_grad hooks, on the incoming gradients, then apply(),
  // then the post hooks.
  variable_list operator()(variable_list&& inputs);

  // libtorch's names: "CloneBackward0" for generated nodes, the qualified class name
  // ("torch::autograd::AccumulateGrad") for hand-written ones.
  virtual std::string name() const = 0;

  // ---- Edges to the next nodes: one per forward input (the node's outputs) -----------------
  const Edge& next_edge(size_t index) const { return next_edges_[index]; }
  const edge_list& next_edges() const noexcept { return next_edges_; }
  edge_list& next_edges() noexcept { return next_edges_; }
  void set_next_edge(size_t index, Edge edge) { next_edges_[index] = std::move(edge); }
  void set_next_edges(edge_list&& next_edges) { next_edges_ = std::move(next_edges); }
  void add_next_edge(Edge edge) { next_edges_.push_back(std::move(edge)); }
  uint32_t num_outputs() const noexcept { return static_cast<uint32_t>(next_edges_.size()); }
  // Whether output `index` goes anywhere; formulas skip the gradients nobody needs.
  bool should_compute_output(size_t index) const {
    return index < next_edges_.size() && next_edges_[index].is_valid();
  }

  // ---- Inputs: one per forward output -------------------------------------------------------
  // Records a forward output's shape, dtype and device; returns its input number.
  uint32_t add_input_metadata(const at::TensorBase& t) {
    if (!first_input_metadata_) {
      first_input_metadata_.emplace(t);
      return 0;
    }
    more_input_metadata_.emplace_back(t);
    return static_cast<uint32_t>(more_input_metadata_.size());
  }
  uint32_t num_inputs() const noexcept {
    return first_input_metadata_ ? 1 + static_cast<uint32_t>(more_input_metadata_.size()) : 0;
  }
  const InputMetadata& input_metadata(size_t index) const {
    return index == 0 ? *first_input_metadata_ : more_input_metadata_[index - 1];
  }

  uint64_t sequence_nr() const noexcept { return sequence_nr_; }

  // Frees saved tensors after a backward pass without retain_graph.
  virtual void release_variables() {}

  // ---- Tensor hooks (Tensor::register_hook) --------------------------------------------------
  // The hooks of the tensor that is input `input_nr`: each sees the gradient arriving there and
  // may replace it (an undefined return keeps it). The list is the tensor's own
  // (AutogradMeta::cpp_hooks_), shared, so hooks registered later and removals reach it.
  using TensorHook = std::function<at::TensorBase(const at::TensorBase&)>;
  using TensorHookList = std::vector<TensorHook>;
  void add_tensor_pre_hook(uint32_t input_nr, std::shared_ptr<TensorHookList> hooks);
  // Removes and returns the list for `input_nr`, if any.
  std::shared_ptr<TensorHookList> pop_tensor_pre_hook(uint32_t input_nr);

  // ---- Post hooks ------------------------------------------------------------------------------
  // Hooks run after apply(), in the order added. Returns a key for del_post_hook.
  uintptr_t add_post_hook(std::unique_ptr<FunctionPostHook>&& post_hook);
  const std::vector<std::unique_ptr<FunctionPostHook>>& post_hooks() const noexcept {
    return post_hooks_;
  }
  // Removes the hook add_post_hook returned `key` for; false when there is none.
  bool del_post_hook(const uintptr_t& key);

  // ---- retain_grad ---------------------------------------------------------------------------
  // A hook that sees the gradient arriving at input `input_nr` (what Tensor::retain_grad uses).
  using RetainGradHook = std::function<void(const at::Tensor&)>;
  void add_retains_grad_hook(uint32_t input_nr, RetainGradHook hook);
  // Removes and returns the hook for `input_nr`, if any.
  RetainGradHook pop_retains_grad_hook(uint32_t input_nr);

 protected:
  virtual variable_list apply(variable_list&& inputs) = 0;

  const uint64_t sequence_nr_;
  edge_list next_edges_;
  // Input 0, then the others: nearly every node has exactly one input (a multi-output node such
  // as unbind's has more). absl::InlinedVector<InputMetadata, 1> cost about 40 instructions a
  // node to fill and destroy, most of it its generic destroy loop.
  c10::optional<InputMetadata> first_input_metadata_;
  std::vector<InputMetadata> more_input_metadata_;
  std::vector<std::pair<uint32_t, RetainGradHook>> retains_grad_hooks_;
  std::vector<std::pair<uint32_t, std::shared_ptr<TensorHookList>>> tensor_pre_hooks_;
  std::vector<std::unique_ptr<FunctionPostHook>> post_hooks_;
};

// Runs `hooks` on `grad` in order: each hook's defined result replaces the gradient.
TORCH_API void run_tensor_hooks(const Node::TensorHookList& hooks, at::Tensor& grad);

}  // namespace autograd
}  // namespace torch
