// CPU scan kernels (cumsum). Compiled once per CPU capability (miniaten_add_cpu_kernels in
// aten/CMakeLists.txt). The sum reduction lives in SumKernel.cpp.
//
// Note [How cumsum walks the scan dim]
// A scan is not elementwise (result[i] needs self[0..i]) and not a reduction (every position
// has an output), so TensorIterator cannot walk the scan dim. Seed 001's restride_dim trick
// hides it instead: the iterator is built with a static shape equal to self's sizes but with
// the scan dim squashed to 1, so it iterates over every *line* along that dim, choosing the
// loop order, coalescing and parallelising the other dims as it would for an elementwise op.
// Each call of the loop then receives a pointer to the first element of a line in result and
// in self and walks the line itself, with the tensors' own strides along the scan dim.
// Different lines never share an output element, so for_each may split them across threads;
// the grain size is divided by the line length so that each thread gets GRAIN_SIZE elements.
//
// The running sum is kept in libtorch's CPU accumulation type (at::acc_type<T, false>): double
// for float and double, float for BFloat16, int64 for integers; each output element is the
// running sum rounded to the dtype. The dtypes are libtorch 1.13's: not Bool (an integral or
// Bool input is summed as Long unless a dtype is given) and not Half ("cumsum_out_cpu" not
// implemented for 'Half').

#include <algorithm>
#include <type_traits>

#include "aten/Dispatch.h"
#include "aten/native/ReduceOps.h"

namespace at {
namespace native {
inline namespace CPU_CAPABILITY {

namespace {

// libtorch's at::acc_type<T, /*is_cuda=*/false>.
template <typename T>
using ScanAccumulate = std::conditional_t<
    std::is_integral<T>::value, int64_t,
    std::conditional_t<std::is_same<T, float>::value || std::is_same<T, double>::value, double,
                       float>>;

void cumsum_kernel(const Tensor& result, const Tensor& self, int64_t dim) {
  // See Note [How cumsum walks the scan dim].
  const int64_t squash_dims[] = {dim};
  auto iter = TensorIteratorConfig()
                  .check_all_same_dtype(false)
                  .resize_outputs(false)
                  .declare_static_shape(self.sizes(), squash_dims)
                  .add_output(result)
                  .add_input(self)
                  .build();
  const int64_t line_size = self.size(dim);
  const int64_t result_dim_stride = result.stride(dim);
  const int64_t self_dim_stride = self.stride(dim);

  AT_DISPATCH_ALL_TYPES_AND(c10::kBFloat16, self.scalar_type(), "cumsum_out_cpu", [&] {
    using acc_t = ScanAccumulate<scalar_t>;
    iter.for_each(
        [&](char** data, const int64_t* strides, int64_t n) {
          char* result_line = data[0];
          const char* self_line = data[1];
          for (int64_t line = 0; line < n; ++line) {
            scalar_t* out = reinterpret_cast<scalar_t*>(result_line);
            const scalar_t* in = reinterpret_cast<const scalar_t*>(self_line);
            acc_t running{};
            for (int64_t i = 0; i < line_size; ++i) {
              running += static_cast<acc_t>(in[i * self_dim_stride]);
              out[i * result_dim_stride] = static_cast<scalar_t>(running);
            }
            result_line += strides[0];
            self_line += strides[1];
          }
        },
        internal::GRAIN_SIZE / std::max<int64_t>(1, line_size));
  });
}

}  // namespace
}  // namespace CPU_CAPABILITY

REGISTER_DISPATCH(cumsum_stub, &cumsum_kernel);

}  // namespace native
}  // namespace at
