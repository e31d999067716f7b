// gemm on the GPU: cuBLAS behind gemm_stub (Blas.h) for float, double, Half and BFloat16 (the
// integer dtypes are PyTorch's "\"addmm_cuda\" not implemented for 'Long'"; PyTorch also takes the
// complex ones, which miniaten's GPU kernels do not have yet).
// LinearAlgebra.cpp's gemm_into has already made every matrix one BLAS can read (Note [Matrices
// as BLAS sees them]); cpublas::column_major_call says how they go into the call.
//
// Note [A row-major product in a column-major library]
// cuBLAS knows only column-major matrices. A row-major m x n result C is, read column-major, the
// n x m matrix C^T = B^T A^T, and a row-major operand read column-major is its own transpose,
// so a row-major call (trans_a, trans_b, m, n, k, A, B) is the column-major call
// (trans_b, trans_a, n, m, k, B, A) with the same leading dimensions: no data moves.
// cpublas::column_major_call (Blas.cpp) makes the swap; BlasLayout_test runs its calls through a
// column-major reference gemm on the CPU for every layout, so the mapping is checked without a
// GPU.
//
// Precision is PyTorch's default: float products in full float (no TF32: PyTorch's
// allow_tf32 for matmul is off unless asked), Half and BFloat16 read and written in their type
// and accumulated in float (cublasGemmEx, CUBLAS_COMPUTE_32F), double in double.

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <limits>
#include <mutex>
#include <vector>

#include "aten/Dispatch.h"
#include "aten/native/Blas.h"
#include "c10/cuda/CUDAFunctions.h"
#include "c10/cuda/CUDAStream.h"

namespace at {
namespace native {

namespace {

#define MINIATEN_CUBLAS_CHECK(EXPR)                                                               \
  do {                                                                                            \
    const cublasStatus_t status_ = (EXPR);                                                        \
    TORCH_CHECK(status_ == CUBLAS_STATUS_SUCCESS, "CUDA error: ", cublasGetStatusString(status_), \
                " when calling `" #EXPR "`");                                                     \
  } while (0)

// Note [cuBLAS handles are pooled]
// A cuBLAS handle costs milliseconds to create, is bound to the device current at creation, and
// must not be used by two threads at once. Each thread takes one per device from a pool the
// first time it multiplies there, and gives it back when the thread ends, so threads that come
// and go reuse handles instead of creating new ones. Handles are never destroyed: destroying
// them at exit would race the CUDA runtime's own teardown (PyTorch leaks them for the same
// reason).
class HandlePool {
 public:
  cublasHandle_t take(int device) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (device < static_cast<int>(free_.size()) && !free_[device].empty()) {
        cublasHandle_t h = free_[device].back();
        free_[device].pop_back();
        return h;
      }
    }
    cublasHandle_t h = nullptr;
    MINIATEN_CUBLAS_CHECK(cublasCreate(&h));
    return h;
  }
  void give_back(int device, cublasHandle_t h) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (device >= static_cast<int>(free_.size())) free_.resize(device + 1);
    free_[device].push_back(h);
  }

 private:
  std::mutex mutex_;
  std::vector<std::vector<cublasHandle_t>> free_;
};

HandlePool& pool() {
  static auto* p = new HandlePool;  // outlives every thread's ThreadHandles
  return *p;
}

struct ThreadHandles {
  std::vector<cublasHandle_t> by_device;
  ~ThreadHandles() {
    for (size_t d = 0; d < by_device.size(); ++d) {
      if (by_device[d] != nullptr) pool().give_back(static_cast<int>(d), by_device[d]);
    }
  }
};

// The calling thread's handle for the current device, bound to the current stream.
cublasHandle_t current_handle() {
  thread_local ThreadHandles handles;
  const int device = c10::cuda::current_device();
  if (device >= static_cast<int>(handles.by_device.size())) {
    handles.by_device.resize(device + 1, nullptr);
  }
  cublasHandle_t& h = handles.by_device[device];
  if (h == nullptr) h = pool().take(device);
  MINIATEN_CUBLAS_CHECK(cublasSetStream(h, c10::cuda::getCurrentCUDAStream()));
  return h;
}

cublasOperation_t op(bool trans) {
  return trans ? CUBLAS_OP_T : CUBLAS_OP_N;
}

template <typename T>
cudaDataType_t data_type() {
  if constexpr (std::is_same_v<T, c10::Half>) {
    return CUDA_R_16F;
  } else if constexpr (std::is_same_v<T, c10::BFloat16>) {
    return CUDA_R_16BF;
  } else {
    static_assert(std::is_same_v<T, float>);
    return CUDA_R_32F;
  }
}

// One column-major call of `batch` products, c (m x n) = alpha * op(first) op(second) +
// beta * c, matrix i of each operand stride_* elements after matrix i - 1. One product is the
// plain gemm (cuBLAS picks its kernels for that case itself).
template <typename T>
void column_major_gemm(const cpublas::ColumnMajorCall& call, int64_t batch, int64_t stride_first,
                       int64_t stride_second, int64_t stride_c, const c10::Scalar& alpha,
                       const c10::Scalar& beta) {
  cublasHandle_t h = current_handle();
  const cublasOperation_t ta = op(call.trans_first), tb = op(call.trans_second);
  const int batches = static_cast<int>(batch);
  if constexpr (std::is_same_v<T, double>) {
    const double al = alpha.to<double>(), be = beta.to<double>();
    const auto* x = static_cast<const double*>(call.first);
    const auto* y = static_cast<const double*>(call.second);
    auto* c = static_cast<double*>(call.c);
    if (batch == 1) {
      MINIATEN_CUBLAS_CHECK(cublasDgemm(h, ta, tb, call.m, call.n, call.k, &al, x, call.ld_first, y,
                                        call.ld_second, &be, c, call.ldc));
    } else {
      MINIATEN_CUBLAS_CHECK(cublasDgemmStridedBatched(
          h, ta, tb, call.m, call.n, call.k, &al, x, call.ld_first, stride_first, y, call.ld_second,
          stride_second, &be, c, call.ldc, stride_c, batches));
    }
  } else {
    // Half and BFloat16 scale in float (opmath), as the CPU's BFloat16 loop and PyTorch's CUDA
    // addmm do.
    const float al = alpha.to<float>(), be = beta.to<float>();
    const cudaDataType_t t = data_type<T>();
    if (batch == 1) {
      MINIATEN_CUBLAS_CHECK(cublasGemmEx(h, ta, tb, call.m, call.n, call.k, &al, call.first, t,
                                         call.ld_first, call.second, t, call.ld_second, &be, call.c,
                                         t, call.ldc, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    } else {
      MINIATEN_CUBLAS_CHECK(cublasGemmStridedBatchedEx(
          h, ta, tb, call.m, call.n, call.k, &al, call.first, t, call.ld_first, stride_first,
          call.second, t, call.ld_second, stride_second, &be, call.c, t, call.ldc, stride_c,
          batches, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    }
  }
}

void gemm_batched_cuda(ScalarType type, const cpublas::Matrix& a, const cpublas::Matrix& b,
                       const cpublas::Matrix& c, const BatchStrides& strides,
                       const c10::Scalar& alpha, const c10::Scalar& beta) {
  TORCH_CHECK(strides.batch <= std::numeric_limits<int>::max(),
              "bmm: more than 2^31 - 1 products in one batch are not supported on CUDA");
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, type, "addmm_cuda", [&] {
    // Note [A row-major product in a column-major library]: the swap swaps the batch strides.
    const cpublas::ColumnMajorCall call = cpublas::column_major_call(a, b, c);
    column_major_gemm<scalar_t>(call, strides.batch, call.swapped ? strides.b : strides.a,
                                call.swapped ? strides.a : strides.b, strides.c, alpha, beta);
  });
}

void gemm_cuda(ScalarType type, const cpublas::Matrix& a, const cpublas::Matrix& b,
               const cpublas::Matrix& c, const c10::Scalar& alpha, const c10::Scalar& beta) {
  gemm_batched_cuda(type, a, b, c, BatchStrides{}, alpha, beta);
}

}  // namespace

REGISTER_CUDA_DISPATCH(gemm_stub, &gemm_cuda);
REGISTER_CUDA_DISPATCH(gemm_batched_stub, &gemm_batched_cuda);

}  // namespace native
}  // namespace at
