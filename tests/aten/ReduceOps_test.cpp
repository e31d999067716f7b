// sum and mean against a naive reference, over every dtype, layout, dim list and keepdim; output
// sizes and strides, out=, dtypes, empty tensors and error texts as libtorch 1.13 gives them;
// serial against parallel. cumsum is in CumSum_test.cpp.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "aten/ATen.h"
#include "aten/Parallel.h"
#include "tests/aten/ReduceTestUtils.h"

namespace {

using at::Tensor;
using namespace reduce_test;

// Dim lists are spelled Dims{...}: `t.sum({1})` compiles but reads a dangling int64_t, because
// c10::OptionalIntArrayRef (std::optional<IntArrayRef>) builds its ArrayRef from a temporary
// converted from the int. libtorch's OptionalArrayRef refuses that conversion.
using Dims = at::IntArrayRef;

// ---- sum and mean over every layout, dim list, keepdim and dtype ---------------------------

struct DimsCase {
  std::vector<int64_t> dims;
  bool keepdim;
};

const DimsCase kDimsCases[] = {
    {{}, false},      {{}, true},        {{0}, false},          {{1}, true},     {{2}, false},
    {{3}, true},      {{-1}, false},     {{-3}, true},          {{0, 2}, false}, {{3, 1}, true},
    {{-1, 0}, false}, {{1, 2, 3}, true}, {{0, 1, 2, 3}, false}, {{2, 3}, true},
};

class SumLayouts : public ::testing::TestWithParam<Layout> {};

TEST_P(SumLayouts, SumMatchesReferenceForEveryDtypeDimListAndKeepdim) {
  const std::vector<int64_t> sizes = {2, 3, 4, 5};
  for (at::ScalarType dtype : kAllDtypes) {
    const Tensor x = GetParam().make(sizes, dtype);
    const at::ScalarType out_dtype = promoted(dtype);
    for (const DimsCase& c : kDimsCases) {
      SCOPED_TRACE(std::string(c10::toString(dtype)) + " dims " + str(c.dims) +
                   (c.keepdim ? " keepdim" : ""));
      const Tensor s = at::sum(x, c.dims, c.keepdim);
      const auto mask = mask_of(c.dims, 4);
      EXPECT_EQ(s.scalar_type(), out_dtype);
      EXPECT_EQ(s.sizes().vec(), reduced_sizes(sizes, mask, c.keepdim));
      EXPECT_EQ(s.strides().vec(), contiguous_strides(s.sizes().vec()));
      expect_close(s, reference_sum(x, mask), x, mask);
    }
  }
}

TEST_P(SumLayouts, MeanMatchesReferenceForFloatingDtypes) {
  const std::vector<int64_t> sizes = {2, 3, 4, 5};
  for (at::ScalarType dtype : kFloatingDtypes) {
    const Tensor x = GetParam().make(sizes, dtype);
    for (const DimsCase& c : kDimsCases) {
      SCOPED_TRACE(std::string(c10::toString(dtype)) + " dims " + str(c.dims));
      const Tensor m = x.mean(c.dims, c.keepdim);
      const auto mask = mask_of(c.dims, 4);
      EXPECT_EQ(m.scalar_type(), dtype);
      EXPECT_EQ(m.sizes().vec(), reduced_sizes(sizes, mask, c.keepdim));
      EXPECT_EQ(m.strides().vec(), contiguous_strides(m.sizes().vec()));
      std::vector<double> expected = reference_sum(x, mask);
      for (double& v : expected) v /= static_cast<double>(x.numel() / m.numel());
      expect_close(m, expected, x, mask,
                   /*scale=*/1.0 / static_cast<double>(x.numel() / m.numel()));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(ReduceOps, SumLayouts, ::testing::ValuesIn(kLayouts),
                         [](const auto& info) { return std::string(info.param.name); });

// ---- Output geometry as libtorch 1.13 gives it ----------------------------------------------

// Printed by libtorch 1.13 for at::randn({2,3,4,5}).contiguous(ChannelsLast) and friends: the
// result is always contiguous, whatever the input's layout.
TEST(ReduceOps, OutputIsContiguousWhateverTheInputLayout) {
  const Tensor cl =
      make_values({2, 3, 4, 5}, at::kFloat).contiguous(at::MemoryFormat::ChannelsLast);
  auto geometry = [](const Tensor& t) {
    return std::make_pair(t.sizes().vec(), t.strides().vec());
  };
  using G = std::pair<std::vector<int64_t>, std::vector<int64_t>>;
  EXPECT_EQ(geometry(cl.sum(Dims{1}, true)), G({2, 1, 4, 5}, {20, 20, 5, 1}));
  EXPECT_EQ(geometry(cl.sum(Dims{1})), G({2, 4, 5}, {20, 5, 1}));
  EXPECT_EQ(geometry(cl.sum(Dims{2, 3}, true)), G({2, 3, 1, 1}, {3, 1, 1, 1}));
  EXPECT_EQ(geometry(cl.sum(Dims{0}, true)), G({1, 3, 4, 5}, {60, 20, 5, 1}));
  EXPECT_EQ(geometry(cl.mean(Dims{1}, true)), G({2, 1, 4, 5}, {20, 20, 5, 1}));
  const Tensor tr = make_values({3, 4}, at::kFloat).t();
  EXPECT_EQ(geometry(tr.sum(Dims{0}, true)), G({1, 3}, {3, 1}));
  const Tensor expanded = make_values({3, 1}, at::kFloat).expand({3, 4});
  EXPECT_EQ(geometry(expanded.sum(Dims{1}, true)), G({3, 1}, {1, 1}));
  EXPECT_EQ(geometry(make_values({2, 3, 4}, at::kFloat).permute({2, 0, 1}).sum(Dims{0, 2}, true)),
            G({1, 2, 1}, {2, 1, 1}));
  EXPECT_EQ(geometry(make_values({2, 3}, at::kLong).sum(Dims{}, true)), G({1, 1}, {1, 1}));
}

TEST(ReduceOps, ZeroDimTensors) {
  const Tensor s = at::scalar_tensor(3.5);
  for (const std::vector<int64_t>& dims : {std::vector<int64_t>{}, {0}, {-1}}) {
    for (bool keepdim : {false, true}) {
      const Tensor r = at::sum(s, dims, keepdim);
      EXPECT_EQ(r.dim(), 0);
      EXPECT_EQ(r.item().to<float>(), 3.5f);
      EXPECT_EQ(at::mean(s, dims, keepdim).item().to<float>(), 3.5f);
    }
  }
  expect_error([&] { at::sum(s, Dims{1}); },
               "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
  const std::string duplicate = "dim 0 appears multiple times in the list of dims";
  expect_error([&] { at::sum(s, Dims{0, -1}); }, duplicate);
}

// dim=None (what at::sum(t) passes) and dim=[] both reduce every dim.
TEST(ReduceOps, NoneAndEmptyDimListsReduceEveryDim) {
  const Tensor x = make_values({3, 4}, at::kDouble);
  const double all = reference_sum(x, mask_of({}, 2))[0];
  EXPECT_EQ(at::sum(x, at::OptionalIntArrayRef(), false).item().to<double>(), all);
  EXPECT_EQ(at::sum(x, Dims{}, false).item().to<double>(), all);
  EXPECT_EQ(at::mean(x, at::OptionalIntArrayRef(), true).sizes().vec(),
            std::vector<int64_t>({1, 1}));
}

// ---- dtypes ---------------------------------------------------------------------------------

TEST(ReduceOps, IntegralAndBoolSumsDefaultToLong) {
  EXPECT_EQ(at::ones({3}, at::kBool).sum().scalar_type(), at::kLong);
  EXPECT_EQ(at::ones({3}, at::kBool).sum().item().to<int64_t>(), 3);
  for (at::ScalarType dtype : {at::kByte, at::kChar, at::kShort, at::kInt, at::kLong}) {
    const Tensor r = at::full({100}, 100, dtype).sum(Dims{0});
    EXPECT_EQ(r.scalar_type(), at::kLong);
    EXPECT_EQ(r.item().to<int64_t>(), 10000);  // no wrap-around in the input's dtype
  }
}

TEST(ReduceOps, DtypeArgumentIsTheAccumulationDtype) {
  const Tensor l = at::arange(6).reshape({2, 3});
  EXPECT_EQ(at::sum(l, Dims{0}, false, at::kFloat).scalar_type(), at::kFloat);
  EXPECT_EQ(at::sum(l, Dims{0}, false, at::kInt).scalar_type(), at::kInt);
  // The input is converted first: 1.7 and 2.7 become 1 and 2.
  EXPECT_EQ(make_from({1.7, 2.7}, at::kFloat).sum(at::kInt).item().to<int32_t>(), 3);
  // A Bool sum is a logical or (libtorch: [1, 1, 1]).
  const Tensor b = at::sum(l, Dims{0}, false, at::kBool);
  EXPECT_EQ(b.scalar_type(), at::kBool);
  EXPECT_EQ(values_of(b), std::vector<double>({1, 1, 1}));
  // int8 accumulation wraps.
  EXPECT_EQ(at::full({200}, 1, at::kChar).sum(at::kChar).item().to<int64_t>(), -56);
  // Half input with a float accumulator, and the reverse.
  EXPECT_EQ(at::ones({3001}, at::kHalf).sum(at::kFloat).item().to<float>(), 3001.f);
  EXPECT_EQ(at::mean(make_values({2, 3}, at::kFloat), Dims{0}, false, at::kDouble).scalar_type(),
            at::kDouble);
  EXPECT_EQ(at::mean(l, Dims{1}, false, at::kFloat).sizes().vec(), std::vector<int64_t>({2}));
  EXPECT_EQ(values_of(at::mean(l, Dims{1}, false, at::kFloat)), std::vector<double>({1, 4}));
  EXPECT_EQ(l.mean(at::kDouble).item().to<double>(), 2.5);
}

// Numbers printed by libtorch 1.13 (its cascade sum; a plain float loop gives 100958.34).
TEST(ReduceOps, FloatingSumsAreAccurate) {
  const Tensor f = at::full({1000000}, 0.1f);
  EXPECT_NEAR(f.sum().item().to<float>(), 100000.0078f, 0.02f);
  EXPECT_NEAR(f.mean().item().to<float>(), 0.100000009f, 1e-8f);
  EXPECT_NEAR(at::full({1000, 1000}, 0.1f).sum(Dims{0}).sum().item().to<float>(), 100000.0f, 0.05f);
  // Half and BFloat16 accumulate in float and round once: 3001 -> 3000 (ties to even).
  EXPECT_EQ(at::ones({3001}, at::kHalf).sum().item().to<float>(), 3000.f);
  EXPECT_EQ(at::ones({3001}, at::kHalf).sum().scalar_type(), at::kHalf);
  EXPECT_EQ(at::ones({3001}, at::kBFloat16).sum().item().to<float>(), 3008.f);
  // mean of Half divides the float sum: 2049 / 2049, not Half(2049) = 2048 / 2049.
  EXPECT_EQ(at::ones({2049}, at::kHalf).mean().item().to<float>(), 1.f);
  EXPECT_EQ(values_of(at::ones({2049, 2}, at::kHalf).mean(Dims{0})), std::vector<double>({1, 1}));
  EXPECT_TRUE(std::isnan(make_from({1, NAN}, at::kFloat).sum().item().to<float>()));
  EXPECT_TRUE(std::isnan(make_from({1, INFINITY, -INFINITY}, at::kFloat).sum().item().to<float>()));
}

// 10^7 floats in [0, 1): the cascade keeps every path within a few float epsilons of the
// float64 sum, as libtorch's does (a plain float loop is off by ~1e-3 here). The full sum, the
// inner dim, and the outer dim (Note [Outer sums stream whole rows]) each keep it.
TEST(ReduceOps, TenMillionFloatsSumWithinEpsilonsOfFloat64) {
  const Tensor x = at::rand({10000000});
  const Tensor xd = x.to(at::kDouble);
  auto max_relative_error = [](const Tensor& got, const Tensor& want) {
    return ((got.to(at::kDouble) - want).abs() / want.abs()).max().item<double>();
  };
  EXPECT_LT(max_relative_error(x.sum(), xd.sum()), 1e-6);
  EXPECT_LT(
      max_relative_error(x.view({64, 156250}).sum(Dims{1}), xd.view({64, 156250}).sum(Dims{1})),
      1e-6);
  EXPECT_LT(
      max_relative_error(x.view({156250, 64}).sum(Dims{0}), xd.view({156250, 64}).sum(Dims{0})),
      1e-6);
  EXPECT_LT(max_relative_error(x.view({2500, 4000}).t().sum(Dims{1}),
                               xd.view({2500, 4000}).t().sum(Dims{1})),
            1e-6);
}

// ---- Empty tensors --------------------------------------------------------------------------

TEST(ReduceOps, EmptyTensors) {
  const Tensor e = at::empty({0, 3});
  EXPECT_EQ(e.sum().item().to<float>(), 0.f);
  EXPECT_TRUE(std::isnan(e.mean().item().to<float>()));
  const Tensor s0 = e.sum(Dims{0});
  EXPECT_EQ(s0.sizes().vec(), std::vector<int64_t>({3}));
  EXPECT_EQ(values_of(s0), std::vector<double>({0, 0, 0}));
  for (double v : values_of(e.mean(Dims{0}))) EXPECT_TRUE(std::isnan(v));
  EXPECT_EQ(e.mean(Dims{1}).sizes().vec(), std::vector<int64_t>({0}));
  EXPECT_EQ(at::ones({2, 0}).sum(Dims{1}, true).sizes().vec(), std::vector<int64_t>({2, 1}));
  EXPECT_EQ(at::empty({0}, at::kInt).sum().item().to<int64_t>(), 0);
}

// ---- Errors, word for word ------------------------------------------------------------------

TEST(ReduceOps, ErrorTexts) {
  const Tensor l = at::arange(6).reshape({2, 3});
  expect_error([&] { l.sum(Dims{0, 0}); }, "dim 0 appears multiple times in the list of dims");
  expect_error([&] { l.sum(Dims{0, -2}); }, "dim 0 appears multiple times in the list of dims");
  expect_error([&] { l.sum(Dims{5}); },
               "Dimension out of range (expected to be in range of [-2, 1], but got 5)");
  // Every dim is wrapped before duplicates are looked for.
  const std::string out_of_range =
      "Dimension out of range (expected to be in range of [-2, 1], but got -3)";
  expect_error([&] { l.sum(Dims{0, 0, -3}); }, out_of_range);
  expect_error([&] { l.mean(); },
               "mean(): could not infer output dtype. Input dtype must be either a floating "
               "point or complex dtype. Got: Long");
  expect_error([&] { l.to(at::kInt).mean(Dims{0}); },
               "mean(): could not infer output dtype. Input dtype must be either a floating "
               "point or complex dtype. Got: Int");
  expect_error([&] { make_values({2}, at::kFloat).mean(at::kInt); },
               "mean(): could not infer output dtype. Optional dtype must be either a floating "
               "point or complex dtype. Got: Int");
}

// ---- out= -----------------------------------------------------------------------------------

TEST(ReduceOps, OutVariants) {
  const Tensor x = make_values({4, 2, 3}, at::kFloat);
  // A non-contiguous out of the right shape keeps its strides.
  Tensor out = at::empty({3, 2}).t();
  Tensor& r = at::sum_out(out, x, Dims{0});
  EXPECT_TRUE(r.is_same(out));
  EXPECT_EQ(out.strides().vec(), std::vector<int64_t>({1, 2}));
  expect_close(out, reference_sum(x, mask_of({0}, 3)), x, mask_of({0}, 3));

  // The out dtype is the accumulation dtype: a Long input summed into Float.
  Tensor outf = at::empty({3}, at::kFloat);
  at::sum_out(outf, at::arange(6).reshape({2, 3}), Dims{0});
  EXPECT_EQ(values_of(outf), std::vector<double>({3, 5, 7}));

  // Resizing an out with elements warns; an empty one resizes silently.
  CapturedWarnings warnings;
  {
    c10::WarningUtils::WarningHandlerGuard guard(&warnings);
    Tensor wrong = at::empty({2, 2});
    at::sum_out(wrong, x, Dims{0});
    EXPECT_EQ(wrong.sizes().vec(), std::vector<int64_t>({2, 3}));
    Tensor empty = at::empty({0});
    at::mean_out(empty, x, Dims{0, 1}, true);
    EXPECT_EQ(empty.sizes().vec(), std::vector<int64_t>({1, 1, 3}));
  }
  ASSERT_EQ(warnings.messages.size(), 1u);
  EXPECT_EQ(warnings.messages[0],
            "An output with one or more elements was resized since it had shape [2, 2], which "
            "does not match the required output shape [2, 3]. This behavior is deprecated, and "
            "in a future PyTorch release outputs will not be resized unless they have zero "
            "elements. You can explicitly reuse an out tensor t by resizing it, inplace, to zero "
            "elements with t.resize_(0).");

  Tensor out3 = at::empty({3}, at::kFloat);
  expect_error([&] { at::sum_out(out3, x.select(0, 0), Dims{0}, false, at::kDouble); },
               "Expected out tensor to have dtype double, but got float instead");
  Tensor outi = at::empty({3}, at::kInt);
  expect_error([&] { at::sum_out(outi, x.select(0, 0), Dims{0}, false, at::kLong); },
               "Expected out tensor to have dtype long int, but got int instead");
  Tensor outl = at::empty({3}, at::kLong);
  expect_error([&] { at::mean_out(outl, x.select(0, 0), Dims{0}); },
               "result type Float can't be cast to the desired output type Long");
  expect_error(
      [&] {
        at::mean_out(outf, at::arange(6).reshape({2, 3}), Dims{0});
      },
      "mean(): could not infer output dtype. Input dtype must be either a floating "
      "point or complex dtype. Got: Long");
  Tensor outh = at::empty({0}, at::kHalf);
  at::mean_out(outh, at::ones({2, 3}), Dims{0});
  EXPECT_EQ(values_of(outh), std::vector<double>({1, 1, 1}));
}

// ---- Serial and parallel agree --------------------------------------------------------------

// Each case crosses GRAIN_SIZE and exercises one of parallel_reduce's strategies: two passes
// (one output element), a split along the kept outer dim, a split of a kept dim too small for
// every thread, and reduced dims that are not the innermost.
TEST(ReduceOps, ParallelMatchesSerialAndReference) {
  struct Case {
    std::vector<int64_t> sizes;
    std::vector<int64_t> dims;
  };
  const Case cases[] = {
      {{70000}, {}},     {{300, 200}, {}},  {{300, 200}, {1}},      {{300, 200}, {0}},
      {{2, 40000}, {1}}, {{40000, 3}, {0}}, {{20, 50, 40}, {0, 2}}, {{20, 50, 40}, {1}},
  };
  const int saved = at::get_num_threads();
  for (at::ScalarType dtype : {at::kFloat, at::kDouble, at::kLong, at::kInt, at::kHalf}) {
    for (const Case& c : cases) {
      SCOPED_TRACE(std::string(c10::toString(dtype)) + " sizes " + str(c.sizes) + " dims " +
                   str(c.dims));
      const Tensor x = make_values(c.sizes, dtype);
      const Tensor xt = x.dim() == 2 ? make_values({c.sizes[1], c.sizes[0]}, dtype).t() : x;
      for (const Tensor& input : {x, xt}) {
        at::set_num_threads(1);
        const Tensor serial = at::sum(input, c.dims);
        at::set_num_threads(2);
        const Tensor parallel = at::sum(input, c.dims);
        const auto mask = mask_of(c.dims, input.dim());
        if (c10::isIntegralType(dtype, true)) {
          EXPECT_EQ(values_of(serial), values_of(parallel));
        }
        expect_close(serial, reference_sum(input, mask), input, mask);
        expect_close(parallel, reference_sum(input, mask), input, mask);
      }
    }
  }
  at::set_num_threads(saved);
}

// Two reduced dims that cannot be coalesced around the kept dim the input is contiguous along:
// the iterator brings that dim inward (Note [A reduction's contiguous kept dim moves inward]),
// and with two threads it is also the only dim parallel_reduce can split.
TEST(ReduceOps, ReducedDimsAroundAContiguousKeptDim) {
  const int saved = at::get_num_threads();
  const Tensor base = make_values({40, 51, 64}, at::kFloat);
  const Tensor x = base.narrow(1, 0, 50);  // dims 0 and 1 no longer coalesce
  const auto mask = mask_of({0, 1}, 3);
  at::set_num_threads(1);
  const Tensor serial = at::sum(x, Dims{0, 1});
  at::set_num_threads(2);
  const Tensor parallel = at::sum(x, Dims{0, 1});
  at::set_num_threads(saved);
  EXPECT_EQ(serial.sizes().vec(), std::vector<int64_t>({64}));
  EXPECT_EQ(values_of(serial), values_of(parallel));  // each output summed by one thread alike
  expect_close(serial, reference_sum(x, mask), x, mask);
  const Tensor y = make_values({6, 8, 10, 32}, at::kDouble);
  expect_close(at::sum(y, Dims{0, 2}), reference_sum(y, mask_of({0, 2}, 4)), y, mask_of({0, 2}, 4));
}

// libtorch's cascade for one column, element by element (Note [Cascade sum]).
float cascade_sum(const float* x, int64_t stride, int64_t n) {
  int64_t ceil_log2 = 1;
  while ((int64_t(1) << ceil_log2) < n) ++ceil_log2;
  const int64_t power = std::max<int64_t>(4, ceil_log2 / 4);
  const int64_t step = int64_t(1) << power, mask = step - 1;
  float acc = 0, upper[3] = {0, 0, 0};
  int64_t i = 0;
  while (i + step <= n) {
    for (int64_t j = 0; j < step; ++j, ++i) acc += x[i * stride];
    upper[0] += acc;
    acc = 0;
    for (int64_t j = 1; j < 3; ++j) {
      if ((i & (mask << (j * power))) != 0) break;
      upper[j] += upper[j - 1];
      upper[j - 1] = 0;
    }
  }
  for (; i < n; ++i) acc += x[i * stride];
  for (float u : upper) acc += u;
  return acc;
}

// An outer sum streams rows in bands (Note [Outer sums stream whole rows]), yet every column's
// elements meet in the cascade's order: the sums are exactly libtorch's.
TEST(ReduceOps, OuterSumsAreTheCascadeBitForBit) {
  const int saved = at::get_num_threads();
  for (int threads : {1, 2}) {
    at::set_num_threads(threads);
    for (int64_t rows : {5, 17, 300, 5000}) {
      for (int64_t cols : {128, 4096}) {
        SCOPED_TRACE("rows " + std::to_string(rows) + " cols " + std::to_string(cols) +
                     " threads " + std::to_string(threads));
        // Magnitudes from 1e-3 to 1e3, so that the order of the additions shows.
        const Tensor x = at::exp(at::randn({rows, cols}) * 4);
        const Tensor sum = x.sum(Dims{0});
        const float* in = x.data_ptr<float>();
        const float* out = sum.data_ptr<float>();
        int64_t mismatches = 0;
        for (int64_t c = 0; c < cols; ++c) mismatches += out[c] != cascade_sum(in + c, cols, rows);
        EXPECT_EQ(mismatches, 0);
        // Summing a transposed view over its inner dim is the same walk.
        EXPECT_TRUE(at::equal(x.t().sum(Dims{1}), sum));
      }
    }
  }
  at::set_num_threads(saved);
}

// ---- Registration ---------------------------------------------------------------------------

TEST(ReduceOps, KeysAsLibtorch) {
  auto has = [](const char* name, const char* overload, c10::DispatchKey key) {
    return c10::Dispatcher::singleton()
        .findSchemaOrThrow(name, overload)
        .hasKernelForDispatchKey(key);
  };
  for (auto op : {std::make_pair("aten::sum", "dim_IntList"),
                  {"aten::sum", "IntList_out"},
                  {"aten::mean", "dim"},
                  {"aten::mean", "out"},
                  {"aten::cumsum", ""},
                  {"aten::cumsum", "out"}}) {
    EXPECT_TRUE(has(op.first, op.second, c10::DispatchKey::CPU)) << op.first << "." << op.second;
    EXPECT_TRUE(has(op.first, op.second, c10::DispatchKey::Meta)) << op.first << "." << op.second;
  }
  EXPECT_TRUE(has("aten::sum", "", c10::DispatchKey::CompositeExplicitAutograd));
  EXPECT_TRUE(has("aten::mean", "", c10::DispatchKey::CompositeExplicitAutograd));
}

TEST(ReduceOps, MetaTensorsGetShapeAndDtype) {
  const Tensor m = at::empty({2, 3, 4}, at::TensorOptions(at::kInt).device(at::kMeta));
  const Tensor s = m.sum(Dims{1}, true);
  EXPECT_TRUE(s.is_meta());
  EXPECT_EQ(s.sizes().vec(), std::vector<int64_t>({2, 1, 4}));
  EXPECT_EQ(s.scalar_type(), at::kLong);
  const Tensor c = m.to(at::kFloat).cumsum(2);
  EXPECT_TRUE(c.is_meta());
  EXPECT_EQ(c.sizes().vec(), std::vector<int64_t>({2, 3, 4}));
  EXPECT_EQ(m.to(at::kFloat).mean().sizes().vec(), std::vector<int64_t>({}));
}

}  // namespace

// Braced dim lists: one element and several (see Note [Why not std::optional<ArrayRef>]).
TEST(ReduceOps, BracedDimListsAsLibtorch) {
  at::Tensor t = at::arange(6, at::kFloat).view({2, 3});
  at::Tensor by_col = t.sum({1});
  ASSERT_EQ(by_col.sizes(), c10::IntArrayRef({2}));
  EXPECT_EQ(by_col.data_ptr<float>()[0], 3.f);
  EXPECT_EQ(by_col.data_ptr<float>()[1], 12.f);
  at::Tensor all = t.sum({0, 1});
  EXPECT_EQ(all.dim(), 0);
  EXPECT_EQ(all.item().toDouble(), 15.0);
  at::Tensor keep = at::mean(t, {0}, /*keepdim=*/true);
  EXPECT_EQ(keep.sizes(), c10::IntArrayRef({1, 3}));
  EXPECT_EQ(keep.data_ptr<float>()[2], 3.5f);
}

// A bare dim, as libtorch code writes it: `t.sum(0)` means the dim list {0}.
TEST(ReduceOps, SingleIntDimAsLibtorch) {
  at::Tensor t = at::arange(6, at::kFloat).view({2, 3});
  at::Tensor rows = t.sum(0);
  ASSERT_EQ(rows.sizes(), c10::IntArrayRef({3}));
  EXPECT_EQ(rows.data_ptr<float>()[0], 3.f);
  EXPECT_EQ(rows.data_ptr<float>()[2], 7.f);
  at::Tensor keep = t.mean(1, /*keepdim=*/true);
  EXPECT_EQ(keep.sizes(), c10::IntArrayRef({2, 1}));
  EXPECT_EQ(keep.data_ptr<float>()[1], 4.f);
  int64_t dim = -1;
  EXPECT_EQ(at::sum(t, dim).sizes(), c10::IntArrayRef({2}));
}
