// Compiled three times (miniaten_add_cpu_kernels in tests/aten/CMakeLists.txt).

#include "LoopsTestKernel.h"

#include "aten/Dispatch.h"
#include "aten/native/cpu/Loops.h"

namespace miniaten_test {
inline namespace CPU_CAPABILITY {

using at::vec::Vectorized;

void sub3_kernel(at::TensorIteratorBase& iter) {
  AT_DISPATCH_ALL_TYPES_AND3(at::kBool, at::kHalf, at::kBFloat16, iter.common_dtype(), "sub3", [&] {
    at::native::cpu_kernel_vec(
        iter, [](scalar_t a, scalar_t b) -> scalar_t { return a - b * scalar_t(3); },
        [](Vectorized<scalar_t> a, Vectorized<scalar_t> b) {
          return a - b * Vectorized<scalar_t>(scalar_t(3));
        });
  });
}

}  // namespace CPU_CAPABILITY

REGISTER_DISPATCH(sub3_stub, &sub3_kernel);

}  // namespace miniaten_test
