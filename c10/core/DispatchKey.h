#pragma once
// DispatchKey: one "layer" an operator call can be routed to, in priority order.
//
//   DispatchKeySet ks = keysetForBackend(DispatchKey::CPU);  // CPU, ADInplaceOrView, AutogradCPU
//   ks.highestPriorityTypeId();                              // AutogradCPU: autograd runs first
//   toString(DispatchKey::AutogradCPU);                      // "AutogradCPU"
//   parseDispatchKey("CompositeImplicitAutograd");           // an alias key, for registration
//
// Runtime keys (CPU ... Tracer) index a dispatch table and appear in key sets. Alias keys
// (Autograd, CompositeImplicitAutograd, CompositeExplicitAutograd) are only for registering
// kernels: each stands for several runtime keys (see getRuntimeDispatchKeySet).

#include <cstdint>
#include <iosfwd>
#include <string>

#include "c10/util/Macros.h"

namespace c10 {

// Note [Key order]
// The enum value of a runtime key is its priority: a key set's bit k is key k, and dispatch
// always takes the highest bit (DispatchKeySet::highestPriorityTypeId). The rules of
// REFERENCE.md section 5 follow from where each key sits:
//  * Backends (CPU, CUDA, Meta, PrivateUse1) are lowest: they do the real work, so every other
//    layer gets its turn first and then redispatches down to them.
//  * BackendSelect sits just above the backends. It is in the TLS included set by default, so
//    a factory function with no tensor arguments (at::empty) lands there and picks a backend
//    from its TensorOptions; ops without a BackendSelect kernel fall through it.
//  * ADInplaceOrView is below autograd: the autograd kernel runs first, then excludes itself
//    (AutoDispatchBelowADInplaceOrView) or only the autograd keys (AutoDispatchBelowAutograd,
//    which leaves ADInplaceOrView to bump versions and record views).
//  * AutogradOther is the lowest autograd key, so "every key below AutogradOther"
//    (after_autograd_keyset) is exactly "everything autograd may redispatch to".
//  * Autograd<backend> keys follow their backends' order, so a tensor of backend B always
//    picks Autograd<B> over AutogradOther.
//  * Tracer is highest: a tracing fallback registered on it sees every call before any other
//    layer, with the full key set, and then redispatches below itself.
// Backend keys and Autograd<backend> keys are listed in the same order; getAutogradKeyFromBackend
// relies on it (static_asserts below).
enum class DispatchKey : uint8_t {
  Undefined = 0,  // no key; never in a set; table entry 0

  // Backends. See Note [Key order].
  CPU,
  CUDA,
  Meta,
  PrivateUse1,

  BackendSelect,
  ADInplaceOrView,

  // Autograd: AutogradOther first, then one key per backend, in backend order.
  AutogradOther,
  AutogradCPU,
  AutogradCUDA,
  AutogradMeta,
  AutogradPrivateUse1,

  Tracer,

  // Not a key: the number of runtime keys, Undefined included (= dispatch table size).
  NumDispatchKeys,

  // Alias keys: registration only, never in a DispatchKeySet. See getRuntimeDispatchKeySet.
  Autograd,
  CompositeImplicitAutograd,
  CompositeExplicitAutograd,

  // Range markers (inclusive), as libtorch names them.
  StartOfBackendKeys = CPU,
  EndOfBackendKeys = PrivateUse1,
  StartOfAutogradBackendKeys = AutogradCPU,
  EndOfAutogradBackendKeys = AutogradPrivateUse1,
  EndOfRuntimeBackendKeys = Tracer,
  StartOfAliasKeys = Autograd,
  EndOfAliasKeys = CompositeExplicitAutograd,

  // libtorch's old name for "no particular key" (the catch-all registration).
  CatchAll = Undefined,
};

static_assert(static_cast<uint8_t>(DispatchKey::NumDispatchKeys) <= 64,
              "DispatchKeySet holds one bit per runtime key in a uint64_t");
static_assert(static_cast<int>(DispatchKey::EndOfAutogradBackendKeys) -
                      static_cast<int>(DispatchKey::StartOfAutogradBackendKeys) ==
                  static_cast<int>(DispatchKey::EndOfBackendKeys) -
                      static_cast<int>(DispatchKey::StartOfBackendKeys),
              "every backend key needs its Autograd<backend> key, in the same order");

// Size of a dispatch table: one entry per runtime key, entry 0 for Undefined.
constexpr uint16_t num_runtime_entries = static_cast<uint16_t>(DispatchKey::NumDispatchKeys);

// libtorch's short name for the Autograd alias key (torch::dispatch(torch::kAutograd, ...)).
constexpr DispatchKey kAutograd = DispatchKey::Autograd;

C10_API const char* toString(DispatchKey k);
C10_API std::ostream& operator<<(std::ostream& os, DispatchKey k);

// Inverse of toString for every runtime and alias key, "Undefined" included.
// Throws c10::Error "could not parse dispatch key: <name>" otherwise.
C10_API DispatchKey parseDispatchKey(const std::string& k);

constexpr bool isAliasDispatchKey(DispatchKey k) {
  return k >= DispatchKey::StartOfAliasKeys && k <= DispatchKey::EndOfAliasKeys;
}

// CPU, CUDA, Meta, PrivateUse1.
constexpr bool isBackendDispatchKey(DispatchKey k) {
  return k >= DispatchKey::StartOfBackendKeys && k <= DispatchKey::EndOfBackendKeys;
}

// The runtime autograd keys: AutogradOther and every Autograd<backend> (not the alias Autograd).
constexpr bool isAutogradDispatchKey(DispatchKey k) {
  return k >= DispatchKey::AutogradOther && k <= DispatchKey::EndOfAutogradBackendKeys;
}

// CPU -> AutogradCPU, CUDA -> AutogradCUDA, ...; anything that is not a backend key ->
// AutogradOther (libtorch sends its backends without their own autograd key there too).
constexpr DispatchKey getAutogradKeyFromBackend(DispatchKey backend) {
  if (!isBackendDispatchKey(backend)) return DispatchKey::AutogradOther;
  return static_cast<DispatchKey>(static_cast<uint8_t>(backend) -
                                  static_cast<uint8_t>(DispatchKey::StartOfBackendKeys) +
                                  static_cast<uint8_t>(DispatchKey::StartOfAutogradBackendKeys));
}

}  // namespace c10

namespace torch {
using c10::kAutograd;
}  // namespace torch
