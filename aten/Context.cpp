#include "aten/Context.h"

#include "aten/cuda/CUDAQueries.h"

namespace at {

// See Note [What the has* queries answer].
bool Context::hasCUDA() { return torch::cuda::is_available(); }

Context& globalContext() {
  static Context context;
  return context;
}

size_t getNumGPUs() { return hasCUDA() ? torch::cuda::device_count() : 0; }

}  // namespace at
