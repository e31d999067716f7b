#pragma once
// increment_version: the one call that records a write to a tensor (libtorch's
// torch/csrc/autograd/VariableTypeUtils.h). Views share their base's counter, so a write through
// a view is a new version of the base too.
//
//   {
//     at::AutoDispatchBelowADInplaceOrView guard;
//     at::_ops::add__Tensor::redispatch(ks & c10::after_ADInplaceOrView_keyset, self, other, 1);
//   }
//   torch::autograd::increment_version(self);
//
// Only ADInplaceOrView kernels call it (generated ones, RegisterADInplaceOrView.cpp); see
// Note [Who bumps the version counter] in codegen/Emit.cpp. Saved variables compare versions to
// find tensors modified after they were saved (SavedVariable.h).

#include "aten/core/Tensor.h"
#include "c10/core/TensorImpl.h"

namespace torch {
namespace autograd {

inline void increment_version(const at::Tensor& t) {
  t.unsafeGetTensorImpl()->bump_version();
}

}  // namespace autograd
}  // namespace torch
