#pragma once
// gradcheck: compares the gradients autograd computes with central finite differences, in
// double. fn maps the inputs to one output; its gradient is taken against a fixed, non-uniform
// output gradient (so a formula that mixes up elements shows), by torch::autograd::grad.
//
//   auto x = torch::rand_like_test({2, 3});      // a double leaf that requires grad
//   EXPECT_TRUE(gradcheck([](const auto& in) { return in[0].exp(); }, {x}));

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <sstream>
#include <vector>

#include "aten/autograd/autograd.h"

namespace miniaten_test {

using TensorList = std::vector<at::Tensor>;
using Fn = std::function<at::Tensor(const TensorList&)>;

// A double leaf of these sizes with distinct, smooth values (offset + 0.1 * k + a wiggle), that
// requires grad. Values stay in [offset, offset + ~0.2 * numel].
inline at::Tensor leaf(c10::IntArrayRef sizes, double offset = 0.5) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  at::Tensor t = at::empty(sizes, at::kDouble);
  double* p = t.data_ptr<double>();
  for (int64_t k = 0; k < n; ++k) p[k] = offset + 0.1 * k + 0.03 * std::sin(3.0 * k);
  t.set_requires_grad(true);
  return t;
}

namespace detail {

// Storage positions of the elements of t in row-major order of its logical index.
inline std::vector<int64_t> positions(const at::Tensor& t) {
  std::vector<int64_t> result;
  const int64_t n = t.numel();
  std::vector<int64_t> idx(t.dim(), 0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t pos = t.storage_offset();
    for (int64_t d = 0; d < t.dim(); ++d) pos += idx[d] * t.stride(d);
    result.push_back(pos);
    for (int64_t d = t.dim() - 1; d >= 0; --d) {
      if (++idx[d] < t.size(d)) break;
      idx[d] = 0;
    }
  }
  return result;
}

inline double dot(const at::Tensor& a, const at::Tensor& b) {
  return at::sum(at::mul(a.to(at::kDouble), b)).item().toDouble();
}

}  // namespace detail

// Same sizes and the same values (compared in double).
inline bool same_values(const at::Tensor& a, const at::Tensor& b) {
  if (!a.defined() || !b.defined() || a.sizes() != b.sizes()) return false;
  const at::Tensor x = a.to(at::kDouble).contiguous(), y = b.to(at::kDouble).contiguous();
  for (int64_t k = 0; k < x.numel(); ++k) {
    if (x.data_ptr<double>()[k] != y.data_ptr<double>()[k]) return false;
  }
  return true;
}

inline ::testing::AssertionResult gradcheck(const Fn& fn, const TensorList& inputs,
                                            double eps = 1e-6, double atol = 1e-5,
                                            double rtol = 1e-4) {
  at::Tensor out = fn(inputs);
  if (!out.requires_grad()) return ::testing::AssertionFailure() << "output does not require grad";
  at::Tensor grad_out = at::empty(out.sizes(), at::kDouble);
  {
    double* p = grad_out.data_ptr<double>();
    for (int64_t k = 0; k < out.numel(); ++k) p[k] = 1.0 + 0.25 * ((k * 7) % 5) - 0.1 * k;
  }
  TensorList wrt;
  for (const at::Tensor& in : inputs) {
    if (in.requires_grad()) wrt.push_back(in);
  }
  TensorList analytic = torch::autograd::grad({out}, wrt, {grad_out.to(out.scalar_type())},
                                              c10::nullopt, false, /*allow_unused=*/true);
  for (size_t i = 0; i < wrt.size(); ++i) {
    const at::Tensor& x = wrt[i];
    if (analytic[i].defined() && analytic[i].sizes() != x.sizes()) {
      return ::testing::AssertionFailure()
             << "input " << i << ": gradient of sizes " << analytic[i].sizes()
             << " for an input of sizes " << x.sizes();
    }
    const at::Tensor a = analytic[i].defined() ? analytic[i].to(at::kDouble).contiguous()
                                               : at::zeros(x.sizes(), at::kDouble);
    const std::vector<int64_t> pos = detail::positions(x);
    double* data = static_cast<double*>(x.storage().data());
    for (size_t k = 0; k < pos.size(); ++k) {
      double numeric;
      {
        at::NoGradGuard no_grad;
        const double orig = data[pos[k]];
        data[pos[k]] = orig + eps;
        const double plus = detail::dot(fn(inputs), grad_out);
        data[pos[k]] = orig - eps;
        const double minus = detail::dot(fn(inputs), grad_out);
        data[pos[k]] = orig;
        numeric = (plus - minus) / (2 * eps);
      }
      const double got = a.data_ptr<double>()[k];
      if (std::abs(got - numeric) > atol + rtol * std::abs(numeric)) {
        return ::testing::AssertionFailure() << "input " << i << ", element " << k << ": analytic "
                                             << got << ", numeric " << numeric;
      }
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace miniaten_test
