#include "aten/core/Generator.h"

#include "aten/core/Tensor.h"

namespace at {

void Generator::set_state(const at::Tensor& new_state) {
  TORCH_CHECK(new_state.defined(), "Undefined tensor is not allowed");
  impl_->set_state(*new_state.unsafeGetTensorImpl());
}

at::Tensor Generator::get_state() const {
  return at::Tensor(impl_->get_state());
}

namespace detail {

void check_rng_state(const c10::TensorImpl& new_state) {
  TORCH_CHECK_TYPE(new_state.layout() == c10::kStrided &&
                       new_state.device().type() == c10::DeviceType::CPU &&
                       new_state.scalar_type() == c10::ScalarType::Byte,
                   "RNG state must be a torch.ByteTensor");
  TORCH_CHECK(new_state.is_contiguous(), "RNG state must be contiguous");
}

}  // namespace detail

}  // namespace at
