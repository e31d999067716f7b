#pragma once
// Backend: libtorch's older name for "a device plus a layout" (CPU, SparseCUDA, QuantizedCPU,
// ...), still what Tensor::toBackend, at::CPU(kFloat) and DeprecatedTypeProperties speak:
//
//   c10::Backend b = c10::dispatchKeyToBackend(c10::DispatchKey::CUDA);  // Backend::CUDA
//   c10::backendToDeviceType(c10::Backend::SparseCPU);                   // DeviceType::CPU
//   c10::toString(c10::Backend::PrivateUse1);                            // "PrivateUseOne"
//
// The enum is libtorch 1.13's, value for value. miniaten has the dispatch keys of every backend
// but device types only for CPU, CUDA, Meta and PrivateUse1: backendToDeviceType names the
// backends without one in its error.

#include <ostream>

#include "c10/core/DeviceType.h"
#include "c10/core/DispatchKey.h"
#include "c10/util/Exception.h"

namespace c10 {

// X(backend, its dispatch key, its autograd key or Undefined). libtorch's order.
#define C10_FORALL_BACKENDS(X)                  \
  X(CPU, CPU, AutogradCPU)                      \
  X(CUDA, CUDA, AutogradCUDA)                   \
  X(HIP, HIP, Undefined)                        \
  X(VE, VE, Undefined)                          \
  X(FPGA, FPGA, Undefined)                      \
  X(IPU, IPU, AutogradIPU)                      \
  X(XPU, XPU, AutogradXPU)                      \
  X(SparseCPU, SparseCPU, Undefined)            \
  X(SparseCUDA, SparseCUDA, Undefined)          \
  X(SparseCsrCPU, SparseCsrCPU, Undefined)      \
  X(SparseCsrCUDA, SparseCsrCUDA, Undefined)    \
  X(SparseHIP, SparseHIP, Undefined)            \
  X(SparseVE, SparseVE, Undefined)              \
  X(SparseXPU, SparseXPU, Undefined)            \
  X(ORT, ORT, Undefined)                        \
  X(XLA, XLA, AutogradXLA)                      \
  X(Vulkan, Vulkan, Undefined)                  \
  X(Metal, Metal, Undefined)                    \
  X(Meta, Meta, Undefined)                      \
  X(QuantizedCPU, QuantizedCPU, Undefined)      \
  X(QuantizedCUDA, QuantizedCUDA, Undefined)    \
  X(QuantizedXPU, QuantizedXPU, Undefined)      \
  X(Undefined, Undefined, Undefined)            \
  X(MkldnnCPU, MkldnnCPU, Undefined)            \
  X(MPS, MPS, AutogradMPS)                      \
  X(HPU, HPU, AutogradHPU)                      \
  X(Lazy, Lazy, AutogradLazy)                   \
  X(PrivateUse1, PrivateUse1, Undefined)

enum class Backend {
#define C10_DEFINE_BACKEND(b, key, autograd_key) b,
  C10_FORALL_BACKENDS(C10_DEFINE_BACKEND)
#undef C10_DEFINE_BACKEND
  NumOptions
};

// The backend of a backend key or of its autograd key (AutogradCPU -> CPU); "Unrecognized
// tensor type ID: Autograd" for anything else.
inline Backend dispatchKeyToBackend(DispatchKey t) {
#define C10_KEY_TO_BACKEND(b, key, autograd_key)                                        \
  if (t == DispatchKey::key ||                                                          \
      (DispatchKey::autograd_key != DispatchKey::Undefined && t == DispatchKey::autograd_key)) { \
    return Backend::b;                                                                  \
  }
  C10_FORALL_BACKENDS(C10_KEY_TO_BACKEND)
#undef C10_KEY_TO_BACKEND
  TORCH_CHECK(false, "Unrecognized tensor type ID: ", t);
}

// (libtorch 1.13 forgets QuantizedXPU here and says "Unknown backend"; miniaten maps it to its
// key, the inverse of dispatchKeyToBackend.)
inline DispatchKey backendToDispatchKey(Backend b) {
  switch (b) {
#define C10_BACKEND_TO_KEY(backend, key, autograd_key) \
  case Backend::backend:                               \
    return DispatchKey::key;
    C10_FORALL_BACKENDS(C10_BACKEND_TO_KEY)
#undef C10_BACKEND_TO_KEY
    default:
      break;
  }
  TORCH_CHECK(false, "Unknown backend");
}

// "SparseCPU", ...; PrivateUse1 prints as "PrivateUseOne" and anything else as
// "UNKNOWN_BACKEND", as libtorch's toString does.
inline const char* toString(Backend b) {
  if (b == Backend::PrivateUse1) return "PrivateUseOne";
  if (b == Backend::Undefined) return "UNKNOWN_BACKEND";
  switch (b) {
#define C10_BACKEND_NAME(backend, key, autograd_key) \
  case Backend::backend:                             \
    return #backend;
    C10_FORALL_BACKENDS(C10_BACKEND_NAME)
#undef C10_BACKEND_NAME
    default:
      break;
  }
  return "UNKNOWN_BACKEND";
}

inline std::ostream& operator<<(std::ostream& stream, Backend b) { return stream << toString(b); }

inline DeviceType backendToDeviceType(Backend b) {
  switch (b) {
    case Backend::CPU:
    case Backend::SparseCPU:
    case Backend::SparseCsrCPU:
    case Backend::QuantizedCPU:
    case Backend::MkldnnCPU:
      return DeviceType::CPU;
    case Backend::CUDA:
    case Backend::SparseCUDA:
    case Backend::SparseCsrCUDA:
    case Backend::QuantizedCUDA:
      return DeviceType::CUDA;
    case Backend::Meta:
      return DeviceType::Meta;
    case Backend::PrivateUse1:
      return DeviceType::PrivateUse1;
    case Backend::Undefined:
      TORCH_CHECK(false, "Undefined backend is not a valid device type");
    default:
      break;
  }
  TORCH_CHECK(false, "The ", toString(b), " backend has no device type in miniaten");
}

inline bool isSparse(Backend b) {
  switch (b) {
    case Backend::SparseCPU:
    case Backend::SparseCUDA:
    case Backend::SparseHIP:
    case Backend::SparseVE:
    case Backend::SparseXPU:
      return true;
    default:
      return false;
  }
}

inline bool isSparseCsr(Backend b) {
  return b == Backend::SparseCsrCPU || b == Backend::SparseCsrCUDA;
}

}  // namespace c10

namespace at {
using c10::Backend;
using c10::backendToDeviceType;
using c10::backendToDispatchKey;
using c10::dispatchKeyToBackend;
}  // namespace at
