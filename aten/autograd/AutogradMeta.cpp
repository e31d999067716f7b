#include "aten/autograd/AutogradMeta.h"

#include "aten/autograd/AccumulateGrad.h"
#include "aten/autograd/Functions.h"
#include "aten/autograd/GradMode.h"
#include "c10/util/FreeList.h"

namespace torch {
namespace autograd {

namespace {
C10_TLS_FAST __thread c10::FreeList tls_autograd_meta_blocks;
}  // namespace

void* AutogradMeta::operator new(size_t size) {
  return tls_autograd_meta_blocks.allocate(size, sizeof(AutogradMeta));
}

void AutogradMeta::operator delete(void* p, size_t size) {
  tls_autograd_meta_blocks.deallocate(p, size, sizeof(AutogradMeta));
}

AutogradMeta::~AutogradMeta() {
  // The retain_grad hook points at this meta; it must not outlive it.
  if (retains_grad_ && grad_fn_) grad_fn_->pop_retains_grad_hook(output_nr_);
}

namespace {
// Note [No complex autograd]
// libtorch differentiates complex functions (Wirtinger calculus, conj in every formula);
// miniaten's derivative formulas are real-only. So a complex tensor is refused where it would
// join a graph, as a leaf (set_requires_grad) or as the output of a recorded op
// (set_gradient_edge: float_tensor_that_requires_grad * 1i), rather than given wrong gradients.
void check_not_complex(c10::ScalarType st) {
  TORCH_CHECK_NOT_IMPLEMENTED(!c10::isComplexType(st),
                              "miniaten: autograd does not support complex tensors yet (got a ", st,
                              " tensor that requires grad)");
}
}  // namespace

void AutogradMeta::set_requires_grad(bool requires_grad, c10::TensorImpl* self_impl) {
  const c10::ScalarType st = self_impl->scalar_type();
  TORCH_CHECK(!requires_grad || c10::isFloatingType(st) || c10::isComplexType(st),
              "Only Tensors of floating point and complex dtype can require gradients");
  // See Note [No complex autograd].
  if (requires_grad) check_not_complex(st);
  requires_grad_ = requires_grad;
}

namespace impl {

namespace {
// The AutogradMeta of a defined tensor, made if it has none. Inlined into set_view_of, which
// every view made under autograd runs.
C10_ALWAYS_INLINE AutogradMeta* materialize(c10::TensorImpl* self) {
  auto* meta = static_cast<AutogradMeta*>(self->autograd_meta());
  if (meta == nullptr) {
    auto fresh = std::make_unique<AutogradMeta>();
    meta = fresh.get();
    self->set_autograd_meta(std::move(fresh));
  }
  return meta;
}
}  // namespace

AutogradMeta* materialize_autograd_meta(const at::TensorBase& t) {
  TORCH_CHECK(t.defined(), "cannot call materialize_autograd_meta() on undefined tensor");
  return materialize(t.unsafeGetTensorImpl());
}

void rebuild_view_grad_fn(const at::TensorBase& t) {
  AutogradMeta* meta = get_autograd_meta(t);
  TORCH_INTERNAL_ASSERT(meta != nullptr && meta->is_view_);
  const at::Tensor& base = meta->base_;
  auto fn = std::make_shared<AsStridedBackward0>();
  fn->self_geometry = TensorGeometry(base);
  fn->size = t.sizes().vec();
  fn->stride = t.strides().vec();
  fn->storage_offset = t.storage_offset();
  fn->set_next_edges(collect_next_edges(base));
  fn->add_input_metadata(t);
  if (meta->retains_grad_ && meta->grad_fn_) {
    fn->add_retains_grad_hook(0, meta->grad_fn_->pop_retains_grad_hook(meta->output_nr_));
  }
  if (meta->cpp_hooks_) {
    if (meta->grad_fn_) meta->grad_fn_->pop_tensor_pre_hook(meta->output_nr_);
    fn->add_tensor_pre_hook(0, meta->cpp_hooks_);
  }
  meta->grad_fn_ = std::move(fn);
  meta->output_nr_ = 0;
  meta->attr_version_ = t.unsafeGetTensorImpl()->version_counter().current_version();
}

const std::shared_ptr<Node>& grad_fn(const at::TensorBase& t) {
  static const std::shared_ptr<Node> none;
  AutogradMeta* meta = get_autograd_meta(t);
  if (meta == nullptr) return none;
  if (!meta->is_view_) return meta->grad_fn_;
  // See Note [Views and in-place]: a view whose base changed in place since its grad_fn was
  // made gets a fresh AsStridedBackward0 from the base's current history.
  if (!meta->grad_fn_ && !meta->base_.requires_grad()) return meta->grad_fn_;
  if (meta->attr_version_ != t.unsafeGetTensorImpl()->version_counter().current_version()) {
    rebuild_view_grad_fn(t);
  }
  return meta->grad_fn_;
}

Edge gradient_edge(const at::TensorBase& t) {
  const std::shared_ptr<Node>& fn = grad_fn(t);
  if (fn) return Edge(fn, get_autograd_meta(t)->output_nr_);
  if (!t.requires_grad()) return Edge();
  return Edge(grad_accumulator(t), 0);
}

void set_gradient_edge(const at::TensorBase& t, Edge edge) {
  if (edge.function) check_not_complex(t.scalar_type());  // See Note [No complex autograd].
  AutogradMeta* meta = materialize_autograd_meta(t);
  if (meta->retains_grad_ && meta->grad_fn_) {
    // The retained gradient is the one arriving at the tensor's current history.
    auto hook = meta->grad_fn_->pop_retains_grad_hook(meta->output_nr_);
    if (hook) edge.function->add_retains_grad_hook(edge.input_nr, std::move(hook));
  }
  // The tensor's hooks, too, see the gradient arriving at its current history.
  if (meta->cpp_hooks_) {
    if (meta->grad_fn_) meta->grad_fn_->pop_tensor_pre_hook(meta->output_nr_);
    if (edge.function) edge.function->add_tensor_pre_hook(edge.input_nr, meta->cpp_hooks_);
  }
  meta->grad_fn_ = std::move(edge.function);
  meta->output_nr_ = edge.input_nr;
  if (meta->is_view_) {
    meta->attr_version_ = t.unsafeGetTensorImpl()->version_counter().current_version();
  }
}

std::shared_ptr<Node> grad_accumulator(const at::TensorBase& t) {
  AutogradMeta* meta = materialize_autograd_meta(t);
  if (meta->grad_fn_) return nullptr;
  if (!meta->requires_grad_) return nullptr;
  if (auto acc = meta->grad_accumulator_.lock()) return acc;
  // A graph's AccumulateGrad dies with it (grad_accumulator_ is weak): one per call that
  // records history on a leaf, so it comes from a free list like the nodes (make_node_if).
  auto acc = std::allocate_shared<AccumulateGrad>(c10::FreeListAllocator<AccumulateGrad>(),
                                                  at::Tensor(t));
  meta->grad_accumulator_ = acc;
  return acc;
}

void set_view_of(const at::TensorBase& base, const at::TensorBase& view,
                 CreationMeta creation_meta) {
  c10::TensorImpl* view_impl = view.unsafeGetTensorImpl();
  AutogradMeta* meta = materialize(view_impl);
  AutogradMeta* base_meta = get_autograd_meta(base);
  meta->is_view_ = true;
  CreationMeta parent = CreationMeta::DEFAULT;
  if (base_meta && base_meta->is_view_) {
    meta->base_ = base_meta->base_;
    // A view of a view made under no_grad (or of a split's piece) is as restricted as its parent.
    parent = base_meta->creation_meta_;
  } else {
    meta->base_ = at::Tensor(base);
  }
  const CreationMeta requested =
      at::GradMode::is_enabled() ? creation_meta : CreationMeta::NO_GRAD_MODE;
  meta->creation_meta_ = requested == CreationMeta::DEFAULT ? parent : requested;
  meta->attr_version_ = view_impl->version_counter().current_version();
}

}  // namespace impl
}  // namespace autograd
}  // namespace torch
