#pragma once
// The autograd graph behind some tensors, as Graphviz DOT: what `loss.backward()` will walk.
//
//   at::Tensor x = torch::ones({2, 3}, torch::requires_grad());
//   at::Tensor z = x.clone().sum();
//   torch::autograd::write_graph_dot("graph.dot", {z}, {"z"});   // dot -Tsvg graph.dot
//
// Note [The autograd graph drawn as torchviz draws it]
// Arrows follow the forward computation, the reverse of the engine's edges: a leaf (a light
// blue box with its sizes) feeds its AccumulateGrad, each backward node (`SumBackward0`,
// `CloneBackward0`, named as libtorch names them, `torch::autograd::` dropped) feeds the nodes
// whose next_edges() point at it, and the last one feeds the result (a green box with its name
// and sizes). An edge that carries output k > 0 of its source node is labelled k. Nodes
// are numbered in breadth-first order from the results, so a graph prints the same every run.

#include <string>
#include <vector>

#include "aten/core/Tensor.h"

namespace torch {
namespace autograd {

// `names[i]` labels outputs[i] (missing names print as "output i"). A leaf that requires grad
// names its own light blue box; an output that does not require grad draws as a lone box.
TORCH_API std::string graph_dot(const std::vector<at::Tensor>& outputs,
                                const std::vector<std::string>& names = {});
// Writes graph_dot() to `path`; a c10::Error names the path if it cannot be written.
TORCH_API void write_graph_dot(const std::string& path, const std::vector<at::Tensor>& outputs,
                               const std::vector<std::string>& names = {});

}  // namespace autograd
}  // namespace torch
