#include "aten/autograd/Engine.h"

#include <queue>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "aten/ATen.h"
#include "aten/autograd/AccumulateGrad.h"
#include "aten/autograd/AutogradMeta.h"
#include "aten/autograd/FunctionsManual.h"
#include "aten/autograd/GradMode.h"
#include "c10/core/DeviceGuard.h"

namespace torch {
namespace autograd {

GraphRoot::GraphRoot(edge_list functions, variable_list inputs)
    : Node(std::move(functions)), outputs_(std::move(inputs)) {
  for (const at::Tensor& t : outputs_) {
    if (t.defined()) add_input_metadata(t);
  }
}

Engine& Engine::get_default_engine() {
  static Engine engine;
  return engine;
}

namespace {

bool is_expandable_to(c10::IntArrayRef shape, c10::IntArrayRef desired) {
  if (shape.size() > desired.size()) return false;
  for (size_t i = 0; i < shape.size(); ++i) {
    const int64_t size = shape[shape.size() - 1 - i];
    const int64_t target = desired[desired.size() - 1 - i];
    if (size != target && size != 1) return false;
  }
  return true;
}

// See Note [Engine ordering]: fits each gradient to what its next node expects.
template <typename FormatError>
void validate_outputs(const edge_list& edges, variable_list& grads, const FormatError& format) {
  TORCH_CHECK(grads.size() == edges.size(),
              format("incorrect number of gradients (expected " + std::to_string(edges.size()) +
                     ", got " + std::to_string(grads.size()) + ")"));
  for (size_t i = 0; i < grads.size(); ++i) {
    const Edge& edge = edges[i];
    at::Tensor& grad = grads[i];
    if (!edge.is_valid() || !grad.defined()) continue;
    const InputMetadata& metadata = edge.function->input_metadata(edge.input_nr);
    if (grad.sizes() != metadata.shape()) {
      if (!is_expandable_to(metadata.shape(), grad.sizes())) {
        std::ostringstream ss;
        ss << "invalid gradient at index " << i << " - got " << grad.sizes()
           << " but expected shape compatible with " << metadata.shape();
        TORCH_CHECK(false, format(ss.str()));
      }
      grad = generated::details::sum_to(grad, metadata.shape());
    }
    if (grad.scalar_type() != metadata.dtype()) grad = grad.to(metadata.dtype());
    if (grad.device() != metadata.device()) {
      // As in libtorch, only a 0-dim gradient is moved; another on the wrong device is an error.
      if (grad.dim() != 0) {
        std::ostringstream ss;
        ss << "invalid gradient at index " << i << " - expected device " << metadata.device()
           << " but got " << grad.device();
        TORCH_CHECK(false, format(ss.str()));
      }
      grad = grad.to(metadata.device());
    }
  }
}

struct ReadyTask {
  std::shared_ptr<Node> fn;
  variable_list inputs;
};
struct LaterFirst {
  bool operator()(const ReadyTask& a, const ReadyTask& b) const {
    return a.fn->sequence_nr() < b.fn->sequence_nr();
  }
};

// Note [Each node runs with its inputs' device current]
// libtorch's engine runs a node on the worker thread of the device its gradients live on (the
// first input not on the CPU), and that thread has made the device current through the device
// type's DeviceGuardImplInterface. miniaten's engine runs every node on the calling thread, so
// it makes the device current around each node instead: a backend's kernels called from a
// backward function find their device set as they would in libtorch, and the caller's current
// device is restored after each node. CPU nodes change nothing.
c10::optional<c10::Device> device_of_inputs(const variable_list& inputs) {
  for (const at::Tensor& t : inputs) {
    if (!t.defined() || t.is_cpu()) continue;
    const c10::Device device = t.device();
    if (c10::impl::hasDeviceGuardImpl(device.type())) return device;
    return c10::nullopt;
  }
  return c10::nullopt;
}

// Gradients for a node, summed as they arrive.
void accumulate_input(variable_list& buffer, uint32_t input_nr, at::Tensor grad) {
  if (!grad.defined()) return;
  at::Tensor& slot = buffer[input_nr];
  slot = slot.defined() ? at::add(slot, grad) : std::move(grad);
}

std::unordered_map<Node*, int> compute_dependencies(Node* root) {
  std::unordered_map<Node*, int> dependencies;
  std::unordered_set<Node*> seen{root};
  std::vector<Node*> stack{root};
  while (!stack.empty()) {
    Node* fn = stack.back();
    stack.pop_back();
    for (const Edge& edge : fn->next_edges()) {
      Node* next = edge.function.get();
      if (next == nullptr) continue;
      ++dependencies[next];
      if (seen.insert(next).second) stack.push_back(next);
    }
  }
  return dependencies;
}

// For grad(): the nodes from which some wanted edge can be reached (only they need to run).
std::unordered_set<Node*> compute_needed(Node* root, const edge_list& outputs) {
  std::unordered_set<Node*> targets;
  for (const Edge& e : outputs) targets.insert(e.function.get());
  std::unordered_set<Node*> needed;
  std::unordered_set<Node*> visited;
  // Iterative post-order: a node is needed if a child is needed or it leads to a target edge.
  std::vector<std::pair<Node*, size_t>> stack{{root, 0}};
  visited.insert(root);
  while (!stack.empty()) {
    auto& [fn, child] = stack.back();
    if (child < fn->next_edges().size()) {
      Node* next = fn->next_edges()[child++].function.get();
      if (next != nullptr && visited.insert(next).second) stack.emplace_back(next, 0);
      continue;
    }
    bool is_needed = false;
    for (const Edge& edge : fn->next_edges()) {
      Node* next = edge.function.get();
      if (next != nullptr && (needed.count(next) || targets.count(next))) is_needed = true;
    }
    if (is_needed) needed.insert(fn);
    stack.pop_back();
  }
  return needed;
}

}  // namespace

namespace {
// The final callbacks of the backward pass running on this thread (null outside one); a
// reentrant backward (a hook calling backward) has its own.
thread_local std::vector<std::function<void()>>* current_final_callbacks = nullptr;

// Makes `callbacks` the thread's final callbacks for one execute(), restoring the outer ones.
class FinalCallbacksScope {
 public:
  explicit FinalCallbacksScope(std::vector<std::function<void()>>* callbacks)
      : outer_(current_final_callbacks) {
    current_final_callbacks = callbacks;
  }
  ~FinalCallbacksScope() { current_final_callbacks = outer_; }

 private:
  std::vector<std::function<void()>>* outer_;
};
}  // namespace

void Engine::queue_callback(std::function<void()> callback) {
  TORCH_CHECK(current_final_callbacks != nullptr,
              "Final callbacks can only be installed during backward pass.");
  current_final_callbacks->push_back(std::move(callback));
}

variable_list Engine::execute(const edge_list& roots, const variable_list& inputs, bool keep_graph,
                              bool create_graph, const edge_list& outputs) {
  std::vector<std::function<void()>> final_callbacks;
  FinalCallbacksScope callbacks_scope(&final_callbacks);
  variable_list root_grads = inputs;
  validate_outputs(roots, root_grads, [](const std::string& msg) { return msg; });

  auto graph_root = std::make_shared<GraphRoot>(roots, std::move(root_grads));
  std::unordered_map<Node*, int> dependencies = compute_dependencies(graph_root.get());
  const bool capture_only = !outputs.empty();
  std::unordered_set<Node*> needed;
  if (capture_only) needed = compute_needed(graph_root.get(), outputs);
  variable_list captured(outputs.size());

  std::priority_queue<ReadyTask, std::vector<ReadyTask>, LaterFirst> ready;
  std::unordered_map<Node*, variable_list> not_ready;
  ready.push(ReadyTask{graph_root, {}});
  at::AutoGradMode grad_mode(create_graph);

  while (!ready.empty()) {
    ReadyTask task = std::move(const_cast<ReadyTask&>(ready.top()));
    ready.pop();
    Node* fn = task.fn.get();
    if (capture_only) {
      for (size_t i = 0; i < outputs.size(); ++i) {
        if (outputs[i].function.get() == fn) captured[i] = task.inputs[outputs[i].input_nr];
      }
      if (fn != graph_root.get() && !needed.count(fn)) continue;
    }

    variable_list fn_outputs;
    {
      c10::OptionalDeviceGuard device_guard(device_of_inputs(task.inputs));
      fn_outputs = (*fn)(std::move(task.inputs));
    }
    if (!keep_graph) fn->release_variables();
    if (fn_outputs.empty() && fn->num_outputs() == 0) continue;  // AccumulateGrad
    validate_outputs(fn->next_edges(), fn_outputs, [fn](const std::string& msg) {
      return "Function " + fn->name() + " returned an " + msg;
    });

    const edge_list& edges = fn->next_edges();
    for (size_t i = 0; i < edges.size(); ++i) {
      const Edge& edge = edges[i];
      if (!edge.is_valid()) continue;
      Node* next = edge.function.get();
      auto buffer_it = not_ready.find(next);
      if (buffer_it == not_ready.end()) {
        buffer_it = not_ready.emplace(next, variable_list(next->num_inputs())).first;
      }
      accumulate_input(buffer_it->second, edge.input_nr, std::move(fn_outputs[i]));
      if (--dependencies[next] == 0) {
        ready.push(ReadyTask{edge.function, std::move(buffer_it->second)});
        not_ready.erase(buffer_it);
      }
    }
  }
  // By index: a callback may queue another.
  for (size_t i = 0; i < final_callbacks.size(); ++i) {
    auto callback = std::move(final_callbacks[i]);
    callback();
  }
  return captured;
}

namespace {

// The root edges and their seed gradients; libtorch's checks and messages.
void make_roots(const variable_list& tensors, const variable_list& grad_tensors, edge_list& roots,
                variable_list& grads) {
  TORCH_CHECK(grad_tensors.empty() || grad_tensors.size() == tensors.size(), "got ",
              grad_tensors.size(), " tensors and ", tensors.size(), " gradients");
  for (size_t i = 0; i < tensors.size(); ++i) {
    const at::Tensor& output = tensors[i];
    Edge edge = impl::gradient_edge(output);
    TORCH_CHECK(edge.is_valid(), "element ", i,
                " of tensors does not require grad and does not have a grad_fn");
    at::Tensor grad = grad_tensors.empty() ? at::Tensor() : grad_tensors[i];
    if (!grad.defined()) {
      TORCH_CHECK(output.numel() == 1, "grad can be implicitly created only for scalar outputs");
      grad = at::ones_like(output, at::MemoryFormat::Contiguous);
    }
    roots.push_back(std::move(edge));
    grads.push_back(std::move(grad));
  }
}

}  // namespace

void backward(const variable_list& tensors, const variable_list& grad_tensors,
              c10::optional<bool> retain_graph, bool create_graph, const variable_list& inputs) {
  edge_list roots;
  variable_list grads;
  make_roots(tensors, grad_tensors, roots, grads);
  const bool keep_graph = retain_graph.value_or(create_graph);
  if (inputs.empty()) {
    Engine::get_default_engine().execute(roots, grads, keep_graph, create_graph);
    return;
  }
  // Only the given inputs accumulate.
  edge_list wanted;
  for (const at::Tensor& input : inputs) {
    Edge edge = impl::gradient_edge(input);
    TORCH_CHECK(edge.is_valid(), "One of the differentiated Tensors does not require grad");
    wanted.push_back(std::move(edge));
  }
  variable_list result =
      Engine::get_default_engine().execute(roots, grads, keep_graph, create_graph, wanted);
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!result[i].defined()) continue;
    AccumulateGrad accumulate(inputs[i]);
    accumulate({std::move(result[i])});
  }
}

variable_list grad(const variable_list& outputs, const variable_list& inputs,
                   const variable_list& grad_outputs, c10::optional<bool> retain_graph,
                   bool create_graph, bool allow_unused) {
  edge_list roots;
  variable_list grads;
  make_roots(outputs, grad_outputs, roots, grads);
  edge_list wanted;
  for (const at::Tensor& input : inputs) {
    TORCH_CHECK(input.requires_grad(), "One of the differentiated Tensors does not require grad");
    wanted.push_back(impl::gradient_edge(input));
  }
  variable_list result = Engine::get_default_engine().execute(
      roots, grads, retain_graph.value_or(create_graph), create_graph, wanted);
  for (const at::Tensor& g : result) {
    TORCH_CHECK(allow_unused || g.defined(),
                "One of the differentiated Tensors appears to not have been used in the graph. "
                "Set allow_unused=True if this is the desired behavior.");
  }
  return result;
}

}  // namespace autograd
}  // namespace torch
