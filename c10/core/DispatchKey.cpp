#include "c10/core/DispatchKey.h"

#include <ostream>

#include "c10/util/Exception.h"

namespace c10 {

const char* toString(BackendComponent b) {
  switch (b) {
    case BackendComponent::InvalidBit:
      return "InvalidBit";
#define C10_BACKEND_COMPONENT_NAME(n, _) \
  case BackendComponent::n##Bit:         \
    return #n "Bit";
      C10_FORALL_BACKEND_COMPONENTS(C10_BACKEND_COMPONENT_NAME, unused)
#undef C10_BACKEND_COMPONENT_NAME
  }
  return "UNKNOWN_BACKEND_BIT";
}

namespace {

// "Autograd" + "CPU" for AutogradCPU; "<prefix>Unknown" for a StartOf...Backends marker.
const char* perBackendKeyName(DispatchKey functionality, BackendComponent b) {
#define C10_KEY_NAME(n, prefix)  \
  case BackendComponent::n##Bit: \
    return #prefix #n;
#define C10_BLOCK_NAMES(fullname, prefix)                 \
  case DispatchKey::fullname:                             \
    switch (b) {                                          \
      C10_FORALL_BACKEND_COMPONENTS(C10_KEY_NAME, prefix) \
      case BackendComponent::InvalidBit:                  \
        return #prefix "Unknown";                         \
    }                                                     \
    break;
  switch (functionality) {
    C10_FORALL_FUNCTIONALITY_KEYS(C10_BLOCK_NAMES)
    default:
      break;
  }
#undef C10_BLOCK_NAMES
#undef C10_KEY_NAME
  return "Unknown";
}

}  // namespace

const char* toString(DispatchKey k) {
  switch (k) {
#define C10_KEY_NAME(n) \
  case DispatchKey::n:  \
    return #n;
    C10_KEY_NAME(Undefined)
    C10_KEY_NAME(Dense)
    C10_KEY_NAME(FPGA)
    C10_KEY_NAME(ORT)
    C10_KEY_NAME(Vulkan)
    C10_KEY_NAME(Metal)
    C10_KEY_NAME(Quantized)
    C10_KEY_NAME(CustomRNGKeyId)
    C10_KEY_NAME(MkldnnCPU)
    C10_KEY_NAME(Sparse)
    C10_KEY_NAME(SparseCsrCPU)
    C10_KEY_NAME(SparseCsrCUDA)
    C10_KEY_NAME(NestedTensor)
    C10_KEY_NAME(BackendSelect)
    C10_KEY_NAME(Python)
    C10_KEY_NAME(Fake)
    C10_KEY_NAME(FuncTorchDynamicLayerBackMode)
    C10_KEY_NAME(Functionalize)
    C10_KEY_NAME(Named)
    C10_KEY_NAME(Conjugate)
    C10_KEY_NAME(Negative)
    C10_KEY_NAME(ZeroTensor)
    C10_KEY_NAME(ADInplaceOrView)
    C10_KEY_NAME(AutogradOther)
    C10_KEY_NAME(AutogradFunctionality)
    C10_KEY_NAME(AutogradNestedTensor)
    C10_KEY_NAME(Tracer)
    C10_KEY_NAME(AutocastCPU)
    C10_KEY_NAME(AutocastXPU)
    C10_KEY_NAME(AutocastCUDA)
    C10_KEY_NAME(FuncTorchBatched)
    C10_KEY_NAME(FuncTorchVmapMode)
    C10_KEY_NAME(Batched)
    C10_KEY_NAME(VmapMode)
    C10_KEY_NAME(FuncTorchGradWrapper)
    C10_KEY_NAME(DeferredInit)
    C10_KEY_NAME(PythonTLSSnapshot)
    C10_KEY_NAME(FuncTorchDynamicLayerFrontMode)
    C10_KEY_NAME(TESTING_ONLY_GenericWrapper)
    C10_KEY_NAME(TESTING_ONLY_GenericMode)
    C10_KEY_NAME(PythonDispatcher)
    C10_KEY_NAME(Autograd)
    C10_KEY_NAME(CompositeImplicitAutograd)
    C10_KEY_NAME(CompositeImplicitAutogradNestedTensor)
    C10_KEY_NAME(CompositeExplicitAutograd)
    C10_KEY_NAME(CompositeExplicitAutogradNonFunctional)
#undef C10_KEY_NAME
    case DispatchKey::EndOfFunctionalityKeys:
      return "UnknownUnknown";  // libtorch 1.13's name for this marker
    default:
      // A per-backend key, or a StartOf marker ("<prefix>Unknown", as libtorch).
      return perBackendKeyName(toFunctionalityKey(k), toBackendComponent(k));
  }
}

std::ostream& operator<<(std::ostream& os, DispatchKey k) {
  return os << toString(k);
}
std::ostream& operator<<(std::ostream& os, BackendComponent b) {
  return os << toString(b);
}

DispatchKey parseDispatchKey(const std::string& k) {
  // Every enumerator up to the last alias key names a key, except the markers:
  // EndOfFunctionalityKeys and the StartOf<Functionality>Backends (no backend).
  for (uint16_t i = 0; i <= static_cast<uint16_t>(DispatchKey::EndOfAliasKeys); ++i) {
    const auto key = static_cast<DispatchKey>(i);
    const bool marker =
        key == DispatchKey::EndOfFunctionalityKeys ||
        (key > DispatchKey::EndOfFunctionalityKeys && key <= DispatchKey::EndOfRuntimeBackendKeys &&
         toBackendComponent(key) == BackendComponent::InvalidBit);
    if (!marker && k == toString(key)) return key;
  }
  TORCH_CHECK(false, "could not parse dispatch key: ", k);
}

BackendComponent toBackendComponent(DeviceType device_type) {
  switch (device_type) {
    case DeviceType::CPU:
      return BackendComponent::CPUBit;
    case DeviceType::CUDA:
      return BackendComponent::CUDABit;
    case DeviceType::Meta:
      return BackendComponent::MetaBit;
    case DeviceType::PrivateUse1:
      return BackendComponent::PrivateUse1Bit;
    default:
      return BackendComponent::InvalidBit;
  }
}

}  // namespace c10
