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

void run_tensor_hooks(const Node::TensorHookList& hooks, at::Tensor& grad) {
  for (const Node::TensorHook& hook : hooks) {
    if (!hook) continue;  // removed
    at::TensorBase replaced = hook(grad);
    if (replaced.defined()) grad = at::Tensor(replaced);
  }
}

void Node::add_tensor_pre_hook(uint32_t input_nr, std::shared_ptr<TensorHookList> hooks) {
  if (!hooks) return;
  for (auto& entry : tensor_pre_hooks_) {
    if (entry.first == input_nr && entry.second == hooks) return;
  }
  tensor_pre_hooks_.emplace_back(input_nr, std::move(hooks));
}

std::shared_ptr<Node::TensorHookList> Node::pop_tensor_pre_hook(uint32_t input_nr) {
  for (auto it = tensor_pre_hooks_.begin(); it != tensor_pre_hooks_.end(); ++it) {
    if (it->first == input_nr) {
      std::shared_ptr<TensorHookList> hooks = std::move(it->second);
      tensor_pre_hooks_.erase(it);
      return hooks;
    }
  }
  return nullptr;
}

variable_list Node::operator()(variable_list&& inputs) {
  for (auto& entry : tensor_pre_hooks_) {
    if (entry.first < inputs.size() && inputs[entry.first].defined()) {
      run_tensor_hooks(*entry.second, inputs[entry.first]);
    }
  }
  for (auto& entry : retains_grad_hooks_) {
    if (entry.first < inputs.size() && inputs[entry.first].defined()) {
      entry.second(inputs[entry.first]);
    }
  }
  if (C10_LIKELY(post_hooks_.empty())) return apply(std::move(inputs));
  const variable_list given = inputs;  // the post hooks see them after apply() took them
  variable_list outputs = apply(std::move(inputs));
  for (const auto& hook : post_hooks_) outputs = (*hook)(outputs, given);
  return outputs;
}

uintptr_t Node::add_post_hook(std::unique_ptr<FunctionPostHook>&& post_hook) {
  post_hooks_.push_back(std::move(post_hook));
  return reinterpret_cast<uintptr_t>(post_hooks_.back().get());
}

bool Node::del_post_hook(const uintptr_t& key) {
  for (auto it = post_hooks_.begin(); it != post_hooks_.end(); ++it) {
    if (reinterpret_cast<uintptr_t>(it->get()) == key) {
      post_hooks_.erase(it);
      return true;
    }
  }
  return false;
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
