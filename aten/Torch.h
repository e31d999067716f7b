#pragma once
// The torch:: namespace of libtorch's C++ frontend, without nn, optim and data (what
// torch/torch.h gives a program that only computes with tensors):
//
//   #include <torch/torch.h>                  // through miniaten::torch_compat
//   torch::Tensor x = torch::ones({2, 3}, torch::requires_grad());
//   auto y = (x * x).sum();
//   y.backward();                              // x.grad() is 2 * x
//   { torch::NoGradGuard no_grad; auto z = x * 2; }
//   torch::Tensor v = torch::tensor({1, 2, 3});   // Long, as libtorch's (at::tensor: Int)
//   torch::jit::Stack stack{torch::IValue(x)};
//
// As in libtorch's torch/types.h, every at:: name is a torch:: name (torch::kFloat,
// torch::Device, torch::add, ...). The factories are torch::'s own: they honour TensorOptions'
// requires_grad (aten/autograd/autograd.h), which at::'s refuse.

#include <initializer_list>
#include <sstream>
#include <string>

#include "aten/ATen.h"
#include "aten/autograd/autograd.h"
#include "aten/serialization/Pickle.h"  // torch::pickle_save, as torch/serialize.h
#include "c10/util/SmallVector.h"
#include "dispatcher/Library.h"
#include "dispatcher/Stack.h"

namespace torch {

using namespace at;  // NOLINT: libtorch's torch/types.h does the same
using c10::IValue;

// The factories aten/autograd/autograd.h does not spell yet, made the same way: the at::
// factory without requires_grad, then the flag on the leaf.
inline at::Tensor arange(const at::Scalar& start, const at::Scalar& end,
                         const at::TensorOptions& options = {}) {
  return detail::make_leaf(at::arange(start, end, detail::without_requires_grad(options)), options);
}
inline at::Tensor arange(const at::Scalar& start, const at::Scalar& end, const at::Scalar& step,
                         const at::TensorOptions& options = {}) {
  return detail::make_leaf(at::arange(start, end, step, detail::without_requires_grad(options)),
                           options);
}
inline at::Tensor empty_strided(at::IntArrayRef size, at::IntArrayRef stride,
                                const at::TensorOptions& options = {}) {
  return detail::make_leaf(at::empty_strided(size, stride, detail::without_requires_grad(options)),
                           options);
}
inline at::Tensor full_like(const at::Tensor& self, const at::Scalar& fill_value,
                            const at::TensorOptions& options = {}) {
  return detail::make_leaf(at::full_like(self, fill_value, detail::without_requires_grad(options)),
                           options);
}
inline at::Tensor scalar_tensor(const at::Scalar& s, const at::TensorOptions& options = {}) {
  return detail::make_leaf(at::scalar_tensor(s, detail::without_requires_grad(options)), options);
}

// ---- torch::tensor ------------------------------------------------------------------------
// libtorch's torch::tensor (TensorDataContainer), for a value, a list and a list of equal-length
// lists. It differs from at::tensor in three ways: a single value makes a 0-dim tensor, int and
// int64_t values make Long and float and double ones the default dtype (Float) unless the
// options name a dtype, and the options' requires_grad is honoured.
//
//   torch::tensor({1, 2, 3})                  // Long, sizes [3]
//   torch::tensor({{1.5, 2.}, {3., 4.}})      // Float, sizes [2, 2]
//   torch::tensor(2.5, torch::requires_grad()) // Float, sizes [], a leaf that requires grad

namespace detail {

inline c10::ScalarType tensor_literal_dtype(c10::ScalarType of_values) {
  if (of_values == c10::kInt || of_values == c10::kLong) return c10::kLong;
  if (of_values == c10::kFloat || of_values == c10::kDouble) return c10::kFloat;
  return of_values;
}

template <typename T>
at::Tensor tensor_from_values(c10::ArrayRef<T> values, at::IntArrayRef sizes,
                              c10::ScalarType of_values, const at::TensorOptions& options) {
  const c10::ScalarType dtype = options.has_dtype()
                                    ? c10::typeMetaToScalarTypeOpt(options.dtype_opt())
                                    : tensor_literal_dtype(of_values);
  at::Tensor t = at::tensor(values, without_requires_grad(options).dtype(dtype));
  if (sizes.size() != 1) t = t.view(sizes).clone();
  return make_leaf(std::move(t), options);
}

template <typename T>
std::string format_tensor_row(std::initializer_list<T> row) {
  std::ostringstream out;
  out << "{";
  const char* sep = "";
  for (const T& v : row) {
    out << sep << +v;
    sep = ", ";
  }
  out << "}";
  return out.str();
}

template <typename T>
at::Tensor tensor_from_rows(std::initializer_list<std::initializer_list<T>> rows,
                            c10::ScalarType of_values, const at::TensorOptions& options) {
  const size_t width = rows.size() == 0 ? 0 : rows.begin()->size();
  c10::SmallVector<T, 16> flat;  // not std::vector: vector<bool> has no data()
  flat.reserve(rows.size() * width);
  for (const auto& row : rows) {
    TORCH_CHECK(row.size() == width, "Expected all sub-lists to have sizes: ", width, " (e.g. ",
                format_tensor_row(*rows.begin()), "), but got sub-list ", format_tensor_row(row),
                " with sizes: ", row.size());
    flat.insert(flat.end(), row.begin(), row.end());
  }
  const int64_t sizes[] = {static_cast<int64_t>(rows.size()), static_cast<int64_t>(width)};
  return tensor_from_values(c10::ArrayRef<T>(flat.data(), flat.size()), sizes, of_values, options);
}

}  // namespace detail

#define MINIATEN_TORCH_TENSOR(T, S)                                                          \
  inline at::Tensor tensor(T value, const at::TensorOptions& options = {}) {                 \
    return detail::tensor_from_values(c10::ArrayRef<T>(value), {}, c10::k##S, options);      \
  }                                                                                          \
  inline at::Tensor tensor(c10::ArrayRef<T> values, const at::TensorOptions& options = {}) { \
    const int64_t n = static_cast<int64_t>(values.size());                                   \
    return detail::tensor_from_values(values, at::IntArrayRef(n), c10::k##S, options);       \
  }                                                                                          \
  inline at::Tensor tensor(std::initializer_list<T> values,                                  \
                           const at::TensorOptions& options = {}) {                          \
    return tensor(c10::ArrayRef<T>(values), options);                                        \
  }
C10_FORALL_SCALAR_TYPES(MINIATEN_TORCH_TENSOR)
#undef MINIATEN_TORCH_TENSOR

// Rows of values: one template, not an overload per type. With one overload per type clang
// finds `{{1, 2}, {3, 4}}` equally good as rows of every arithmetic type (each inner list
// converts without narrowing) and reports the call ambiguous; deduction picks T = int alone.
template <typename T, typename = decltype(c10::CppTypeToScalarType<T>::value)>
at::Tensor tensor(std::initializer_list<std::initializer_list<T>> rows,
                  const at::TensorOptions& options = {}) {
  return detail::tensor_from_rows(rows, c10::CppTypeToScalarType<T>::value, options);
}

}  // namespace torch
