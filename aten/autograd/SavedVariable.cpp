#include "aten/autograd/SavedVariable.h"

#include <sstream>

#include "aten/autograd/AutogradMeta.h"
#include "aten/autograd/GradMode.h"

namespace torch {
namespace autograd {

const char* const ERR_BACKWARD_TWICE =
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you "
    "call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward "
    "through the graph a second time or if you need to access saved tensors after calling "
    "backward.";

SavedVariable::SavedVariable(const at::Tensor& variable, bool is_output) {
  if (!variable.defined()) return;
  was_defined_ = true;
  saved_version_ = variable.unsafeGetTensorImpl()->version_counter().current_version();
  if (AutogradMeta* meta = impl::get_autograd_meta(variable)) {
    if (!is_output) {
      original_ = variable;  // not this node's output, so no cycle
    } else if (const std::shared_ptr<Node>& fn = impl::grad_fn(variable)) {
      grad_fn_ = fn;
      output_nr_ = meta->output_nr_;
    }
  }
  // Backward formulas need the values only, never the history: detach() keeps the storage and
  // the version counter and drops the rest (for outputs, this is what breaks the cycle).
  data_ = (is_output || impl::get_autograd_meta(variable)) ? variable.detach() : variable;
}

at::Tensor SavedVariable::unpack() const {
  if (!was_defined_) return at::Tensor();
  TORCH_CHECK(!data_freed_, ERR_BACKWARD_TWICE);
  const uint32_t current_version = data_.unsafeGetTensorImpl()->version_counter().current_version();
  if (current_version != saved_version_) {
    std::ostringstream message;
    message << "one of the variables needed for gradient computation has been modified by an "
               "inplace operation: ["
            << data_.toString() << " " << data_.sizes() << "]";
    std::shared_ptr<Node> fn = grad_fn_.lock();
    uint32_t output_nr = output_nr_;
    if (original_.defined()) {
      fn = impl::grad_fn(original_);
      output_nr = impl::get_autograd_meta(original_)->output_nr_;
    }
    if (fn) message << ", which is output " << output_nr << " of " << fn->name() << ",";
    message << " is at version " << current_version << "; expected version " << saved_version_
            << " instead. Hint: enable anomaly detection to find the operation that failed to "
               "compute its gradient, with torch.autograd.set_detect_anomaly(True).";
    TORCH_CHECK(false, message.str());
  }
  // Note [Saved variables under create_graph]
  // A backward pass run with create_graph=True runs the formulas with grad mode on, so that they
  // record a graph of their own (second derivatives). There a saved tensor must come back with
  // its history: an input as itself, an output as its data with the edge it had (its node, its
  // output number) put back. In every other pass the formulas need the values only.
  if (at::GradMode::is_enabled()) {
    if (original_.defined()) return original_;
    if (std::shared_ptr<Node> fn = grad_fn_.lock()) {
      at::Tensor with_history = data_.detach();
      impl::set_gradient_edge(with_history, Edge(std::move(fn), output_nr_));
      return with_history;
    }
  }
  return data_;
}

void SavedVariable::reset_data() {
  data_.reset();
  original_.reset();
  data_freed_ = true;
}

}  // namespace autograd
}  // namespace torch
