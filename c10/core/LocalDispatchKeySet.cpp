#include "c10/core/LocalDispatchKeySet.h"

namespace c10 {
namespace impl {

// See Note [Fast TLS access]. Every new thread starts from this image.
C10_TLS_FAST __thread PODLocalDispatchKeySet raw_local_dispatch_key_set = {default_included_set.raw_repr(),
                                                              default_excluded_set.raw_repr()};

void _force_tls_local_dispatch_key_set(LocalDispatchKeySet key_set) {
  raw_local_dispatch_key_set.set_included(key_set.included_);
  raw_local_dispatch_key_set.set_excluded(key_set.excluded_);
}

bool tls_is_dispatch_key_excluded(DispatchKey x) {
  return raw_local_dispatch_key_set.excluded().has(x);
}

void tls_set_dispatch_key_excluded(DispatchKey x, bool desired_state) {
  PODLocalDispatchKeySet* tls = &raw_local_dispatch_key_set;
  const DispatchKeySet excluded = tls->excluded();
  tls->set_excluded(desired_state ? excluded.add(x) : excluded.remove(x));
}

bool tls_is_dispatch_key_included(DispatchKey x) {
  return raw_local_dispatch_key_set.included().has(x);
}

void tls_set_dispatch_key_included(DispatchKey x, bool desired_state) {
  PODLocalDispatchKeySet* tls = &raw_local_dispatch_key_set;
  const DispatchKeySet included = tls->included();
  tls->set_included(desired_state ? included.add(x) : included.remove(x));
}

bool tls_is_dispatch_keyset_excluded(DispatchKeySet ks) {
  return raw_local_dispatch_key_set.excluded().isSupersetOf(ks);
}

bool tls_is_dispatch_keyset_included(DispatchKeySet ks) {
  return raw_local_dispatch_key_set.included().isSupersetOf(ks);
}

}  // namespace impl
}  // namespace c10
