#pragma once
// What this build of the library offers: libtorch's ATen/Context.h queries.
//
//   if (at::hasCUDA()) { ... }        // built with CUDA and a device is present
//   at::globalContext().hasOpenMP();  // the same queries as members
//
// Note [What the has* queries answer]
// Each query answers for miniaten itself, not for the libtorch a program was written against:
// a program asks hasLAPACK() or hasMKLDNN() to decide whether to call the operators those
// libraries bring, and miniaten has none of them, so it says false where a CPU build of
// libtorch 1.13 says true (LAPACK, MKLDNN, and Lazy, whose device guard libtorch_cpu registers).
// hasOpenMP() is true: at::parallel_for runs on OpenMP (aten/Parallel.h). hasCUDA() is true when
// miniaten was built with CUDA (MINIATEN_CUDA) and a device is present, as torch::cuda's
// is_available(). The device types miniaten lacks (HIP, XLA, MPS, IPU, ORT, Lazy) are false.

#include <cstddef>

#include "aten/core/DeprecatedTypeProperties.h"
#include "c10/util/CallOnce.h"
#include "c10/util/Macros.h"

namespace at {

class TORCH_API Context {
 public:
  static bool hasOpenMP() { return true; }
  static bool hasMKL() { return false; }
  static bool hasLAPACK() { return false; }
  static bool hasMKLDNN() { return false; }
  static bool hasMAGMA() { return false; }
  static bool hasCUDA();
  static bool hasCUDART() { return hasCUDA(); }
  static bool hasCuDNN() { return false; }
  static bool hasCuSOLVER() { return false; }
  static bool hasHIP() { return false; }
  static bool hasIPU() { return false; }
  static bool hasXLA() { return false; }
  static bool hasLazy() { return false; }
  static bool hasMPS() { return false; }
  static bool hasORT() { return false; }

  // Checks, the first time a CUDA tensor is made, that one can be: libtorch's lazy CUDA
  // initialization. Raises the reason when not (no driver, no device, a build without CUDA),
  // and again on the next call; after one success it costs one load.
  void lazyInitCUDA();

 private:
  c10::once_flag cuda_init_;
};

// The process's one Context.
TORCH_API Context& globalContext();

inline bool hasCUDA() { return globalContext().hasCUDA(); }
inline bool hasHIP() { return globalContext().hasHIP(); }
inline bool hasIPU() { return globalContext().hasIPU(); }
inline bool hasXLA() { return globalContext().hasXLA(); }
inline bool hasMPS() { return globalContext().hasMPS(); }
inline bool hasORT() { return globalContext().hasORT(); }
inline bool hasOpenMP() { return globalContext().hasOpenMP(); }
inline bool hasMKL() { return globalContext().hasMKL(); }
inline bool hasLAPACK() { return globalContext().hasLAPACK(); }
inline bool hasMAGMA() { return globalContext().hasMAGMA(); }
inline bool hasMKLDNN() { return globalContext().hasMKLDNN(); }

// The number of CUDA devices (0 without CUDA), despite the name.
TORCH_API size_t getNumGPUs();

inline DeprecatedTypeProperties& HIP(ScalarType s) {
  return getDeprecatedTypeProperties(Backend::HIP, s);
}
inline DeprecatedTypeProperties& MPS(ScalarType s) {
  return getDeprecatedTypeProperties(Backend::MPS, s);
}

}  // namespace at
