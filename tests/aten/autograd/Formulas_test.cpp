// Every backward formula against finite differences (GradCheck.h), each case also checking the
// node name libtorch 1.13 gives the output (printed by a libtorch program: t.grad_fn()->name()).

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "FormulaCase.h"
#include "aten/core/Reduction.h"

namespace {

using miniaten_test::FormulaCase;
using miniaten_test::leaf;
using miniaten_test::one;
using miniaten_test::TensorList;
using miniaten_test::transposed;
using miniaten_test::two;

class Formula : public ::testing::TestWithParam<FormulaCase> {};

TEST_P(Formula, MatchesFiniteDifferencesAndNodeName) {
  miniaten_test::check_formula(GetParam());
}

const FormulaCase kArithmetic[] = {
    {"clone", "CloneBackward0",
     [] {
       return one({2, 3});
     },
     [](const TensorList& in) { return in[0].clone(); }},
    {"clone_channels_last", "CloneBackward0",
     [] {
       return one({2, 3, 2, 2});
     },
     [](const TensorList& in) { return in[0].contiguous(at::MemoryFormat::ChannelsLast); }},
    {"contiguous_of_transposed", "CloneBackward0",
     [] {
       return transposed({3, 4});
     },
     [](const TensorList& in) { return in[0].contiguous(); }},
    {"to_copy", "ToCopyBackward0",
     [] {
       return one({2, 3});
     },
     [](const TensorList& in) { return at::_to_copy(in[0]); }},
    {"add", "AddBackward0",
     [] {
       return two({2, 3}, {2, 3});
     },
     [](const TensorList& in) { return at::add(in[0], in[1], 2.5); }},
    {"add_broadcast", "AddBackward0",
     [] {
       return two({2, 3}, {3});
     },
     [](const TensorList& in) { return at::add(in[0], in[1]); }},
    {"add_broadcast_size1", "AddBackward0",
     [] {
       return two({4, 1, 3}, {2, 1});
     },
     [](const TensorList& in) { return at::add(in[0], in[1]); }},
    {"add_scalar", "AddBackward1",
     [] {
       return one({2, 3});
     },
     [](const TensorList& in) { return at::add(in[0], 1.5); }},
    {"sub", "SubBackward0",
     [] {
       return two({2, 3}, {1, 3});
     },
     [](const TensorList& in) { return at::sub(in[0], in[1], 3); }},
    {"sub_scalar", "SubBackward1", [] { return one({3}); },
     [](const TensorList& in) { return at::sub(in[0], 2); }},
    {"mul", "MulBackward0",
     [] {
       return two({2, 3}, {2, 3});
     },
     [](const TensorList& in) { return at::mul(in[0], in[1]); }},
    {"mul_broadcast", "MulBackward0",
     [] {
       return two({3, 1}, {4});
     },
     [](const TensorList& in) { return at::mul(in[0], in[1]); }},
    {"mul_self", "MulBackward0", [] { return one({4}); },
     [](const TensorList& in) { return at::mul(in[0], in[0]); }},
    {"mul_scalar", "MulBackward1",
     [] {
       return one({2, 2});
     },
     [](const TensorList& in) { return at::mul(in[0], 3.0); }},
    {"div", "DivBackward0",
     [] {
       return two({2, 3}, {2, 3});
     },
     [](const TensorList& in) { return at::div(in[0], in[1]); }},
    {"div_broadcast", "DivBackward0",
     [] {
       return two({2, 3}, {2, 1});
     },
     [](const TensorList& in) { return at::div(in[0], in[1]); }},
    {"div_scalar", "DivBackward1", [] { return one({5}); },
     [](const TensorList& in) { return at::div(in[0], 4.0); }},
    // A rounded quotient is locally constant (the inputs stay clear of its jumps): zero grads.
    {"div_mode_none", "DivBackward2",
     [] {
       return two({2, 3}, {2, 3});
     },
     [](const TensorList& in) { return at::div(in[0], in[1], c10::nullopt); }},
    {"div_mode_floor", "DivBackward2",
     [] {
       return two({2, 3}, {2, 3});
     },
     [](const TensorList& in) { return at::div(in[0] * 10 + 0.25, in[1] + 3, "floor"); }},
    {"div_scalar_mode_trunc", "DivBackward3", [] { return one({5}); },
     [](const TensorList& in) { return at::div(in[0] * 10 + 0.25, 3, "trunc"); }},
    {"neg", "NegBackward0",
     [] {
       return one({2, 3});
     },
     [](const TensorList& in) { return in[0].neg(); }},
    {"abs", "AbsBackward0",
     [] {
       return one({2, 3}, -0.27);
     },
     [](const TensorList& in) { return in[0].abs(); }},
    {"exp", "ExpBackward0",
     [] {
       return one({2, 3});
     },
     [](const TensorList& in) { return in[0].exp(); }},
    {"log", "LogBackward0",
     [] {
       return one({2, 3});
     },
     [](const TensorList& in) { return in[0].log(); }},
    {"sqrt", "SqrtBackward0",
     [] {
       return one({2, 3});
     },
     [](const TensorList& in) { return in[0].sqrt(); }},
    {"where", "WhereBackward0",
     [] {
       return two({2, 3}, {3});
     },
     [](const TensorList& in) { return at::where(at::gt(in[0], 0.8), in[0], in[1]); }},
    {"sum", "SumBackward0",
     [] {
       return one({2, 3});
     },
     [](const TensorList& in) { return in[0].sum(); }},
    {"sum_dim", "SumBackward1",
     [] {
       return one({2, 3, 4});
     },
     [](const TensorList& in) {
       return at::sum(in[0], std::vector<int64_t>{0, 2});
     }},
    {"sum_dim_keepdim", "SumBackward1",
     [] {
       return one({2, 3, 4});
     },
     [](const TensorList& in) { return at::sum(in[0], std::vector<int64_t>{-1}, true); }},
    {"mean", "MeanBackward0",
     [] {
       return one({2, 3});
     },
     [](const TensorList& in) { return in[0].mean(); }},
    {"mean_dim", "MeanBackward1",
     [] {
       return one({2, 3, 4});
     },
     [](const TensorList& in) { return at::mean(in[0], std::vector<int64_t>{1}); }},
    {"cumsum", "CumsumBackward0",
     [] {
       return one({3, 4});
     },
     [](const TensorList& in) { return at::cumsum(in[0], 1); }},
};
INSTANTIATE_TEST_SUITE_P(Arithmetic, Formula, ::testing::ValuesIn(kArithmetic),
                         [](const auto& info) { return info.param.label; });

const FormulaCase kViews[] = {
    {"as_strided", "AsStridedBackward0",
     [] {
       return one({3, 4});
     },
     [](const TensorList& in) {
       return in[0].as_strided({2, 2}, {4, 1}, 1);
     }},
    {"as_strided_overlapping", "AsStridedBackward0", [] { return one({6}); },
     [](const TensorList& in) {
       return in[0].as_strided({3, 3}, {1, 1});
     }},
    {"view", "ViewBackward0",
     [] {
       return one({2, 6});
     },
     [](const TensorList& in) {
       return in[0].view({3, 4});
     }},
    {"reshape_view", "ReshapeAliasBackward0",
     [] {
       return one({2, 6});
     },
     [](const TensorList& in) {
       return in[0].reshape({4, 3});
     }},
    // reshape calls _reshape_alias when a view will do, else _unsafe_view of a clone.
    {"reshape_copy", "UnsafeViewBackward0",
     [] {
       return transposed({3, 4});
     },
     [](const TensorList& in) { return in[0].reshape({12}); }},
    {"flatten", "ReshapeAliasBackward0",
     [] {
       return one({2, 3, 2});
     },
     [](const TensorList& in) { return in[0].flatten(); }},
    {"expand", "ExpandBackward0",
     [] {
       return one({3, 1});
     },
     [](const TensorList& in) {
       return in[0].expand({2, 3, 4});
     }},
    {"permute", "PermuteBackward0",
     [] {
       return one({2, 3, 4});
     },
     [](const TensorList& in) {
       return in[0].permute({2, 0, 1});
     }},
    {"movedim", "PermuteBackward0",
     [] {
       return one({2, 3, 4});
     },
     [](const TensorList& in) { return in[0].movedim(0, -1); }},
    {"transpose", "TransposeBackward0",
     [] {
       return one({2, 3, 4});
     },
     [](const TensorList& in) { return in[0].transpose(0, 2); }},
    {"t", "TBackward0",
     [] {
       return one({2, 3});
     },
     [](const TensorList& in) { return in[0].t(); }},
    {"squeeze", "SqueezeBackward0",
     [] {
       return one({2, 1, 3, 1});
     },
     [](const TensorList& in) { return in[0].squeeze(); }},
    {"squeeze_dim", "SqueezeBackward1",
     [] {
       return one({2, 1, 3});
     },
     [](const TensorList& in) { return in[0].squeeze(1); }},
    {"squeeze_dim_not_one", "SqueezeBackward1",
     [] {
       return one({2, 3});
     },
     [](const TensorList& in) { return in[0].squeeze(0); }},
    {"unsqueeze", "UnsqueezeBackward0",
     [] {
       return one({2, 3});
     },
     [](const TensorList& in) { return in[0].unsqueeze(-1); }},
    {"slice", "SliceBackward0",
     [] {
       return one({5, 3});
     },
     [](const TensorList& in) { return in[0].slice(0, 1, 5, 2); }},
    {"narrow", "SliceBackward0",
     [] {
       return one({3, 5});
     },
     [](const TensorList& in) { return in[0].narrow(1, 1, 3); }},
    {"select", "SelectBackward0",
     [] {
       return one({3, 4});
     },
     [](const TensorList& in) { return in[0].select(1, -1); }},
    {"diagonal", "DiagonalBackward0",
     [] {
       return one({3, 4});
     },
     [](const TensorList& in) { return in[0].diagonal(1); }},
    {"diagonal_dims", "DiagonalBackward0",
     [] {
       return one({2, 3, 3});
     },
     [](const TensorList& in) { return in[0].diagonal(-1, 1, 2); }},
    {"unfold", "UnfoldBackward0",
     [] {
       return one({2, 7});
     },
     [](const TensorList& in) { return in[0].unfold(1, 3, 2); }},
    {"unfold_overlapping", "UnfoldBackward0", [] { return one({6}); },
     [](const TensorList& in) { return in[0].unfold(0, 4, 1); }},
    {"alias", "AliasBackward0",
     [] {
       return one({2, 2});
     },
     [](const TensorList& in) { return at::alias(in[0]); }},
};
INSTANTIATE_TEST_SUITE_P(Views, Formula, ::testing::ValuesIn(kViews),
                         [](const auto& info) { return info.param.label; });

// In-place ops on a copy of the leaves (a leaf that requires grad may not be written in place).
const FormulaCase kInplace[] = {
    {"add_", "AddBackward0",
     [] {
       return two({2, 3}, {3});
     },
     [](const TensorList& in) { return in[0].clone().add_(in[1], 2); }},
    {"sub_scalar_", "SubBackward1", [] { return one({3}); },
     [](const TensorList& in) { return in[0].clone().sub_(1.5); }},
    {"mul_", "MulBackward0",
     [] {
       return two({2, 3}, {2, 3});
     },
     [](const TensorList& in) { return in[0].clone().mul_(in[1]); }},
    {"mul_scalar_", "MulBackward1", [] { return one({4}); },
     [](const TensorList& in) { return in[0].clone().mul_(-2); }},
    {"div_", "DivBackward0",
     [] {
       return two({2, 3}, {2, 3});
     },
     [](const TensorList& in) { return in[0].clone().div_(in[1]); }},
    {"div_scalar_", "DivBackward1", [] { return one({4}); },
     [](const TensorList& in) { return in[0].clone().div_(3); }},
    {"neg_", "NegBackward0", [] { return one({4}); },
     [](const TensorList& in) { return in[0].clone().neg_(); }},
    {"abs_", "AbsBackward0", [] { return one({4}, -0.22); },
     [](const TensorList& in) { return in[0].clone().abs_(); }},
    {"exp_", "ExpBackward0", [] { return one({4}); },
     [](const TensorList& in) { return in[0].clone().exp_(); }},
    {"log_", "LogBackward0", [] { return one({4}); },
     [](const TensorList& in) { return in[0].clone().log_(); }},
    {"sqrt_", "SqrtBackward0", [] { return one({4}); },
     [](const TensorList& in) { return in[0].clone().sqrt_(); }},
    {"copy_broadcast", "torch::autograd::CopyBackwards",
     [] {
       return two({2, 3}, {3});
     },
     [](const TensorList& in) { return at::mul(in[0], 2).copy_(in[1]); }},
    {"copy_into_plain", "torch::autograd::CopyBackwards",
     [] {
       return one({2, 3});
     },
     [](const TensorList& in) {
       return at::zeros({2, 3}, at::kDouble).copy_(in[0]);
     }},
    {"fill_", "FillBackward2", [] { return one({3}); },
     [](const TensorList& in) { return in[0].clone().fill_(2); }},
    {"zero_", "ZeroBackward0", [] { return one({3}); },
     [](const TensorList& in) { return in[0].clone().zero_(); }},
    // Through a view: the base's history becomes a CopySlices.
    {"mul_on_view", "torch::autograd::CopySlices",
     [] {
       return two({3, 4}, {4});
     },
     [](const TensorList& in) {
       at::Tensor y = in[0].clone();
       y.select(0, 1).mul_(in[1]);
       return y;
     }},
    {"copy_into_slice", "torch::autograd::CopySlices",
     [] {
       return two({4, 3}, {2, 3});
     },
     [](const TensorList& in) {
       at::Tensor y = at::mul(in[0], 1.5);
       y.slice(0, 1, 3).copy_(in[1]);
       return y;
     }},
    {"view_after_base_inplace", "AsStridedBackward0",
     [] {
       return one({2, 3});
     },
     [](const TensorList& in) {
       at::Tensor y = in[0].clone();
       at::Tensor v = y.t();
       y.mul_(at::full({2, 3}, 3.0, at::kDouble));
       return v;
     }},
};
INSTANTIATE_TEST_SUITE_P(Inplace, Formula, ::testing::ValuesIn(kInplace),
                         [](const auto& info) { return info.param.label; });

}  // namespace

namespace {

at::Tensor targets(std::vector<int64_t> values) {
  return at::tensor(values);
}

// Matrix products, relu, softmax and the losses (FunctionsNN.cpp); node names from libtorch 1.13.
const FormulaCase kNN[] = {
    {"mm", "MmBackward0",
     [] {
       return two({2, 3}, {3, 4});
     },
     [](const TensorList& in) { return at::mm(in[0], in[1]); }},
    {"mm_transposed", "MmBackward0",
     [] {
       TensorList in = transposed({3, 2});
       in.push_back(leaf({4, 3}));
       return in;
     },
     [](const TensorList& in) { return at::mm(in[0], in[1].t()); }},
    {"addmm_bias_broadcast", "AddmmBackward0",
     [] {
       TensorList in = two({2, 3}, {3, 4});
       in.push_back(leaf({4}, -0.3));
       return in;
     },
     [](const TensorList& in) { return at::addmm(in[2], in[0], in[1], 0.5, 2); }},
    {"addmm_inplace", "AddmmBackward0",
     [] {
       TensorList in = two({2, 3}, {3, 4});
       in.push_back(leaf({2, 4}, -0.3));
       return in;
     },
     [](const TensorList& in) { return in[2].clone().addmm_(in[0], in[1], 3, 0.5); }},
    {"bmm", "BmmBackward0",
     [] {
       return two({2, 2, 3}, {2, 3, 4});
     },
     [](const TensorList& in) { return at::bmm(in[0], in[1]); }},
    {"dot", "DotBackward0", [] { return two({5}, {5}); },
     [](const TensorList& in) { return at::dot(in[0], in[1]); }},
    {"mv", "MvBackward0",
     [] {
       return two({3, 4}, {4});
     },
     [](const TensorList& in) { return at::mv(in[0], in[1]); }},
    {"matmul_fold", "UnsafeViewBackward0",
     [] {
       return two({2, 3, 4}, {4, 2});
     },
     [](const TensorList& in) { return at::matmul(in[0], in[1]); }},
    {"matmul_broadcast", "UnsafeViewBackward0",
     [] {
       return two({2, 1, 2, 3}, {3, 3, 2});
     },
     [](const TensorList& in) { return at::matmul(in[0], in[1]); }},
    {"linear", "AddmmBackward0",
     [] {
       TensorList in = two({2, 3}, {4, 3});
       in.push_back(leaf({4}, -0.3));
       return in;
     },
     [](const TensorList& in) { return at::linear(in[0], in[1], in[2]); }},
    {"relu", "ReluBackward0",
     [] {
       return one({3, 4}, -0.55);
     },
     [](const TensorList& in) { return at::relu(in[0]); }},
    {"relu_inplace", "ReluBackward0",
     [] {
       return one({3, 4}, -0.55);
     },
     [](const TensorList& in) { return in[0].clone().relu_(); }},
    {"softmax_dim0", "SoftmaxBackward0",
     [] {
       return one({3, 4});
     },
     [](const TensorList& in) { return at::softmax(in[0], 0); }},
    {"softmax_last", "SoftmaxBackward0",
     [] {
       return transposed({5, 3});
     },
     [](const TensorList& in) { return at::softmax(in[0], -1); }},
    {"log_softmax_middle", "LogSoftmaxBackward0",
     [] {
       return one({2, 3, 4});
     },
     [](const TensorList& in) { return at::log_softmax(in[0], 1); }},
    {"cross_entropy", "NllLossBackward0",
     [] {
       return one({4, 3});
     },
     [](const TensorList& in) {
       return at::cross_entropy_loss(in[0], targets({0, 2, 1, 2}));
     }},
    {"cross_entropy_weight_ignore", "NllLossBackward0",
     [] {
       return one({4, 3});
     },
     [](const TensorList& in) {
       return at::cross_entropy_loss(in[0], targets({0, 2, 1, 2}), at::tensor({0.5, 2.0, 1.5}),
                                     at::Reduction::Mean, 1);
     }},
    {"nll_loss_none", "NllLossBackward0",
     [] {
       return one({4, 3});
     },
     [](const TensorList& in) {
       return at::nll_loss(in[0], targets({0, 2, 1, 2}), c10::nullopt, at::Reduction::None);
     }},
    {"cross_entropy_3d_sum", "NllLossBackward0",
     [] {
       return one({2, 3, 2});
     },
     [](const TensorList& in) {
       return at::cross_entropy_loss(in[0], targets({0, 2, 1, 1}).view({2, 2}), c10::nullopt,
                                     at::Reduction::Sum);
     }},
    {"cross_entropy_probabilities", "DivBackward1",
     [] {
       return one({3, 4});
     },
     [](const TensorList& in) {
       return at::cross_entropy_loss(in[0], at::softmax(at::arange(12.0).view({3, 4}).cos(), 1));
     }},
    {"cross_entropy_smoothing", "AddBackward0",
     [] {
       return one({4, 3});
     },
     [](const TensorList& in) {
       return at::cross_entropy_loss(in[0], targets({0, 2, 1, 2}), c10::nullopt,
                                     at::Reduction::Mean, -100, 0.1);
     }},
    {"mse_loss", "MseLossBackward0",
     [] {
       return two({2, 3}, {3});
     },
     [](const TensorList& in) { return at::mse_loss(in[0], in[1]); }},
};
INSTANTIATE_TEST_SUITE_P(NN, Formula, ::testing::ValuesIn(kNN),
                         [](const auto& info) { return info.param.label; });

}  // namespace

namespace {

FormulaCase unary_case(const char* label, const char* node, at::Tensor (*fn)(const at::Tensor&),
                       double offset = 0.1) {
  return {label, node,
          [offset] {
            return one({2, 3}, offset);
          },
          [fn](const TensorList& in) { return fn(in[0]); }};
}
// The in-place form on a clone of the leaf: the same node, and the values saved before the write.
FormulaCase inplace_case(const char* label, const char* node, at::Tensor& (*fn)(at::Tensor&),
                         double offset = 0.1) {
  return {label, node,
          [offset] {
            return one({2, 3}, offset);
          },
          [fn](const TensorList& in) {
            at::Tensor t = in[0].clone();
            return fn(t);
          }};
}

// The math functions (FunctionsUnaryMath.cpp). Inputs in (0.1, 0.7): inside asin's domain and
// away from the rounding functions' steps.
const FormulaCase kMath[] = {
    unary_case("log2", "Log2Backward0", at::log2),
    unary_case("log10", "Log10Backward0", at::log10),
    unary_case("log1p", "Log1PBackward0", at::log1p),
    unary_case("sin", "SinBackward0", at::sin),
    unary_case("cos", "CosBackward0", at::cos),
    unary_case("tan", "TanBackward0", at::tan),
    unary_case("asin", "AsinBackward0", at::asin),
    unary_case("acos", "AcosBackward0", at::acos),
    unary_case("atan", "AtanBackward0", at::atan),
    unary_case("sinh", "SinhBackward0", at::sinh),
    unary_case("cosh", "CoshBackward0", at::cosh),
    unary_case("tanh", "TanhBackward0", at::tanh),
    unary_case("erf", "ErfBackward0", at::erf),
    unary_case("erfc", "ErfcBackward0", at::erfc),
    unary_case("expm1", "Expm1Backward0", at::expm1),
    unary_case("exp2", "Exp2Backward0", at::exp2),
    unary_case("rsqrt", "RsqrtBackward0", at::rsqrt),
    unary_case("reciprocal", "ReciprocalBackward0", at::reciprocal),
    unary_case("sigmoid", "SigmoidBackward0", at::sigmoid),
    unary_case("silu", "SiluBackward0", at::silu, -0.3),
    unary_case("floor", "FloorBackward0", at::floor, 0.12),
    unary_case("ceil", "CeilBackward0", at::ceil, 0.12),
    unary_case("trunc", "TruncBackward0", at::trunc, 0.12),
    unary_case("round", "RoundBackward0", at::round, 0.12),
    unary_case("sign", "SignBackward0", at::sign, 0.12),
    inplace_case("sin_", "SinBackward0", at::sin_),
    inplace_case("sigmoid_", "SigmoidBackward0", at::sigmoid_),
    inplace_case("tanh_", "TanhBackward0", at::tanh_),
    {"gelu", "GeluBackward0",
     [] {
       return one({2, 3}, -0.3);
     },
     [](const TensorList& in) { return at::gelu(in[0]); }},
    {"gelu_tanh", "GeluBackward0",
     [] {
       return one({2, 3}, -0.3);
     },
     [](const TensorList& in) { return at::gelu(in[0], "tanh"); }},
    {"clamp", "ClampBackward1",
     [] {
       return one({2, 3}, 0.12);
     },
     [](const TensorList& in) { return at::clamp(in[0], 0.3, 0.55); }},
    {"clamp_inplace", "ClampBackward1",
     [] {
       return one({2, 3}, 0.12);
     },
     [](const TensorList& in) { return in[0].clone().clamp_(c10::nullopt, 0.35); }},
    {"clamp_min", "ClampMinBackward0",
     [] {
       return one({2, 3}, 0.12);
     },
     [](const TensorList& in) { return at::clamp_min(in[0], 0.35); }},
    {"clamp_max", "ClampMaxBackward0",
     [] {
       return one({2, 3}, 0.12);
     },
     [](const TensorList& in) { return at::clamp_max(in[0], 0.35); }},
    {"pow_scalar", "PowBackward0",
     [] {
       return one({2, 3}, 0.1);
     },
     [](const TensorList& in) { return at::pow(in[0], 2.5); }},
    {"pow_scalar_inplace", "PowBackward0",
     [] {
       return one({2, 3}, 0.1);
     },
     [](const TensorList& in) { return in[0].clone().pow_(3); }},
    {"pow_tensor", "PowBackward1",
     [] {
       return two({2, 3}, {3});
     },
     [](const TensorList& in) { return at::pow(in[0], in[1]); }},
    {"atan2", "Atan2Backward0",
     [] {
       return two({2, 3}, {3});
     },
     [](const TensorList& in) { return at::atan2(in[0], in[1]); }},
    {"hypot", "HypotBackward0",
     [] {
       return two({2, 3}, {2, 3});
     },
     [](const TensorList& in) { return at::hypot(in[0], in[1]); }},
    {"fmod", "FmodBackward1",
     [] {
       return two({2, 3}, {3});
     },
     [](const TensorList& in) { return at::fmod(in[0], in[1] * 0.3); }},
    {"maximum", "MaximumBackward0",
     [] {
       return two({2, 3}, {3});
     },
     [](const TensorList& in) { return at::maximum(in[0], in[1]); }},
    {"minimum", "MinimumBackward0",
     [] {
       return two({2, 3}, {3});
     },
     [](const TensorList& in) { return at::minimum(in[0], in[1]); }},
};
INSTANTIATE_TEST_SUITE_P(Math, Formula, ::testing::ValuesIn(kMath),
                         [](const auto& info) { return info.param.label; });

}  // namespace

namespace {

// Joining and indexing (FunctionsIndexing.cpp).
const FormulaCase kJoin[] = {
    {"cat", "CatBackward0",
     [] {
       TensorList in = two({2, 3}, {4, 3});
       in.push_back(leaf({1, 3}, -0.2));
       return in;
     },
     [](const TensorList& in) {
       return at::cat({in[0], in[1], in[2]});
     }},
    {"cat_dim1_with_skipped_empty", "CatBackward0",
     [] {
       return two({2, 3}, {2, 2});
     },
     [](const TensorList& in) {
       return at::cat({in[0], at::empty({0}, at::kDouble), in[1]}, 1);
     }},
    {"stack", "StackBackward0",
     [] {
       return two({2, 3}, {2, 3});
     },
     [](const TensorList& in) {
       return at::stack({in[0], in[1]}, 1);
     }},
    {"stack_last", "StackBackward0",
     [] {
       return two({2, 3}, {2, 3});
     },
     [](const TensorList& in) {
       return at::stack({in[0], in[1]}, 2);
     }},
    {"index_select_repeated", "IndexSelectBackward0",
     [] {
       return one({4, 3});
     },
     [](const TensorList& in) {
       return at::index_select(in[0], 0, at::tensor({2L, 0L, 2L}));
     }},
    {"index_select_0dim", "IndexSelectBackward0", [] { return one({}); },
     [](const TensorList& in) { return at::index_select(in[0], 0, at::tensor({0L})); }},
    {"index_select_dim1", "IndexSelectBackward0",
     [] {
       return transposed({3, 4});
     },
     [](const TensorList& in) {
       return at::index_select(in[0], 1, at::tensor({1, 1, 0}));
     }},
    {"index_add", "IndexAddBackward0",
     [] {
       return two({4, 3}, {3, 3});
     },
     [](const TensorList& in) {
       return at::index_add(in[0], 0, at::tensor({2L, 0L, 2L}), in[1], 1.5);
     }},
    {"index_add_inplace", "IndexAddBackward0",
     [] {
       return two({3, 4}, {3, 3});
     },
     [](const TensorList& in) {
       return in[0].clone().index_add_(1, at::tensor({2L, 0L, 2L}), in[1].t());
     }},
    {"masked_fill_scalar", "MaskedFillBackward0",
     [] {
       return one({2, 3});
     },
     [](const TensorList& in) {
       return at::masked_fill(in[0], at::tensor({1, 0, 1}).to(at::kBool), 2.0);
     }},
    {"masked_fill_broadcast_mask", "MaskedFillBackward0", [] { return one({3}); },
     [](const TensorList& in) {
       return at::masked_fill(in[0], at::tensor({1, 0, 0, 0, 1, 1}).view({2, 3}).to(at::kBool),
                              2.0);
     }},
    {"masked_fill_tensor_value", "MaskedFillBackward1",
     [] {
       return two({2, 3}, {});
     },
     [](const TensorList& in) {
       return in[0].clone().masked_fill_(at::tensor({1, 0, 1}).to(at::kBool), in[1]);
     }},
};
INSTANTIATE_TEST_SUITE_P(Join, Formula, ::testing::ValuesIn(kJoin),
                         [](const auto& info) { return info.param.label; });

}  // namespace
