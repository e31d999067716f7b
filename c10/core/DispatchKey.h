#pragma once
// DispatchKey: one "layer" an operator call can be routed to, in priority order; and
// BackendComponent: one backend (CPU, CUDA, ...), the other half of a per-backend key.
//
//   DispatchKeySet ks = keysetForBackend(DispatchKey::CPU);  // CPU, ADInplaceOrView, AutogradCPU
//   ks.highestPriorityTypeId();                              // AutogradCPU: autograd runs first
//   toFunctionalityKey(DispatchKey::AutogradCPU);            // AutogradFunctionality
//   toBackendComponent(DispatchKey::AutogradCPU);            // BackendComponent::CPUBit
//   toRuntimePerBackendFunctionalityKey(DispatchKey::Dense, BackendComponent::CUDABit);  // CUDA
//   toString(DispatchKey::AutogradCPU);                      // "AutogradCPU"
//   parseDispatchKey("CompositeImplicitAutograd");           // an alias key, for registration
//
// The enum is libtorch 1.13's, key for key and in its order, so that code written for libtorch
// (its own tests among it) names the same keys and iterates them in the same order. miniaten has
// kernels for four backends (CPU, CUDA, Meta, PrivateUse1); the other keys exist so that a key
// set, a registration on them and a fallback behave as in libtorch.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>

#include "c10/core/DeviceType.h"
#include "c10/util/Macros.h"

namespace c10 {

// Note [Functionality keys and backend components]
// Most layers of the dispatcher (autograd, dense kernels, sparse kernels, ...) exist once per
// backend: AutogradCPU, AutogradCUDA, ... Giving each (functionality, backend) pair its own bit
// would take 5 x 14 bits. Instead a key set has one bit per *backend component* (CPUBit,
// CUDABit, ...) and one bit per *functionality* (Dense, Sparse, AutogradFunctionality, ... and
// the layers that are not per backend: BackendSelect, ADInplaceOrView, Tracer ...), and a
// per-backend runtime key such as AutogradCPU is the pair of bits {AutogradFunctionality,
// CPUBit}. The enum therefore has three parts:
//  * functionality keys, Undefined ... PythonDispatcher: one bit each, in priority order;
//  * per-backend runtime keys, one block per per-backend functionality (Dense: CPU, CUDA, ...;
//    Quantized: QuantizedCPU, ...; ... AutogradFunctionality: AutogradCPU, ...), each block in
//    backend-component order behind a StartOf<Functionality>Backends marker;
//  * alias keys (Autograd, CompositeImplicitAutograd, ...): registration only, no bits.
// See Note [Key set representation] in DispatchKeySet.h for what a set of them can express.

// The backends, in priority order (lowest first). The second argument is passed through.
#define C10_FORALL_BACKEND_COMPONENTS(_, extra) \
  _(CPU, extra)                                 \
  _(CUDA, extra)                                \
  _(HIP, extra)                                 \
  _(XLA, extra)                                 \
  _(MPS, extra)                                 \
  _(IPU, extra)                                 \
  _(XPU, extra)                                 \
  _(HPU, extra)                                 \
  _(VE, extra)                                  \
  _(Lazy, extra)                                \
  _(Meta, extra)                                \
  _(PrivateUse1, extra)                         \
  _(PrivateUse2, extra)                         \
  _(PrivateUse3, extra)

// The per-backend functionalities and the prefix of their runtime keys (Dense's is empty:
// its keys are plain CPU, CUDA, ...).
#define C10_FORALL_FUNCTIONALITY_KEYS(_) \
  _(Dense, )                             \
  _(Quantized, Quantized)                \
  _(Sparse, Sparse)                      \
  _(NestedTensor, NestedTensor)          \
  _(AutogradFunctionality, Autograd)

// clang-format off
enum class BackendComponent : uint8_t {
  InvalidBit = 0,
#define C10_DEFINE_BACKEND_COMPONENT(n, _) n##Bit,
  C10_FORALL_BACKEND_COMPONENTS(C10_DEFINE_BACKEND_COMPONENT, unused)
#undef C10_DEFINE_BACKEND_COMPONENT
  EndOfBackendKeys = PrivateUse3Bit,
};
// clang-format on

// Note [Key order]
// A functionality key's enum value is its priority: dispatch takes the highest functionality
// bit of a set (and, for a per-backend functionality, the highest backend bit). The rules of
// REFERENCE.md section 5 follow from where each key sits:
//  * Dense (the backends' own kernels) is lowest: it does the real work, so every other layer
//    gets its turn first and then redispatches down to it.
//  * BackendSelect sits above the backend functionalities. It is in the TLS included set by
//    default, so a factory function with no tensor arguments (at::empty) lands there and picks a
//    backend from its TensorOptions; ops without a BackendSelect kernel fall through it.
//  * ADInplaceOrView is below autograd: the autograd kernel runs first, then excludes itself
//    (AutoDispatchBelowADInplaceOrView) or only the autograd keys (AutoDispatchBelowAutograd,
//    which leaves ADInplaceOrView to bump versions and record views).
//  * AutogradOther is the lowest autograd key, so "every key below AutogradOther"
//    (after_autograd_keyset) is exactly "everything autograd may redispatch to".
//  * Tracer, Autocast, the functorch and Python keys sit above autograd: a mode registered
//    there sees every call first, with the full key set, and then redispatches below itself.
enum class DispatchKey : uint16_t {
  Undefined = 0,
  // libtorch's old name for "no particular key" (the catch-all registration).
  CatchAll = Undefined,

  // ---- Functionality keys. See Note [Functionality keys and backend components]. ----
  Dense,
  FPGA,
  ORT,
  Vulkan,
  Metal,
  Quantized,
  CustomRNGKeyId,
  MkldnnCPU,
  Sparse,
  SparseCsrCPU,
  SparseCsrCUDA,
  NestedTensor,
  BackendSelect,
  Python,
  Fake,
  FuncTorchDynamicLayerBackMode,
  Functionalize,
  Named,
  Conjugate,
  Negative,
  ZeroTensor,
  ADInplaceOrView,
  AutogradOther,
  AutogradFunctionality,
  AutogradNestedTensor,
  Tracer,
  AutocastCPU,
  AutocastXPU,
  AutocastCUDA,
  FuncTorchBatched,
  FuncTorchVmapMode,
  Batched,
  VmapMode,
  FuncTorchGradWrapper,
  DeferredInit,
  PythonTLSSnapshot,
  FuncTorchDynamicLayerFrontMode,
  TESTING_ONLY_GenericWrapper,
  TESTING_ONLY_GenericMode,
  PythonDispatcher,
  EndOfFunctionalityKeys,  // not a key: the number of functionality keys

  // ---- Per-backend runtime keys: StartOfDenseBackends, CPU, CUDA, ..., PrivateUse3,
  // StartOfQuantizedBackends, QuantizedCPU, ..., StartOfAutogradFunctionalityBackends,
  // AutogradCPU, ..., AutogradPrivateUse3. The StartOf markers are not keys. ----
  // clang-format off
#define C10_DEFINE_PER_BACKEND_KEY(n, prefix) prefix##n,
#define C10_DEFINE_PER_BACKEND_KEYS(fullname, prefix)                   \
  StartOf##fullname##Backends,                                          \
      C10_FORALL_BACKEND_COMPONENTS(C10_DEFINE_PER_BACKEND_KEY, prefix) \
          EndOf##fullname##Backends = prefix##PrivateUse3,
  C10_FORALL_FUNCTIONALITY_KEYS(C10_DEFINE_PER_BACKEND_KEYS)
#undef C10_DEFINE_PER_BACKEND_KEYS
#undef C10_DEFINE_PER_BACKEND_KEY

  EndOfRuntimeBackendKeys = EndOfAutogradFunctionalityBackends,
  // clang-format on

  // ---- Alias keys: registration only, never in a DispatchKeySet. See
  // getRuntimeDispatchKeySet. ----
  Autograd,
  CompositeImplicitAutograd,
  CompositeImplicitAutogradNestedTensor,
  CompositeExplicitAutograd,
  CompositeExplicitAutogradNonFunctional,
  StartOfAliasKeys = Autograd,
  EndOfAliasKeys = CompositeExplicitAutogradNonFunctional,

  // Old names libtorch keeps.
  CPUTensorId = CPU,
  CUDATensorId = CUDA,
  DefaultBackend = CompositeExplicitAutograd,
  PrivateUse1_PreAutograd = AutogradPrivateUse1,
  PrivateUse2_PreAutograd = AutogradPrivateUse2,
  PrivateUse3_PreAutograd = AutogradPrivateUse3,
  Autocast = AutocastCUDA,
};

constexpr uint8_t num_functionality_keys =
    static_cast<uint8_t>(DispatchKey::EndOfFunctionalityKeys);
constexpr uint8_t num_backends = static_cast<uint8_t>(BackendComponent::EndOfBackendKeys);

static_assert(num_backends + num_functionality_keys <= 64,
              "a DispatchKeySet holds one bit per backend component and per functionality key "
              "(Undefined and InvalidBit have none) in a uint64_t");
static_assert(num_backends <= 16, "a backend mask must fit in 16 bits");

constexpr bool isAliasDispatchKey(DispatchKey k) {
  return k >= DispatchKey::StartOfAliasKeys && k <= DispatchKey::EndOfAliasKeys;
}

// Dense, Quantized, Sparse, NestedTensor and AutogradFunctionality: the functionalities whose
// runtime keys come one per backend.
constexpr bool isPerBackendFunctionalityKey(DispatchKey k) {
  return k == DispatchKey::Dense || k == DispatchKey::Quantized || k == DispatchKey::Sparse ||
         k == DispatchKey::AutogradFunctionality || k == DispatchKey::NestedTensor;
}

constexpr uint8_t numPerBackendFunctionalityKeys() {
  uint8_t count = 0;
  for (uint8_t k = 0; k <= num_functionality_keys; ++k) {
    if (isPerBackendFunctionalityKey(static_cast<DispatchKey>(k))) ++count;
  }
  return count;
}

// Size of a dispatch table: an entry per functionality key (Undefined's included) and, for each
// per-backend functionality, one per backend instead of one.
constexpr uint16_t num_runtime_entries =
    num_functionality_keys + numPerBackendFunctionalityKeys() * (num_backends - 1);

// The backend bits of a key set.
constexpr uint16_t full_backend_mask = (static_cast<uint16_t>(1) << num_backends) - 1;

// libtorch's short name for the Autograd alias key (torch::dispatch(torch::kAutograd, ...)).
constexpr DispatchKey kAutograd = DispatchKey::Autograd;

C10_API const char* toString(DispatchKey k);
C10_API const char* toString(BackendComponent b);
C10_API std::ostream& operator<<(std::ostream& os, DispatchKey k);
C10_API std::ostream& operator<<(std::ostream& os, BackendComponent b);

// Inverse of toString for every runtime and alias key, "Undefined" included.
// Throws c10::Error "could not parse dispatch key: <name>" otherwise.
C10_API DispatchKey parseDispatchKey(const std::string& k);

// The backend of a per-backend runtime key (AutogradCUDA -> CUDABit); InvalidBit otherwise.
constexpr BackendComponent toBackendComponent(DispatchKey k) {
#define C10_BACKEND_OF_BLOCK(fullname, prefix)                            \
  if (k >= DispatchKey::StartOf##fullname##Backends &&                    \
      k <= DispatchKey::EndOf##fullname##Backends) {                      \
    return static_cast<BackendComponent>(                                 \
        static_cast<uint16_t>(k) -                                        \
        static_cast<uint16_t>(DispatchKey::StartOf##fullname##Backends)); \
  }
  C10_FORALL_FUNCTIONALITY_KEYS(C10_BACKEND_OF_BLOCK)
#undef C10_BACKEND_OF_BLOCK
  return BackendComponent::InvalidBit;
}

// The functionality of a key: itself for a functionality key, Dense for CPU, ...,
// AutogradFunctionality for AutogradCPU, ...; Undefined for an alias key.
constexpr DispatchKey toFunctionalityKey(DispatchKey k) {
  if (k <= DispatchKey::EndOfFunctionalityKeys) return k;
  if (k <= DispatchKey::EndOfDenseBackends) return DispatchKey::Dense;
  if (k <= DispatchKey::EndOfQuantizedBackends) return DispatchKey::Quantized;
  if (k <= DispatchKey::EndOfSparseBackends) return DispatchKey::Sparse;
  if (k <= DispatchKey::EndOfNestedTensorBackends) return DispatchKey::NestedTensor;
  if (k <= DispatchKey::EndOfAutogradFunctionalityBackends) {
    return DispatchKey::AutogradFunctionality;
  }
  return DispatchKey::Undefined;
}

// (Dense, CUDABit) -> CUDA, (AutogradFunctionality, CPUBit) -> AutogradCPU; Undefined when
// `functionality` is not per backend.
constexpr DispatchKey toRuntimePerBackendFunctionalityKey(DispatchKey functionality,
                                                          BackendComponent backend) {
#define C10_KEY_OF_BLOCK(fullname, prefix)                                \
  if (functionality == DispatchKey::fullname) {                           \
    return static_cast<DispatchKey>(                                      \
        static_cast<uint16_t>(DispatchKey::StartOf##fullname##Backends) + \
        static_cast<uint16_t>(backend));                                  \
  }
  C10_FORALL_FUNCTIONALITY_KEYS(C10_KEY_OF_BLOCK)
#undef C10_KEY_OF_BLOCK
  return DispatchKey::Undefined;
}

// Whether backend b has an Autograd<b> key that tensors use (libtorch leaves HIP and VE to
// AutogradOther).
constexpr bool hasOwnAutogradKey(BackendComponent b) {
  return b != BackendComponent::InvalidBit && b != BackendComponent::HIPBit &&
         b != BackendComponent::VEBit;
}

// CPUBit -> AutogradCPU, ...; a backend without its own autograd key -> AutogradOther.
constexpr DispatchKey getAutogradKeyFromBackend(BackendComponent b) {
  return hasOwnAutogradKey(b)
             ? toRuntimePerBackendFunctionalityKey(DispatchKey::AutogradFunctionality, b)
             : DispatchKey::AutogradOther;
}

// The backend component of a device type (kCPU -> CPUBit ...); InvalidBit for a device type
// miniaten does not know.
C10_API BackendComponent toBackendComponent(DeviceType device_type);

}  // namespace c10

namespace torch {
using c10::kAutograd;
}  // namespace torch

namespace std {
template <>
struct hash<c10::DispatchKey> {
  size_t operator()(c10::DispatchKey k) const { return static_cast<size_t>(k); }
};
}  // namespace std
