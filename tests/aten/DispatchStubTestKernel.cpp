// Compiled three times (miniaten_add_cpu_kernels in tests/aten/CMakeLists.txt).

#include "DispatchStubTestKernel.h"

#include "VectorizedChecks.h"
#include "aten/cpu/vec/Vectorized.h"

namespace miniaten_test {
inline namespace CPU_CAPABILITY {

void capability_probe(CapabilityProbe& probe, bool run_vectorized_checks) {
  probe.compiled_for = at::native::CPUCapability::CPU_CAPABILITY;
  probe.float_lanes = at::vec::Vectorized<float>::size();
#ifdef __AVX2__
  probe.has_avx2 = true;
#endif
#ifdef __AVX512F__
  probe.has_avx512 = true;
#endif
  if (run_vectorized_checks) {
    probe.vectorized_failures = check_vectorized_all_types();
  }
}

}  // namespace CPU_CAPABILITY

REGISTER_DISPATCH(capability_probe_stub, &capability_probe);

}  // namespace miniaten_test
