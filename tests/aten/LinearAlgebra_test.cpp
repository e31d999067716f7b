// mm, addmm, bmm, dot, mv, matmul and linear: values against a plain double loop over every
// layout BLAS reads directly (row-major, transposed, padded rows) and those it cannot (expanded,
// stepped), result sizes and strides as libtorch's, out= into transposed and strided outputs,
// the loop dtypes (integers wrap, BFloat16 rounds once), and libtorch 1.13's error texts.

#include <gtest/gtest.h>

#include <vector>

#include "aten/ATen.h"
#include "tests/aten/ErrorCase.h"

namespace {

using at::Tensor;

// a @ b computed in double, element by element.
Tensor reference_mm(const Tensor& a, const Tensor& b) {
  const Tensor x = a.to(at::kDouble), y = b.to(at::kDouble);
  Tensor out = at::zeros({a.size(0), b.size(1)}, at::kDouble);
  for (int64_t i = 0; i < a.size(0); ++i) {
    for (int64_t j = 0; j < b.size(1); ++j) {
      double s = 0;
      for (int64_t l = 0; l < a.size(1); ++l) {
        s += x[i][l].item<double>() * y[l][j].item<double>();
      }
      out[i][j].fill_(s);
    }
  }
  return out;
}

void expect_close(const Tensor& actual, const Tensor& expected, double tol = 1e-5) {
  ASSERT_EQ(actual.sizes(), expected.sizes());
  const Tensor diff = (actual.to(at::kDouble) - expected.to(at::kDouble)).abs().reshape({-1});
  if (diff.numel() == 0) return;
  EXPECT_LE(diff[at::argmax(diff).item<int64_t>()].item<double>(), tol);
}

// The layouts of a rows x cols float matrix: contiguous, transposed, padded rows, stepped
// columns, expanded rows.
std::vector<Tensor> layouts(int64_t rows, int64_t cols) {
  return {at::randn({rows, cols}), at::randn({cols, rows}).t(),
          at::randn({rows, cols + 3}).narrow(1, 1, cols),
          at::randn({rows, 2 * cols}).slice(1, 0, 2 * cols, 2),
          at::randn({1, cols}).expand({rows, cols})};
}

TEST(LinearAlgebra, MmEveryLayoutPair) {
  at::manual_seed(1);
  for (const Tensor& a : layouts(5, 7)) {
    for (const Tensor& b : layouts(7, 4)) {
      const Tensor c = at::mm(a, b);
      EXPECT_EQ(c.sizes(), c10::IntArrayRef({5, 4}));
      EXPECT_EQ(c.strides(), c10::IntArrayRef({4, 1}));
      expect_close(c, reference_mm(a, b));
      expect_close(at::mm(a.to(at::kDouble), b.to(at::kDouble)), reference_mm(a, b), 1e-12);
    }
  }
}

TEST(LinearAlgebra, MmOutKeepsTheOutputsLayout) {
  at::manual_seed(2);
  const Tensor a = at::randn({3, 5}), b = at::randn({5, 2});
  Tensor transposed = at::empty({2, 3}).t();
  at::mm_out(transposed, a, b);
  EXPECT_EQ(transposed.strides(), c10::IntArrayRef({1, 3}));
  expect_close(transposed, reference_mm(a, b));
  Tensor stepped = at::empty({3, 4}).slice(1, 0, 4, 2);
  at::mm_out(stepped, a, b);
  EXPECT_EQ(stepped.strides(), c10::IntArrayRef({4, 2}));
  expect_close(stepped, reference_mm(a, b));
}

TEST(LinearAlgebra, LoopDtypes) {
  const Tensor a = at::arange(6, at::kLong).view({2, 3}),
               b = at::arange(12, at::kLong).view({3, 4});
  const Tensor c = at::mm(a, b);
  EXPECT_EQ(c.scalar_type(), at::kLong);
  expect_close(c, reference_mm(a, b), 0);
  // uint8 products wrap modulo 256, as libtorch's.
  const Tensor big = at::full({1, 2}, 200, at::kByte);
  EXPECT_EQ(at::mm(big, big.t()).item<int64_t>(), (200 * 200 * 2) % 256);
  // BFloat16 accumulates in float and rounds once: the exact product's rounding.
  at::manual_seed(3);
  const Tensor x = at::randn({5, 7}).to(at::kBFloat16), y = at::randn({7, 6}).to(at::kBFloat16);
  const Tensor exact = reference_mm(x, y);
  EXPECT_TRUE(at::equal(at::mm(x, y), exact.to(at::kFloat).to(at::kBFloat16)));
}

TEST(LinearAlgebra, AddmmBetaAndAlpha) {
  at::manual_seed(4);
  const Tensor a = at::randn({3, 4}), b = at::randn({4, 5}), bias = at::randn({5});
  expect_close(at::addmm(bias, a, b, 0.5, 2), reference_mm(a, b) * 2 + bias.to(at::kDouble) * 0.5);
  // beta == 0 ignores self, NaN included; alpha == 0 ignores the product, NaN included.
  const Tensor nan = at::full({3, 5}, NAN);
  expect_close(at::addmm(nan, a, b, 0, 1), reference_mm(a, b));
  EXPECT_TRUE(at::equal(at::addmm(at::ones({3, 5}), a * NAN, b, 1, 0), at::ones({3, 5})));
  Tensor inplace = at::ones({3, 5});
  inplace.addmm_(a, b, 2, 3);
  expect_close(inplace, reference_mm(a, b) * 3 + 2);
  // k == 0: no products, beta * self.
  expect_close(at::addmm(at::ones({2, 3}), at::ones({2, 0}), at::ones({0, 3}), 4),
               at::full({2, 3}, 4.0));
  EXPECT_TRUE(at::equal(at::mm(at::ones({2, 0}), at::ones({0, 3})), at::zeros({2, 3})));
}

TEST(LinearAlgebra, BmmDotMv) {
  at::manual_seed(5);
  const Tensor b1 = at::randn({3, 2, 4}), b2 = at::randn({3, 5, 4}).transpose(1, 2);
  const Tensor r = at::bmm(b1, b2);
  EXPECT_EQ(r.sizes(), c10::IntArrayRef({3, 2, 5}));
  for (int64_t i = 0; i < 3; ++i) expect_close(r[i], reference_mm(b1[i], b2[i]));
  const Tensor m = at::randn({4, 6});
  const Tensor d = at::dot(m.select(1, 1), m.select(1, 3));  // stride 6 vectors
  EXPECT_EQ(d.dim(), 0);
  expect_close(d, reference_mm(m.select(1, 1).unsqueeze(0), m.select(1, 3).unsqueeze(1)).view({}));
  expect_close(at::dot(at::ones({3}).expand({3}), at::arange(3.0)), at::scalar_tensor(3.0));
  const Tensor v = at::randn({6});
  expect_close(at::mv(m, v), reference_mm(m, v.unsqueeze(1)).squeeze(1));
  expect_close(at::mv(m.t(), m.select(1, 0)),
               reference_mm(m.t(), m.select(1, 0).unsqueeze(1)).squeeze(1));
}

TEST(LinearAlgebra, MatmulShapes) {
  at::manual_seed(6);
  struct Case {
    std::vector<int64_t> a, b, out, strides;
  };
  const std::vector<Case> cases = {
      {{3}, {3}, {}, {}},
      {{2, 3}, {3}, {2}, {1}},
      {{3}, {3, 4}, {4}, {1}},
      {{5, 2, 3}, {3, 4}, {5, 2, 4}, {8, 4, 1}},
      {{5, 2, 3}, {3}, {5, 2}, {2, 1}},
      {{3}, {5, 3, 4}, {5, 4}, {4, 1}},
      {{5, 1, 2, 3}, {6, 3, 4}, {5, 6, 2, 4}, {48, 8, 4, 1}},
      {{3, 5, 0}, {0, 4}, {3, 5, 4}, {20, 4, 1}},  // k == 0 through the fold
      {{3, 5, 0}, {0}, {3, 5}, {5, 1}},
  };
  for (const Case& c : cases) {
    const Tensor a = at::randn(c.a), b = at::randn(c.b);
    const Tensor r = at::matmul(a, b);
    EXPECT_EQ(r.sizes(), c10::IntArrayRef(c.out));
    EXPECT_EQ(r.strides(), c10::IntArrayRef(c.strides));
    // Against the broadcast definition: sum over the contracted dim of the aligned product.
    const Tensor a2 = c.a.size() == 1 ? a.unsqueeze(0) : a;
    const Tensor b2 = c.b.size() == 1 ? b.unsqueeze(-1) : b;
    Tensor expected = (a2.unsqueeze(-1) * b2.unsqueeze(-3)).sum(-2);
    if (c.a.size() == 1) expected = expected.squeeze(-2);
    if (c.b.size() == 1) expected = expected.squeeze(-1);
    expect_close(r, expected.view(c.out));
  }
}

TEST(LinearAlgebra, Linear) {
  at::manual_seed(7);
  const Tensor w = at::randn({4, 3}), bias = at::randn({4});
  for (const Tensor& x : {at::randn({2, 3}), at::randn({2, 5, 3}),
                          at::randn({2, 3, 5}).transpose(1, 2), at::randn({3})}) {
    const Tensor expected = at::matmul(x, w.t()) + bias;
    expect_close(at::linear(x, w, bias), expected);
    expect_close(at::linear(x, w), at::matmul(x, w.t()));
  }
}

TEST(LinearAlgebra, MetaTensorsGetShapesOnly) {
  const auto meta = at::TensorOptions().device(at::kMeta);
  EXPECT_EQ(at::mm(at::empty({2, 3}, meta), at::empty({3, 4}, meta)).sizes(),
            c10::IntArrayRef({2, 4}));
  EXPECT_EQ(at::bmm(at::empty({5, 2, 3}, meta), at::empty({5, 3, 4}, meta)).sizes(),
            c10::IntArrayRef({5, 2, 4}));
  EXPECT_EQ(
      at::addmm(at::empty({4}, meta), at::empty({2, 3}, meta), at::empty({3, 4}, meta)).device(),
      c10::Device(at::kMeta));
  EXPECT_THROW(at::mm(at::empty({2, 3}, meta), at::empty({4, 4}, meta)), c10::Error);
}

using test_util::ErrorCase;
using test_util::Kind;

const std::vector<ErrorCase>& error_cases() {
  static const auto a = [] { return at::ones({2, 3}); };
  static const auto b = [] { return at::ones({3, 4}); };
  static const std::vector<ErrorCase> all = {
      {"mm_shapes",
       [] {
         at::mm(a(), at::ones({4, 5}));
       },
       Kind::Error, "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"},
      {"mm_self_vector", [] { at::mm(at::ones({3}), b()); }, Kind::Error, "self must be a matrix"},
      {"mm_mat2_vector", [] { at::mm(a(), at::ones({3})); }, Kind::Error, "mat2 must be a matrix"},
      {"mm_dtypes", [] { at::mm(a(), b().to(at::kDouble)); }, Kind::Error,
       "expected scalar type Float but found Double"},
      {"mm_half", [] { at::mm(a().to(at::kHalf), b().to(at::kHalf)); }, Kind::Error,
       "\"addmm_impl_cpu_\" not implemented for 'Half'"},
      {"mm_bool", [] { at::mm(a().to(at::kBool), b().to(at::kBool)); }, Kind::Error,
       "\"addmm_impl_cpu_\" not implemented for 'Bool'"},
      {"bmm_rank", [] { at::bmm(a(), b()); }, Kind::Error, "batch1 must be a 3D tensor"},
      {"bmm_sizes",
       [] {
         at::bmm(at::ones({2, 2, 3}), at::ones({2, 4, 4}));
       },
       Kind::Error,
       "Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [2, 4]."},
      {"dot_sizes", [] { at::dot(at::ones({3}), at::ones({4})); }, Kind::Error,
       "inconsistent tensor size, expected tensor [3] and src [4] to have the same number of "
       "elements, but got 3 and 4 elements respectively"},
      {"dot_rank", [] { at::dot(a(), at::ones({3})); }, Kind::Error,
       "1D tensors expected, but got 2D and 1D tensors"},
      {"dot_dtypes", [] { at::dot(at::ones({3}), at::ones({3}, at::kDouble)); }, Kind::Error,
       "dot : expected both vectors to have same dtype, but found Float and Double"},
      {"dot_half", [] { at::dot(at::ones({3}, at::kHalf), at::ones({3}, at::kHalf)); }, Kind::Error,
       "\"dot\" not implemented for 'Half'"},
      {"mv_sizes", [] { at::mv(a(), at::ones({4})); }, Kind::Error, "size mismatch, got 2, 2x3,4"},
      {"mv_rank", [] { at::mv(a(), a()); }, Kind::Error,
       "vector + matrix @ vector expected, got 1, 2, 2"},
      {"matmul_0d", [] { at::matmul(at::ones({}), at::ones({3})); }, Kind::Error,
       "both arguments to matmul need to be at least 1D, but they are 0D and 1D"},
      {"addmm_dtypes",
       [] {
         at::addmm(at::ones({2, 4}, at::kDouble), a(), b());
       },
       Kind::Error, "self and mat2 must have the same dtype"},
      {"addmm_expand",
       [] {
         at::addmm(at::ones({3, 4}), a(), b());
       },
       Kind::Error,
       "The expanded size of the tensor (2) must match the existing size (3) at non-singleton "
       "dimension 0.  Target sizes: [2, 4].  Tensor sizes: [3, 4]"},
      {"addmm_inplace_size",
       [] {
         at::ones({1, 4}).addmm_(a(), b());
       },
       Kind::Error,
       "Bad in-place call: input tensor size [1, 4] and output tensor size [2, 4] should match"},
  };
  return all;
}

class LinearAlgebraErrors : public ::testing::TestWithParam<ErrorCase> {};
TEST_P(LinearAlgebraErrors, ExactTextAndType) {
  test_util::expect_error_case(GetParam());
}
INSTANTIATE_TEST_SUITE_P(LibtorchTexts, LinearAlgebraErrors, ::testing::ValuesIn(error_cases()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
