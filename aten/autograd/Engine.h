#pragma once
// The engine: runs the backward graph from the gradients of some outputs to the leaves.
//
//   auto y = (x * w).sum();
//   y.backward();                                  // accumulates into x.grad(), w.grad()
//   auto g = torch::autograd::grad({y}, {x});      // returns dy/dx, touches no .grad()
//
// Note [Engine ordering]
// The engine first walks the graph from the roots and counts, for every node, the edges that
// point at it (its dependencies). Gradients arriving for a node are summed in its input buffer;
// when its count drops to zero every gradient it will get has arrived, and it moves to the
// ready queue. Among ready nodes the one with the highest sequence number runs first: sequence
// numbers grow as the forward makes nodes, so backward runs in reverse order of the forward.
// AccumulateGrad nodes have the largest number, so a leaf's gradient is stored as soon as it is
// complete. Before a node's gradients go on, each is checked against what the next node
// expects (validate_outputs): a broadcast gradient is summed back to the input's shape, a
// gradient of another dtype is cast, a shape that cannot be reduced is an error.
//
// Without retain_graph, every node frees its saved tensors once it has run, so a second
// backward through a node that saved anything fails (SavedVariable.h). This engine runs on the
// calling thread only. With create_graph, the formulas run with grad mode on and record the
// graph of the gradients themselves (their saved tensors come back with history: Note [Saved
// variables under create_graph] in SavedVariable.cpp), so a second backward differentiates them;
// a formula that calls a backward operator without a derivative yet (threshold_backward,
// _softmax_backward_data, ...) says so at that call.

#include "aten/autograd/Node.h"
#include "c10/util/Optional.h"

namespace torch {
namespace autograd {

// The node the engine starts from: it hands the root gradients to the roots' edges.
struct TORCH_API GraphRoot final : public Node {
  GraphRoot(edge_list functions, variable_list inputs);
  std::string name() const override { return "torch::autograd::GraphRoot"; }

 protected:
  variable_list apply(variable_list&& grads) override { return outputs_; }

 private:
  variable_list outputs_;
};

class TORCH_API Engine {
 public:
  static Engine& get_default_engine();

  // Runs backward from `roots` with gradients `inputs`. With `outputs` empty, every leaf
  // reached accumulates its gradient; otherwise only the nodes leading to `outputs` run and the
  // gradients arriving at those edges are returned (undefined where none arrived).
  variable_list execute(const edge_list& roots, const variable_list& inputs, bool keep_graph,
                        bool create_graph, const edge_list& outputs = {});

  // Called during backward (from a hook): runs `callback` once the current backward pass has
  // run its whole graph, before execute() returns; a callback may queue more. DDP finishes its
  // gradient synchronisation so. Outside a backward pass: "Final callbacks can only be installed
  // during backward pass."
  void queue_callback(std::function<void()> callback);
};

// torch::autograd::backward: accumulates the gradients of `tensors` (seeded with
// `grad_tensors`, or ones for scalars) into the leaves' .grad(), or only into `inputs`'.
TORCH_API void backward(const variable_list& tensors, const variable_list& grad_tensors = {},
                        c10::optional<bool> retain_graph = c10::nullopt, bool create_graph = false,
                        const variable_list& inputs = {});

// torch::autograd::grad: the gradients of `outputs` with respect to `inputs`.
TORCH_API variable_list grad(const variable_list& outputs, const variable_list& inputs,
                             const variable_list& grad_outputs = {},
                             c10::optional<bool> retain_graph = c10::nullopt,
                             bool create_graph = false, bool allow_unused = false);

}  // namespace autograd
}  // namespace torch
