#include "aten/autograd/Node.h"

#include "aten/ATen.h"

namespace torch {
namespace autograd {

namespace {
__thread uint64_t tls_sequence_nr C10_TLS_FAST = 0;
}  // namespace

uint64_t next_sequence_nr() {
  return tls_sequence_nr++;
}

at::Tensor InputMetadata::zeros_like() const {
  return at::zeros(shape_, options());
}

variable_list Node::operator()(variable_list&& inputs) {
  for (auto& entry : retains_grad_hooks_) {
    if (entry.first < inputs.size() && inputs[entry.first].defined()) {
      entry.second(inputs[entry.first]);
    }
  }
  return apply(std::move(inputs));
}

void Node::add_retains_grad_hook(uint32_t input_nr, RetainGradHook hook) {
  if (!hook) return;
  for (auto& entry : retains_grad_hooks_) {
    if (entry.first == input_nr) {
      entry.second = std::move(hook);
      return;
    }
  }
  retains_grad_hooks_.emplace_back(input_nr, std::move(hook));
}

Node::RetainGradHook Node::pop_retains_grad_hook(uint32_t input_nr) {
  for (auto it = retains_grad_hooks_.begin(); it != retains_grad_hooks_.end(); ++it) {
    if (it->first == input_nr) {
      RetainGradHook hook = std::move(it->second);
      retains_grad_hooks_.erase(it);
      return hook;
    }
  }
  return nullptr;
}

}  // namespace autograd
}  // namespace torch
