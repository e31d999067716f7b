#pragma once
// The type cumsum accumulates in, on the CPU (cpu/ReduceOpsKernel.cpp) and the GPU
// (cuda/ScanKernel.cu) alike: libtorch's at::acc_type<T, /*is_cuda=*/false>. float and double
// in double, complex numbers in complex<double>, Half and BFloat16 in float, integers in int64.

#include <cstdint>
#include <type_traits>

#include "c10/util/complex.h"

namespace at {
namespace native {

template <typename T>
using ScanAccumulate =
    std::conditional_t<c10::is_complex<T>::value, c10::complex<double>,
                       std::conditional_t<std::is_integral<T>::value, int64_t,
                                          std::conditional_t<std::is_same<T, float>::value ||
                                                                 std::is_same<T, double>::value,
                                                             double, float>>>;

}  // namespace native
}  // namespace at
