#include "c10/core/DispatchKey.h"

#include <ostream>

#include "c10/util/Exception.h"

namespace c10 {

const char* toString(DispatchKey k) {
  switch (k) {
    case DispatchKey::Undefined:
      return "Undefined";
    case DispatchKey::CPU:
      return "CPU";
    case DispatchKey::CUDA:
      return "CUDA";
    case DispatchKey::Meta:
      return "Meta";
    case DispatchKey::PrivateUse1:
      return "PrivateUse1";
    case DispatchKey::BackendSelect:
      return "BackendSelect";
    case DispatchKey::ADInplaceOrView:
      return "ADInplaceOrView";
    case DispatchKey::AutogradOther:
      return "AutogradOther";
    case DispatchKey::AutogradCPU:
      return "AutogradCPU";
    case DispatchKey::AutogradCUDA:
      return "AutogradCUDA";
    case DispatchKey::AutogradMeta:
      return "AutogradMeta";
    case DispatchKey::AutogradPrivateUse1:
      return "AutogradPrivateUse1";
    case DispatchKey::Tracer:
      return "Tracer";
    case DispatchKey::Autograd:
      return "Autograd";
    case DispatchKey::CompositeImplicitAutograd:
      return "CompositeImplicitAutograd";
    case DispatchKey::CompositeExplicitAutograd:
      return "CompositeExplicitAutograd";
    case DispatchKey::NumDispatchKeys:
      break;
  }
  return "Unknown";
}

std::ostream& operator<<(std::ostream& os, DispatchKey k) {
  return os << toString(k);
}

DispatchKey parseDispatchKey(const std::string& k) {
  // Every enumerator up to the last alias key, except the NumDispatchKeys marker, has a name.
  for (int i = 0; i <= static_cast<int>(DispatchKey::EndOfAliasKeys); ++i) {
    const auto key = static_cast<DispatchKey>(i);
    if (key != DispatchKey::NumDispatchKeys && k == toString(key)) return key;
  }
  TORCH_CHECK(false, "could not parse dispatch key: ", k);
}

}  // namespace c10
