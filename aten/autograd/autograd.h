#pragma once
// The autograd API in one include (libtorch's torch/csrc/autograd/autograd.h plus the torch::
// factories that make leaves that require grad).
//
//   #include "aten/autograd/autograd.h"
//   auto x = torch::ones({2, 3}, torch::requires_grad());
//   auto y = (x * x).sum();
//   y.backward();                                   // x.grad(): 2 * x
//   auto g = torch::autograd::grad({(x * 3).sum()}, {x});
//   { torch::NoGradGuard no_grad; auto z = x * 2; }  // z.requires_grad() == false

#include "aten/ATen.h"
#include "aten/autograd/Engine.h"
#include "aten/autograd/GradMode.h"
#include "aten/autograd/GraphDot.h"
#include "aten/autograd/Node.h"

namespace torch {

using at::Tensor;
using at::TensorOptions;
using c10::dtype;
using c10::requires_grad;

namespace detail {
// libtorch's torch:: factories: the at:: factory without requires_grad, then the flag.
inline at::Tensor make_leaf(at::Tensor t, const at::TensorOptions& options) {
  if (options.requires_grad()) t.set_requires_grad(true);
  return t;
}
inline at::TensorOptions without_requires_grad(const at::TensorOptions& options) {
  return options.requires_grad(c10::nullopt);
}
}  // namespace detail

inline at::Tensor empty(at::IntArrayRef size, const at::TensorOptions& options = {}) {
  return detail::make_leaf(at::empty(size, detail::without_requires_grad(options)), options);
}
inline at::Tensor zeros(at::IntArrayRef size, const at::TensorOptions& options = {}) {
  return detail::make_leaf(at::zeros(size, detail::without_requires_grad(options)), options);
}
inline at::Tensor ones(at::IntArrayRef size, const at::TensorOptions& options = {}) {
  return detail::make_leaf(at::ones(size, detail::without_requires_grad(options)), options);
}
inline at::Tensor full(at::IntArrayRef size, const at::Scalar& value,
                       const at::TensorOptions& options = {}) {
  return detail::make_leaf(at::full(size, value, detail::without_requires_grad(options)), options);
}
inline at::Tensor arange(const at::Scalar& end, const at::TensorOptions& options = {}) {
  return detail::make_leaf(at::arange(end, detail::without_requires_grad(options)), options);
}
inline at::Tensor empty_like(const at::Tensor& self, const at::TensorOptions& options = {}) {
  return detail::make_leaf(at::empty_like(self, detail::without_requires_grad(options)), options);
}
inline at::Tensor zeros_like(const at::Tensor& self, const at::TensorOptions& options = {}) {
  return detail::make_leaf(at::zeros_like(self, detail::without_requires_grad(options)), options);
}
inline at::Tensor ones_like(const at::Tensor& self, const at::TensorOptions& options = {}) {
  return detail::make_leaf(at::ones_like(self, detail::without_requires_grad(options)), options);
}
inline at::Tensor rand(at::IntArrayRef size, const at::TensorOptions& options = {}) {
  return detail::make_leaf(at::rand(size, detail::without_requires_grad(options)), options);
}
inline at::Tensor rand(at::IntArrayRef size, c10::optional<at::Generator> generator,
                       const at::TensorOptions& options = {}) {
  return detail::make_leaf(
      at::rand(size, std::move(generator), detail::without_requires_grad(options)), options);
}
inline at::Tensor randn(at::IntArrayRef size, const at::TensorOptions& options = {}) {
  return detail::make_leaf(at::randn(size, detail::without_requires_grad(options)), options);
}
inline at::Tensor randn(at::IntArrayRef size, c10::optional<at::Generator> generator,
                        const at::TensorOptions& options = {}) {
  return detail::make_leaf(
      at::randn(size, std::move(generator), detail::without_requires_grad(options)), options);
}

}  // namespace torch
