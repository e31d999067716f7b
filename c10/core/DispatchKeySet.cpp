#include "c10/core/DispatchKeySet.h"

#include <ostream>

#include "c10/util/Exception.h"

namespace c10 {

std::string toString(DispatchKeySet ks) {
  std::string out = "DispatchKeySet(";
  const char* separator = "";
  for (DispatchKey k : ks) {
    out += separator;
    out += toString(k);
    separator = ", ";
  }
  out += ")";
  return out;
}

std::ostream& operator<<(std::ostream& os, DispatchKeySet ks) {
  return os << toString(ks);
}

DispatchKeySet getRuntimeDispatchKeySet(DispatchKey k) {
  TORCH_INTERNAL_ASSERT(k != DispatchKey::Undefined);
  switch (k) {
    case DispatchKey::Autograd:
      return autograd_dispatch_keyset;
    case DispatchKey::CompositeExplicitAutograd:
      return backend_dispatch_keyset;
    case DispatchKey::CompositeImplicitAutograd:
      return backend_dispatch_keyset | autograd_dispatch_keyset;
    default:
      return DispatchKeySet(k);
  }
}

bool runtimeDispatchKeySetHas(DispatchKey alias, DispatchKey k) {
  TORCH_INTERNAL_ASSERT(alias != DispatchKey::Undefined);
  switch (alias) {
    case DispatchKey::Autograd:
      return isAutogradDispatchKey(k);
    case DispatchKey::CompositeExplicitAutograd:
      return isBackendDispatchKey(k);
    case DispatchKey::CompositeImplicitAutograd:
      return isBackendDispatchKey(k) || isAutogradDispatchKey(k);
    default:
      return alias == k;
  }
}

bool isIncludedInAlias(DispatchKey k, DispatchKey alias) {
  return k != DispatchKey::Undefined && runtimeDispatchKeySetHas(alias, k);
}

DispatchKeySet getBackendKeySetFromAutograd(DispatchKey k) {
  if (k == DispatchKey::AutogradOther) return autogradother_backends;
  if (k < DispatchKey::StartOfAutogradBackendKeys || k > DispatchKey::EndOfAutogradBackendKeys) {
    return DispatchKeySet();
  }
  // Backend keys and Autograd<backend> keys are in the same order. See Note [Key order].
  return DispatchKeySet(static_cast<DispatchKey>(
      static_cast<uint8_t>(k) - static_cast<uint8_t>(DispatchKey::StartOfAutogradBackendKeys) +
      static_cast<uint8_t>(DispatchKey::StartOfBackendKeys)));
}

}  // namespace c10
