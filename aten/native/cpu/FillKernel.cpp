// fill_: a nullary TensorIterator loop; contiguous rows get the vectorized store.

#include "aten/Dispatch.h"
#include "aten/native/Fill.h"
#include "aten/native/cpu/Loops.h"

namespace at {
namespace native {
inline namespace CPU_CAPABILITY {

namespace {
void fill_kernel(TensorIteratorBase& iter, const c10::Scalar& value_scalar) {
  if (c10::isComplexType(iter.dtype())) {
    // No Vectorized<complex>: the scalar loop.
    AT_DISPATCH_COMPLEX_TYPES(iter.dtype(), "fill_cpu", [&] {
      const scalar_t value = value_scalar.to<scalar_t>();
      cpu_kernel(iter, [=]() -> scalar_t { return value; });
    });
    return;
  }
  AT_DISPATCH_ALL_MINIATEN_TYPES(iter.dtype(), "fill_cpu", [&] {
    // Scalar::to checks the value fits ("value cannot be converted to type ... without
    // overflow"), as libtorch's fill does.
    const scalar_t value = value_scalar.to<scalar_t>();
    cpu_kernel_vec(
        iter, [=]() -> scalar_t { return value; },
        [=]() { return vec::Vectorized<scalar_t>(value); });
  });
}
}  // namespace

REGISTER_DISPATCH(fill_stub, &fill_kernel);

}  // namespace CPU_CAPABILITY
}  // namespace native
}  // namespace at
