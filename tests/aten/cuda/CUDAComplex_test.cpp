// Complex tensors on the GPU beside the CPU: the arithmetic, pow, eq/ne, where, the unary
// functions the CPU takes complex numbers in, over the layout cases, with CPU scalars on either
// side; and the ops the CPU refuses complex numbers for, with the CUDA names. Values within a
// tolerance relative to |z| (Note [Complex math on the GPU]); geometry and dtype exact.

#include <gtest/gtest.h>

#include <complex>
#include <functional>
#include <string>
#include <vector>

#include "CUDATestUtils.h"

#define EXPECT_THROW_MSG(expr, msg) \
  EXPECT_EQ(test_util::error_of([&] { (void)(expr); }), std::string(msg))

namespace {

using cuda_test::matches;
using elementwise_test::layout_cases;
using elementwise_test::make_values;

const at::ScalarType kComplexTypes[] = {at::kComplexFloat, at::kComplexDouble};

double tolerance_for(at::ScalarType t) {
  return t == at::kComplexFloat || t == at::kFloat ? 2e-5 : 1e-12;
}

struct Pair {
  at::Tensor cpu, gpu;
};

// Complex values (parts within about ±1.9) in like's geometry, on both sides.
Pair complex_with_layout_of(const at::Tensor& like, at::ScalarType dtype, int seed) {
  const int64_t n =
      std::max<int64_t>(static_cast<int64_t>(like.storage().nbytes() / like.element_size()), 1);
  const at::Tensor parts =
      at::mul(make_values(c10::toRealValueType(dtype), 2 * n, seed), 0.25).view({n, 2});
  const at::Tensor base = at::view_as_complex(parts);
  const at::Tensor gbase = base.cuda();
  return {base.as_strided(like.sizes(), like.strides(), like.storage_offset()),
          gbase.as_strided(like.sizes(), like.strides(), like.storage_offset())};
}

// Geometry and dtype exact; each element within tol * max(1, |cpu|), tol the dtype's by default.
::testing::AssertionResult close(const at::Tensor& cpu, const at::Tensor& gpu, double tol = 0) {
  if (tol == 0) tol = tolerance_for(cpu.scalar_type());
  if (!cpu.is_complex()) return matches(cpu, gpu, tol);
  if (!gpu.is_cuda()) return ::testing::AssertionFailure() << "result not on CUDA";
  if (gpu.scalar_type() != cpu.scalar_type() || !gpu.sizes().equals(cpu.sizes()) ||
      !gpu.strides().equals(cpu.strides())) {
    return ::testing::AssertionFailure()
           << gpu.scalar_type() << gpu.sizes() << gpu.strides() << " vs " << cpu.scalar_type()
           << cpu.sizes() << cpu.strides();
  }
  const at::Tensor g = gpu.cpu().to(at::kComplexDouble).contiguous();
  const at::Tensor c = cpu.to(at::kComplexDouble).contiguous();
  const auto* x = g.data_ptr<c10::complex<double>>();
  const auto* y = c.data_ptr<c10::complex<double>>();
  for (int64_t i = 0; i < g.numel(); ++i) {
    const std::complex<double> a(x[i].real(), x[i].imag()), b(y[i].real(), y[i].imag());
    if (a == b) continue;
    if (!(std::abs(a - b) <= tol * std::max(1.0, std::abs(b)))) {
      return ::testing::AssertionFailure() << "element " << i << ": " << a << " vs " << b;
    }
  }
  return ::testing::AssertionSuccess();
}

using Binary = std::function<at::Tensor(const at::Tensor&, const at::Tensor&)>;
using Unary = std::function<at::Tensor(const at::Tensor&)>;

TEST(CUDAComplex, BinaryOpsOverLayouts) {
  SKIP_WITHOUT_CUDA();
  const std::vector<std::pair<const char*, Binary>> ops = {
      {"add", [](const at::Tensor& a, const at::Tensor& b) { return at::add(a, b); }},
      {"add_alpha", [](const at::Tensor& a,
                       const at::Tensor& b) { return at::add(a, b, c10::complex<double>(2, -1)); }},
      {"sub", [](const at::Tensor& a, const at::Tensor& b) { return at::sub(a, b); }},
      {"mul", [](const at::Tensor& a, const at::Tensor& b) { return at::mul(a, b); }},
      {"div", [](const at::Tensor& a, const at::Tensor& b) { return at::div(a, b); }},
      {"pow", [](const at::Tensor& a, const at::Tensor& b) { return at::pow(a, b); }},
      {"eq", [](const at::Tensor& a, const at::Tensor& b) { return at::eq(a, b); }},
      {"eq_self", [](const at::Tensor& a, const at::Tensor&) { return at::eq(a, a); }},
      {"ne", [](const at::Tensor& a, const at::Tensor& b) { return at::ne(a, b); }},
      {"logical_and",
       [](const at::Tensor& a, const at::Tensor& b) {
         return at::logical_and(at::mul(a, at::gt(at::real(a), 0)), b);
       }},
      {"logical_or",
       [](const at::Tensor& a, const at::Tensor& b) {
         return at::logical_or(at::mul(a, at::gt(at::real(a), 0)), at::zeros_like(b));
       }},
      {"logical_xor_into_complex",  // a complex out= gets 1 or 0
       [](const at::Tensor& a, const at::Tensor& b) {
         at::Tensor out = at::empty({0}, a.options());
         return at::logical_xor_out(out, at::mul(a, at::gt(at::real(a), 0)), b);
       }},
      {"where",
       [](const at::Tensor& a, const at::Tensor& b) { return at::where(at::eq(a, b), a, b); }},
  };
  for (const at::ScalarType dtype : kComplexTypes) {
    for (const auto& c : layout_cases()) {
      const Pair a = complex_with_layout_of(c.a(), dtype, 1);
      const Pair b = complex_with_layout_of(c.b(), dtype, 2);
      for (const auto& op : ops) {
        EXPECT_TRUE(close(op.second(a.cpu, b.cpu), op.second(a.gpu, b.gpu)))
            << op.first << " " << dtype << " " << c.name;
      }
    }
  }
}

TEST(CUDAComplex, CpuScalarsOnEitherSide) {
  SKIP_WITHOUT_CUDA();
  for (const at::ScalarType dtype : kComplexTypes) {
    const Pair t = complex_with_layout_of(at::empty({7, 9}).t(), dtype, 3);
    const c10::complex<double> s(0.5, -1.5);
    const at::Tensor s0 = at::scalar_tensor(s, dtype);  // a 0-dim CPU tensor beside a CUDA one
    EXPECT_TRUE(close(at::add(t.cpu, s), at::add(t.gpu, s))) << dtype;
    EXPECT_TRUE(close(at::mul(t.cpu, s), at::mul(t.gpu, s))) << dtype;
    EXPECT_TRUE(close(at::pow(t.cpu, s0), at::pow(t.gpu, s0))) << dtype;
    EXPECT_TRUE(close(at::pow(s0, t.cpu), at::pow(s0, t.gpu))) << dtype;
    EXPECT_TRUE(close(at::div(s0, t.cpu), at::div(s0, t.gpu))) << dtype;
    EXPECT_TRUE(close(at::sub(s0, t.cpu), at::sub(s0, t.gpu))) << dtype;
    EXPECT_TRUE(close(at::eq(t.cpu, s0), at::eq(t.gpu, s0))) << dtype;
    // A real tensor with a complex Scalar promotes to complex, as on the CPU.
    const at::Tensor r = at::arange(6, at::kFloat);
    EXPECT_TRUE(close(at::mul(r, s), at::mul(r.cuda(), s))) << dtype;
  }
}

TEST(CUDAComplex, UnaryOpsOverLayouts) {
  SKIP_WITHOUT_CUDA();
  const std::vector<std::pair<const char*, Unary>> ops = {
      {"exp", [](const at::Tensor& z) { return at::exp(z); }},
      {"log", [](const at::Tensor& z) { return at::log(z); }},
      {"log2", [](const at::Tensor& z) { return at::log2(z); }},
      {"log10", [](const at::Tensor& z) { return at::log10(z); }},
      {"sin", [](const at::Tensor& z) { return at::sin(z); }},
      {"cos", [](const at::Tensor& z) { return at::cos(z); }},
      {"tan", [](const at::Tensor& z) { return at::tan(z); }},
      {"asin", [](const at::Tensor& z) { return at::asin(z); }},
      {"acos", [](const at::Tensor& z) { return at::acos(z); }},
      {"atan", [](const at::Tensor& z) { return at::atan(z); }},
      {"sinh", [](const at::Tensor& z) { return at::sinh(z); }},
      {"cosh", [](const at::Tensor& z) { return at::cosh(z); }},
      {"tanh", [](const at::Tensor& z) { return at::tanh(z); }},
      {"sqrt", [](const at::Tensor& z) { return at::sqrt(z); }},
      {"rsqrt", [](const at::Tensor& z) { return at::rsqrt(z); }},
      {"reciprocal", [](const at::Tensor& z) { return at::reciprocal(z); }},
      {"neg", [](const at::Tensor& z) { return at::neg(z); }},
      {"conj_physical", [](const at::Tensor& z) { return at::conj_physical(z); }},
      {"abs", [](const at::Tensor& z) { return at::abs(z); }},
      {"logical_not", [](const at::Tensor& z) { return at::logical_not(z); }},
      {"pow_2.5", [](const at::Tensor& z) { return at::pow(z, 2.5); }},
      {"pow_0.5", [](const at::Tensor& z) { return at::pow(z, 0.5); }},  // sqrt's kernel
      {"pow_-1", [](const at::Tensor& z) { return at::pow(z, -1); }},    // reciprocal's
      {"exp_", [](const at::Tensor& z) { return z.clone().exp_(); }},
      {"silu", [](const at::Tensor& z) { return at::silu(z); }},
      {"sigmoid", [](const at::Tensor& z) { return at::sigmoid(z); }},
      {"lerp_scalar",
       [](const at::Tensor& z) {
         return at::lerp(z, z.flip({-1}), c10::complex<double>(0.3, 0.4));
       }},
      {"lerp_far",  // |weight| >= 0.5: the other side's formula
       [](const at::Tensor& z) {
         return at::lerp(z, z.flip({-1}), c10::complex<double>(0.6, -0.2));
       }},
      {"lerp_tensor", [](const at::Tensor& z) { return at::lerp(z, z.flip({-1}), z); }},
      {"addcmul",
       [](const at::Tensor& z) {
         return at::addcmul(z, z.flip({-1}), z, c10::complex<double>(0.5, -2));
       }},
      {"addcdiv",
       [](const at::Tensor& z) {
         return at::addcdiv(z, z.flip({-1}), at::add(z, 3), c10::complex<double>(0.5, -2));
       }},
  };
  for (const at::ScalarType dtype : kComplexTypes) {
    for (const auto& c : layout_cases()) {
      const Pair z = complex_with_layout_of(c.a(), dtype, 4);
      for (const auto& op : ops) {
        EXPECT_TRUE(close(op.second(z.cpu), op.second(z.gpu)))
            << op.first << " " << dtype << " " << c.name;
      }
    }
  }
}

// sum, mean and prod as a GPU reduction (one pass, split, along the outputs), cumsum by warps and
// by CUB's keyed scan; the orders of the additions differ from the CPU's.
TEST(CUDAComplex, SumMeanAndCumsum) {
  SKIP_WITHOUT_CUDA();
  for (const at::ScalarType dtype : kComplexTypes) {
    const double tol = dtype == at::kComplexFloat ? 1e-4 : 1e-11;
    for (const auto& c : layout_cases()) {
      const Pair z = complex_with_layout_of(c.a(), dtype, 5);
      EXPECT_TRUE(close(at::sum(z.cpu), at::sum(z.gpu), tol)) << dtype << " " << c.name;
      EXPECT_TRUE(close(at::mean(z.cpu), at::mean(z.gpu), tol)) << dtype << " " << c.name;
      // Factors near 1, so that the product stays finite and away from 0.
      EXPECT_TRUE(close(at::prod(at::add(at::mul(z.cpu, 0.1), 1)),
                        at::prod(at::add(at::mul(z.gpu, 0.1), 1)), tol))
          << dtype << " " << c.name;
      if (z.cpu.dim() == 0) continue;
      EXPECT_TRUE(close(at::sum(z.cpu, {0}, true), at::sum(z.gpu, {0}, true), tol))
          << dtype << " " << c.name;
      EXPECT_TRUE(close(at::sum(z.cpu, {-1}), at::sum(z.gpu, {-1}), tol)) << dtype << " " << c.name;
      EXPECT_TRUE(close(at::cumsum(z.cpu, 0), at::cumsum(z.gpu, 0), tol)) << dtype << " " << c.name;
      EXPECT_TRUE(close(at::cumsum(z.cpu, -1), at::cumsum(z.gpu, -1), tol))
          << dtype << " " << c.name;
    }
    // Long enough for a split reduction and the keyed scan; 20000 rows for the warps.
    const Pair line = complex_with_layout_of(at::empty({1 << 20}), dtype, 6);
    EXPECT_TRUE(close(at::sum(line.cpu), at::sum(line.gpu), tol)) << dtype;
    EXPECT_TRUE(close(at::cumsum(line.cpu, 0), at::cumsum(line.gpu, 0), tol)) << dtype;
    const Pair rows = complex_with_layout_of(at::empty({20000, 37}), dtype, 7);
    EXPECT_TRUE(close(at::cumsum(rows.cpu, 1), at::cumsum(rows.gpu, 1), tol)) << dtype;
    EXPECT_TRUE(close(at::sum(rows.cpu, {0}), at::sum(rows.gpu, {0}), tol)) << dtype;
  }
}

// The ops the CPU refuses complex numbers for refuse them here too, with PyTorch's CUDA names.
TEST(CUDAComplex, WhatTheCpuRefusesIsRefused) {
  SKIP_WITHOUT_CUDA();
  const at::Tensor z = at::ones({3}, at::TensorOptions(at::kCUDA).dtype(at::kComplexFloat));
  EXPECT_THROW_MSG(at::lt(z, z), "\"lt_cuda\" not implemented for 'ComplexFloat'");
  EXPECT_THROW_MSG(at::maximum(z, z), "maximum not implemented for complex tensors.");
  EXPECT_THROW_MSG(at::div(z, z, "trunc"), "\"div_trunc_cuda\" not implemented for 'ComplexFloat'");
  EXPECT_THROW_MSG(at::expm1(z), "\"expm1_cuda\" not implemented for 'ComplexFloat'");
  EXPECT_THROW_MSG(z.clone().abs_(), "In-place abs is not supported for complex tensors.");
}

}  // namespace
