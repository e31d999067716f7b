#pragma once
// A stub whose kernel (DispatchStubTestKernel.cpp, compiled once per CPU capability) reports
// which copy ran and checks that copy's Vectorized against scalar code.

#include <string>
#include <vector>

#include "aten/native/DispatchStub.h"

namespace miniaten_test {

struct CapabilityProbe {
  at::native::CPUCapability compiled_for = at::native::CPUCapability::NUM_OPTIONS;
  int float_lanes = 0;      // Vectorized<float>::size() in that copy
  bool has_avx2 = false;    // __AVX2__ was defined when it was compiled
  bool has_avx512 = false;  // __AVX512F__ was defined
  std::vector<std::string> vectorized_failures;
};

using probe_fn = void (*)(CapabilityProbe&, bool run_vectorized_checks);
DECLARE_DISPATCH(probe_fn, capability_probe_stub);

// Declared but never registered: calling it must fail clearly.
using unregistered_fn = int (*)(int);
DECLARE_DISPATCH(unregistered_fn, unregistered_stub);

}  // namespace miniaten_test
