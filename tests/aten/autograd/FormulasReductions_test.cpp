// The backward formulas of the folds, the statistics, the pointwise ops of three tensors and the
// in-place views, against finite differences and libtorch 1.13's node names (FormulaCase.h).

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "FormulaCase.h"

namespace {

using miniaten_test::FormulaCase;
using miniaten_test::leaf;
using miniaten_test::one;
using miniaten_test::TensorList;
using miniaten_test::transposed;
using miniaten_test::two;

const double kInf = std::numeric_limits<double>::infinity();

// A leaf with exact zeros at the given flat positions.
TensorList with_zeros(std::vector<int64_t> sizes, std::vector<int64_t> zeros) {
  at::Tensor t = leaf(sizes).detach().clone();
  for (int64_t z : zeros) t.view({-1})[z].fill_(0);
  t.set_requires_grad(true);
  return {t};
}

TensorList three(std::vector<int64_t> a, std::vector<int64_t> b, std::vector<int64_t> c) {
  return {leaf(a), leaf(b, 1.0), leaf(c, 1.5)};
}

class ReductionFormula : public ::testing::TestWithParam<FormulaCase> {};
TEST_P(ReductionFormula, MatchesFiniteDifferencesAndNodeName) {
  miniaten_test::check_formula(GetParam());
}

const FormulaCase kFolds[] = {
    {"max_all", "MaxBackward1",
     [] {
       return one({2, 3});
     },
     [](const TensorList& in) { return in[0].max(); }},
    {"min_all", "MinBackward1",
     [] {
       return transposed({3, 2});
     },
     [](const TensorList& in) { return in[0].min(); }},
    {"max_dim", "MaxBackward0",
     [] {
       return one({3, 4});
     },
     [](const TensorList& in) { return std::get<0>(in[0].max(1)); }},
    {"max_dim_keepdim", "MaxBackward0",
     [] {
       return transposed({3, 4});
     },
     [](const TensorList& in) { return std::get<0>(in[0].max(0, true)); }},
    {"min_dim", "MinBackward0",
     [] {
       return one({2, 3, 2});
     },
     [](const TensorList& in) { return std::get<0>(in[0].min(-2)); }},
    {"amax", "AmaxBackward0",
     [] {
       return one({2, 3, 4});
     },
     [](const TensorList& in) {
       return in[0].amax({0, 2});
     }},
    {"amax_all_keepdim", "AmaxBackward0",
     [] {
       return transposed({3, 4});
     },
     [](const TensorList& in) { return in[0].amax({}, true); }},
    {"amin", "AminBackward0",
     [] {
       return one({3, 4});
     },
     [](const TensorList& in) { return in[0].amin(1, true); }},
    {"prod_all", "ProdBackward0",
     [] {
       return one({2, 3});
     },
     [](const TensorList& in) { return in[0].prod(); }},
    {"prod_all_one_zero", "ProdBackward0",
     [] {
       return with_zeros({2, 3}, {4});
     },
     [](const TensorList& in) { return in[0].prod(); }},
    {"prod_dim", "ProdBackward1",
     [] {
       return transposed({4, 3});
     },
     [](const TensorList& in) { return in[0].prod(1); }},
    {"prod_dim_zeros", "ProdBackward1",
     [] {
       return with_zeros({3, 4}, {1, 5, 6, 8});
     },
     [](const TensorList& in) { return in[0].prod(1, true); }},
};
INSTANTIATE_TEST_SUITE_P(Folds, ReductionFormula, ::testing::ValuesIn(kFolds),
                         [](const auto& info) { return info.param.label; });

const FormulaCase kStats[] = {
    {"var_all", "VarBackward0",
     [] {
       return one({2, 3});
     },
     [](const TensorList& in) { return in[0].var(); }},
    {"var_dim_correction", "VarBackward0",
     [] {
       return transposed({4, 3});
     },
     [](const TensorList& in) { return at::var(in[0], {0}, c10::optional<int64_t>(2), true); }},
    {"std_dim", "StdBackward0",
     [] {
       return one({3, 4});
     },
     [](const TensorList& in) { return in[0].std(1); }},
    {"std_all_biased", "StdBackward0", [] { return one({5}); },
     [](const TensorList& in) { return in[0].std(false); }},
    {"logsumexp", "LogsumexpBackward0",
     [] {
       return one({3, 4});
     },
     [](const TensorList& in) { return in[0].logsumexp({1}); }},
    {"logsumexp_keepdim", "LogsumexpBackward0",
     [] {
       return transposed({3, 4});
     },
     [](const TensorList& in) {
       return in[0].logsumexp({0, 1}, true);
     }},
    {"norm_2", "NormBackward0",
     [] {
       return one({2, 3}, -0.3);
     },
     [](const TensorList& in) { return in[0].norm(); }},
    {"norm_1", "NormBackward0",
     [] {
       return one({2, 3}, -0.27);
     },
     [](const TensorList& in) { return in[0].norm(1); }},
    {"norm_3", "NormBackward0",
     [] {
       return one({2, 3}, -0.27);
     },
     [](const TensorList& in) { return in[0].norm(3); }},
    {"norm_1_5", "NormBackward1",
     [] {
       return one({2, 3}, -0.27);
     },
     [](const TensorList& in) { return at::norm(in[0], 1.5, {1}); }},
    {"norm_half", "NormBackward1",
     [] {
       return one({2, 3});
     },
     [](const TensorList& in) { return at::norm(in[0], 0.5, {0}, true); }},
    {"norm_inf", "NormBackward1",
     [] {
       return one({3, 4}, -0.6);
     },
     [](const TensorList& in) { return at::norm(in[0], kInf, {1}); }},
    {"norm_dim_default_p", "NormBackward1",
     [] {
       return transposed({3, 4});
     },
     [](const TensorList& in) { return at::norm(in[0], c10::optional<at::Scalar>(), {0}, false); }},
};
INSTANTIATE_TEST_SUITE_P(Stats, ReductionFormula, ::testing::ValuesIn(kStats),
                         [](const auto& info) { return info.param.label; });

const FormulaCase kPointwise[] = {
    {"remainder", "RemainderBackward1",
     [] {
       return two({2, 3}, {3});
     },
     [](const TensorList& in) { return at::remainder(in[0], in[1] * 0.3); }},
    {"remainder_", "RemainderBackward1",
     [] {
       return two({2, 3}, {2, 3});
     },
     [](const TensorList& in) { return in[0].clone().remainder_(in[1] * 0.3); }},
    {"remainder_scalar", "RemainderBackward0",
     [] {
       return one({2, 3});
     },
     [](const TensorList& in) { return at::remainder(in[0], 0.35); }},
    {"remainder_scalar_", "RemainderBackward0",
     [] {
       return one({2, 3});
     },
     [](const TensorList& in) { return in[0].clone().remainder_(0.35); }},
    {"lerp_scalar", "LerpBackward0",
     [] {
       return two({2, 3}, {3});
     },
     [](const TensorList& in) { return at::lerp(in[0], in[1], 0.3); }},
    {"lerp_tensor", "LerpBackward1",
     [] {
       return three({2, 3}, {3}, {2, 1});
     },
     [](const TensorList& in) { return at::lerp(in[0], in[1], in[2] * 0.2); }},
    {"lerp_tensor_", "LerpBackward1",
     [] {
       return three({2, 3}, {2, 3}, {3});
     },
     [](const TensorList& in) { return in[0].clone().lerp_(in[1], in[2] * 0.2); }},
    {"addcmul", "AddcmulBackward0",
     [] {
       return three({2, 3}, {3}, {2, 1});
     },
     [](const TensorList& in) { return at::addcmul(in[0], in[1], in[2], 0.7); }},
    {"addcmul_", "AddcmulBackward0",
     [] {
       return three({2, 3}, {2, 3}, {3});
     },
     [](const TensorList& in) { return in[0].clone().addcmul_(in[1], in[2]); }},
    {"addcdiv", "AddcdivBackward0",
     [] {
       return three({2, 3}, {3}, {2, 1});
     },
     [](const TensorList& in) { return at::addcdiv(in[0], in[1], in[2], -1.5); }},
    {"addcdiv_", "AddcdivBackward0",
     [] {
       return three({2, 3}, {2, 3}, {3});
     },
     [](const TensorList& in) { return in[0].clone().addcdiv_(in[1], in[2]); }},
};
INSTANTIATE_TEST_SUITE_P(Pointwise, ReductionFormula, ::testing::ValuesIn(kPointwise),
                         [](const auto& info) { return info.param.label; });

// See Note [In-place views under autograd] in VariableTypeViews.cpp.
const FormulaCase kInplaceViews[] = {
    {"transpose_", "TransposeBackward1",
     [] {
       return one({2, 3, 4});
     },
     [](const TensorList& in) { return in[0].clone().transpose_(0, 2); }},
    {"swapdims_", "TransposeBackward1",
     [] {
       return one({2, 3});
     },
     [](const TensorList& in) { return in[0].clone().swapdims_(0, 1); }},
    {"t_", "TBackward1",
     [] {
       return one({2, 3});
     },
     [](const TensorList& in) { return in[0].clone().t_(); }},
    {"squeeze_", "SqueezeBackward2",
     [] {
       return one({2, 1, 3, 1});
     },
     [](const TensorList& in) { return in[0].clone().squeeze_(); }},
    {"squeeze_dim", "SqueezeBackward3",
     [] {
       return one({2, 1, 3});
     },
     [](const TensorList& in) { return in[0].clone().squeeze_(-2); }},
    {"unsqueeze_", "UnsqueezeBackward1",
     [] {
       return one({2, 3});
     },
     [](const TensorList& in) { return in[0].clone().unsqueeze_(-1); }},
    {"as_strided_", "AsStridedBackward1",
     [] {
       return one({3, 4});
     },
     [](const TensorList& in) {
       return in[0].clone().as_strided_({2, 3}, {1, 4}, 1);
     }},
    // On a view: the view's own history, nothing rebased onto the base.
    {"transpose_on_view", "TransposeBackward1",
     [] {
       return one({2, 3, 4});
     },
     [](const TensorList& in) { return in[0].clone().select(0, 1).transpose_(0, 1); }},
    // Then written in place: the base's history goes through a CopySlices.
    {"mul_after_transpose_on_view", "torch::autograd::CopySlices",
     [] {
       return two({2, 3, 4}, {3});
     },
     [](const TensorList& in) {
       at::Tensor base = in[0].clone();
       base.select(0, 1).transpose_(0, 1).mul_(in[1]);
       return base;
     }},
};
INSTANTIATE_TEST_SUITE_P(InplaceViews, ReductionFormula, ::testing::ValuesIn(kInplaceViews),
                         [](const auto& info) { return info.param.label; });

TEST(ReductionAutograd, ZeroDimInputsAndNonFiniteGradients) {
  // var over dim 0 of a 0-dim tensor: one element, a gradient of 0 (correction 0).
  const at::Tensor s = leaf({});
  at::var(s, {0}, c10::optional<int64_t>(0), false).backward();
  EXPECT_EQ(s.grad().item<double>(), 0.0);
  // max(): an infinite gradient reaches the maximum only.
  const at::Tensor x = leaf({4});
  x.max().backward(at::scalar_tensor(std::numeric_limits<double>::infinity(), at::kDouble));
  EXPECT_TRUE(at::equal(x.grad().narrow(0, 0, 3), at::zeros({3}, at::kDouble)));
  EXPECT_TRUE(std::isinf(x.grad()[3].item<double>()));
}

TEST(InplaceViewAutograd, ViewKeepsItsNodeAfterTheBump) {
  const at::Tensor x = leaf({2, 3, 4});
  at::Tensor v = x.clone().select(0, 0);
  v.unsqueeze_(0);
  // The version moved, but grad_fn is the in-place view's node, not a rebuilt AsStridedBackward0.
  EXPECT_EQ(v.grad_fn()->name(), "UnsqueezeBackward1");
  EXPECT_TRUE(v.is_view());
  v.sum().backward();
  EXPECT_TRUE(at::equal(x.grad()[0], at::ones({3, 4}, at::kDouble)));
  EXPECT_TRUE(at::equal(x.grad()[1], at::zeros({3, 4}, at::kDouble)));
}

}  // namespace
