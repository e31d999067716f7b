#include "aten/Context.h"

#include "aten/cuda/CUDAQueries.h"
#include "aten/detail/CUDAHooksInterface.h"

namespace at {

// See Note [What the has* queries answer].
bool Context::hasCUDA() { return torch::cuda::is_available(); }

void Context::lazyInitCUDA() {
  // call_once runs the check again when it threw.
  c10::call_once(cuda_init_, [] { detail::getCUDAHooks().initCUDA(); });
}

Context& globalContext() {
  static Context context;
  return context;
}

size_t getNumGPUs() { return hasCUDA() ? torch::cuda::device_count() : 0; }

}  // namespace at
