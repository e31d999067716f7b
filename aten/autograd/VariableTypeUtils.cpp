#include "aten/autograd/VariableTypeUtils.h"

#include <sstream>
#include <string>

#include "aten/autograd/AccumulateGrad.h"
#include "aten/autograd/CopySlices.h"
#include "dispatcher/TraceRecord.h"

namespace torch {
namespace autograd {
namespace impl {

// The page draws the autograd graph from these steps: each names its node, the nodes its edges
// lead to (by the ids the recorded tensors' grad_fn_id use, TraceRecorder::object_id) and, for
// an AccumulateGrad, the leaf it accumulates into (its sizes, and its address to match the
// recorded tensors' impl_id when the recording keeps them: Note [Which ids are unique]).
void trace_node_created(const Node& node) {
  std::string line = "autograd: created " + node.name() + " (next edges: ";
  const edge_list& edges = node.next_edges();
  for (size_t i = 0; i < edges.size(); ++i) {
    if (i > 0) line += ", ";
    line += edges[i].is_valid() ? edges[i].function->name() : std::string("None");
  }
  line += ")";
  if (!c10::DispatchTrace::recording_page()) {
    c10::DispatchTrace::log(line);
    return;
  }
  std::string next = "[";
  for (size_t i = 0; i < edges.size(); ++i) {
    next += i > 0 ? ", " : "";
    const Node* to = edges[i].function.get();
    if (to == nullptr) {
      next += "null";
      continue;
    }
    next += c10::str("{\"id\": \"", c10::TraceRecorder::object_id(edges[i].function),
                     "\", \"name\": ", c10::json_string(to->name()),
                     ", \"input_nr\": ", edges[i].input_nr);
    if (const auto* acc = dynamic_cast<const AccumulateGrad*>(to)) {
      std::ostringstream sizes;
      sizes << acc->variable.sizes();
      next += c10::str(", \"leaf_impl_id\": \"", c10::trace_id(acc->variable.unsafeGetTensorImpl()),
                       "\", \"leaf_sizes\": ", c10::json_string(sizes.str()));
    }
    next += "}";
  }
  next += "]";
  c10::DispatchTrace::log(
      line,
      c10::str("{\"id\": \"", c10::TraceRecorder::object_id(node.weak_from_this().lock()),
               "\", \"name\": ", c10::json_string(node.name()), ", \"next\": ", next, "}"),
      {});
}

void set_history_of(const at::Tensor& result, std::shared_ptr<Node>&& grad_fn) {
  const uint32_t output_nr = grad_fn->add_input_metadata(result);
  set_gradient_edge(result, Edge(std::move(grad_fn), output_nr));
}

void check_inplace(const at::Tensor& self, bool requires_grad) {
  if (!requires_grad || !at::GradMode::is_enabled()) return;
  const AutogradMeta* meta = get_autograd_meta(self);
  if (meta != nullptr && meta->is_view_) {
    // libtorch's handle_view_on_rebase: which view (the whole prefix stands in when it has no
    // grad_fn), then why it cannot be written in place.
    if (meta->creation_meta_ != CreationMeta::DEFAULT) {
      const std::string head =
          meta->grad_fn_ ? "Output " + std::to_string(meta->output_nr_) + " of " +
                               meta->grad_fn_->name() + " is a view and is being modified inplace."
                         : "A view was created in no_grad mode and is being modified inplace "
                           "with grad mode enabled.";
      if (meta->creation_meta_ == CreationMeta::MULTI_OUTPUT_NODE) {
        TORCH_CHECK(false, head,
                    " This view is the output of a function that returns multiple views. Such "
                    "functions do not allow the output views to be modified inplace. You should "
                    "replace the inplace operation by an out-of-place one.");
      }
      TORCH_CHECK(false, head,
                  " Given that this use case is ambiguous and error-prone, it is forbidden. You "
                  "can clarify your code by moving both the view and the inplace either both "
                  "inside the no_grad block (if you don't want the inplace to be tracked) or "
                  "both outside (if you want the inplace to be tracked).");
    }
    TORCH_CHECK(!(self.requires_grad() && meta->base_.is_leaf()),
                "a view of a leaf Variable that requires grad is being used in an in-place "
                "operation.");
  }
  TORCH_CHECK(!(self.requires_grad() && self.is_leaf()),
              "a leaf Variable that requires grad is being used in an in-place operation.");
}

void rebase_history(const at::Tensor& self, std::shared_ptr<Node> grad_fn) {
  if (!grad_fn) return;
  grad_fn->add_input_metadata(self);
  AutogradMeta* meta = get_autograd_meta(self);
  if (meta != nullptr && meta->is_view_) {
    const at::Tensor base = meta->base_;
    auto copy_slices = std::make_shared<CopySlices>(base, self, std::move(grad_fn));
    if (c10::DispatchTrace::enabled()) trace_node_created(*copy_slices);
    set_gradient_edge(base, Edge(std::move(copy_slices), 0));
    rebuild_view_grad_fn(self);
    return;
  }
  set_gradient_edge(self, Edge(std::move(grad_fn), 0));
}

}  // namespace impl
}  // namespace autograd
}  // namespace torch
