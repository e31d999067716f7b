// The elementwise operators and sum/mean on CUDA tensors (issue 16), each case run on the CPU
// and on the device and compared: sizes, strides, dtype, values (exactly for integers, Bool and
// the comparisons; to a tolerance where CUDA's libm or the order of a sum differs), error texts,
// and which GPU loop or reduction plan ran. Every layout case of the CPU elementwise tests
// (ElementwiseTestUtils.h) is rebuilt on the device with the same strides and storage offset.
// Skipped without a device.

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "../ElementwiseTestUtils.h"
#include "CUDATestUtils.h"
#include "aten/native/cuda/ElementwiseBody.h"  // last_gpu_loop

// The whole message of what expr throws.
#define EXPECT_THROW_MSG(expr, msg) \
  EXPECT_EQ(test_util::error_of([&] { (void)(expr); }), std::string(msg))

namespace {

using cuda_test::matches;
using cuda_test::same_layout_on_device;
using cuda_test::vec;
using elementwise_test::layout_cases;
using elementwise_test::make_values;

// `like`'s layout (sizes, strides, storage offset) over a storage of `dtype` values, on the CPU
// and the same storage bytes on the device.
struct Pair {
  at::Tensor cpu, gpu;
};

Pair with_layout_of(const at::Tensor& like, at::ScalarType dtype, int seed, bool nonzero = false) {
  const int64_t n = static_cast<int64_t>(like.storage().nbytes() / like.element_size());
  at::Tensor base = make_values(dtype, std::max<int64_t>(n, 1), seed);
  if (nonzero && dtype != at::kBool) base = at::where(base == 0, at::ones_like(base), base);
  const at::Tensor gbase = base.cuda();
  return {base.as_strided(like.sizes(), like.strides(), like.storage_offset()),
          gbase.as_strided(like.sizes(), like.strides(), like.storage_offset())};
}

double tolerance_for(at::ScalarType t) {
  if (t == at::kHalf) return 1e-3;
  if (t == at::kBFloat16) return 1e-2;
  if (t == at::kFloat) return 1e-6;
  if (t == at::kDouble) return 1e-14;
  return 0;
}

using Binary = std::function<at::Tensor(const at::Tensor&, const at::Tensor&)>;

struct BinaryCase {
  const char* name;
  Binary op;
  bool floats_only;
  bool no_bool;
  bool nonzero_divisor;
};

const std::vector<BinaryCase>& binary_cases() {
  static const std::vector<BinaryCase> cases = {
      {"add", [](auto& a, auto& b) { return at::add(a, b); }, false, false, false},
      {"add_alpha", [](auto& a, auto& b) { return at::add(a, b, 3); }, false, true, false},
      {"sub", [](auto& a, auto& b) { return at::sub(a, b); }, false, true, false},
      {"mul", [](auto& a, auto& b) { return at::mul(a, b); }, false, false, false},
      {"div", [](auto& a, auto& b) { return at::div(a, b); }, false, false, true},
      {"div_trunc", [](auto& a, auto& b) { return at::div(a, b, "trunc"); }, false, true, true},
      {"div_floor", [](auto& a, auto& b) { return at::div(a, b, "floor"); }, false, true, true},
      {"maximum", [](auto& a, auto& b) { return at::maximum(a, b); }, false, false, false},
      {"minimum", [](auto& a, auto& b) { return at::minimum(a, b); }, false, false, false},
      {"eq", [](auto& a, auto& b) { return at::eq(a, b); }, false, false, false},
      {"ne", [](auto& a, auto& b) { return at::ne(a, b); }, false, false, false},
      {"lt", [](auto& a, auto& b) { return at::lt(a, b); }, false, false, false},
      {"le", [](auto& a, auto& b) { return at::le(a, b); }, false, false, false},
      {"gt", [](auto& a, auto& b) { return at::gt(a, b); }, false, false, false},
      {"ge", [](auto& a, auto& b) { return at::ge(a, b); }, false, false, false},
      {"logical_and", [](auto& a, auto& b) { return at::logical_and(a, b); }, false, false, false},
      {"logical_or", [](auto& a, auto& b) { return at::logical_or(a, b); }, false, false, false},
      {"logical_xor", [](auto& a, auto& b) { return at::logical_xor(a, b); }, false, false, false},
  };
  return cases;
}

// The CPU result of op for dtypes libtorch 1.13's CPU has no kernel for (Half): computed in
// float and rounded back, what the GPU kernel computes.
at::Tensor cpu_reference(const Binary& op, const at::Tensor& a, const at::Tensor& b) {
  try {
    return op(a, b);
  } catch (const c10::Error&) {
    if (a.scalar_type() != at::kHalf) throw;
    const at::Tensor r = op(a.to(at::kFloat), b.to(at::kFloat));
    return r.scalar_type() == at::kFloat ? r.to(at::kHalf) : r;
  }
}

TEST(CUDABinaryOps, EveryOpDtypeAndLayoutMatchesTheCpu) {
  SKIP_WITHOUT_CUDA();
  for (const auto& op : binary_cases()) {
    for (at::ScalarType dtype : elementwise_test::kAllTypes) {
      if (dtype == at::kBool && op.no_bool) continue;
      for (const auto& c : layout_cases()) {
        const Pair a = with_layout_of(c.a(), dtype, 1);
        const Pair b = with_layout_of(c.b(), dtype, 2, op.nonzero_divisor);
        const at::Tensor expected = cpu_reference(op.op, a.cpu, b.cpu);
        const at::Tensor got = op.op(a.gpu, b.gpu);
        EXPECT_TRUE(matches(expected, got, tolerance_for(expected.scalar_type())))
            << op.name << " " << dtype << " " << c.name;
      }
    }
  }
}

// A Scalar, a wrapped number or a 0-dim CPU tensor rides along as a kernel argument (Note [A CPU
// scalar rides along as a kernel argument]); promotion follows the CPU's rules.
TEST(CUDABinaryOps, CpuScalarsAndPromotion) {
  SKIP_WITHOUT_CUDA();
  const at::Tensor f = at::arange(-8, 9, at::kFloat).reshape({17});
  const at::Tensor i = at::arange(-8, 9, at::kInt);
  const at::Tensor gf = f.cuda(), gi = i.cuda();
  EXPECT_TRUE(matches(at::add(f, 2), at::add(gf, 2)));
  EXPECT_STREQ(at::native::last_gpu_loop(), "vectorized");
  EXPECT_TRUE(matches(at::mul(i, 2.5), at::mul(gi, 2.5)));  // Int * double -> Float
  EXPECT_TRUE(matches(at::sub(i, 3), at::sub(gi, 3)));
  EXPECT_TRUE(matches(1.5 - f, 1.5 - gf));  // a Scalar first: the mirror (Swapped) form
  EXPECT_TRUE(matches(at::div(i, 4), at::div(gi, 4), 1e-6));
  const at::Tensor s = at::scalar_tensor(3.0, at::kDouble);  // a 0-dim CPU tensor, not wrapped
  EXPECT_TRUE(matches(at::add(f, s), at::add(gf, s)));
  EXPECT_TRUE(matches(at::add(s, f), at::add(s, gf)));
  EXPECT_TRUE(matches(at::mul(i, s), at::mul(gi, s)));  // Int * 0-dim Double -> Int
  EXPECT_TRUE(matches(at::lt(f, 0.5), at::lt(gf, 0.5)));
  // Int + Float -> Float: the Int operand converted first (Note [Operands are converted before
  // a CUDA op kernel]), then the uncast loop.
  EXPECT_TRUE(matches(at::add(i, f), at::add(gi, gf)));
  EXPECT_STREQ(at::native::last_gpu_loop(), "vectorized");
  // Both inputs CPU scalars, a CUDA out=.
  at::Tensor out = at::empty({}, at::TensorOptions(at::kCUDA).dtype(at::kFloat));
  at::add_out(out, s, at::scalar_tensor(2.0));
  EXPECT_EQ(out.item<float>(), 5.0f);
  // A comparison into an out= of another dtype gets 1 or 0 of it.
  at::Tensor cmp_out = at::empty({17}, at::TensorOptions(at::kCUDA).dtype(at::kFloat));
  at::gt_out(cmp_out, gf, 0);
  EXPECT_TRUE(matches(at::gt(f, 0).to(at::kFloat), cmp_out));
  // In place, and an out= of the common dtype.
  at::Tensor g2 = gf.clone();
  g2.add_(gf, 2).mul_(0.5);
  EXPECT_TRUE(matches(f.clone().add_(f, 2).mul_(0.5), g2));
}

TEST(CUDABinaryOps, ErrorsAreTheCpuOnes) {
  SKIP_WITHOUT_CUDA();
  const at::Tensor g = at::ones({3}, at::kCUDA);
  const at::Tensor c = at::ones({3});
  EXPECT_THROW_MSG(at::add(g, c),
                   "Expected all tensors to be on the same device, but found at least two "
                   "devices, cuda:0 and cpu!");
  EXPECT_THROW_MSG(at::add(c, g),
                   "Expected all tensors to be on the same device, but found at least two "
                   "devices, cuda:0 and cpu!");
  EXPECT_THROW_MSG(at::add(g, at::ones({4}, at::kCUDA)),
                   "The size of tensor a (3) must match the size of tensor b (4) at non-singleton "
                   "dimension 0");
  at::Tensor gi = at::ones({3}, at::TensorOptions(at::kCUDA).dtype(at::kInt));
  EXPECT_THROW_MSG(gi.add_(1.5), "result type Float can't be cast to the desired output type Int");
  // Complex numbers add (CUDAComplex_test.cpp), but have no order.
  const at::Tensor z = at::ones({3}, at::TensorOptions(at::kCUDA).dtype(at::kComplexFloat));
  EXPECT_THROW_MSG(at::gt(z, z), "\"gt_cuda\" not implemented for 'ComplexFloat'");
}

TEST(CUDABinaryOps, WhereOverLayouts) {
  SKIP_WITHOUT_CUDA();
  for (const auto& c : layout_cases()) {
    const Pair cond = with_layout_of(c.a(), at::kBool, 3);
    const Pair a = with_layout_of(c.a(), at::kFloat, 1);
    const Pair b = with_layout_of(c.b(), at::kFloat, 2);
    EXPECT_TRUE(matches(at::where(cond.cpu, a.cpu, b.cpu), at::where(cond.gpu, a.gpu, b.gpu)))
        << c.name;
    EXPECT_TRUE(matches(at::where(cond.cpu, a.cpu, 0.5), at::where(cond.gpu, a.gpu, 0.5)))
        << c.name;
  }
}

// ---- Unary ------------------------------------------------------------------------------------

using Unary = std::function<at::Tensor(const at::Tensor&)>;

TEST(CUDAUnaryOps, FloatingFunctionsMatchTheCpuToRounding) {
  SKIP_WITHOUT_CUDA();
  const std::vector<std::pair<const char*, Unary>> ops = {
      {"exp", [](auto& t) { return at::exp(t); }},
      {"expm1", [](auto& t) { return at::expm1(t); }},
      {"exp2", [](auto& t) { return at::exp2(t); }},
      {"log", [](auto& t) { return at::log(t); }},
      {"log2", [](auto& t) { return at::log2(t); }},
      {"log10", [](auto& t) { return at::log10(t); }},
      {"log1p", [](auto& t) { return at::log1p(t); }},
      {"sin", [](auto& t) { return at::sin(t); }},
      {"cos", [](auto& t) { return at::cos(t); }},
      {"tan", [](auto& t) { return at::tan(t); }},
      {"asin", [](auto& t) { return at::asin(t); }},
      {"acos", [](auto& t) { return at::acos(t); }},
      {"atan", [](auto& t) { return at::atan(t); }},
      {"sinh", [](auto& t) { return at::sinh(t); }},
      {"cosh", [](auto& t) { return at::cosh(t); }},
      {"tanh", [](auto& t) { return at::tanh(t); }},
      {"erf", [](auto& t) { return at::erf(t); }},
      {"erfc", [](auto& t) { return at::erfc(t); }},
      {"sqrt", [](auto& t) { return at::sqrt(t); }},
      {"rsqrt", [](auto& t) { return at::rsqrt(t); }},
      {"reciprocal", [](auto& t) { return at::reciprocal(t); }},
      {"sigmoid", [](auto& t) { return at::sigmoid(t); }},
      {"floor", [](auto& t) { return at::floor(t); }},
      {"ceil", [](auto& t) { return at::ceil(t); }},
      {"trunc", [](auto& t) { return at::trunc(t); }},
      {"round", [](auto& t) { return at::round(t); }},
      {"neg", [](auto& t) { return at::neg(t); }},
      {"abs", [](auto& t) { return at::abs(t); }},
      {"sign", [](auto& t) { return at::sign(t); }},
  };
  for (const auto& [name, op] : ops) {
    for (at::ScalarType dtype : {at::kFloat, at::kDouble, at::kHalf, at::kBFloat16}) {
      for (const auto& c : layout_cases()) {
        const Pair a = with_layout_of(c.a(), dtype, 5);
        // libtorch 1.13's CPU has no Half kernels for most: the reference computes in float.
        const bool via_float = dtype == at::kHalf || dtype == at::kBFloat16;
        const at::Tensor expected = via_float ? op(a.cpu.to(at::kFloat)).to(dtype) : op(a.cpu);
        const at::Tensor got = op(a.gpu);
        // 2 ulp of CUDA's libm (float) beside SLEEF; one rounding step for Half/BFloat16.
        const double tol = dtype == at::kFloat ? 1e-6 : tolerance_for(dtype);
        EXPECT_TRUE(matches(expected, got, tol)) << name << " " << dtype << " " << c.name;
      }
    }
  }
}

TEST(CUDAUnaryOps, IntegerAndBoolOpsAreExact) {
  SKIP_WITHOUT_CUDA();
  for (at::ScalarType dtype : {at::kByte, at::kChar, at::kShort, at::kInt, at::kLong}) {
    for (const auto& c : layout_cases()) {
      const Pair a = with_layout_of(c.a(), dtype, 7);
      EXPECT_TRUE(matches(at::neg(a.cpu), at::neg(a.gpu))) << dtype << " " << c.name;
      EXPECT_TRUE(matches(at::abs(a.cpu), at::abs(a.gpu))) << dtype << " " << c.name;
      EXPECT_TRUE(matches(at::sign(a.cpu), at::sign(a.gpu))) << dtype << " " << c.name;
      EXPECT_TRUE(matches(at::bitwise_not(a.cpu), at::bitwise_not(a.gpu))) << dtype;
      EXPECT_TRUE(matches(at::floor(a.cpu), at::floor(a.gpu))) << dtype;    // a copy
      EXPECT_TRUE(matches(at::exp(a.cpu), at::exp(a.gpu), 1e-6)) << dtype;  // promoted to Float
    }
  }
  const at::Tensor b = make_values(at::kBool, 50, 1);
  EXPECT_TRUE(matches(at::bitwise_not(b), at::bitwise_not(b.cuda())));
  EXPECT_TRUE(matches(at::sign(b), at::sign(b.cuda())));
  EXPECT_THROW_MSG(at::neg(b.cuda()),
                   "Negation, the `-` operator, on a bool tensor is not supported. If you are "
                   "trying to invert a mask, use the `~` or `logical_not()` operator instead.");
}

// ---- Reductions -------------------------------------------------------------------------------

struct SumCase {
  const char* name;
  std::vector<int64_t> sizes;
  std::vector<int64_t> dims;  // empty: all
  bool keepdim;
  const char* plan;  // the reduction plan a Float sum takes on an H100/H200
};

TEST(CUDAReduce, SumAndMeanMatchTheCpu) {
  SKIP_WITHOUT_CUDA();
  const std::vector<SumCase> cases = {
      {"all", {1 << 22}, {}, false, "reduce inner, split, vec"},
      {"small", {10}, {}, false, "reduce inner"},
      {"rows", {300, 1000}, {1}, false, "reduce inner, vec"},
      {"columns", {1000, 300}, {0}, false, "reduce outer, split, vec"},
      {"columns_keepdim", {1000, 300}, {0}, true, "reduce outer, split, vec"},
      {"nchw_per_channel", {8, 16, 14, 14}, {0, 2, 3}, false, "reduce inner, vec"},
      {"last_two", {5, 7, 64, 64}, {2, 3}, true, "reduce inner, vec"},
      {"middle", {4, 1000, 6}, {1}, false, "reduce outer, split"},
      {"one_element", {1}, {0}, false, "reduce outer"},
  };
  for (const auto& c : cases) {
    for (at::ScalarType dtype : {at::kFloat, at::kDouble, at::kHalf, at::kInt, at::kLong}) {
      const at::Tensor x = at::rand(c.sizes).mul(4).sub(2).to(dtype);
      const at::Tensor g = x.cuda();
      const at::Tensor expected =
          c.dims.empty() ? x.to(at::kDouble).sum() : x.to(at::kDouble).sum(c.dims, c.keepdim);
      const at::Tensor got = c.dims.empty() ? g.sum() : g.sum(c.dims, c.keepdim);
      // The plan of a Float sum (other dtypes' vectors differ in length, so do their plans).
      if (dtype == at::kFloat) {
        EXPECT_STREQ(at::native::last_gpu_loop(), c.plan) << c.name;
      }
      const at::ScalarType want = c10::isIntegralType(dtype, true) ? at::kLong : dtype;
      EXPECT_EQ(got.scalar_type(), want) << c.name;
      const double n = static_cast<double>(x.numel()) / std::max<int64_t>(1, expected.numel());
      const double tol = dtype == at::kHalf ? 2e-3 * n : dtype == at::kFloat ? 1e-6 * n : 1e-12 * n;
      EXPECT_TRUE(matches(expected.to(want), got, c10::isIntegralType(want, true) ? 0 : tol))
          << c.name << " " << dtype;
      if (c10::isFloatingType(dtype)) {
        const at::Tensor m = c.dims.empty() ? g.mean() : g.mean(c.dims, c.keepdim);
        const at::Tensor em =
            c.dims.empty() ? x.to(at::kDouble).mean() : x.to(at::kDouble).mean(c.dims, c.keepdim);
        EXPECT_TRUE(matches(em.to(dtype), m, dtype == at::kHalf ? 2e-3 : 1e-5)) << c.name;
      }
    }
  }
}

TEST(CUDAReduce, LayoutsDtypeArgumentAndOut) {
  SKIP_WITHOUT_CUDA();
  const at::Tensor x = at::rand({6, 32, 9, 11});
  const at::Tensor cl = x.contiguous(at::MemoryFormat::ChannelsLast);
  const at::Tensor t = at::rand({257, 129}).t();
  const at::Tensor sliced = at::rand({40, 80}).slice(1, 0, 80, 3);
  for (const at::Tensor& cpu : {cl, t, sliced}) {
    const at::Tensor g = same_layout_on_device(cpu);
    ASSERT_EQ(vec(g.strides()), vec(cpu.strides()));
    for (int64_t d = 0; d < cpu.dim(); ++d) {
      EXPECT_TRUE(matches(cpu.sum(d), g.sum(d), 1e-5)) << cpu.sizes() << " dim " << d;
      EXPECT_TRUE(matches(cpu.mean(d, true), g.mean(d, true), 1e-5)) << cpu.sizes();
    }
    EXPECT_TRUE(matches(cpu.sum(at::kDouble), g.sum(at::kDouble), 1e-12));
  }
  at::Tensor out = at::empty({0}, at::kCUDA);
  at::sum_out(out, x.cuda(), {1, 2});
  EXPECT_TRUE(matches(x.sum({1, 2}), out, 1e-5));
  // An empty reduction is 0; an empty output has no elements.
  EXPECT_EQ(at::empty({0, 4}, at::kCUDA).sum().item<float>(), 0.0f);
  EXPECT_EQ(vec(at::empty({0, 4}, at::kCUDA).sum(1).sizes()), (std::vector<int64_t>{0}));
  EXPECT_TRUE(matches(at::zeros({3, 0}).sum(1), at::zeros({3, 0}, at::kCUDA).sum(1)));
}

// > 2^31 elements: the iterator splits for 32-bit indexing (elementwise and reduction alike).
// About 13 GB of device memory; skipped where there is less.
TEST(CUDAHuge, MoreThanTwoToTheThirtyOneElements) {
  SKIP_WITHOUT_CUDA();
  size_t free_bytes = 0, total = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_bytes, &total), cudaSuccess);
  if (free_bytes < (size_t{16} << 30)) GTEST_SKIP() << "needs 16 GB of free device memory";
  const int64_t n = (int64_t{1} << 31) + 1024 * 3;
  const at::Tensor a = at::ones({n}, at::TensorOptions(at::kCUDA).dtype(at::kByte));
  const at::Tensor b = at::full({n}, 2, at::TensorOptions(at::kCUDA).dtype(at::kByte));
  const at::Tensor c = at::add(a, b);
  const at::Tensor rows = c.to(at::kFloat).view({n / 1024, 1024}).sum(1);
  EXPECT_EQ(rows.numel(), n / 1024);
  EXPECT_EQ(rows.cpu().min().item<float>(), 3.0f * 1024);
  EXPECT_EQ(rows.cpu().max().item<float>(), 3.0f * 1024);
}

TEST(CUDAAutograd, BackwardOfAnElementwiseChainAndASum) {
  SKIP_WITHOUT_CUDA();
  const at::Tensor x0 = at::rand({64, 32});
  at::Tensor x = x0.cuda().requires_grad_(true);
  at::Tensor xc = x0.clone().requires_grad_(true);
  at::Tensor y = at::sigmoid(at::mul(x, 3).add(1)).sum();
  at::Tensor yc = at::sigmoid(at::mul(xc, 3).add(1)).sum();
  y.backward();
  yc.backward();
  ASSERT_TRUE(x.grad().defined());
  EXPECT_TRUE(matches(xc.grad(), x.grad(), 1e-5));
}

}  // namespace
