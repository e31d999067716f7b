// CPU kernels of addcmul, addcdiv and lerp (PointwiseOps.h), compiled once per CPU capability.
// Element by element in the dtype's opmath type (cpu_kernel; the compiler vectorises the
// contiguous loops). The dtypes are libtorch 1.13's: addcmul and addcdiv every type but Bool and
// Half (BFloat16 included), lerp the floating and complex types.
//
// Note [Two-sided lerp]
// lerp is start + weight * (end - start) for |weight| < 0.5 and end - (end - start) * (1 -
// weight) otherwise (libtorch's lerp formula): each side is exact at its own endpoint, so a
// weight of 1 gives `end` exactly, which the one-sided form misses by a rounding.

#include <cmath>

#include "aten/Dispatch.h"
#include "aten/OpMathType.h"
#include "aten/native/PointwiseOps.h"
#include "aten/native/cpu/Loops.h"

namespace at {
namespace native {
inline namespace CPU_CAPABILITY {

namespace {

void addcmul_kernel(TensorIteratorBase& iter, const Scalar& value) {
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND(kBFloat16, iter.common_dtype(), "addcmul_cpu_out", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    const opmath_t v = value.to<opmath_t>();
    cpu_kernel(iter, [v](scalar_t self, scalar_t t1, scalar_t t2) -> scalar_t {
      return static_cast<scalar_t>(static_cast<opmath_t>(self) +
                                   v * static_cast<opmath_t>(t1) * static_cast<opmath_t>(t2));
    });
  });
}

void addcdiv_kernel(TensorIteratorBase& iter, const Scalar& value) {
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND(kBFloat16, iter.common_dtype(), "addcdiv_cpu_out", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    const opmath_t v = value.to<opmath_t>();
    cpu_kernel(iter, [v](scalar_t self, scalar_t t1, scalar_t t2) -> scalar_t {
      return static_cast<scalar_t>(static_cast<opmath_t>(self) +
                                   v * static_cast<opmath_t>(t1) / static_cast<opmath_t>(t2));
    });
  });
}

// See Note [Two-sided lerp].
template <typename T>
T lerp_value(T start, T end, T weight) {
  using std::abs;
  return abs(weight) < 0.5 ? start + weight * (end - start) : end - (end - start) * (T(1) - weight);
}

void lerp_scalar_kernel(TensorIteratorBase& iter, const Scalar& weight) {
  AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES(iter.common_dtype(), "lerp_kernel_scalar", [&] {
    const scalar_t w = weight.to<scalar_t>();
    cpu_kernel(iter,
               [w](scalar_t start, scalar_t end) -> scalar_t { return lerp_value(start, end, w); });
  });
}

void lerp_tensor_kernel(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES(iter.common_dtype(), "lerp_kernel_tensor", [&] {
    cpu_kernel(iter, [](scalar_t start, scalar_t end, scalar_t weight) -> scalar_t {
      return lerp_value(start, end, weight);
    });
  });
}

}  // namespace

}  // namespace CPU_CAPABILITY

REGISTER_DISPATCH(addcmul_stub, &addcmul_kernel);
REGISTER_DISPATCH(addcdiv_stub, &addcdiv_kernel);
REGISTER_DISPATCH(lerp_scalar_stub, &lerp_scalar_kernel);
REGISTER_DISPATCH(lerp_tensor_stub, &lerp_tensor_kernel);

}  // namespace native
}  // namespace at
