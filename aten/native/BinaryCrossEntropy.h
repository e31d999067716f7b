#pragma once
// binary_cross_entropy's element formulas, host-device so that the CPU loop (Loss.cpp) and the
// CUDA kernels (cuda/LossKernel.cu) compute each element with the same operations in the same
// type (libtorch's binary_cross_entropy_out_cpu and its CUDA twin), and the device stubs.

#include <cmath>

#include "aten/native/DispatchStub.h"
#include "aten/native/TensorIterator.h"
#include "c10/util/Macros.h"

namespace at {
namespace native {

// -(y log(x) + (1 - y) log(1 - x)), each log clamped at -100. x lies in [0, 1] (checked first).
template <typename T>
C10_HOST_DEVICE inline T binary_cross_entropy_element(T x, T y) {
  using std::log;
  using std::log1p;
  const T log_x = T(log(x)), log_1mx = T(log1p(-x)), floor = T(-100);
  return static_cast<T>((y - T(1)) * (log_1mx < floor ? floor : log_1mx) -
                        y * (log_x < floor ? floor : log_x));
}

// d/dx: g (x - y) / max((1 - x) x, 1e-12).
template <typename T>
C10_HOST_DEVICE inline T binary_cross_entropy_grad_element(T g, T x, T y) {
  const T denominator = (T(1) - x) * x, epsilon = T(1e-12);
  return static_cast<T>(g * (x - y) / (denominator < epsilon ? epsilon : denominator));
}

// iter: (loss; self, target), all of self's dtype; self's values in [0, 1].
using binary_cross_entropy_fn = void (*)(TensorIteratorBase& iter);
// iter: (grad_input; grad_output, self, target).
using binary_cross_entropy_backward_fn = void (*)(TensorIteratorBase& iter);
DECLARE_DISPATCH(binary_cross_entropy_fn, binary_cross_entropy_stub);
DECLARE_DISPATCH(binary_cross_entropy_backward_fn, binary_cross_entropy_backward_stub);

}  // namespace native
}  // namespace at
