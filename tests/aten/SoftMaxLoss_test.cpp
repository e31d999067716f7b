// softmax / log_softmax along every dim and layout (against exp(x - max) / sum in double),
// relu and threshold_backward, argmax / argmin, nll_loss / cross_entropy_loss in each reduction
// with weights, ignore_index, label smoothing and class probabilities (against the definitions),
// mse_loss, and libtorch 1.13's error texts.

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "aten/ATen.h"
#include "aten/core/Reduction.h"
#include "tests/aten/ErrorCase.h"

namespace {

using at::Tensor;

double max_abs_diff(const Tensor& a, const Tensor& b) {
  const Tensor d = (a.to(at::kDouble) - b.to(at::kDouble)).abs().reshape({-1});
  return d.numel() == 0 ? 0.0 : d[at::argmax(d).item<int64_t>()].item<double>();
}

// softmax along dim by its definition, in double.
Tensor reference_softmax(const Tensor& x, int64_t dim) {
  const Tensor e = (x.to(at::kDouble) - x.to(at::kDouble).mean(dim, true)).exp();
  return e / e.sum(dim, true);
}

TEST(SoftMax, EveryDimAndLayoutMatchesTheDefinition) {
  at::manual_seed(10);
  // 37 along the last dim: whole vectors and a tail in both capabilities.
  for (const Tensor& x : {at::randn({4, 5, 37}) * 4, at::randn({37, 5, 4}).permute({2, 1, 0}) * 4,
                          at::randn({4, 10, 37}).slice(1, 0, 10, 2) * 4}) {
    for (int64_t dim = 0; dim < 3; ++dim) {
      const Tensor expected = reference_softmax(x, dim);
      const Tensor s = at::softmax(x, dim);
      EXPECT_TRUE(s.is_contiguous());
      EXPECT_LE(max_abs_diff(s, expected), 1e-6) << dim;
      EXPECT_LE(max_abs_diff(at::log_softmax(x, dim), expected.log()), 1e-5) << dim;
      EXPECT_LE(max_abs_diff(at::softmax(x.to(at::kDouble), dim), expected), 1e-14) << dim;
    }
  }
  // A value does not depend on where in the row it sits: the tail runs the vector exp too.
  const Tensor flat = at::softmax(at::full({3, 41}, 2.5), 1);
  EXPECT_TRUE(at::equal(flat, at::full({3, 41}, 1.0f / 41.0f)));
  // BFloat16 computes in float and rounds once; 0-dim is one element.
  const Tensor x = at::randn({3, 9});
  EXPECT_TRUE(at::equal(at::softmax(x.to(at::kBFloat16), 1),
                        at::softmax(x.to(at::kBFloat16).to(at::kFloat), 1).to(at::kBFloat16)));
  EXPECT_EQ(at::softmax(at::randn({}), 0).item<float>(), 1.0f);
  EXPECT_EQ(at::softmax(at::arange(3), 0, at::kDouble).scalar_type(), at::kDouble);
}

TEST(SoftMax, BackwardDataMatchesTheChainRule) {
  at::manual_seed(11);
  const Tensor x = at::randn({3, 4, 19}, at::kDouble), g = at::randn({3, 4, 19}, at::kDouble);
  for (int64_t dim = 0; dim < 3; ++dim) {
    const Tensor y = at::softmax(x, dim);
    EXPECT_LE(max_abs_diff(at::_softmax_backward_data(g, y, dim, at::kDouble),
                           y * (g - (g * y).sum(dim, true))),
              1e-14);
    const Tensor ly = at::log_softmax(x, dim);
    EXPECT_LE(max_abs_diff(at::_log_softmax_backward_data(g, ly, dim, at::kDouble),
                           g - ly.exp() * g.sum(dim, true)),
              1e-14);
  }
}

TEST(Relu, ValuesDtypesAndBackward) {
  const Tensor x = at::arange(-3, 4).to(at::kFloat);
  EXPECT_TRUE(at::equal(at::relu(x), at::clamp_min(x, 0)));
  EXPECT_EQ(at::relu(at::arange(-2, 2)).scalar_type(), at::kLong);
  Tensor y = x.clone();
  EXPECT_TRUE(y.relu_().is_same(y));
  EXPECT_TRUE(at::equal(y, at::relu(x)));
  // NaN passes the gradient through (NaN <= 0 is false), 0 does not.
  const Tensor self = at::tensor({-1.f, 0.f, 2.f, NAN});
  EXPECT_TRUE(at::equal(at::threshold_backward(at::full({4}, 5.f), self, 0),
                        at::tensor({0.f, 0.f, 5.f, 5.f})));
}

TEST(ArgMaxMin, DimsKeepdimNaNAndTies) {
  const Tensor t = at::tensor({3.f, 7.f, 7.f, 1.f, 1.f, 5.f}).view({2, 3});
  EXPECT_TRUE(at::equal(at::argmax(t, 1), at::tensor({1L, 2L})));
  EXPECT_TRUE(at::equal(at::argmin(t, 1), at::tensor({0L, 0L})));
  EXPECT_TRUE(at::equal(at::argmax(t, 0, true), at::tensor({0L, 0L, 0L}).view({1, 3})));
  EXPECT_EQ(at::argmax(t).item<int64_t>(), 1);
  EXPECT_EQ(at::argmax(t, c10::nullopt, true).sizes(), c10::IntArrayRef({1, 1}));
  EXPECT_EQ(at::argmax(at::tensor({1.f, NAN, 3.f, NAN})).item<int64_t>(), 1);
  EXPECT_EQ(at::argmin(at::tensor({1.f, NAN, 0.f})).item<int64_t>(), 1);
  EXPECT_EQ(at::argmax(t.t(), 0).sizes(), c10::IntArrayRef({2}));
  EXPECT_EQ(at::argmax(at::ones({2, 0}), 0).sizes(), c10::IntArrayRef({0}));
  EXPECT_EQ(at::argmax(at::ones({}), 0).dim(), 0);
  // A dim of one element answers 0 before looking at the dtype (Bool included).
  EXPECT_TRUE(at::equal(at::argmax(at::ones({3, 1}).to(at::kBool), 1), at::zeros({3}, at::kLong)));
}

// -log p[target] * w[target], summed or averaged over the weights of the counted targets.
double reference_nll(const Tensor& logp, const std::vector<int64_t>& target,
                     const std::vector<double>& w, int64_t reduction, int64_t ignore) {
  double loss = 0, total = 0;
  for (size_t i = 0; i < target.size(); ++i) {
    if (target[i] == ignore) continue;
    const double wi = w.empty() ? 1.0 : w[static_cast<size_t>(target[i])];
    loss -= logp[static_cast<int64_t>(i)][target[i]].item<double>() * wi;
    total += wi;
  }
  return reduction == at::Reduction::Mean ? loss / total : loss;
}

TEST(Losses, NllAndCrossEntropyMatchTheDefinitions) {
  at::manual_seed(12);
  const Tensor logits = at::randn({6, 4}, at::kDouble);
  const std::vector<int64_t> tv = {0, 3, 1, 1, 2, 3};
  const Tensor target = at::tensor(tv);
  const std::vector<double> wv = {0.5, 2.0, 1.0, 0.25};
  const Tensor w = at::tensor(wv);
  const Tensor logp = at::log_softmax(logits, 1);
  for (int64_t reduction : {at::Reduction::Mean, at::Reduction::Sum}) {
    for (int64_t ignore : {-100L, 3L}) {
      EXPECT_NEAR(at::cross_entropy_loss(logits, target, w, reduction, ignore).item<double>(),
                  reference_nll(logp, tv, wv, reduction, ignore), 1e-12);
      EXPECT_NEAR(at::nll_loss(logp, target, c10::nullopt, reduction, ignore).item<double>(),
                  reference_nll(logp, tv, {}, reduction, ignore), 1e-12);
    }
  }
  const Tensor none = at::nll_loss(logp, target, w, at::Reduction::None, 3);
  EXPECT_EQ(none.sizes(), c10::IntArrayRef({6}));
  EXPECT_EQ(none[1].item<double>(), 0.0);
  EXPECT_NEAR(none[0].item<double>(), -logp[0][0].item<double>() * 0.5, 1e-14);
  // Class probabilities: -sum(p * log_softmax) averaged over the samples.
  const Tensor probs = at::softmax(at::randn({6, 4}, at::kDouble), 1);
  EXPECT_NEAR(at::cross_entropy_loss(logits, probs).item<double>(),
              (-(probs * logp).sum() / 6).item<double>(), 1e-12);
  // Label smoothing: (1 - e) * nll + e / C * the mean of -sum(log_softmax).
  const double e = 0.2;
  const double smooth = (-logp.sum(1)).mean().item<double>();
  EXPECT_NEAR(at::cross_entropy_loss(logits, target, c10::nullopt, at::Reduction::Mean, -100, e)
                  .item<double>(),
              (1 - e) * reference_nll(logp, tv, {}, at::Reduction::Mean, -100) + e / 4 * smooth,
              1e-12);
  // More than two dims: (N, C, d) scores, (N, d) targets.
  const Tensor scores = at::randn({2, 4, 3}, at::kDouble);
  const Tensor targets = at::tensor({0L, 1L, 2L, 3L, 0L, 1L}).view({2, 3});
  const Tensor per_element = at::cross_entropy_loss(scores, targets, w, at::Reduction::None);
  EXPECT_EQ(per_element.sizes(), c10::IntArrayRef({2, 3}));
  const Tensor lsm = at::log_softmax(scores, 1);
  EXPECT_NEAR(per_element[1][2].item<double>(), -lsm[1][1][2].item<double>() * 2.0, 1e-14);
}

// Found in review: a strided weight (its contiguous copy must outlive the loop), no samples,
// and no elements along the class rows.
TEST(Losses, StridedWeightsAndEmptyInputs) {
  const Tensor logp = at::log_softmax(at::randn({2, 3}, at::kDouble), 1);
  const Tensor strided = at::tensor({0.5, 9.0, 2.0, 9.0, 1.5, 9.0}).slice(0, 0, 6, 2);
  EXPECT_NEAR(at::nll_loss(logp, at::tensor({0L, 2L}), strided, at::Reduction::Sum).item<double>(),
              -(logp[0][0].item<double>() * 0.5 + logp[1][2].item<double>() * 1.5), 1e-14);
  EXPECT_TRUE(std::isnan(at::nll_loss(at::empty({0, 3}), at::empty({0}, at::kLong)).item<float>()));
  EXPECT_EQ(
      at::nll_loss(at::empty({0}), at::empty({0}, at::kLong), c10::nullopt, at::Reduction::Sum)
          .item<float>(),
      0.0f);
  EXPECT_EQ(at::cross_entropy_loss(at::randn({2, 3, 0}), at::zeros({2, 0}, at::kLong), c10::nullopt,
                                   at::Reduction::None)
                .sizes(),
            c10::IntArrayRef({2, 0}));
  EXPECT_EQ(at::mse_loss(at::ones({2}, at::kHalf), at::zeros({2}, at::kHalf)).item<float>(), 1.0f);
}

TEST(Losses, MseLoss) {
  const Tensor a = at::tensor({1.0, 2.0, 4.0}), b = at::tensor({0.0, 2.0, 1.0});
  EXPECT_DOUBLE_EQ(at::mse_loss(a, b).item<double>(), 10.0 / 3);
  EXPECT_DOUBLE_EQ(at::mse_loss(a, b, at::Reduction::Sum).item<double>(), 10.0);
  EXPECT_TRUE(at::equal(at::mse_loss(a, b, at::Reduction::None), at::tensor({1.0, 0.0, 9.0})));
  EXPECT_EQ(at::mse_loss(at::ones({2, 3}), at::ones({3}, at::kDouble)).scalar_type(), at::kDouble);
  EXPECT_TRUE(at::equal(at::mse_loss_backward(at::ones({}, at::kDouble), a, b, at::Reduction::Sum),
                        at::tensor({2.0, 0.0, 6.0})));
}

using test_util::ErrorCase;
using test_util::Kind;

const std::vector<ErrorCase>& error_cases() {
  static const auto a = [] { return at::ones({2, 3}); };
  static const auto t = [] { return at::zeros({2}, at::kLong); };
  static const std::vector<ErrorCase> all = {
      {"softmax_dim", [] { at::softmax(a(), 2); }, Kind::IndexError,
       "Dimension out of range (expected to be in range of [-2, 1], but got 2)"},
      {"softmax_long", [] { at::softmax(a().to(at::kLong), 1); }, Kind::Error,
       "\"softmax_lastdim_kernel_impl\" not implemented for 'Long'"},
      {"log_softmax_half", [] { at::log_softmax(a().to(at::kHalf), 1); }, Kind::Error,
       "\"log_softmax_lastdim_kernel_impl\" not implemented for 'Half'"},
      {"softmax_half_to_float", [] { at::_softmax(a(), 1, true); }, Kind::Error,
       "softmax with half to float conversion is not supported on CPU"},
      {"nll_target_dtype", [] { at::nll_loss(a(), t().to(at::kInt)); }, Kind::Error,
       "expected scalar type Long but found Int"},
      {"nll_size", [] { at::nll_loss(a(), at::zeros({3}, at::kLong)); }, Kind::Error,
       "size mismatch (got input: [2, 3], target: [3])"},
      {"nll_bounds", [] { at::nll_loss(a(), at::full({2}, 5, at::kLong)); }, Kind::IndexError,
       "Target 5 is out of bounds."},
      {"nll_weight", [] { at::nll_loss(a(), t(), at::ones({4})); }, Kind::Error,
       "weight tensor should be defined either for all 3 classes or no classes but got weight "
       "tensor of shape: [4]"},
      {"nll_rank",
       [] {
         at::nll_loss(at::ones({2, 3, 4}), at::zeros({2, 4}, at::kLong));
       },
       Kind::Error, "input tensor should be 1D or 2D"},
      {"ce_multi_target",
       [] {
         at::cross_entropy_loss(a(), at::ones({2, 4}));
       },
       Kind::Error, "0D or 1D target tensor expected, multi-target not supported"},
      {"ce_smoothing", [] { at::cross_entropy_loss(a(), t(), c10::nullopt, 1, -100, 1.5); },
       Kind::Error, "label_smoothing must be between 0.0 and 1.0. Got: 1.5"},
      {"relu_bool", [] { at::relu(a().to(at::kBool)); }, Kind::Error,
       "Boolean inputs not supported for relu"},
      {"mse_long", [] { at::mse_loss(a().to(at::kLong), a().to(at::kLong)); }, Kind::Error,
       "\"mse_cpu\" not implemented for 'Long'"},
      {"threshold_backward_sizes",
       [] {
         at::threshold_backward(a(), at::ones({3, 4}), 0);
       },
       Kind::Error,
       "The size of tensor a (4) must match the size of tensor b (3) at non-singleton dimension 1"},
      {"argmax_empty", [] { at::argmax(at::ones({0})); }, Kind::IndexError,
       "argmax(): Expected reduction dim to be specified for input.numel() == 0."},
      {"argmax_empty_dim",
       [] {
         at::argmax(at::ones({2, 0}), -1);
       },
       Kind::IndexError, "argmax(): Expected reduction dim 1 to have non-zero size."},
      {"softmax_backward_sizes",
       [] {
         at::_softmax_backward_data(at::ones({2, 3}), at::ones({3, 2}), 1, at::kFloat);
       },
       Kind::Error,
       "Expected tensor for argument #1 'grad' to have same size as tensor for argument #2 "
       "'output'; but [2, 3] does not equal [3, 2] (while checking arguments for "
       "softmax_backward)"},
      {"softmax_backward_dtypes",
       [] {
         at::_softmax_backward_data(at::ones({2, 3}, at::kDouble), at::ones({2, 3}), 1, at::kFloat);
       },
       Kind::Error, "expected scalar type Double but found Float"},
      {"argmax_bool", [] { at::argmax(a().to(at::kBool), 0); }, Kind::Error,
       "\"argmax_cpu\" not implemented for 'Bool'"},
  };
  return all;
}

class SoftMaxLossErrors : public ::testing::TestWithParam<ErrorCase> {};
TEST_P(SoftMaxLossErrors, ExactTextAndType) {
  test_util::expect_error_case(GetParam());
}
INSTANTIATE_TEST_SUITE_P(LibtorchTexts, SoftMaxLossErrors, ::testing::ValuesIn(error_cases()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
