#include "aten/TensorConstruction.h"

#include "aten/ATen.h"
#include "aten/Dispatch.h"
#include "c10/util/TypeCast.h"

namespace at {

namespace {
// Exact for integers, through double for anything involving a floating type.
template <class To, class From>
To convert_value(From v) {
  if constexpr (c10::is_complex<To>::value || c10::is_complex<From>::value) {
    return c10::convert<To>(v);
  } else if constexpr (std::is_integral<To>::value && std::is_integral<From>::value) {
    return static_cast<To>(v);
  } else if constexpr (std::is_same<To, bool>::value) {
    return static_cast<double>(v) != 0;
  } else {
    return static_cast<To>(static_cast<double>(v));
  }
}

template <class T>
Tensor tensor_cpu(ArrayRef<T> values, const TensorOptions& options) {
  Tensor result = at::empty({static_cast<int64_t>(values.size())}, options);
  if (result.is_meta()) return result;
  // libtorch copies complex values only into complex dtypes (its tensor_complex_cpu).
  if (c10::is_complex<T>::value && !result.is_complex()) {
    detail::dispatch_not_implemented("tensor_cpu", result.scalar_type());
  }
  TORCH_CHECK(result.is_cpu(), "at::tensor builds CPU tensors; move the result with .to()");
  AT_DISPATCH_ALL_MINIATEN_TYPES_AND_COMPLEX(result.scalar_type(), "tensor_cpu", [&] {
    scalar_t* out = result.data_ptr<scalar_t>();
    for (size_t i = 0; i < values.size(); ++i) {
      out[i] = convert_value<scalar_t>(values[i]);
    }
  });
  return result;
}
}  // namespace

#define MINIATEN_TENSOR_FROM_VALUES(T, S)                             \
  Tensor tensor(ArrayRef<T> values, const TensorOptions& options) {   \
    return tensor_cpu(values, options);                               \
  }
C10_FORALL_SCALAR_TYPES(MINIATEN_TENSOR_FROM_VALUES)
#undef MINIATEN_TENSOR_FROM_VALUES

}  // namespace at
