// The backward formulas of the shaping copies, gather / scatter / masked_select and the neural-net
// ops added with them (embedding, layer_norm, binary_cross_entropy), against finite differences
// and libtorch 1.13's node names (FormulaCase.h). Layouts: contiguous, transposed, broadcast.

#include <gtest/gtest.h>

#include <vector>

#include "FormulaCase.h"

namespace {

using miniaten_test::FormulaCase;
using miniaten_test::leaf;
using miniaten_test::one;
using miniaten_test::TensorList;
using miniaten_test::transposed;
using miniaten_test::two;

at::Tensor longs(std::vector<int64_t> values, std::vector<int64_t> sizes) {
  return at::tensor(values, at::kLong).view(sizes);
}

class ShapeIndexingFormula : public ::testing::TestWithParam<FormulaCase> {};
TEST_P(ShapeIndexingFormula, MatchesFiniteDifferencesAndNodeName) {
  miniaten_test::check_formula(GetParam());
}

const FormulaCase kShaping[] = {
    {"repeat", "RepeatBackward0",
     [] {
       return one({2, 3});
     },
     [](const TensorList& in) {
       return in[0].repeat({2, 1, 2});
     }},
    {"repeat_transposed", "RepeatBackward0",
     [] {
       return transposed({3, 2});
     },
     [](const TensorList& in) {
       return in[0].repeat({3, 2});
     }},
    {"broadcast_to", "ExpandBackward0",
     [] {
       return one({3, 1});
     },
     [](const TensorList& in) {
       return at::broadcast_to(in[0], {2, 3, 4});
     }},
    {"flip", "FlipBackward0",
     [] {
       return one({2, 3, 4});
     },
     [](const TensorList& in) {
       return in[0].flip({0, -1});
     }},
    {"flip_transposed", "FlipBackward0",
     [] {
       return transposed({3, 4});
     },
     [](const TensorList& in) { return in[0].flip({1}); }},
    {"roll_flat", "RollBackward0",
     [] {
       return one({2, 3});
     },
     [](const TensorList& in) { return in[0].roll({4}); }},
    {"roll_dims", "RollBackward0",
     [] {
       return transposed({3, 4});
     },
     [](const TensorList& in) {
       return in[0].roll({1, -5}, {0, 1});
     }},
    {"tril", "TrilBackward0",
     [] {
       return one({3, 4});
     },
     [](const TensorList& in) { return in[0].tril(1); }},
    {"triu_batched", "TriuBackward0",
     [] {
       return one({2, 3, 3});
     },
     [](const TensorList& in) { return in[0].triu(-1); }},
    {"tril_", "TrilBackward0",
     [] {
       return transposed({4, 3});
     },
     [](const TensorList& in) { return in[0].clone().tril_(); }},
    {"triu_", "TriuBackward0",
     [] {
       return one({3, 4});
     },
     [](const TensorList& in) { return in[0].clone().triu_(2); }},
    {"diag_vector", "DiagBackward0", [] { return one({3}); },
     [](const TensorList& in) { return at::diag(in[0], -1); }},
    {"diag_matrix", "DiagBackward0",
     [] {
       return transposed({4, 3});
     },
     [](const TensorList& in) { return in[0].diag(1); }},
    {"pad", "ConstantPadNdBackward0",
     [] {
       return one({2, 3});
     },
     [](const TensorList& in) {
       return at::constant_pad_nd(in[0], {1, 2, 0, 1}, 0.5);
     }},
    {"pad_crop", "ConstantPadNdBackward0",
     [] {
       return one({3, 4});
     },
     [](const TensorList& in) {
       return at::constant_pad_nd(in[0], {-1, 2, 1, -2});
     }},
};
INSTANTIATE_TEST_SUITE_P(Shaping, ShapeIndexingFormula, ::testing::ValuesIn(kShaping));

const FormulaCase kIndexing[] = {
    {"gather", "GatherBackward0",
     [] {
       return one({3, 4});
     },
     [](const TensorList& in) {
       return in[0].gather(1, longs({0, 0, 3, 1, 2, 2}, {3, 2}));
     }},
    {"gather_dim0_transposed", "GatherBackward0",
     [] {
       return transposed({4, 3});
     },
     [](const TensorList& in) {
       return in[0].gather(0, longs({2, 0, 1, 1}, {2, 2}));
     }},
    {"scatter_src", "ScatterBackward0",
     [] {
       return two({3, 4}, {2, 4});
     },
     [](const TensorList& in) {
       return in[0].scatter(0, longs({0, 1, 2, 0, 2, 0, 1, 1}, {2, 4}), in[1]);
     }},
    // src larger than index: the unread part of src gets a zero gradient (libtorch 1.13 fails
    // here: Note [scatter's source gradient has the source's shape]).
    {"scatter_src_larger_than_index", "ScatterBackward0",
     [] {
       return two({3, 5}, {2, 5});
     },
     [](const TensorList& in) {
       return in[0].scatter(0, longs({0, 1, 2, 0, 2, 0, 1, 1}, {2, 4}), in[1]);
     }},
    {"scatter_add_src_larger_than_index", "ScatterAddBackward0",
     [] {
       return two({3, 5}, {3, 4});
     },
     [](const TensorList& in) {
       return in[0].scatter_add(1, longs({4, 4, 0, 1}, {2, 2}), in[1]);
     }},
    {"index", "IndexBackward0",
     [] {
       return one({3, 4});
     },
     [](const TensorList& in) {
       return in[0].index({longs({2, 0, 2}, {3}), at::indexing::Slice(1, 3)});
     }},
    {"index_mask_transposed", "IndexBackward0",
     [] {
       return transposed({4, 3});
     },
     [](const TensorList& in) { return in[0].index({in[0].detach().gt(0.9)}); }},
    {"index_put_", "IndexPutBackward0",
     [] {
       return two({3, 4}, {4});
     },
     [](const TensorList& in) {
       return in[0].clone().index_put_({longs({0, 2}, {2})}, in[1]);
     }},
    {"index_put_accumulate", "IndexPutBackward0", [] { return two({5}, {3}); },
     [](const TensorList& in) {
       c10::List<c10::optional<at::Tensor>> indices;
       indices.push_back(longs({1, 1, 3}, {3}));
       return in[0].index_put(indices, in[1], /*accumulate=*/true);
     }},
    {"scatter_value", "ScatterBackward1",
     [] {
       return one({3, 4});
     },
     [](const TensorList& in) {
       return in[0].scatter(1, longs({3, 0, 1}, {3, 1}), 2.0);
     }},
    {"scatter_src_", "ScatterBackward0",
     [] {
       return two({3, 4}, {3, 2});
     },
     [](const TensorList& in) {
       return in[0].clone().scatter_(1, longs({1, 3, 0, 2, 2, 1}, {3, 2}), in[1]);
     }},
    {"scatter_add", "ScatterAddBackward0",
     [] {
       return two({3, 4}, {2, 4});
     },
     [](const TensorList& in) {
       return in[0].scatter_add(0, longs({0, 1, 0, 0, 0, 2, 0, 1}, {2, 4}), in[1]);
     }},
    {"scatter_add_", "ScatterAddBackward0",
     [] {
       return two({2, 5}, {2, 3});
     },
     [](const TensorList& in) {
       return in[0].clone().scatter_add_(1, longs({4, 4, 0, 1, 1, 1}, {2, 3}), in[1]);
     }},
    {"masked_select", "MaskedSelectBackward0",
     [] {
       return one({2, 3});
     },
     [](const TensorList& in) {
       return in[0].masked_select(at::tensor({true, false, true}, at::kBool));
     }},
    {"masked_select_broadcast_self", "MaskedSelectBackward0", [] { return one({3}); },
     [](const TensorList& in) {
       return in[0].masked_select(
           at::tensor({true, false, true, false, true, true}, at::kBool).view({2, 3}));
     }},
};
INSTANTIATE_TEST_SUITE_P(Indexing, ShapeIndexingFormula, ::testing::ValuesIn(kIndexing));

// Probabilities strictly inside (0, 1) for binary_cross_entropy's input and target.
TensorList probabilities(std::vector<int64_t> sizes) {
  return {leaf(sizes, 0.1), leaf(sizes, 0.15)};
}

const FormulaCase kNN[] = {
    {"embedding", "EmbeddingBackward0",
     [] {
       return one({5, 3});
     },
     [](const TensorList& in) {
       return at::embedding(in[0], longs({0, 2, 2, 4}, {2, 2}));
     }},
    {"layer_norm", "NativeLayerNormBackward0",
     [] {
       return TensorList{leaf({2, 2, 3}), leaf({3}, 1.0), leaf({3}, 0.2)};
     },
     [](const TensorList& in) { return at::layer_norm(in[0], {3}, in[1], in[2]); }},
    {"layer_norm_two_dims_no_affine", "NativeLayerNormBackward0",
     [] {
       return transposed({3, 2});
     },
     [](const TensorList& in) {
       return at::layer_norm(in[0].unsqueeze(0), {2, 3});
     }},
    {"bce_mean", "BinaryCrossEntropyBackward0",
     [] {
       return probabilities({2, 3});
     },
     [](const TensorList& in) { return at::binary_cross_entropy(in[0], in[1]); }},
    {"bce_none_weighted", "BinaryCrossEntropyBackward0",
     [] {
       return probabilities({3, 2});
     },
     [](const TensorList& in) {
       return at::binary_cross_entropy(in[0], in[1], at::arange(1.0, 3.0, at::kDouble), 0);
     }},
    {"bce_sum", "BinaryCrossEntropyBackward0", [] { return probabilities({4}); },
     [](const TensorList& in) { return at::binary_cross_entropy(in[0], in[1], {}, 2); }},
};
INSTANTIATE_TEST_SUITE_P(NN, ShapeIndexingFormula, ::testing::ValuesIn(kNN));

// padding_idx and scale_grad_by_freq change the gradient on purpose (it is no longer the
// derivative): the padding row gets none, a row picked n times gets 1/n of each.
TEST(EmbeddingGradient, PaddingRowAndFrequencyScaling) {
  const at::Tensor weight = leaf({5, 3});
  const at::Tensor out = at::embedding(weight, longs({1, 2, 2, 4, 1}, {5}), /*padding_idx=*/1,
                                       /*scale_grad_by_freq=*/true);
  EXPECT_EQ(out.grad_fn()->name(), "EmbeddingBackward0");
  out.backward(at::ones({5, 3}, at::kDouble));
  const at::Tensor expected =
      at::tensor({0.0, 0.0, 1.0, 0.0, 1.0}, at::kDouble).unsqueeze(1).expand({5, 3});
  EXPECT_TRUE(at::allclose(weight.grad(), expected));
}

// A leaf written in place by a random fill gets a node whose gradient is zero; bernoulli's
// probabilities get zeros too.
TEST(RandomFillGradients, AreZero) {
  at::Tensor p = at::full({4}, 0.5, at::kDouble).requires_grad_();
  at::Tensor draws = at::bernoulli(p);
  EXPECT_EQ(draws.grad_fn()->name(), "BernoulliBackward0");
  draws.sum().backward();
  EXPECT_TRUE(at::equal(p.grad(), at::zeros({4}, at::kDouble)));

  at::Tensor x = leaf({3}).mul(1.0);
  x.bernoulli_(0.5);
  EXPECT_EQ(x.grad_fn()->name(), "BernoulliBackward2");
  at::Tensor y = leaf({3}).mul(1.0);
  y.random_(0, 10);
  EXPECT_EQ(y.grad_fn()->name(), "RandomBackward0");
  y.random_(10);
  EXPECT_EQ(y.grad_fn()->name(), "RandomBackward1");
}

// dropout is composite: its node is the multiply's, and in eval mode the input itself returns.
TEST(DropoutGraph, IsAMultiplyOrTheInputItself) {
  at::Tensor x = leaf({2, 3});
  EXPECT_TRUE(at::dropout(x, 0.5, false).is_same(x));
  EXPECT_TRUE(at::dropout(x, 0.0, true).is_same(x));
  at::Tensor dropped = at::dropout(x, 0.5, true);
  EXPECT_EQ(dropped.grad_fn()->name(), "MulBackward0");
  dropped.sum().backward();
  // Each gradient is 0 (dropped) or 1 / (1 - p) = 2 (kept), exactly where the output is nonzero.
  const at::Tensor kept = dropped.detach().ne(0);
  EXPECT_TRUE(at::equal(x.grad(), kept.to(at::kDouble) * 2));
  EXPECT_EQ(at::dropout(x, 1.0, true).grad_fn()->name(), "MulBackward0");
}

// masked_scatter has a forward only here: under grad it refuses at the call.
TEST(MaskedScatter, HasNoDerivativeYet) {
  at::Tensor x = leaf({3});
  const at::Tensor mask = at::tensor({true, false, true}, at::kBool);
  try {
    at::masked_scatter(x, mask, at::zeros({2}, at::kDouble));
    FAIL() << "expected an error";
  } catch (const c10::Error& e) {
    EXPECT_EQ(e.what_without_backtrace(),
              std::string("derivative for aten::masked_scatter is not implemented"));
  }
}

}  // namespace
