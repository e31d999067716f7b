// CPU kernels of silu and gelu, compiled once per CPU capability. Both are libtorch 1.13's
// vectorized formulas on Vectorized's SLEEF exp, tanh and erf, every element through the vector
// op (cpu_vec_kernel: a value does not depend on where it sits, Note [Vector math runs on
// partial vectors] in Loops.h). BFloat16 computes in float and rounds once (libtorch does so
// for silu; its 1.13 gelu rounds BFloat16 after every step, a loss of accuracy later versions
// removed, not copied here). Complex silu goes element by element through std::exp.

#include <cmath>

#include "aten/Dispatch.h"
#include "aten/native/Activation.h"
#include "aten/native/cpu/InFloat.h"
#include "aten/native/cpu/Loops.h"

namespace at {
namespace native {
inline namespace CPU_CAPABILITY {

using vec::Vectorized;

namespace {

// x / (1 + exp(-x))
void silu_kernel(TensorIteratorBase& iter) {
  const c10::ScalarType dtype = iter.dtype();
  if (c10::isComplexType(dtype)) {
    AT_DISPATCH_COMPLEX_TYPES(dtype, "silu_cpu", [&] {
      cpu_kernel(iter, [](scalar_t x) -> scalar_t { return x / (scalar_t(1) + std::exp(-x)); });
    });
    return;
  }
  AT_DISPATCH_FLOATING_TYPES_AND(c10::ScalarType::BFloat16, dtype, "silu_cpu", [&] {
    cpu_vec_kernel(iter, [](Vectorized<scalar_t> a) {
      return in_float(a, [](auto x) {
        using V = decltype(x);
        return x / (V(1) + x.neg().exp());
      });
    });
  });
}

// "none": x * 0.5 * (1 + erf(x / sqrt(2)));
// "tanh": 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3))).
void gelu_kernel(TensorIteratorBase& iter, GeluType approximate) {
  AT_DISPATCH_FLOATING_TYPES_AND(c10::ScalarType::BFloat16, iter.dtype(), "GeluKernelImpl", [&] {
    if (approximate == GeluType::Tanh) {
      cpu_vec_kernel(iter, [](Vectorized<scalar_t> a) {
        return in_float(a, [](auto x) {
          using V = decltype(x);
          using T = typename V::value_type;
          const V beta(static_cast<T>(M_SQRT2 * M_2_SQRTPI * 0.5));
          const V kappa(static_cast<T>(0.044715));
          const V inner = beta * (x + kappa * (x * x * x));
          return V(T(0.5)) * x * (V(T(1)) + inner.tanh());
        });
      });
    } else {
      cpu_vec_kernel(iter, [](Vectorized<scalar_t> a) {
        return in_float(a, [](auto x) {
          using V = decltype(x);
          using T = typename V::value_type;
          return x * V(T(0.5)) * (V(T(1)) + (x * V(static_cast<T>(M_SQRT1_2))).erf());
        });
      });
    }
  });
}

// grad where self > threshold, else 0 (relu's backward with threshold 0): libtorch's
// threshold kernel with value 0. A NaN self is not <= threshold, so its gradient goes through.
void threshold_backward_kernel(TensorIteratorBase& iter, const c10::Scalar& threshold) {
  AT_DISPATCH_ALL_TYPES_AND(c10::ScalarType::BFloat16, iter.common_dtype(), "threshold_cpu", [&] {
    const scalar_t th = threshold.to<scalar_t>();
    cpu_kernel_vec(
        iter, [th](scalar_t x, scalar_t grad) -> scalar_t { return x <= th ? scalar_t(0) : grad; },
        [th](Vectorized<scalar_t> x, Vectorized<scalar_t> grad) {
          return Vectorized<scalar_t>::blendv(grad, Vectorized<scalar_t>(scalar_t(0)),
                                              x.le(Vectorized<scalar_t>(th)));
        });
  });
}

}  // namespace
}  // namespace CPU_CAPABILITY

REGISTER_DISPATCH(threshold_backward_stub, &threshold_backward_kernel);
REGISTER_DISPATCH(silu_stub, &silu_kernel);
REGISTER_DISPATCH(gelu_stub, &gelu_kernel);

}  // namespace native
}  // namespace at
