#pragma once
// The two guards an autograd kernel uses before it redispatches (libtorch declares them in
// ATen/core/LegacyTypeDispatch.h).
//
//   Tensor clone_autograd(c10::DispatchKeySet ks, const Tensor& self, ...) {
//     auto node = std::make_shared<CloneBackward0>();  // record the backward first
//     at::AutoDispatchBelowADInplaceOrView guard;      // clone is neither in-place nor a view
//     return at::redispatch::clone(ks & c10::after_autograd_keyset, self, ...);
//   }
//
// In-place and view ops use AutoDispatchBelowAutograd instead, so that their ADInplaceOrView
// kernel still runs (bumping the version counter, recording the view). See Note [Key order].

#include "c10/core/DispatchKeySet.h"
#include "c10/core/LocalDispatchKeySet.h"
#include "c10/util/Exception.h"

namespace at {

// Excludes every autograd key on this thread for the scope.
struct AutoDispatchBelowAutograd {
  AutoDispatchBelowAutograd() : autograd_guard_(c10::autograd_dispatch_keyset) {}
  c10::impl::ExcludeDispatchKeyGuard autograd_guard_;
};

// Excludes every autograd key and ADInplaceOrView on this thread for the scope.
struct AutoDispatchBelowADInplaceOrView {
  AutoDispatchBelowADInplaceOrView()
      : dispatch_key_guard_(c10::autograd_dispatch_keyset_with_ADInplaceOrView) {}
  c10::impl::ExcludeDispatchKeyGuard dispatch_key_guard_;
};

// Deprecated in libtorch (warns once): excludes every autograd key, like
// AutoDispatchBelowAutograd. Kept so that older code builds.
struct AutoNonVariableTypeMode {
  AutoNonVariableTypeMode(bool enabled = true) : autograd_guard_(c10::autograd_dispatch_keyset) {
    TORCH_WARN_ONCE(
        "AutoNonVariableTypeMode is deprecated and will be removed in 1.10 release. For kernel "
        "implementations please use AutoDispatchBelowADInplaceOrView instead, If you are looking "
        "for a user facing API to enable running your inference-only workload, please use "
        "c10::InferenceMode. Using AutoDispatchBelowADInplaceOrView in user code is under risk "
        "of producing silent wrong result in some edge cases. See Note "
        "[AutoDispatchBelowAutograd] for more details.");
    TORCH_INTERNAL_ASSERT(enabled);
  }
  c10::impl::ExcludeDispatchKeyGuard autograd_guard_;
};

}  // namespace at
