// The folds (max, min, amax, amin, prod, any, all, max.dim, min.dim) and the statistics (var, std,
// logsumexp, norm): values against the definitions over layouts, dtypes and shapes as libtorch
// 1.13 gives them (printed by a libtorch program), NaN, empty inputs, out= and Meta tensors, and
// libtorch's error texts.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "aten/ATen.h"
#include "aten/Parallel.h"
#include "tests/ThreadCountTest.h"
#include "tests/aten/ErrorCase.h"

namespace {

using at::Tensor;

const double kInf = std::numeric_limits<double>::infinity();

Tensor x3() {
  return at::arange(24.0, at::kFloat).view({2, 3, 4});
}

// The same values, contiguous, transposed and channels-last-like (permuted storage).
std::vector<Tensor> layouts(const Tensor& t) {
  return {t, t.transpose(0, 2).contiguous().transpose(0, 2),
          t.permute({1, 2, 0}).contiguous().permute({2, 0, 1})};
}

TEST(Folds, AmaxAminProdMatchTheDefinitionsOverLayouts) {
  const Tensor base = at::randn({4, 5, 6}, at::kDouble);
  for (const Tensor& t : layouts(base)) {
    for (int64_t d = 0; d < 3; ++d) {
      // Along one dim, element by element through select.
      Tensor expect_max = t.select(d, 0), expect_min = t.select(d, 0), expect_prod = t.select(d, 0);
      for (int64_t i = 1; i < t.size(d); ++i) {
        expect_max = at::maximum(expect_max, t.select(d, i));
        expect_min = at::minimum(expect_min, t.select(d, i));
        expect_prod = expect_prod * t.select(d, i);
      }
      EXPECT_TRUE(at::equal(t.amax(d), expect_max));
      EXPECT_TRUE(at::equal(t.amin(d), expect_min));
      EXPECT_TRUE(at::allclose(t.prod(d), expect_prod));
      EXPECT_TRUE(at::equal(std::get<0>(t.max(d)), expect_max));
      EXPECT_TRUE(at::equal(std::get<0>(t.min(d)), expect_min));
      EXPECT_TRUE(at::equal(std::get<1>(t.max(d)), t.argmax(d)));
      EXPECT_TRUE(at::equal(std::get<1>(t.min(d)), t.argmin(d)));
    }
    EXPECT_TRUE(at::equal(t.amax({0, 2}), t.amax(0).amax(1)));
    EXPECT_TRUE(at::equal(t.amax({0, 2}, true), t.amax(0).amax(1).view({1, 5, 1})));
    EXPECT_TRUE(at::equal(t.max(), t.amax()));
    EXPECT_TRUE(at::equal(t.min(), t.amin({})));
    EXPECT_NEAR(t.prod().item<double>(), t.prod(0).prod(0).prod(0).item<double>(), 1e-12);
  }
}

TEST(Folds, LargeReductionsSplitAcrossThreads) {
  // Long enough for parallel_reduce's two-pass and per-column paths.
  const Tensor big = at::rand({300, 700}, at::kDouble);
  EXPECT_EQ(big.amax().item<double>(), big.reshape({-1}).amax(0).item<double>());
  Tensor rows_max = big.select(1, 0);
  for (int64_t i = 1; i < 700; ++i) rows_max = at::maximum(rows_max, big.select(1, i));
  EXPECT_TRUE(at::equal(big.amax(1), rows_max));
  EXPECT_TRUE(at::equal(big.t().contiguous().amax(0), rows_max));
  EXPECT_TRUE(at::allclose(at::ones({1000, 100}).add(1e-4).prod(1),
                           at::full({1000}, std::pow(1.0001, 100))));
  const Tensor flags = big > 0.999;
  EXPECT_EQ(flags.any().item<bool>(), big.amax().item<double>() > 0.999);
  EXPECT_FALSE((big > 2).any().item<bool>());
  EXPECT_TRUE((big >= 0).all().item<bool>());
}

TEST(Folds, DtypesShapesAndStridesAsLibtorch) {
  const Tensor x = x3();
  const Tensor i = at::arange(6).view({2, 3});
  // prod: integers and Bool multiply as Long; an explicit dtype wins.
  EXPECT_EQ(i.prod().scalar_type(), at::kLong);
  EXPECT_EQ(i.prod().item<int64_t>(), 0);
  EXPECT_EQ(at::ones({3}, at::kBool).prod().scalar_type(), at::kLong);
  EXPECT_EQ(at::ones({3}, at::kByte).prod().scalar_type(), at::kLong);
  const Tensor pd = i.prod(1, true, at::kDouble);
  EXPECT_EQ(pd.scalar_type(), at::kDouble);
  EXPECT_EQ(pd.sizes(), c10::IntArrayRef({2, 1}));
  EXPECT_EQ(pd.strides(), c10::IntArrayRef({1, 1}));
  EXPECT_TRUE(at::equal(pd.view({2}), at::tensor({0.0, 60.0}).to(at::kDouble)));
  EXPECT_EQ(x.prod(1).sizes(), c10::IntArrayRef({2, 4}));
  EXPECT_EQ(at::empty({0, 3}).prod().item<float>(), 1.0f);
  EXPECT_TRUE(at::equal(at::empty({0, 3}).prod(0), at::ones({3})));
  // Integer products wrap.
  EXPECT_EQ(at::full({64}, 2, at::kLong).prod().item<int64_t>(), 0);
  // amax/amin/max/min keep the dtype (Half, BFloat16, Bool, integers).
  EXPECT_EQ(x.to(at::kHalf).amax(1).scalar_type(), at::kHalf);
  EXPECT_EQ(x.to(at::kBFloat16).max().item<float>(), 23.0f);
  EXPECT_EQ(i.max().item<int64_t>(), 5);
  EXPECT_EQ(at::tensor({1, 0, 1}).to(at::kBool).max().item<bool>(), true);
  EXPECT_EQ(at::tensor({1, 0, 1}).to(at::kBool).amin().item<bool>(), false);
  EXPECT_EQ(x.amax({0, 2}).sizes(), c10::IntArrayRef({3}));
  EXPECT_TRUE(at::equal(x.amax({0, 2}), at::tensor({15.0f, 19.0f, 23.0f})));
  EXPECT_EQ(at::scalar_tensor(3.0).amax(0).dim(), 0);
  EXPECT_EQ(at::empty({0, 3}).amax(1).sizes(), c10::IntArrayRef({0}));
  // max.dim: first index of ties, keepdim shapes, 0-d, Bool.
  auto mx = x.max(-1, true);
  EXPECT_EQ(std::get<0>(mx).sizes(), c10::IntArrayRef({2, 3, 1}));
  EXPECT_EQ(std::get<0>(mx).strides(), c10::IntArrayRef({3, 1, 1}));
  EXPECT_TRUE(at::equal(std::get<1>(mx), at::full({2, 3, 1}, 3, at::kLong)));
  EXPECT_EQ(std::get<1>(at::tensor({3, 1, 3, 3}).max(0)).item<int64_t>(), 0);
  EXPECT_EQ(std::get<1>(at::tensor({2, 1, 1, 3}).min(0)).item<int64_t>(), 1);
  auto m0 = at::scalar_tensor(3.0).max(0);
  EXPECT_EQ(std::get<0>(m0).item<double>(), 3.0);
  EXPECT_EQ(std::get<1>(m0).item<int64_t>(), 0);
  EXPECT_EQ(std::get<1>(at::tensor({0, 1, 1}).to(at::kBool).max(0)).item<int64_t>(), 1);
  EXPECT_EQ(std::get<0>(at::empty({0, 3}).max(1)).sizes(), c10::IntArrayRef({0}));
  // any/all: Bool, or Byte for a Byte input; NaN counts as true.
  EXPECT_EQ(x.any().scalar_type(), at::kBool);
  EXPECT_TRUE(x.any().item<bool>());
  EXPECT_FALSE(x.all().item<bool>());
  EXPECT_TRUE(at::equal(i.all(1, true), at::tensor({false, true}).view({2, 1})));
  const Tensor u8 = at::tensor({1, 0, 2}).to(at::kByte);
  EXPECT_EQ(u8.all().scalar_type(), at::kByte);
  EXPECT_EQ(u8.all().item<uint8_t>(), 0);
  EXPECT_EQ(u8.any(0).item<uint8_t>(), 1);
  // A Byte 2 is true, written as 1, on the vector paths too (rows and columns).
  const Tensor twos = at::full({40, 70}, 2, at::kByte);
  EXPECT_TRUE(at::equal(twos.any(1), at::ones({40}, at::kByte)));
  EXPECT_TRUE(at::equal(twos.any(0), at::ones({70}, at::kByte)));
  EXPECT_TRUE(at::equal(twos.all(0), at::ones({70}, at::kByte)));
  // prod with dtype=Bool is all().
  EXPECT_EQ(at::prod(at::ones({3}, at::kBool), at::kBool).scalar_type(), at::kBool);
  EXPECT_TRUE(at::prod(at::ones({3}, at::kBool), at::kBool).item<bool>());
  EXPECT_FALSE(at::prod(at::tensor({1, 0, 1}).to(at::kBool), 0, false, at::kBool).item<bool>());
  EXPECT_TRUE(at::empty({0, 3}).all().item<bool>());
  EXPECT_FALSE(at::empty({0, 3}).any().item<bool>());
  EXPECT_TRUE(at::equal(at::empty({0, 3}).any(0), at::zeros({3}, at::kBool)));
  EXPECT_TRUE(at::tensor({0.0, NAN}).any().item<bool>());
  EXPECT_TRUE(at::ones({3}, at::kComplexFloat).all().item<bool>());
}

TEST(Folds, NaNPropagates) {
  const Tensor t = at::tensor({1.0f, NAN, 3.0f});
  EXPECT_TRUE(std::isnan(t.max().item<float>()));
  EXPECT_TRUE(std::isnan(t.min().item<float>()));
  EXPECT_TRUE(std::isnan(t.amax(0).item<float>()));
  EXPECT_TRUE(std::isnan(at::tensor({NAN, 1.0f}).amin().item<float>()));
  auto m = t.max(0);
  EXPECT_TRUE(std::isnan(std::get<0>(m).item<float>()));
  EXPECT_EQ(std::get<1>(m).item<int64_t>(), 1);
  // Infinities are ordinary values.
  EXPECT_EQ(at::tensor({-kInf, -kInf}).amax().item<double>(), -kInf);
}

TEST(Folds, OutVariants) {
  const Tensor x = x3();
  Tensor out = at::empty({0});
  at::amax_out(out, x, {1});
  EXPECT_TRUE(at::equal(out, x.amax(1)));
  // Into its own input: the result, not the identity (libtorch 1.13 returns the latter).
  Tensor self_out = at::rand({3, 1});
  const Tensor before = self_out.clone();
  at::amax_out(self_out, self_out, {1}, true);
  EXPECT_TRUE(at::equal(self_out, before));
  at::prod_out(self_out, self_out, 1, true);
  EXPECT_TRUE(at::equal(self_out, before));
  Tensor pout = at::empty({0}, at::kDouble);
  at::prod_out(pout, x, 0);
  EXPECT_EQ(pout.sizes(), c10::IntArrayRef({3, 4}));
  EXPECT_TRUE(at::equal(pout, x.prod(0).to(at::kDouble)));
  Tensor values = at::empty({0}), indices = at::empty({0}, at::kLong);
  at::max_out(values, indices, x, 2);
  EXPECT_TRUE(at::equal(values, std::get<0>(x.max(2))));
  EXPECT_TRUE(at::equal(indices, std::get<1>(x.max(2))));
  Tensor flags = at::empty({0}, at::kBool);
  at::any_out(flags, x, 1);
  EXPECT_TRUE(at::equal(flags, x.any(1)));
  // max(a, b) is maximum.
  EXPECT_TRUE(at::equal(at::max(x, -x), x));
  EXPECT_TRUE(at::equal(at::min(x, -x), -x));
}

TEST(Folds, MetaTensorsGetShapesOnly) {
  const Tensor m = at::empty({2, 3, 4}, at::TensorOptions().device(at::kMeta));
  EXPECT_EQ(m.amax({0, 2}).sizes(), c10::IntArrayRef({3}));
  EXPECT_EQ(m.prod(1, true).sizes(), c10::IntArrayRef({2, 1, 4}));
  EXPECT_EQ(m.any(2).scalar_type(), at::kBool);
  EXPECT_EQ(std::get<1>(m.max(1)).sizes(), c10::IntArrayRef({2, 4}));
  EXPECT_TRUE(m.var(1).is_meta());
  EXPECT_EQ(at::norm(m, 2, {0}).sizes(), c10::IntArrayRef({3, 4}));
  EXPECT_EQ(m.logsumexp({1}).sizes(), c10::IntArrayRef({2, 4}));
}

// ---- var, std ---------------------------------------------------------------------------------

TEST(Stats, VarAndStdMatchTheDefinition) {
  const Tensor base = at::randn({4, 5, 6}, at::kDouble);
  for (const Tensor& t : layouts(base)) {
    for (int64_t correction : {0, 1, 2}) {
      const Tensor centred = t - t.mean({1}, true);
      const Tensor expect = (centred * centred).sum(1) / (5 - correction);
      // A plain integer would pick the `bool unbiased` overload, in libtorch too.
      const c10::optional<int64_t> c = correction;
      EXPECT_TRUE(at::allclose(at::var(t, {1}, c, false), expect));
      EXPECT_TRUE(at::allclose(at::std(t, {1}, c, false), expect.sqrt()));
    }
    const Tensor all = t - t.mean();
    EXPECT_NEAR(t.var().item<double>(), (all * all).sum().item<double>() / 119, 1e-12);
    EXPECT_NEAR(t.var(false).item<double>(), (all * all).sum().item<double>() / 120, 1e-12);
    EXPECT_TRUE(at::allclose(t.var({0, 2}, true, true).view({5}),
                             at::var(t.permute({1, 0, 2}).reshape({5, 24}), {1}, true, false)));
  }
}

TEST(Stats, VarDtypesAndDegenerateCounts) {
  const Tensor x = x3();
  EXPECT_FLOAT_EQ(x.var().item<float>(), 50.0f);
  EXPECT_TRUE(at::allclose(x.var(1), at::full({2, 4}, 16.0f)));
  EXPECT_TRUE(at::allclose(x.var({1}, false, true), at::full({2, 1, 4}, 32.0f / 3)));
  EXPECT_TRUE(
      at::allclose(at::var(x, {0, 2}, c10::optional<int64_t>(3), false), at::full({3}, 59.6f)));
  EXPECT_TRUE(
      at::allclose(at::var(x, {0}, c10::optional<int64_t>(-1), false), at::full({3, 4}, 24.0f)));
  // N - correction <= 0: inf, or NaN for 0/0.
  EXPECT_TRUE(std::isinf(at::var(x, {0}, c10::optional<int64_t>(5), false)[0][0].item<float>()));
  EXPECT_TRUE(std::isnan(at::ones({1}).var().item<float>()));
  EXPECT_TRUE(std::isnan(at::empty({0, 3}).var().item<float>()));
  EXPECT_NEAR(x.std(2)[0][0].item<float>(), 1.2910f, 1e-4);
  // Half stays Half; a complex variance is real.
  EXPECT_EQ(x.to(at::kHalf).var().scalar_type(), at::kHalf);
  EXPECT_EQ(x.to(at::kHalf).var().item<float>(), 50.0f);
  const Tensor c =
      at::view_as_complex(at::tensor({1.0, 0.0, 2.0, 1.0, 4.0, -1.0}).to(at::kDouble).view({3, 2}));
  EXPECT_EQ(c.var().scalar_type(), at::kDouble);
  // mean 7/3 + 0i: |x - mean|^2 = 16/9 + 1/9+1 + 25/9+1 = 7.333.. over 2
  EXPECT_NEAR(c.var().item<double>(), (16.0 / 9 + 1.0 / 9 + 1 + 25.0 / 9 + 1) / 2, 1e-12);
  Tensor out = at::empty({0}, at::kDouble);
  at::var_out(out, x, {1}, true, false);
  EXPECT_TRUE(at::allclose(out, x.var(1).to(at::kDouble)));
}

// ---- logsumexp, norm --------------------------------------------------------------------------

TEST(Stats, LogSumExp) {
  const Tensor base = at::randn({3, 4, 5}, at::kDouble) * 30;
  for (const Tensor& t : layouts(base)) {
    EXPECT_TRUE(at::allclose(t.logsumexp({1}), t.exp().sum(1).log()));
    EXPECT_TRUE(at::allclose(t.logsumexp({0, 2}, true), t.exp().sum({0, 2}, true).log()));
  }
  // Large values do not overflow; infinities; integers promote to float.
  EXPECT_NEAR(at::tensor({1000.0, 1000.0}).to(at::kDouble).logsumexp({0}).item<double>(),
              1000 + std::log(2.0), 1e-9);
  EXPECT_EQ(at::tensor({-kInf, -kInf}).logsumexp({0}).item<float>(), -kInf);
  EXPECT_EQ(at::tensor({kInf, 1.0}).logsumexp({0}).item<float>(), kInf);
  const Tensor li = at::arange(6).view({2, 3}).logsumexp({1});
  EXPECT_EQ(li.scalar_type(), at::kFloat);
  EXPECT_NEAR(li[0].item<float>(), 2.4076f, 1e-4);
  EXPECT_TRUE(at::equal(at::empty({0, 3}).logsumexp({0}), at::full({3}, -kInf)));
  EXPECT_EQ(at::scalar_tensor(2.0).logsumexp({0}).item<float>(), 2.0f);
  // See Note [logsumexp over no dims]: every dim.
  EXPECT_NEAR(x3().logsumexp({}).item<float>(), x3().exp().sum().log().item<float>(), 1e-4);
}

TEST(Stats, NormForEveryP) {
  const Tensor x = x3();
  EXPECT_NEAR(x.norm().item<float>(), 65.7571f, 1e-3);
  EXPECT_EQ(x.norm(1).item<float>(), 276.0f);
  EXPECT_EQ(x.norm(kInf).item<float>(), 23.0f);
  EXPECT_EQ(x.norm(-kInf).item<float>(), 0.0f);
  EXPECT_EQ(x.norm(0).item<float>(), 23.0f);
  EXPECT_NEAR(x.norm(3).item<float>(), 42.3909f, 1e-3);
  EXPECT_EQ(x.norm(-1).item<float>(), 0.0f);
  EXPECT_NEAR(x.norm(0.5).item<float>(), 5735.7593f, 0.1);
  const Tensor by_dim = at::norm(x, 2, {1});
  EXPECT_EQ(by_dim.sizes(), c10::IntArrayRef({2, 4}));
  EXPECT_TRUE(at::allclose(by_dim, (x * x).sum(1).sqrt()));
  EXPECT_TRUE(at::allclose(at::norm(x, c10::optional<at::Scalar>(), {1}, false), by_dim));
  const Tensor keep = at::norm(x, 1, {0, 2}, true);
  EXPECT_EQ(keep.sizes(), c10::IntArrayRef({1, 3, 1}));
  EXPECT_TRUE(at::equal(keep.view({3}), at::tensor({60.0f, 92.0f, 124.0f})));
  for (const Tensor& t : layouts(at::randn({3, 4, 5}, at::kDouble))) {
    EXPECT_TRUE(at::allclose(at::norm(t, 3, {2}), t.abs().pow(3).sum(2).pow(1.0 / 3)));
  }
  EXPECT_EQ(at::empty({0, 3}).norm().item<float>(), 0.0f);
  // libtorch 1.13: the norm of no elements is 0 for every p.
  for (double p : {2.0, 0.5, -1.0, kInf, -kInf}) {
    EXPECT_EQ(at::empty({0}).norm(p).item<float>(), 0.0f) << p;
    EXPECT_TRUE(at::equal(at::norm(at::empty({0, 3}), p, {0}), at::zeros({3}))) << p;
  }
  const Tensor h = x.to(at::kHalf).norm();
  EXPECT_EQ(h.scalar_type(), at::kHalf);
  EXPECT_EQ(h.item<float>(), 65.75f);
  const Tensor c = at::ones({3}, at::kComplexFloat).norm();
  EXPECT_EQ(c.scalar_type(), at::kFloat);
  EXPECT_NEAR(c.item<float>(), std::sqrt(3.0f), 1e-6);
}

// Note [The 1- and 2-norms are sums] (cpu/SumKernel.cpp): the 1- and 2-norms are the sum's
// cascade over |x| or x * x. On a dense layout abs() and x * x keep the input's strides, so the
// sum walks them in the same order and the norms equal abs().sum() and (x * x).sum().sqrt() bit
// for bit, on every loop of the sum kernel (inner, outer, strided, several dims), on one thread
// and two, in float and double. A slice or a selected plane is read where it lies (the composed
// form reads a packed copy, in another order): within a few epsilons of the float64 norm.
using FusedNorms = test_util::ThreadCountTest;

TEST_F(FusedNorms, AreTheSumOfMagnitudesOrSquares) {
  const Tensor base = at::randn({37, 70, 9});
  const std::vector<std::vector<int64_t>> dim_lists = {{}, {0}, {1}, {2}, {0, 2}, {1, 2}};
  for (const at::ScalarType type : {at::kFloat, at::kDouble}) {
    for (const Tensor& t : layouts(base.to(type))) {
      for (const Tensor& x : {t, t.narrow(1, 3, 64), t.select(2, 4)}) {
        const bool dense = x.numel() == base.numel();
        const Tensor xd = x.to(at::kDouble);
        for (const auto& dims : dim_lists) {
          if (!dims.empty() && dims.back() >= x.dim()) continue;
          for (const int threads : {1, 2}) {
            at::set_num_threads(threads);
            for (const bool keepdim : {false, true}) {
              const Tensor one = at::norm(x, 1, dims, keepdim);
              const Tensor two = at::norm(x, 2, dims, keepdim);
              EXPECT_EQ(one.scalar_type(), type);
              EXPECT_EQ(two.sizes(), xd.sum(dims, keepdim).sizes());
              const Tensor want_one =
                  dense ? x.abs().sum(dims, keepdim) : xd.abs().sum(dims, keepdim);
              const Tensor want_two =
                  dense ? (x * x).sum(dims, keepdim).sqrt() : (xd * xd).sum(dims, keepdim).sqrt();
              if (dense) {
                EXPECT_TRUE(at::equal(one, want_one)) << type << x.strides() << " " << threads;
                EXPECT_TRUE(at::equal(two, want_two)) << type << x.strides() << " " << threads;
              } else {
                EXPECT_TRUE(at::allclose(one.to(at::kDouble), want_one, 1e-6, 0))
                    << type << x.sizes() << x.strides() << " " << threads;
                EXPECT_TRUE(at::allclose(two.to(at::kDouble), want_two, 1e-6, 0))
                    << type << x.sizes() << x.strides() << " " << threads;
              }
            }
          }
        }
      }
    }
  }
  // Big enough for parallel_reduce to split across threads: the whole tensor in two passes
  // (each thread's partial sum of squares added as it is, not squared again), or by columns.
  const Tensor big = at::randn({300, 1000});
  for (const int threads : {1, 2}) {
    at::set_num_threads(threads);
    for (const auto& dims : std::vector<std::vector<int64_t>>{{}, {0}, {1}}) {
      EXPECT_TRUE(at::equal(at::norm(big, 2, dims), (big * big).sum(dims).sqrt())) << threads;
      EXPECT_TRUE(at::equal(at::norm(big, 1, dims), big.abs().sum(dims))) << threads;
      EXPECT_TRUE(at::equal(at::norm(big.t(), 2, dims), (big.t() * big.t()).sum(dims).sqrt()))
          << threads;
    }
  }
}

// The fused norms keep the cascade's accuracy over 10^7 floats (a single float accumulator is
// off by about 1e-3 here), and NaN, infinity and -0.0 come out as the composed ones do.
TEST_F(FusedNorms, AreAccurateAndPropagateNaN) {
  const Tensor x = at::rand({10000000}) - 0.5;
  const Tensor xd = x.to(at::kDouble);
  at::set_num_threads(2);
  auto relative_error = [](const Tensor& got, const Tensor& want) {
    return ((got.to(at::kDouble) - want).abs() / want.abs()).max().item<double>();
  };
  EXPECT_LT(relative_error(x.norm(1), xd.abs().sum()), 1e-6);
  EXPECT_LT(relative_error(x.norm(2), (xd * xd).sum().sqrt()), 1e-6);
  EXPECT_LT(relative_error(at::norm(x.view({2500, 4000}), 2, {0}),
                           (xd * xd).view({2500, 4000}).sum(0).sqrt()),
            1e-6);
  EXPECT_TRUE(std::isnan(at::tensor({1.0f, NAN, 2.0f}).norm().item<float>()));
  EXPECT_TRUE(std::isnan(at::tensor({INFINITY, NAN}).norm(1).item<float>()));
  EXPECT_EQ(at::tensor({-INFINITY, 1.0f}).norm().item<float>(), INFINITY);
  EXPECT_EQ(at::tensor({-INFINITY, 1.0f}).norm(1).item<float>(), INFINITY);
  const float zero = at::tensor({-0.0f, -0.0f}).norm(1).item<float>();
  EXPECT_EQ(zero, 0.0f);
  EXPECT_FALSE(std::signbit(zero));
  // Half and BFloat16 are normed in float and rounded once, on the fused path too.
  const Tensor h = at::full({3000}, 300.0, at::kHalf);
  EXPECT_EQ(h.norm().scalar_type(), at::kHalf);
  EXPECT_EQ(h.norm().item<float>(), c10::Half(300.0f * std::sqrt(3000.0f)));
  EXPECT_EQ(at::full({3000}, 0.5, at::kBFloat16).norm(1).item<float>(), 1504.0f);  // 1500 rounded
}

using test_util::ErrorCase;
using test_util::Kind;

const std::vector<ErrorCase>& error_cases() {
  static const std::vector<ErrorCase> all = {
      {"max_empty",
       [] {
         at::empty({0, 3}).max();
       },
       Kind::IndexError,
       "max(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
       "reduction dim with the 'dim' argument."},
      {"min_empty",
       [] {
         at::empty({0, 3}).min();
       },
       Kind::IndexError,
       "min(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
       "reduction dim with the 'dim' argument."},
      {"amax_empty",
       [] {
         at::empty({0, 3}).amax();
       },
       Kind::IndexError,
       "amax(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
       "reduction dim with the 'dim' argument."},
      {"amax_empty_dim",
       [] {
         at::empty({0, 3}).amax(0);
       },
       Kind::IndexError, "amax(): Expected reduction dim 0 to have non-zero size."},
      {"amax_empty_negative_dim",
       [] {
         at::empty({2, 0}).amax(-1);
       },
       Kind::IndexError, "amax(): Expected reduction dim -1 to have non-zero size."},
      {"var_out_long_self",
       [] {
         Tensor out = at::empty({0}, at::kLong);
         at::var_out(out, at::arange(3), {0}, true, false);
       },
       Kind::Error, "std and var only support floating point and complex dtypes"},
      {"amin_empty_dim",
       [] {
         at::empty({0, 3}).amin(0);
       },
       Kind::IndexError, "amin(): Expected reduction dim 0 to have non-zero size."},
      {"max_dim_empty",
       [] {
         at::empty({0, 3}).max(0);
       },
       Kind::IndexError, "max(): Expected reduction dim 0 to have non-zero size."},
      {"amax_dup",
       [] {
         x3().amax({0, 0});
       },
       Kind::Error, "dim 0 appears multiple times in the list of dims"},
      {"amax_complex", [] { at::ones({3}, at::kComplexFloat).amax(); }, Kind::Error,
       "\"max_values_cpu\" not implemented for 'ComplexFloat'"},
      {"max_complex", [] { at::ones({3}, at::kComplexFloat).max(); }, Kind::Error,
       "\"max_all\" not implemented for 'ComplexFloat'"},
      {"max_dim_complex", [] { at::ones({3}, at::kComplexFloat).max(0); }, Kind::Error,
       "max(): does not support complex input"},
      {"amax_out_dtype",
       [] {
         Tensor out = at::empty({0}, at::kDouble);
         at::amax_out(out, x3(), {0});
       },
       Kind::Error,
       "Expected the dtype for input and out to match, but got Float for input's dtype and Double "
       "for out's dtype."},
      {"any_out_dtype",
       [] {
         Tensor out = at::empty({0});
         at::any_out(out, x3(), 0);
       },
       Kind::Error, "any only supports bool tensor for result, got: Float"},
      {"max_out_values_dtype",
       [] {
         Tensor v = at::empty({0}, at::kDouble), i = at::empty({0}, at::kLong);
         at::max_out(v, i, x3(), 0);
       },
       Kind::Error, "Expected out tensor to have dtype float, but got double instead"},
      {"max_out_indices_dtype",
       [] {
         Tensor v = at::empty({0}), i = at::empty({0}, at::kInt);
         at::max_out(v, i, x3(), 0);
       },
       Kind::Error, "Expected out tensor to have dtype long int, but got int instead"},
      {"var_long", [] { at::arange(6).var(); }, Kind::Error,
       "std and var only support floating point and complex dtypes"},
      {"std_bool", [] { at::ones({2}, at::kBool).std(); }, Kind::Error,
       "std and var only support floating point and complex dtypes"},
      {"var_out_long",
       [] {
         Tensor out = at::empty({0}, at::kLong);
         at::var_out(out, x3(), {0}, true, false);
       },
       Kind::Error, "\"std_cpu\" not implemented for 'Long'"},
      {"norm_long", [] { at::arange(6).norm(); }, Kind::Error,
       "norm(): input dtype should be either floating point or complex. Got Long instead."},
      {"norm_out_long",
       [] {
         Tensor out = at::empty({0}, at::kLong);
         at::norm_out(out, x3(), 2, {0}, false);
       },
       Kind::Error, "\"norm_cpu\" not implemented for 'Long'"},
      {"norm_dim", [] { at::norm(x3(), 2, {5}, false); }, Kind::IndexError,
       "Dimension out of range (expected to be in range of [-3, 2], but got 5)"},
      {"logsumexp_out_long",
       [] {
         Tensor out = at::empty({0}, at::kLong);
         at::logsumexp_out(out, x3(), {0}, false);
       },
       Kind::Error, "logsumexp(): Expected floating point type for result tensor, but got: Long"},
  };
  return all;
}

class FoldStatErrors : public ::testing::TestWithParam<ErrorCase> {};
TEST_P(FoldStatErrors, ExactTextAndType) {
  test_util::expect_error_case(GetParam());
}
INSTANTIATE_TEST_SUITE_P(LibtorchTexts, FoldStatErrors, ::testing::ValuesIn(error_cases()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
