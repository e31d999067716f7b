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

// ---- Iteration. See Note [Key set representation]. ----

DispatchKeySet::iterator::iterator(const uint64_t* data, uint8_t next_functionality,
                                   uint8_t next_backend)
    : bits_(*data), next_functionality_(next_functionality), next_backend_(next_backend) {
  TORCH_INTERNAL_ASSERT(next_functionality_ >= num_backends,
                        "num_backends=", static_cast<uint32_t>(num_backends),
                        "next_functionality_=", static_cast<uint32_t>(next_functionality_));
  ++*this;
}

DispatchKeySet::iterator& DispatchKeySet::iterator::operator++() {
  TORCH_INTERNAL_ASSERT(next_functionality_ <= end_iter_mask_val);
  TORCH_INTERNAL_ASSERT(next_backend_ <= num_backends, static_cast<uint32_t>(next_backend_));
  const auto at_or_above = [](uint8_t position) { return ~((uint64_t{1} << position) - 1); };
  const uint64_t backends = bits_ & full_backend_mask & at_or_above(next_backend_);
  while (true) {
    const uint64_t functionalities =
        next_functionality_ == end_iter_mask_val ? 0 : bits_ & at_or_above(next_functionality_);
    if (functionalities == 0) {  // the end: the state end() has
      next_functionality_ = end_iter_mask_val;
      current_dispatchkey_idx_ = end_iter_key_val;
      next_backend_ = 0;
      current_backendcomponent_idx_ = end_iter_key_val;
      return *this;
    }
    const auto position = static_cast<uint8_t>(__builtin_ctzll(functionalities));
    const auto functionality = static_cast<uint8_t>(position + 1 - num_backends);
    if (!isPerBackendFunctionalityKey(static_cast<DispatchKey>(functionality))) {
      current_dispatchkey_idx_ = functionality;
      next_functionality_ = position + 1;
      return *this;
    }
    if (backends == 0) {  // a per-backend functionality without a backend is no runtime key
      next_functionality_ = position + 1;
      continue;
    }
    const auto backend_position = static_cast<uint8_t>(__builtin_ctzll(backends));
    current_dispatchkey_idx_ = functionality;
    current_backendcomponent_idx_ = backend_position + 1;
    if ((bits_ & full_backend_mask & at_or_above(backend_position + 1)) == 0) {
      next_functionality_ = position + 1;  // last backend: the next functionality comes next
      next_backend_ = 0;
    } else {
      next_backend_ = backend_position + 1;  // the same functionality, the next backend
    }
    return *this;
  }
}

// ---- Alias keys ----

namespace {

// CompositeExplicitAutogradNonFunctional: the backends, less those that functionalize (XLA and
// Lazy) and Sparse.
constexpr DispatchKeySet non_functional_backend_dispatch_keyset =
    backend_dispatch_keyset.remove(DispatchKey::Sparse)
        .remove_backend(BackendComponent::XLABit)
        .remove_backend(BackendComponent::LazyBit);

constexpr DispatchKeySet nested_dispatch_keyset =
    DispatchKeySet({DispatchKey::AutogradNestedTensor, DispatchKey::NestedTensor}) |
    DispatchKeySet(DispatchKeySet::RAW, full_backend_mask);

}  // namespace

bool isBackendDispatchKey(DispatchKey k) {
  return k != DispatchKey::Undefined && !isAliasDispatchKey(k) && k != DispatchKey::NestedTensor &&
         backend_dispatch_keyset.has(k);
}

DispatchKeySet getRuntimeDispatchKeySet(DispatchKey k) {
  TORCH_INTERNAL_ASSERT(k != DispatchKey::Undefined);
  switch (k) {
    case DispatchKey::Autograd:
      // The autograd functionalities carry no backend bits; crossed with every backend.
      return autograd_dispatch_keyset | DispatchKeySet(DispatchKeySet::RAW, full_backend_mask);
    case DispatchKey::CompositeImplicitAutograd:
      return math_dispatch_keyset;
    case DispatchKey::CompositeImplicitAutogradNestedTensor:
      return nested_dispatch_keyset;
    case DispatchKey::CompositeExplicitAutograd:
      return backend_dispatch_keyset;
    case DispatchKey::CompositeExplicitAutogradNonFunctional:
      return non_functional_backend_dispatch_keyset;
    default:
      return DispatchKeySet(k);
  }
}

bool runtimeDispatchKeySetHas(DispatchKey alias, DispatchKey k) {
  TORCH_INTERNAL_ASSERT(alias != DispatchKey::Undefined);
  switch (alias) {
    case DispatchKey::Autograd:
      return autograd_dispatch_keyset.has(toFunctionalityKey(k));
    case DispatchKey::CompositeImplicitAutograd:
      return math_dispatch_keyset.has(k);
    case DispatchKey::CompositeImplicitAutogradNestedTensor:
      return nested_dispatch_keyset.has(k);
    case DispatchKey::CompositeExplicitAutograd:
      return backend_dispatch_keyset.has(k);
    case DispatchKey::CompositeExplicitAutogradNonFunctional:
      return non_functional_backend_dispatch_keyset.has(k);
    default:
      return alias == k;
  }
}

bool isIncludedInAlias(DispatchKey k, DispatchKey alias) {
  return k != DispatchKey::Undefined && runtimeDispatchKeySetHas(alias, k);
}

DispatchKeySet getBackendKeySetFromAutograd(DispatchKey k) {
  switch (k) {
    case DispatchKey::AutogradOther:
      return autogradother_backends;
    case DispatchKey::AutogradNestedTensor:
      return DispatchKeySet(DispatchKey::NestedTensor) |
             DispatchKeySet(DispatchKeySet::RAW, full_backend_mask);
    default:
      break;
  }
  // Autograd<backend> -> <backend>, for the backends with their own autograd key.
  if (toFunctionalityKey(k) != DispatchKey::AutogradFunctionality) return DispatchKeySet();
  const BackendComponent b = toBackendComponent(k);
  if (!hasOwnAutogradKey(b)) return DispatchKeySet();
  return DispatchKeySet(toRuntimePerBackendFunctionalityKey(DispatchKey::Dense, b));
}

}  // namespace c10
