// The backend fallbacks every operator starts with, as in libtorch 1.13:
//  * BackendSelect and ADInplaceOrView are in every thread's included set (so that factories
//    without tensor arguments can reach a BackendSelect kernel); for operators with no kernel
//    there, a fallthrough passes the call on.
//  * Autograd keys fall through, so custom operators without autograd kernels run their
//    backend kernel directly.

#include "dispatcher/Library.h"

TORCH_LIBRARY_IMPL(_, BackendSelect, m) {
  m.fallback(torch::CppFunction::makeFallthrough().debug("backend_select_fallthrough"));
}

TORCH_LIBRARY_IMPL(_, ADInplaceOrView, m) {
  m.fallback(torch::CppFunction::makeFallthrough().debug("ad_inplace_or_view_fallthrough"));
}

TORCH_LIBRARY_IMPL(_, Autograd, m) {
  m.fallback(torch::CppFunction::makeFallthrough().debug("autograd_fallthrough"));
}
