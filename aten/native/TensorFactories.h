#pragma once
// The kernels behind the factories that compute values (arange), per device. The CPU computes
// them inline in TensorFactories.cpp; the CUDA kernel is in aten/native/cuda/FactoryKernels.cu.

#include "aten/core/Tensor.h"
#include <cstdint>
#include <type_traits>

#include "aten/native/DispatchStub.h"

namespace at {
namespace native {

// The type arange computes in for elements of type T: int64 for integers, float for Half and
// BFloat16, double otherwise. See Note [arange_out arithmetic] (TensorFactories.cpp).
template <typename T>
using arange_acc_t = std::conditional_t<
    std::is_integral<T>::value, int64_t,
    std::conditional_t<std::is_same<T, double>::value || std::is_same<T, float>::value, double,
                       float>>;

// out[i] = start + step * i for a contiguous `out`, with the accumulation types and rounding of
// Note [arange_out arithmetic] (TensorFactories.cpp).
using arange_fn = void (*)(const Tensor& out, const c10::Scalar& start, const c10::Scalar& step);
DECLARE_DISPATCH(arange_fn, arange_stub);

}  // namespace native
}  // namespace at
