#include "aten/autograd/GraphDot.h"

#include <deque>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include "aten/autograd/AccumulateGrad.h"
#include "aten/autograd/Node.h"

namespace torch {
namespace autograd {

namespace {

std::string display_name(const Node& node) {
  std::string name = node.name();
  const std::string prefix = "torch::autograd::";
  if (name.rfind(prefix, 0) == 0) name.erase(0, prefix.size());
  return name;
}

std::string sizes_text(const at::Tensor& t) {
  std::ostringstream ss;
  ss << t.sizes();
  return ss.str();
}

// A DOT string: quotes and backslashes escaped, a newline written as DOT's line break "\n".
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

// See Note [The autograd graph drawn as torchviz draws it].
std::string graph_dot(const std::vector<at::Tensor>& outputs,
                      const std::vector<std::string>& names) {
  std::ostringstream dot;
  dot << "digraph autograd {\n"
      << "  node [shape=box, style=filled, fillcolor=lightgray, fontname=\"monospace\"];\n";
  std::unordered_map<const Node*, size_t> ids;
  std::deque<const Node*> queue;
  auto id_of = [&](const Node* node) {
    auto [it, fresh] = ids.emplace(node, ids.size());
    if (fresh) queue.push_back(node);
    return "n" + std::to_string(it->second);
  };
  // A leaf among the outputs is drawn once, as the box feeding its AccumulateGrad, named.
  std::unordered_map<const c10::TensorImpl*, std::string> leaf_names;
  for (size_t i = 0; i < outputs.size(); ++i) {
    const std::string name = i < names.size() ? names[i] : "output " + std::to_string(i);
    if (outputs[i].defined() && outputs[i].requires_grad() && !outputs[i].grad_fn()) {
      leaf_names.emplace(outputs[i].unsafeGetTensorImpl(), name);
      continue;
    }
    const std::string out_id = "out" + std::to_string(i);
    dot << "  " << out_id << " [label=" << quoted(name + "\n" + sizes_text(outputs[i]))
        << ", fillcolor=darkolivegreen1];\n";
    if (!outputs[i].defined()) continue;
    if (const std::shared_ptr<Node>& fn = outputs[i].grad_fn()) {
      dot << "  " << id_of(fn.get()) << " -> " << out_id << ";\n";
    }
  }
  size_t leaves = 0;
  while (!queue.empty()) {
    const Node* node = queue.front();
    queue.pop_front();
    const std::string node_id = "n" + std::to_string(ids.at(node));
    dot << "  " << node_id << " [label=" << quoted(display_name(*node)) << "];\n";
    if (const auto* acc = dynamic_cast<const AccumulateGrad*>(node)) {
      const std::string leaf_id = "leaf" + std::to_string(leaves++);
      const auto named = leaf_names.find(acc->variable.unsafeGetTensorImpl());
      std::string label = sizes_text(acc->variable);
      if (named != leaf_names.end()) {
        label = named->second + "\n" + label;
        leaf_names.erase(named);  // drawn
      }
      dot << "  " << leaf_id << " [label=" << quoted(label) << ", fillcolor=lightblue];\n"
          << "  " << leaf_id << " -> " << node_id << ";\n";
    }
    const edge_list& edges = node->next_edges();
    for (const Edge& edge : edges) {
      if (!edge.is_valid()) continue;
      dot << "  " << id_of(edge.function.get()) << " -> " << node_id;
      if (edge.input_nr != 0) {
        dot << " [label=\"" << edge.input_nr << "\"]";
      }
      dot << ";\n";
    }
  }
  // Leaves among the outputs that no other output's graph reaches (still in leaf_names): their
  // own named boxes, in the outputs' order.
  for (size_t i = 0; i < outputs.size(); ++i) {
    const c10::TensorImpl* impl = outputs[i].defined() ? outputs[i].unsafeGetTensorImpl() : nullptr;
    const auto named = leaf_names.find(impl);
    if (named == leaf_names.end()) continue;
    dot << "  leaf" << leaves++
        << " [label=" << quoted(named->second + "\n" + sizes_text(outputs[i]))
        << ", fillcolor=lightblue];\n";
    leaf_names.erase(named);
  }
  dot << "}\n";
  return dot.str();
}

void write_graph_dot(const std::string& path, const std::vector<at::Tensor>& outputs,
                     const std::vector<std::string>& names) {
  std::ofstream out(path);
  TORCH_CHECK(out.good(), "write_graph_dot: cannot open '", path, "' for writing");
  out << graph_dot(outputs, names);
  TORCH_CHECK(out.good(), "write_graph_dot: writing '", path, "' failed");
}

}  // namespace autograd
}  // namespace torch
