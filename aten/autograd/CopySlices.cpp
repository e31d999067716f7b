#include "aten/autograd/CopySlices.h"

#include "aten/ATen.h"
#include "aten/autograd/AutogradMeta.h"

namespace torch {
namespace autograd {

CopySlices::CopySlices(const at::Tensor& base_var, const at::Tensor& view_var,
                       std::shared_ptr<Node> fn_)
    : base(base_var), view(view_var), fn(std::move(fn_)) {
  add_input_metadata(base_var);
  edge_list edges = fn->next_edges();
  edges[0] = impl::gradient_edge(base_var);
  set_next_edges(std::move(edges));
}

variable_list CopySlices::apply(variable_list&& grads) {
  const at::Tensor& grad = grads[0];
  variable_list result(num_outputs());
  if (!grad.defined()) return result;
  // The base's gradient in the base's layout, so the view's geometry addresses its slice.
  at::Tensor grad_base = at::empty_strided(base.sizes, base.strides, grad.options());
  grad_base.copy_(grad);
  at::Tensor grad_slice = grad_base.as_strided(
      view.sizes, view.strides,
      grad_base.storage_offset() + (view.storage_offset - base.storage_offset));
  variable_list fn_result = (*fn)({grad_slice.clone(at::MemoryFormat::Contiguous)});
  for (size_t i = 0; i < fn_result.size() && i < result.size(); ++i) {
    if (!should_compute_output(i)) continue;
    if (i == 0) {
      if (fn_result[0].defined()) {
        grad_slice.copy_(fn_result[0]);
      } else {
        grad_slice.zero_();
      }
      result[0] = grad_base;
    } else {
      result[i] = std::move(fn_result[i]);
    }
  }
  return result;
}

}  // namespace autograd
}  // namespace torch
