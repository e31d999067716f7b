// cat, stack, index_select, index_add_ and masked_fill: sizes, strides, dtype promotion, the
// skipped empty 1-D inputs, every index dtype and layout, repeated indices, broadcast masks, and
// libtorch 1.13's error texts.

#include <gtest/gtest.h>

#include <vector>

#include "aten/ATen.h"
#include "aten/Parallel.h"
#include "c10/util/accumulate.h"
#include "tests/aten/ErrorCase.h"

namespace {

using at::Tensor;

TEST(Cat, SizesStridesAndValues) {
  const Tensor a = at::arange(6.0).view({2, 3}), b = at::arange(12.0).view({4, 3});
  const Tensor c = at::cat({a, b});
  EXPECT_EQ(c.sizes(), c10::IntArrayRef({6, 3}));
  EXPECT_EQ(c.strides(), c10::IntArrayRef({3, 1}));
  EXPECT_TRUE(at::equal(c.narrow(0, 0, 2), a));
  EXPECT_TRUE(at::equal(c.narrow(0, 2, 4), b));
  // Along dim 1 with transposed inputs; a negative dim.
  const Tensor d = at::cat({a.t(), b.t()}, -1);
  EXPECT_EQ(d.sizes(), c10::IntArrayRef({3, 6}));
  EXPECT_TRUE(at::equal(d.narrow(1, 2, 4), b.t()));
  // Contiguous inputs along an inner dim: runs of each input interleaved by row.
  const Tensor e = at::cat({a, at::arange(8.0).view({2, 4}), a}, 1);
  EXPECT_EQ(e.sizes(), c10::IntArrayRef({2, 10}));
  EXPECT_TRUE(at::equal(e[1], at::tensor({3.0, 4.0, 5.0, 4.0, 5.0, 6.0, 7.0, 3.0, 4.0, 5.0})));
  // Promotion, and a skipped empty 1-D tensor anywhere in the list.
  EXPECT_EQ(at::cat({a.to(at::kInt), b.to(at::kLong)}).scalar_type(), at::kLong);
  EXPECT_EQ(at::cat({a, b.to(at::kLong)}).scalar_type(), at::kFloat);
  EXPECT_TRUE(at::equal(at::cat({at::empty({0}), a, at::empty({0})}), a));
  EXPECT_EQ(at::cat({at::empty({0}), at::empty({0})}).sizes(), c10::IntArrayRef({0}));
  // Channels-last inputs give a channels-last result; a skipped 1-D input votes contiguous;
  // with every input skipped the dim is not even checked.
  const Tensor cl = at::ones({2, 3, 4, 5}).contiguous(at::MemoryFormat::ChannelsLast);
  EXPECT_EQ(at::cat({cl, cl}, 1).strides(), c10::IntArrayRef({120, 1, 30, 6}));
  EXPECT_EQ(at::cat({cl, at::empty({0})}, 1).strides(), c10::IntArrayRef({60, 20, 5, 1}));
  EXPECT_EQ(at::cat({at::empty({0}), at::empty({0})}, 1).sizes(), c10::IntArrayRef({0}));
  Tensor out = at::empty({0}, at::kDouble);
  at::cat_out(out, {a, b}, 0);
  EXPECT_EQ(out.scalar_type(), at::kDouble);
  EXPECT_TRUE(at::equal(out, c.to(at::kDouble)));
}

TEST(Stack, InsideAndAtTheEnd) {
  const Tensor a = at::arange(6.0).view({2, 3}), b = a + 10;
  const Tensor s0 = at::stack({a, b});
  EXPECT_EQ(s0.sizes(), c10::IntArrayRef({2, 2, 3}));
  EXPECT_EQ(s0.strides(), c10::IntArrayRef({6, 3, 1}));
  EXPECT_TRUE(at::equal(s0[1], b));
  const Tensor s2 = at::stack({a, b}, 2);
  EXPECT_EQ(s2.sizes(), c10::IntArrayRef({2, 3, 2}));
  EXPECT_EQ(s2.strides(), c10::IntArrayRef({6, 2, 1}));
  EXPECT_TRUE(at::equal(s2.select(2, 0), a));
  EXPECT_TRUE(at::equal(at::stack({a, b}, 1).select(1, 1), b));
}

TEST(IndexSelect, DimsIndexDtypesAndLayouts) {
  const Tensor b = at::arange(12.0).view({4, 3});
  for (const Tensor& idx : {at::tensor({2L, 0L, 2L}), at::tensor({2, 0, 2}),
                            at::tensor({9L, 2L, 7L, 0L, 4L, 2L}).slice(0, 1, 6, 2)}) {
    const Tensor r = at::index_select(b, 0, idx);
    EXPECT_EQ(r.sizes(), c10::IntArrayRef({3, 3}));
    EXPECT_TRUE(at::equal(r[0], b[2]));
    EXPECT_TRUE(at::equal(r[1], b[0]));
    EXPECT_TRUE(at::equal(r[2], b[2]));
    const Tensor c = at::index_select(b, 1, idx);
    EXPECT_TRUE(at::equal(c.select(1, 1), b.select(1, 0)));
    const Tensor t = at::index_select(b.t(), 0, idx);  // transposed self
    EXPECT_EQ(t.strides(), c10::IntArrayRef({4, 1}));
    EXPECT_TRUE(at::equal(t[0], b.select(1, 2)));
  }
  EXPECT_EQ(at::index_select(at::scalar_tensor(3.0), 0, at::zeros({}, at::kLong)).item<double>(),
            3.0);
  EXPECT_EQ(at::index_select(b, 0, at::empty({0}, at::kLong)).sizes(), c10::IntArrayRef({0, 3}));
}

// Big gathers take the kernel's prefetching and streaming paths (Note [Gathered rows are
// prefetched]): whole-line rows into a result of at least 8 MiB, rows of 4 blocks, rows that are
// not whole lines, and rows longer than the prefetch limit, on 1 and 2 threads. Each table holds
// its own flat offset, so the result must be o * size * inner + index * inner + k.
TEST(IndexSelect, BigGathersMatchTheirOffsets) {
  const int threads = at::get_num_threads();
  struct Case {
    std::vector<int64_t> sizes;
    int64_t dim, n;
    at::ScalarType dtype;
  };
  const std::vector<Case> cases = {{{40000, 64}, 0, 40000, at::kInt},
                                   {{4, 12000, 48}, 1, 11000, at::kFloat},
                                   {{20000, 37}, 0, 30000, at::kDouble},
                                   {{3000, 1000}, 0, 2500, at::kInt}};
  for (int t : {1, 2}) {
    at::set_num_threads(t);
    for (const Case& c : cases) {
      const Tensor table = at::arange(c10::multiply_integers(c.sizes), at::kLong).view(c.sizes);
      const int64_t size = c.sizes[static_cast<size_t>(c.dim)];
      const int64_t inner = table.stride(c.dim);
      const Tensor index = at::randint(size, {c.n}, at::kLong);
      const Tensor r = at::index_select(table.to(c.dtype), c.dim, index);
      const Tensor outer = at::arange(table.numel() / (size * inner)).view({-1, 1, 1}) * size;
      const Tensor expected =
          ((outer + index.view({1, -1, 1})) * inner + at::arange(inner).view({1, 1, -1}))
              .view(r.sizes());
      EXPECT_TRUE(at::equal(r, expected.to(c.dtype)))
          << c10::IntArrayRef(c.sizes) << " threads " << t;
    }
  }
  at::set_num_threads(threads);
}

TEST(IndexAdd, RepeatedIndicesAlphaAndLayouts) {
  const Tensor idx = at::tensor({2L, 0L, 2L});
  Tensor t = at::ones({4, 3});
  t.index_add_(0, idx, at::arange(9.0f).view({3, 3}), 2);
  EXPECT_TRUE(at::equal(t[2], at::tensor({13.f, 17.f, 21.f})));  // rows 0 and 2 of the source
  EXPECT_TRUE(at::equal(t[0], at::tensor({7.f, 9.f, 11.f})));
  EXPECT_TRUE(at::equal(t[1], at::ones({3})));
  // A transposed self is added through a copy and written back.
  Tensor tt = at::ones({3, 4}).t();
  tt.index_add_(0, idx, at::arange(9.0f).view({3, 3}), 2);
  EXPECT_TRUE(at::equal(tt, t));
  EXPECT_TRUE(at::equal(
      at::index_add(at::zeros({3}, at::kLong), 0, at::tensor({1L, 1L}), at::tensor({5L, 6L})),
      at::tensor({0L, 11L, 0L})));
}

TEST(MaskedFill, BroadcastDtypesAndInPlace) {
  const Tensor b = at::ones({4, 3});
  const Tensor m = at::tensor({1, 0, 1}).to(at::kBool);
  const Tensor f = at::masked_fill(b, m, 5);
  EXPECT_TRUE(at::equal(f[3], at::tensor({5.f, 1.f, 5.f})));
  // A mask broadcast past self: the result has the broadcast shape, contiguous.
  const Tensor g = at::masked_fill(at::ones({3}), at::ones({2, 3}).to(at::kBool), 0);
  EXPECT_EQ(g.sizes(), c10::IntArrayRef({2, 3}));
  EXPECT_TRUE(at::equal(g, at::zeros({2, 3})));
  // The value is cast to self's dtype (2.5 into Long is 2); a 0-dim tensor value.
  EXPECT_TRUE(at::equal(b.to(at::kLong).masked_fill(m, 2.5)[0], at::tensor({2L, 1L, 2L})));
  EXPECT_TRUE(at::equal(b.masked_fill(m, at::scalar_tensor(7.0))[0], at::tensor({7.f, 1.f, 7.f})));
  Tensor h = b.clone();
  EXPECT_TRUE(h.masked_fill_(m, NAN).is_same(h));
  EXPECT_TRUE(std::isnan(h[0][0].item<float>()));
}

using test_util::ErrorCase;
using test_util::Kind;

const std::vector<ErrorCase>& error_cases() {
  static const auto a = [] { return at::ones({2, 3}); };
  static const auto b = [] { return at::ones({4, 3}); };
  static const auto idx = [] { return at::tensor({2L, 0L, 2L}); };
  static const std::vector<ErrorCase> all = {
      {"cat_empty_list", [] { at::cat(std::vector<Tensor>{}); }, Kind::Error,
       "torch.cat(): expected a non-empty list of Tensors"},
      {"cat_sizes",
       [] {
         at::cat({a(), b()}, 1);
       },
       Kind::Error,
       "Sizes of tensors must match except in dimension 1. Expected size 2 but got size 4 for "
       "tensor number 1 in the list."},
      {"cat_ranks",
       [] {
         at::cat({a(), at::ones({3})});
       },
       Kind::Error, "Tensors must have same number of dimensions: got 2 and 1"},
      {"cat_zero_dim",
       [] {
         at::cat({at::ones({}), at::ones({})});
       },
       Kind::Error, "zero-dimensional tensor (at position 0) cannot be concatenated"},
      {"cat_dim",
       [] {
         at::cat({a(), b()}, 2);
       },
       Kind::IndexError, "Dimension out of range (expected to be in range of [-2, 1], but got 2)"},
      {"stack_sizes",
       [] {
         at::stack({a(), b()});
       },
       Kind::Error,
       "stack expects each tensor to be equal size, but got [2, 3] at entry 0 and [4, 3] at "
       "entry 1"},
      {"stack_empty", [] { at::stack(std::vector<Tensor>{}); }, Kind::Error,
       "stack expects a non-empty TensorList"},
      {"index_select_dtype", [] { at::index_select(b(), 0, idx().to(at::kFloat)); }, Kind::Error,
       "index_select(): Expected dtype int32 or int64 for index"},
      {"index_select_bounds", [] { at::index_select(b(), 0, at::tensor({5L})); }, Kind::IndexError,
       "index out of range in self"},
      {"index_select_negative", [] { at::index_select(b(), 0, at::tensor({-1L})); },
       Kind::IndexError, "index out of range in self"},
      {"index_select_matrix",
       [] {
         at::index_select(b(), 0, idx().view({3, 1}));
       },
       Kind::IndexError, "index_select(): Index is supposed to be a vector"},
      {"index_add_count",
       [] {
         at::ones({4, 3}).index_add_(0, idx(), at::ones({2, 3}));
       },
       Kind::Error,
       "index_add_(): Number of indices (3) should be equal to source.size(dim): (2), for dim: 0"},
      {"index_add_dtypes",
       [] {
         at::ones({4, 3}).index_add_(0, idx(), at::ones({3, 3}, at::kDouble));
       },
       Kind::Error,
       "index_add_(): self (Float) and source (Double) must have the same scalar type"},
      {"index_add_bounds",
       [] {
         at::ones({4, 3}).index_add_(0, at::tensor({9L, 0L, 1L}), at::ones({3, 3}));
       },
       Kind::IndexError, "index out of range in self"},
      {"index_add_index_dtype",
       [] {
         at::ones({4, 3}).index_add_(0, idx().to(at::kFloat), at::ones({3, 3}));
       },
       Kind::Error, "index_add_(): Expected dtype int32/int64 for index but got: Float"},
      {"index_add_overlap",
       [] {
         Tensor x = at::ones({3, 3});
         x.index_add_(0, at::tensor({0L, 1L, 2L}), x);
       },
       Kind::Error,
       "unsupported operation: some elements of the input tensor and the written-to tensor "
       "refer to a single memory location. Please clone() the tensor before performing the "
       "operation."},
      {"masked_fill_value_dim",
       [] {
         at::masked_fill(b(), at::ones({4, 1}).to(at::kBool), at::ones({1}));
       },
       Kind::Error,
       "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with 1 "
       "dimension(s)."},
      {"masked_fill_broadcast", [] { at::masked_fill(b(), at::ones({5}).to(at::kBool), 1); },
       Kind::Error,
       "The size of tensor a (5) must match the size of tensor b (3) at non-singleton "
       "dimension 1"},
      {"masked_fill_inplace_broadcast",
       [] {
         at::ones({3}).masked_fill_(at::ones({2, 3}).to(at::kBool), 1);
       },
       Kind::Error, "output with shape [3] doesn't match the broadcast shape [2, 3]"},
  };
  return all;
}

class JoinIndexingErrors : public ::testing::TestWithParam<ErrorCase> {};
TEST_P(JoinIndexingErrors, ExactTextAndType) {
  test_util::expect_error_case(GetParam());
}
INSTANTIATE_TEST_SUITE_P(LibtorchTexts, JoinIndexingErrors, ::testing::ValuesIn(error_cases()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
