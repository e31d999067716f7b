#include "c10/cuda/CUDAException.h"

namespace c10 {
namespace cuda {

namespace {

// libtorch's help line: a hint for an invalid device, else where the error is documented.
std::string error_help(cudaError_t error) {
  if (error == cudaErrorInvalidDevice) {
    return "\nGPU device may be out of range, do you have enough GPUs?";
  }
  return str("\nSearch for `", cudaGetErrorName(error),
             "' in https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html for "
             "more information.");
}

// Errors a kernel raises surface at whatever call comes next, hence libtorch's reminder.
const char* async_suffix(cudaError_t error) {
  switch (error) {
    case cudaErrorLaunchFailure:
    case cudaErrorIllegalAddress:
    case cudaErrorAssert:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
      return "\nCUDA kernel errors might be asynchronously reported at some other API call, so "
             "the stacktrace below might be incorrect.\nFor debugging consider passing "
             "CUDA_LAUNCH_BLOCKING=1";
    default:
      return "";
  }
}

}  // namespace

std::string cuda_error_message(cudaError_t error) {
  return str("CUDA error: ", cudaGetErrorString(error), error_help(error), async_suffix(error));
}

void c10_cuda_check_implementation(int32_t err, const char* filename, const char* function_name,
                                   uint32_t line_number) {
  const auto error = static_cast<cudaError_t>(err);
  if (C10_LIKELY(error == cudaSuccess)) return;
  (void)cudaGetLastError();  // not sticky: the next check must not see this one again
  throw AcceleratorError(SourceLocation{function_name, filename, line_number}, err,
                         cuda_error_message(error));
}

}  // namespace cuda
}  // namespace c10
