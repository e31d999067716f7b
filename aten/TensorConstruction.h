#pragma once
// at::tensor: a CPU tensor holding the given values, as libtorch's at::tensor.
//
//   at::tensor({1.5f, 2.f});            // Float, sizes [2]
//   at::tensor({1, 2, 3}, at::kLong);   // the options' dtype (Float if they name none)
//   at::tensor(std::vector<int64_t>{4, 5});

#include <initializer_list>
#include <vector>

#include "aten/core/Tensor.h"
#include "c10/core/TensorOptions.h"

namespace at {

#define MINIATEN_TENSOR_FROM_VALUES(T, S)                                              \
  TORCH_API Tensor tensor(ArrayRef<T> values, const TensorOptions& options);           \
  inline Tensor tensor(std::initializer_list<T> values, const TensorOptions& options) { \
    return at::tensor(ArrayRef<T>(values), options);                                  \
  }                                                                                    \
  inline Tensor tensor(T value, const TensorOptions& options) {                        \
    return at::tensor(ArrayRef<T>(value), options);                                   \
  }                                                                                    \
  inline Tensor tensor(ArrayRef<T> values) { return at::tensor(values, at::dtype(c10::k##S)); } \
  inline Tensor tensor(std::initializer_list<T> values) {                              \
    return at::tensor(ArrayRef<T>(values));                                           \
  }                                                                                    \
  inline Tensor tensor(T value) { return at::tensor(ArrayRef<T>(value)); }
C10_FORALL_SCALAR_TYPES(MINIATEN_TENSOR_FROM_VALUES)
#undef MINIATEN_TENSOR_FROM_VALUES

}  // namespace at
