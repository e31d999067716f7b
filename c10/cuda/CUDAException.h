#pragma once
// Checking the CUDA runtime's return codes, as libtorch does:
//
//   C10_CUDA_CHECK(cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToDevice, stream));
//   kernel<<<grid, block, 0, stream>>>(...);
//   C10_CUDA_KERNEL_LAUNCH_CHECK();
//
// A failure throws c10::AcceleratorError (c10::CUDAError is the same class) whose message is
// libtorch's: "CUDA error: <cudaGetErrorString>", a help line, and for the errors a kernel
// reports late the reminder that they "might be asynchronously reported at some other API call".
// Never an abort: a missing driver or device is an error like any other.

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

#include "c10/util/Exception.h"

namespace c10 {

// A CUDA runtime error; error_code() is the cudaError_t.
class C10_API AcceleratorError : public Error {
 public:
  AcceleratorError(SourceLocation loc, int32_t error_code, std::string msg)
      : Error(loc, std::move(msg)), error_code_(error_code) {}
  int32_t error_code() const { return error_code_; }

 private:
  int32_t error_code_;
};
using CUDAError = AcceleratorError;

namespace cuda {

// The message C10_CUDA_CHECK raises for `error`, without the location.
C10_API std::string cuda_error_message(cudaError_t error);

// Throws AcceleratorError unless err is cudaSuccess; clears the runtime's last error first.
C10_API void c10_cuda_check_implementation(int32_t err, const char* filename,
                                           const char* function_name, uint32_t line_number);

}  // namespace cuda
}  // namespace c10

#define C10_CUDA_CHECK(EXPR)                                                                 \
  do {                                                                                       \
    const cudaError_t __c10_err = EXPR;                                                      \
    if (C10_UNLIKELY(__c10_err != cudaSuccess)) {                                            \
      ::c10::cuda::c10_cuda_check_implementation(static_cast<int32_t>(__c10_err), __FILE__,  \
                                                 __func__, static_cast<uint32_t>(__LINE__)); \
    }                                                                                        \
  } while (0)

// For destructors and deleters, which must not throw: the error goes to the warning handler.
#define C10_CUDA_CHECK_WARN(EXPR)                                  \
  do {                                                             \
    const cudaError_t __c10_err = EXPR;                            \
    if (C10_UNLIKELY(__c10_err != cudaSuccess)) {                  \
      (void)cudaGetLastError();                                    \
      TORCH_WARN("CUDA warning: ", cudaGetErrorString(__c10_err)); \
    }                                                              \
  } while (0)

// Runs EXPR and forgets any error it left (libtorch's name).
#define C10_CUDA_IGNORE_ERROR(EXPR) \
  do {                              \
    (void)(EXPR);                   \
    (void)cudaGetLastError();       \
  } while (0)

#define C10_CUDA_CLEAR_ERROR() (void)cudaGetLastError()

// After a <<<...>>> launch: a bad configuration is reported here, not at the next call.
#define C10_CUDA_KERNEL_LAUNCH_CHECK() C10_CUDA_CHECK(cudaGetLastError())
