#include "aten/cuda/CUDAQueries.h"

#ifdef MINIATEN_HAVE_CUDA
#include "c10/cuda/CUDAFunctions.h"
#endif

namespace torch {
namespace cuda {

size_t device_count() {
#ifdef MINIATEN_HAVE_CUDA
  return static_cast<size_t>(c10::cuda::device_count());
#else
  return 0;
#endif
}

bool is_available() {
  return device_count() > 0;
}

}  // namespace cuda
}  // namespace torch
