// The complex functors of the GPU kernels (aten/native/cuda/ComplexMath.h) run through the GPU
// loops' bodies on the host (HostLauncher.h), over the layout cases, beside the CPU ops: the
// same geometry and, since the host pass computes with the CPU's own functions, the same values
// bit for bit (Note [Complex math on the GPU]). On a device the same functors call libcu++'s
// functions instead: tests/aten/cuda/CUDAComplex_test.cpp compares those with a tolerance.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "../ElementwiseTestUtils.h"
#include "HostLauncher.h"
#include "aten/ATen.h"
#include "aten/native/cuda/ComplexMath.h"

namespace {

using at::native::ComplexFn;
using at::native::ComplexPredicate;
using elementwise_test::layout_cases;
using test_util::gpu_kernel_on_host;
using test_util::gpu_kernel_with_scalars_on_host;

const at::ScalarType kComplexTypes[] = {at::kComplexFloat, at::kComplexDouble};

// Complex values with both parts nonzero and of both signs, in real's layout where real is dense.
at::Tensor complexify(const at::Tensor& real, at::ScalarType dtype, double shift = 0) {
  return at::add(at::mul(real.to(dtype), c10::complex<double>(1.0 / 7, -1.0 / 11)),
                 c10::complex<double>(0.25 + shift, 0.5));
}

// Bit for bit, NaNs included (1 / 0 is NaN + NaN i by the textbook formula, on both sides).
::testing::AssertionResult same_values(const at::Tensor& got, const at::Tensor& want) {
  const auto parts = [](const at::Tensor& t) {
    return t.is_complex() ? at::view_as_real(t.contiguous()) : t;
  };
  if (elementwise_test::same_tensor(parts(got), parts(want))) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "values:\n" << parts(got) << "\nvs\n" << parts(want);
}

// Within a few ulps of |want|, for quotients (div, addcdiv, sigmoid, silu): this file is compiled
// without -ffp-contract=off, so GCC may fuse a product of c10::complex's division into its sum
// here and not in the CPU kernels. Products are rounded as written on both sides (Note [A complex
// product is rounded as written]) and compared bit for bit.
::testing::AssertionResult near_values(const at::Tensor& got, const at::Tensor& want) {
  const at::Tensor g = at::view_as_real(got.contiguous()).to(at::kDouble).contiguous();
  const at::Tensor w = at::view_as_real(want.contiguous()).to(at::kDouble).contiguous();
  const double ulp = want.scalar_type() == at::kComplexFloat ? 0x1p-23 : 0x1p-52;
  const double* x = g.data_ptr<double>();
  const double* y = w.data_ptr<double>();
  const auto differ = [](double a, double b, double tol) {
    if (std::isnan(a) && std::isnan(b)) return false;
    return a != b && !(std::abs(a - b) <= tol);
  };
  for (int64_t i = 0; i + 1 < g.numel(); i += 2) {
    const double scale = std::max(1.0, std::hypot(y[i], y[i + 1]));
    if (differ(x[i], y[i], 4 * ulp * scale) || differ(x[i + 1], y[i + 1], 4 * ulp * scale)) {
      return ::testing::AssertionFailure()
             << "element " << i / 2 << ": (" << x[i] << ", " << x[i + 1] << ") vs (" << y[i] << ", "
             << y[i + 1] << ")";
    }
  }
  return ::testing::AssertionSuccess();
}

// The same geometry and dtype, and the same values bit for bit or (`near`) within a few ulps.
::testing::AssertionResult same(const at::Tensor& got, const at::Tensor& want, bool near = false) {
  if (got.scalar_type() != want.scalar_type()) {
    return ::testing::AssertionFailure() << got.scalar_type() << " vs " << want.scalar_type();
  }
  if (!got.sizes().equals(want.sizes()) || !got.strides().equals(want.strides())) {
    return ::testing::AssertionFailure()
           << got.sizes() << got.strides() << " vs " << want.sizes() << want.strides();
  }
  return near ? near_values(got, want) : same_values(got, want);
}

template <typename F>
at::Tensor binary_on_host(const at::Tensor& a, const at::Tensor& b, const F& f) {
  at::Tensor out;
  auto iter = at::TensorIterator::binary_op(out, a, b);
  gpu_kernel_with_scalars_on_host(iter, f);
  return iter.output();
}

template <typename F, typename M>
at::Tensor binary_on_host(const at::Tensor& a, const at::Tensor& b, const F& f, const M& mirror) {
  at::Tensor out;
  auto iter = at::TensorIterator::binary_op(out, a, b);
  gpu_kernel_with_scalars_on_host(iter, f, mirror);
  return iter.output();
}

template <typename F>
at::Tensor ternary_on_host(const at::Tensor& a, const at::Tensor& b, const at::Tensor& c,
                           const F& f) {
  at::Tensor out;
  auto iter =
      at::TensorIteratorConfig().add_output(out).add_input(a).add_input(b).add_input(c).build();
  gpu_kernel_on_host(iter, f);
  return iter.output();
}

template <typename F>
at::Tensor compare_on_host(const at::Tensor& a, const at::Tensor& b, const F& f) {
  at::Tensor out = at::empty({0}, a.options().dtype(at::kBool));
  auto iter = at::TensorIterator::comparison_op(out, a, b);
  gpu_kernel_with_scalars_on_host(iter, f, f);
  return iter.output();
}

template <typename F>
at::Tensor unary_on_host(const at::Tensor& a, const F& f) {
  at::Tensor out;
  auto iter = at::TensorIterator::unary_op(out, a);
  gpu_kernel_on_host(iter, f);
  return iter.output();
}

// Into an output of `dtype` (abs's real result, logical_not's Bool).
template <typename F>
at::Tensor unary_into_on_host(const at::Tensor& a, at::ScalarType dtype, const F& f) {
  at::Tensor out = at::empty({0}, a.options().dtype(dtype));
  auto iter =
      at::TensorIteratorConfig().add_output(out).add_input(a).check_all_same_dtype(false).build();
  gpu_kernel_on_host(iter, f);
  return iter.output();
}

TEST(GpuComplex, ArithmeticAndEqualityOverEveryLayout) {
  for (const at::ScalarType dtype : kComplexTypes) {
    AT_DISPATCH_COMPLEX_TYPES(dtype, "test", [&] {
      using namespace at::native;
      const scalar_t two_minus_i(2, -1);
      for (const auto& c : layout_cases()) {
        SCOPED_TRACE(std::string(c.name) + " " + c10::toString(dtype));
        const at::Tensor a = complexify(c.a(), dtype);
        const at::Tensor b = complexify(c.b(), dtype, 0.125);
        EXPECT_TRUE(same(binary_on_host(a, b, ComplexAddFunctor<scalar_t>{scalar_t(1), true}),
                         at::add(a, b)));
        EXPECT_TRUE(same(binary_on_host(a, b, ComplexAddFunctor<scalar_t>{two_minus_i, false}),
                         at::add(a, b, c10::complex<double>(2, -1))));
        EXPECT_TRUE(same(binary_on_host(a, b, ComplexMulFunctor<scalar_t>{}), at::mul(a, b)));
        EXPECT_TRUE(same(binary_on_host(a, b, ComplexDivFunctor<scalar_t>{}), at::div(a, b), true));
        using Pow = ComplexPowFunctor<scalar_t>;
        EXPECT_TRUE(same(binary_on_host(a, b, Pow{false}, Pow{true}), at::pow(a, b)));
        // Equal where the layouts put equal values side by side (a against itself).
        EXPECT_TRUE(
            same(compare_on_host(a, b, ComplexPredicateFunctor<scalar_t, ComplexPredicate::Eq>{}),
                 at::eq(a, b)));
        EXPECT_TRUE(
            same(compare_on_host(a, a, ComplexPredicateFunctor<scalar_t, ComplexPredicate::Eq>{}),
                 at::eq(a, a)));
        EXPECT_TRUE(
            same(compare_on_host(a, b, ComplexPredicateFunctor<scalar_t, ComplexPredicate::Ne>{}),
                 at::ne(a, b)));
        // The logical ops, with zeros among the values (either part nonzero is true).
        const at::Tensor za = at::mul(a, (c.a() > 2).to(dtype));
        const at::Tensor zb = at::mul(b, (c.b() < 4).to(dtype));
        EXPECT_TRUE(same(
            compare_on_host(za, zb, ComplexPredicateFunctor<scalar_t, ComplexPredicate::And>{}),
            at::logical_and(za, zb)));
        EXPECT_TRUE(
            same(compare_on_host(za, zb, ComplexPredicateFunctor<scalar_t, ComplexPredicate::Or>{}),
                 at::logical_or(za, zb)));
        EXPECT_TRUE(same(
            compare_on_host(za, zb, ComplexPredicateFunctor<scalar_t, ComplexPredicate::Xor>{}),
            at::logical_xor(za, zb)));
      }
    });
  }
}

// addcmul, addcdiv and lerp: three operands (or two and a weight), both sides of lerp's
// formula.
TEST(GpuComplex, AddcmulAddcdivAndLerp) {
  for (const at::ScalarType dtype : kComplexTypes) {
    AT_DISPATCH_COMPLEX_TYPES(dtype, "test", [&] {
      using namespace at::native;
      const c10::complex<double> value(0.5, -2);
      const scalar_t v = c10::Scalar(value).to<scalar_t>();
      for (const auto& c : layout_cases()) {
        SCOPED_TRACE(std::string(c.name) + " " + c10::toString(dtype));
        const at::Tensor a = complexify(c.a(), dtype);
        const at::Tensor b = complexify(c.b(), dtype, 0.125);
        const at::Tensor w = complexify(c.b(), dtype, -0.5);
        EXPECT_TRUE(same(ternary_on_host(a, b, w, ComplexAddcFunctor<scalar_t>{v, false}),
                         at::addcmul(a, b, w, value)));
        EXPECT_TRUE(same(ternary_on_host(a, b, w, ComplexAddcFunctor<scalar_t>{v, true}),
                         at::addcdiv(a, b, w, value), true));
        EXPECT_TRUE(same(ternary_on_host(a, b, w, ComplexLerpTensorFunctor<scalar_t>{}),
                         at::lerp(a, b, w)));
        for (const c10::complex<double> weight :
             {c10::complex<double>(0.3, 0.1), c10::complex<double>(0.5, 0.5)}) {
          const ComplexLerpScalarFunctor<scalar_t> lerp{c10::Scalar(weight).to<scalar_t>()};
          at::Tensor out;
          auto iter = at::TensorIterator::binary_op(out, a, b);  // no CPU scalars in lerp's
          gpu_kernel_on_host(iter, lerp);
          EXPECT_TRUE(same(iter.output(), at::lerp(a, b, weight)));
        }
      }
    });
  }
}

// A 0-dim CPU operand rides along as a kernel argument on either side: pow's flag swaps the
// bound pair's arguments back.
TEST(GpuComplex, ACpuScalarOnEitherSide) {
  for (const at::ScalarType dtype : kComplexTypes) {
    AT_DISPATCH_COMPLEX_TYPES(dtype, "test", [&] {
      using Pow = at::native::ComplexPowFunctor<scalar_t>;
      const at::Tensor t = complexify(at::arange(-40, 40, at::kFloat).view({8, 10}).t(), dtype);
      const at::Tensor s = at::scalar_tensor(c10::complex<double>(0.5, -1.5), dtype);
      EXPECT_TRUE(same(binary_on_host(t, s, Pow{false}, Pow{true}), at::pow(t, s)));
      EXPECT_TRUE(same(binary_on_host(s, t, Pow{false}, Pow{true}), at::pow(s, t)));
      using Add = at::native::ComplexAddFunctor<scalar_t>;
      EXPECT_TRUE(same(binary_on_host(s, t, Add{scalar_t(-1), false}), at::sub(s, t)));
    });
  }
}

TEST(GpuComplex, UnaryFunctionsOverEveryLayout) {
  using at::native::ComplexMathFunctor;
  for (const at::ScalarType dtype : kComplexTypes) {
    AT_DISPATCH_COMPLEX_TYPES(dtype, "test", [&] {
      using T = scalar_t;
      const std::vector<std::pair<std::function<at::Tensor(const at::Tensor&)>,
                                  std::function<at::Tensor(const at::Tensor&)>>>
          cases = {
              {[](const at::Tensor& z) {
                 return unary_on_host(z, ComplexMathFunctor<T, ComplexFn::Exp>{});
               },
               [](const at::Tensor& z) { return at::exp(z); }},
              {[](const at::Tensor& z) {
                 return unary_on_host(z, ComplexMathFunctor<T, ComplexFn::Log>{});
               },
               [](const at::Tensor& z) { return at::log(z); }},
              {[](const at::Tensor& z) {
                 return unary_on_host(z, ComplexMathFunctor<T, ComplexFn::Log2>{});
               },
               [](const at::Tensor& z) { return at::log2(z); }},
              {[](const at::Tensor& z) {
                 return unary_on_host(z, ComplexMathFunctor<T, ComplexFn::Log10>{});
               },
               [](const at::Tensor& z) { return at::log10(z); }},
              {[](const at::Tensor& z) {
                 return unary_on_host(z, ComplexMathFunctor<T, ComplexFn::Sin>{});
               },
               [](const at::Tensor& z) { return at::sin(z); }},
              {[](const at::Tensor& z) {
                 return unary_on_host(z, ComplexMathFunctor<T, ComplexFn::Cos>{});
               },
               [](const at::Tensor& z) { return at::cos(z); }},
              {[](const at::Tensor& z) {
                 return unary_on_host(z, ComplexMathFunctor<T, ComplexFn::Tan>{});
               },
               [](const at::Tensor& z) { return at::tan(z); }},
              {[](const at::Tensor& z) {
                 return unary_on_host(z, ComplexMathFunctor<T, ComplexFn::Asin>{});
               },
               [](const at::Tensor& z) { return at::asin(z); }},
              {[](const at::Tensor& z) {
                 return unary_on_host(z, ComplexMathFunctor<T, ComplexFn::Acos>{});
               },
               [](const at::Tensor& z) { return at::acos(z); }},
              {[](const at::Tensor& z) {
                 return unary_on_host(z, ComplexMathFunctor<T, ComplexFn::Atan>{});
               },
               [](const at::Tensor& z) { return at::atan(z); }},
              {[](const at::Tensor& z) {
                 return unary_on_host(z, ComplexMathFunctor<T, ComplexFn::Sinh>{});
               },
               [](const at::Tensor& z) { return at::sinh(z); }},
              {[](const at::Tensor& z) {
                 return unary_on_host(z, ComplexMathFunctor<T, ComplexFn::Cosh>{});
               },
               [](const at::Tensor& z) { return at::cosh(z); }},
              {[](const at::Tensor& z) {
                 return unary_on_host(z, ComplexMathFunctor<T, ComplexFn::Tanh>{});
               },
               [](const at::Tensor& z) { return at::tanh(z); }},
              {[](const at::Tensor& z) {
                 return unary_on_host(z, ComplexMathFunctor<T, ComplexFn::Sqrt>{});
               },
               [](const at::Tensor& z) { return at::sqrt(z); }},
              {[](const at::Tensor& z) {
                 return unary_on_host(z, ComplexMathFunctor<T, ComplexFn::Rsqrt>{});
               },
               [](const at::Tensor& z) { return at::rsqrt(z); }},
              {[](const at::Tensor& z) {
                 return unary_on_host(z, ComplexMathFunctor<T, ComplexFn::Reciprocal>{});
               },
               [](const at::Tensor& z) { return at::reciprocal(z); }},
              {[](const at::Tensor& z) {
                 return unary_on_host(z, ComplexMathFunctor<T, ComplexFn::Sigmoid>{});
               },
               [](const at::Tensor& z) { return at::sigmoid(z); }},
              {[](const at::Tensor& z) {
                 return unary_on_host(z, at::native::ComplexSiluFunctor<T>{});
               },
               [](const at::Tensor& z) { return at::silu(z); }},
              {[](const at::Tensor& z) {
                 return unary_on_host(z, at::native::ComplexNegFunctor<T>{});
               },
               [](const at::Tensor& z) { return at::neg(z); }},
              {[](const at::Tensor& z) {
                 return unary_on_host(z, at::native::ComplexConjFunctor<T>{});
               },
               [](const at::Tensor& z) { return at::conj_physical(z); }},
              {[](const at::Tensor& z) {
                 return unary_into_on_host(z, c10::toRealValueType(z.scalar_type()),
                                           at::native::ComplexAbsFunctor<T>{});
               },
               [](const at::Tensor& z) { return at::abs(z); }},
              {[](const at::Tensor& z) {
                 return unary_on_host(z, at::native::ComplexAbsAsComplexFunctor<T>{});
               },
               [](const at::Tensor& z) {
                 at::Tensor out = at::empty({0}, z.options());
                 return at::abs_out(out, z);
               }},
              {[](const at::Tensor& z) {
                 return unary_into_on_host(z, at::kBool, at::native::ComplexLogicalNotFunctor<T>{});
               },
               [](const at::Tensor& z) { return at::logical_not(z); }},
          };
      for (const auto& c : layout_cases()) {
        // Zeros among the values, for logical_not and abs.
        const at::Tensor z = at::mul(complexify(c.a(), dtype), (c.a() > 3).to(dtype));
        for (size_t k = 0; k < cases.size(); ++k) {
          SCOPED_TRACE(std::string(c.name) + " " + c10::toString(dtype) + " function " +
                       std::to_string(k));
          const at::Tensor want = cases[k].second(z);
          const at::Tensor got = cases[k].first(z);
          // abs_out into an empty tensor takes its own strides; compare values there.
          if (k + 2 == cases.size()) {
            EXPECT_TRUE(same_values(got, want));
          } else {
            // Complex results within a few ulps (sigmoid's and silu's quotients: near_values).
            EXPECT_TRUE(same(got, want, want.is_complex()));
          }
        }
      }
    });
  }
}

}  // namespace
