#pragma once
// Grad mode: whether operations on this thread record autograd history (libtorch's
// c10/core/GradMode.h). Off, no kernel makes a node, whatever requires_grad says.
//
//   {
//     at::NoGradGuard no_grad;          // torch::NoGradGuard is the same class
//     auto y = x * 2;                   // y.requires_grad() == false, no grad_fn
//   }
//   at::GradMode::is_enabled();         // true again

#include "c10/util/Macros.h"

namespace at {

namespace impl {
// Plain __thread bool: read by every autograd kernel; see Note [Fast TLS access].
extern C10_API __thread bool tls_grad_mode_disabled C10_TLS_FAST;
}  // namespace impl

struct C10_API GradMode {
  static bool is_enabled() { return !impl::tls_grad_mode_disabled; }
  static void set_enabled(bool enabled) { impl::tls_grad_mode_disabled = !enabled; }
};

// Sets grad mode for a scope and restores the previous one.
struct C10_API AutoGradMode {
  explicit AutoGradMode(bool enabled) : prev_mode_(GradMode::is_enabled()) {
    GradMode::set_enabled(enabled);
  }
  ~AutoGradMode() { GradMode::set_enabled(prev_mode_); }
  AutoGradMode(const AutoGradMode&) = delete;
  AutoGradMode& operator=(const AutoGradMode&) = delete;
  bool prev_mode_;
};

struct C10_API NoGradGuard : public AutoGradMode {
  NoGradGuard() : AutoGradMode(/*enabled=*/false) {}
};

}  // namespace at

namespace torch {
using at::AutoGradMode;
using at::NoGradGuard;
}  // namespace torch
