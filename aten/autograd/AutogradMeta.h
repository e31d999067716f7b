#pragma once
// AutogradMeta: the autograd state of one tensor, kept behind TensorImpl's autograd_meta_ slot
// (c10 sees only AutogradMetaInterface). Tensors that never met autograd have none; it is made
// on first need (requires_grad_, a grad_fn, a view).
//
//   torch::autograd::impl::gradient_edge(t);   // where t's gradient goes
//   torch::autograd::impl::set_gradient_edge(out, {node, 0});
//
// The functions in impl are for kernels and the engine; users call the Tensor methods
// (requires_grad(), grad(), grad_fn(), is_leaf(), _base(), ...).

#include <cstdint>
#include <memory>

#include "aten/autograd/Node.h"
#include "aten/core/Tensor.h"
#include "c10/core/TensorImpl.h"

namespace torch {
namespace autograd {

// How a view was made, for the in-place rules (check_inplace): normally; under no_grad; or as
// one output of split/split_with_sizes/unbind, whose node owns all the outputs at once.
enum class CreationMeta : uint8_t { DEFAULT, NO_GRAD_MODE, MULTI_OUTPUT_NODE };

// Note [Views and in-place]
// A view records its root base (`base_`: the base of a view of a view is the first base), and
// shares the base's version counter, so an in-place write through either is seen by both.
//  * In place on the base: the base gets a new grad_fn. The view's grad_fn is stale, and is
//    regenerated lazily (impl::grad_fn) whenever its recorded attr_version_ differs from the
//    shared version: an AsStridedBackward0 from the base's current history to the view.
//  * In place on the view: the base's history becomes a CopySlices node (which runs the
//    in-place op's node on the view's slice of the base's gradient), and the view's grad_fn is
//    regenerated from it as above. See CopySlices.h.
//  * A view made under no_grad may not be modified in place with grad mode on (libtorch's
//    CreationMeta::NO_GRAD_MODE error): its history could not be tracked.
struct TORCH_API AutogradMeta final : public c10::AutogradMetaInterface {
  // User-provided (not = default) so that make_unique<AutogradMeta>() does not zero the whole
  // object before running the member initializers: one per view.
  AutogradMeta() {}
  ~AutogradMeta() override;
  // One per view: from a per-thread free list (Note [Per-thread free lists], c10/util/FreeList.h).
  static void* operator new(size_t size);
  static void operator delete(void* p, size_t size);

  // "Only Tensors of floating point and complex dtype can require gradients".
  void set_requires_grad(bool requires_grad, c10::TensorImpl* self_impl) override;
  bool requires_grad() const override {
    return requires_grad_ || grad_fn_ != nullptr || (is_view_ && base_.requires_grad());
  }

  at::Tensor grad_;
  std::shared_ptr<Node> grad_fn_;         // non-leaf: the node that made this tensor
  std::weak_ptr<Node> grad_accumulator_;  // leaf: its AccumulateGrad, while the graph holds it
  uint32_t output_nr_ = 0;                // which output of grad_fn_ this tensor is
  bool requires_grad_ = false;            // set by the user, on leaves only
  bool retains_grad_ = false;
  // register_hook's hooks (a removed one is null). A non-leaf's grad_fn_ holds the list too, as a
  // tensor pre-hook at output_nr_; a leaf's AccumulateGrad runs it before accumulating.
  std::shared_ptr<Node::TensorHookList> cpp_hooks_;

  // ---- Views: see Note [Views and in-place] -------------------------------------------------
  bool is_view_ = false;
  CreationMeta creation_meta_ = CreationMeta::DEFAULT;
  uint32_t attr_version_ = 0;  // the version grad_fn_ was made for
  at::Tensor base_;
};

namespace impl {

// The tensor's AutogradMeta, or nullptr.
inline AutogradMeta* get_autograd_meta(const at::TensorBase& t) {
  return static_cast<AutogradMeta*>(t.unsafeGetTensorImpl()->autograd_meta());
}
// The tensor's AutogradMeta, made if it has none.
TORCH_API AutogradMeta* materialize_autograd_meta(const at::TensorBase& t);

// The node that made the tensor (regenerated for stale views), or nullptr for a leaf.
TORCH_API const std::shared_ptr<Node>& grad_fn(const at::TensorBase& t);
// Replaces a view's grad_fn by an AsStridedBackward0 from its base's current history.
TORCH_API void rebuild_view_grad_fn(const at::TensorBase& view);
// Where the tensor's gradient goes: (grad_fn, output_nr) for a result, (AccumulateGrad, 0) for
// a leaf that requires grad, an invalid edge otherwise.
TORCH_API Edge gradient_edge(const at::TensorBase& t);
// Makes `t` output `edge.input_nr` of `edge.function` (moving a retain_grad hook along).
TORCH_API void set_gradient_edge(const at::TensorBase& t, Edge edge);
// The leaf's AccumulateGrad, made on first use and shared while some graph holds it.
TORCH_API std::shared_ptr<Node> grad_accumulator(const at::TensorBase& t);

// libtorch's as_view: records `view` as a view of base (of base's own base when base is a view);
// the view kernel already shared the version counter. The creation meta is `creation_meta`
// (NO_GRAD_MODE when grad mode is off); a DEFAULT one keeps the parent view's, as libtorch's
// propagate_creation_meta.
TORCH_API void set_view_of(const at::TensorBase& base, const at::TensorBase& view,
                           CreationMeta creation_meta = CreationMeta::DEFAULT);

}  // namespace impl

namespace impl {
// Appends the gradient edge of each tensor (an invalid one for an undefined tensor): what
// make_node_if gives a new node, in place.
template <typename... Tensors>
void append_gradient_edges(edge_list& edges, const Tensors&... tensors) {
  edges.reserve(edges.size() + sizeof...(tensors));
  (edges.push_back(tensors.defined() ? gradient_edge(tensors) : Edge()), ...);
}
}  // namespace impl

// gradient_edge of each tensor (undefined ones give invalid edges): the next edges of a node
// made for an operation on these tensors.
template <typename... Tensors>
edge_list collect_next_edges(const Tensors&... tensors) {
  edge_list edges;
  impl::append_gradient_edges(edges, tensors...);
  return edges;
}

}  // namespace autograd
}  // namespace torch
