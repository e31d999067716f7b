// argmax, argmin, max.dim and min.dim on the GPU: extremum_rows_stub (ReduceOps.h), the index
// (and value) of the first greatest or least element of each row of a contiguous rows x n
// tensor, a NaN winning over every number as on the CPU.
//
// Note [The first extremum, found by a warp]
// One warp takes a row. Lane l walks elements l, l + 32, ... in order and keeps the first best it
// meets (a strict comparison, and a NaN is kept for good), so each lane holds the first best of
// its own elements. The lanes then combine pairwise with shuffles under one rule: a NaN beats a
// number, a better value beats a worse one, and between equals (or two NaNs) the lower index
// wins. The rule is associative and commutative and the lower index breaks every tie, so the
// answer is the row's first best element whatever the order of the combining: the CPU's answer.
// Half and BFloat16 compare as float, Bool as 0 and 1.

#include <cuda_runtime_api.h>

#include <type_traits>

#include "aten/Dispatch.h"
#include "aten/OpMathType.h"
#include "aten/core/Tensor.h"
#include "aten/native/ReduceOps.h"
#include "c10/cuda/CUDAException.h"
#include "c10/cuda/CUDAGuard.h"
#include "c10/cuda/CUDAStream.h"

namespace at {
namespace native {

namespace {

constexpr int kWarpsPerBlock = 4;

template <typename A>
__device__ bool is_nan(A v) {
  if constexpr (std::is_floating_point<A>::value) {
    return v != v;
  } else {
    return false;
  }
}

// Whether (va, ia) wins over (vb, ib): Note [The first extremum, found by a warp].
template <typename A, bool kMax>
__device__ bool wins(A va, int64_t ia, A vb, int64_t ib) {
  const bool na = is_nan(va), nb = is_nan(vb);
  if (na || nb) return na && (!nb || ia < ib);
  if (kMax ? va > vb : va < vb) return true;
  if (kMax ? va < vb : va > vb) return false;
  return ia < ib;
}

template <typename T, bool kMax>
__global__ void __launch_bounds__(kWarpsPerBlock * 32)
    extremum_rows(const T* __restrict__ in, int64_t rows, int64_t n, T* values,
                  int64_t* __restrict__ indices) {
  // Narrow integers and Bool compare as int, the narrowest type a shuffle moves.
  using acc_t =
      std::conditional_t<std::is_integral<T>::value && sizeof(T) < 4, int, at::opmath_type<T>>;
  const int64_t row = static_cast<int64_t>(blockIdx.x) * kWarpsPerBlock + threadIdx.y;
  if (row >= rows) return;  // the whole warp leaves together
  const int lane = threadIdx.x;
  in += row * n;
  // A lane past the row's end starts with index n, which every real element beats.
  int64_t best = lane < n ? lane : n;
  acc_t best_value = lane < n ? static_cast<acc_t>(in[lane]) : acc_t(0);
  for (int64_t i = lane + 32; i < n && !is_nan(best_value); i += 32) {
    const acc_t v = static_cast<acc_t>(in[i]);
    if (wins<acc_t, kMax>(v, i, best_value, best)) {
      best = i;
      best_value = v;
    }
  }
  for (int offset = 16; offset > 0; offset >>= 1) {
    const acc_t other_value = __shfl_xor_sync(0xffffffffu, best_value, offset);
    const int64_t other = __shfl_xor_sync(0xffffffffu, best, offset);
    // A lane holding no element (index n) loses to every lane that holds one.
    const bool other_wins =
        best >= n || (other < n && wins<acc_t, kMax>(other_value, other, best_value, best));
    if (other_wins) {
      best = other;
      best_value = other_value;
    }
  }
  if (lane != 0) return;
  indices[row] = best;
  if (values != nullptr) values[row] = in[best];
}

void extremum_rows_kernel_cuda(const Tensor& input, const Tensor& values, const Tensor& indices,
                               bool is_max) {
  const c10::cuda::CUDAGuard guard(input.device());
  const int64_t rows = input.size(0), n = input.size(1);
  if (rows == 0 || n == 0) return;
  const dim3 block(32, kWarpsPerBlock);
  const auto blocks = static_cast<unsigned>((rows + kWarpsPerBlock - 1) / kWarpsPerBlock);
  const cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
  AT_DISPATCH_ALL_TYPES_AND3(
      kHalf, kBFloat16, kBool, input.scalar_type(), is_max ? "max_cuda" : "min_cuda", [&] {
        scalar_t* v = values.defined() ? values.data_ptr<scalar_t>() : nullptr;
        if (is_max) {
          extremum_rows<scalar_t, true><<<blocks, block, 0, stream>>>(
              input.data_ptr<scalar_t>(), rows, n, v, indices.data_ptr<int64_t>());
        } else {
          extremum_rows<scalar_t, false><<<blocks, block, 0, stream>>>(
              input.data_ptr<scalar_t>(), rows, n, v, indices.data_ptr<int64_t>());
        }
        C10_CUDA_KERNEL_LAUNCH_CHECK();
      });
}

}  // namespace

REGISTER_CUDA_DISPATCH(extremum_rows_stub, &extremum_rows_kernel_cuda);

}  // namespace native
}  // namespace at
