// The GPU kernels of fill_ (zero_, zeros, ones, full) and arange: a nullary and an index loop
// (aten/native/cuda/Loops.cuh), one instantiation per dtype.

#include <cmath>

#include "aten/Dispatch.h"
#include "aten/native/Fill.h"
#include "aten/native/TensorFactories.h"
#include "aten/native/cuda/Loops.cuh"

namespace at {
namespace native {

namespace {

void fill_kernel_cuda(TensorIteratorBase& iter, const c10::Scalar& value_scalar) {
  AT_DISPATCH_ALL_MINIATEN_TYPES_AND_COMPLEX(iter.dtype(), "fill_cuda", [&] {
    // Converted (and range-checked) on the host, as on the CPU.
    const scalar_t value = value_scalar.to<scalar_t>();
    gpu_kernel(iter, [value] GPU_LAMBDA() -> scalar_t { return value; });
  });
}

// See Note [arange_out arithmetic] in TensorFactories.cpp: the same accumulation types, and
// one rounding of start + step * i (an explicit fma, as the CPU kernel's contraction).
void arange_kernel_cuda(const Tensor& out, const c10::Scalar& start, const c10::Scalar& step) {
  auto iter = TensorIteratorConfig()
                  .set_check_mem_overlap(false)
                  .check_all_same_dtype(false)
                  .add_output(out)
                  .resize_outputs(false)
                  .build();
  AT_DISPATCH_ALL_TYPES_AND2(c10::kHalf, c10::kBFloat16, out.scalar_type(), "arange_cuda", [&] {
    using acc_t = arange_acc_t<scalar_t>;
    const acc_t xstart = start.to<acc_t>();
    const acc_t xstep = step.to<acc_t>();
    gpu_kernel_with_index(iter, [xstart, xstep] GPU_LAMBDA(int64_t i) -> scalar_t {
      if constexpr (std::is_integral<acc_t>::value) {
        return static_cast<scalar_t>(xstart + xstep * i);
      } else {
        return static_cast<scalar_t>(std::fma(xstep, static_cast<acc_t>(i), xstart));
      }
    });
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(fill_stub, &fill_kernel_cuda);
REGISTER_CUDA_DISPATCH(arange_stub, &arange_kernel_cuda);

}  // namespace native
}  // namespace at
