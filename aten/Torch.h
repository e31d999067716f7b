#pragma once
// The torch:: namespace of libtorch's C++ frontend, without nn, optim and data (what
// torch/torch.h gives a program that only computes with tensors):
//
//   #include <torch/torch.h>                  // through miniaten::torch_compat
//   torch::Tensor x = torch::ones({2, 3}, torch::requires_grad());
//   auto y = (x * x).sum();
//   y.backward();                              // x.grad() is 2 * x
//   { torch::NoGradGuard no_grad; auto z = x * 2; }
//   torch::jit::Stack stack{torch::IValue(x)};
//
// As in libtorch's torch/types.h, every at:: name is a torch:: name (torch::kFloat,
// torch::Device, torch::add, ...). The factories are torch::'s own: they honour TensorOptions'
// requires_grad (aten/autograd/autograd.h), which at::'s refuse.

#include "aten/ATen.h"
#include "aten/autograd/autograd.h"
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

}  // namespace torch
