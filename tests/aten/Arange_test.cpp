// arange (every overload, the size computation and its errors) against libtorch 1.13.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "FactoriesTestUtils.h"

namespace {

using namespace factories_test;

// ---- arange -------------------------------------------------------------------------------

TEST(Arange, OverloadsAndDtypeRules) {
  at::Tensor a = at::arange(5);
  EXPECT_EQ(a.scalar_type(), at::kLong);
  EXPECT_EQ(a.sizes(), IntArrayRef({5}));
  EXPECT_EQ(values(a), std::vector<double>({0, 1, 2, 3, 4}));
  EXPECT_EQ(at::arange(5.).scalar_type(), at::kFloat);
  EXPECT_EQ(at::arange(5, at::kDouble).scalar_type(), at::kDouble);
  at::Tensor b = at::arange(1, 4);
  EXPECT_EQ(b.scalar_type(), at::kLong);
  EXPECT_EQ(values(b), std::vector<double>({1, 2, 3}));
  at::Tensor c = at::arange(1, 4.);
  EXPECT_EQ(c.scalar_type(), at::kFloat);
  EXPECT_EQ(values(c), std::vector<double>({1, 2, 3}));
  // A bool bound counts as an integer.
  at::Tensor t = at::arange(true);
  EXPECT_EQ(t.scalar_type(), at::kLong);
  EXPECT_EQ(values(t), std::vector<double>({0}));
  at::Tensor e = at::arange(0, 0);
  EXPECT_EQ(e.sizes(), IntArrayRef({0}));
  EXPECT_EQ(e.strides(), IntArrayRef({1}));
  at::Tensor m = at::arange(5, at::device(c10::kMeta));
  EXPECT_TRUE(m.is_meta());
  EXPECT_EQ(m.scalar_type(), at::kLong);
  EXPECT_EQ(m.sizes(), IntArrayRef({5}));
  EXPECT_EQ(m.storage().nbytes(), 40u);
}

struct ArangeCase {
  const char* name;
  at::Scalar start, end, step;
  c10::optional<ScalarType> dtype;
  ScalarType expected_dtype;
  std::vector<double> expected;
};

const ArangeCase kArangeCases[] = {
    {"IntStep3", 0, 10, 3, c10::nullopt, at::kLong, {0, 3, 6, 9}},
    {"IntStep4", 0, 10, 4, c10::nullopt, at::kLong, {0, 4, 8}},
    {"IntStep4AsInt", 0, 10, 4, at::kInt, at::kInt, {0, 4, 8}},
    {"IntStep4AsFloat", 0, 10, 4, at::kFloat, at::kFloat, {0, 4, 8}},
    {"NegativeStep3", 10, 0, -3, c10::nullopt, at::kLong, {10, 7, 4, 1}},
    {"NegativeStep4", 10, 0, -4, c10::nullopt, at::kLong, {10, 6, 2}},
    {"FloatTenths",
     0,
     1,
     0.1,
     c10::nullopt,
     at::kFloat,
     {0, 0.10000000149011612, 0.20000000298023224, 0.30000001192092896, 0.40000000596046448, 0.5,
      0.60000002384185791, 0.69999998807907104, 0.80000001192092896, 0.89999997615814209}},
    {"FloatThirds",
     -1.0,
     1.0,
     0.3,
     c10::nullopt,
     at::kFloat,
     {-1, -0.69999998807907104, -0.40000000596046448, -0.10000000149011612, 0.20000000298023224,
      0.5, 0.80000001192092896}},
    {"DoubleTenths",
     0,
     1,
     0.1,
     at::kDouble,
     at::kDouble,
     {0, 0.10000000000000001, 0.20000000000000001, 0.30000000000000004, 0.40000000000000002, 0.5,
      0.60000000000000009, 0.70000000000000007, 0.80000000000000004, 0.90000000000000002}},
    // Each element rounded once, as fma(step, i, start): -0.10000000000000003, not ...09.
    {"DoubleThirds",
     -1.0,
     1.0,
     0.3,
     at::kDouble,
     at::kDouble,
     {-1, -0.69999999999999996, -0.40000000000000002, -0.10000000000000003, 0.19999999999999996,
      0.49999999999999994, 0.79999999999999993}},
    {"HalfTenths",
     0,
     1,
     0.1,
     at::kHalf,
     at::kHalf,
     {0, 0.0999755859375, 0.199951171875, 0.300048828125, 0.39990234375, 0.5, 0.60009765625,
      0.7001953125, 0.7998046875, 0.89990234375}},
    {"BFloat16Tenths",
     0,
     1,
     0.1,
     at::kBFloat16,
     at::kBFloat16,
     {0, 0.10009765625, 0.2001953125, 0.30078125, 0.400390625, 0.5, 0.6015625, 0.69921875,
      0.80078125, 0.8984375}},
    // An integer dtype converts the step first: Int sizes the range with the double step (4
    // elements) but steps by int(1.5) == 1; Long does both with int64 (5 elements).
    {"FractionalStepAsInt", 0, 5, 1.5, at::kInt, at::kInt, {0, 1, 2, 3}},
    {"FractionalStepAsLong", 0, 5, 1.5, at::kLong, at::kLong, {0, 1, 2, 3, 4}},
    {"ByteWraps", 250, 260, 1, at::kByte, at::kByte, {250, 251, 252, 253, 254, 255, 0, 1, 2, 3}},
};

class ArangeTest : public ::testing::TestWithParam<ArangeCase> {};

TEST_P(ArangeTest, SizeDtypeAndValues) {
  const ArangeCase& c = GetParam();
  at::Tensor t = at::arange(c.start, c.end, c.step, at::TensorOptions().dtype(c.dtype));
  EXPECT_EQ(t.scalar_type(), c.expected_dtype);
  EXPECT_EQ(t.sizes(), IntArrayRef({static_cast<int64_t>(c.expected.size())}));
  EXPECT_EQ(t.strides(), IntArrayRef({1}));
  EXPECT_EQ(values(t), c.expected);
}

INSTANTIATE_TEST_SUITE_P(Ranges, ArangeTest, ::testing::ValuesIn(kArangeCases),
                         [](const ::testing::TestParamInfo<ArangeCase>& info) {
                           return std::string(info.param.name);
                         });

TEST(Arange, LongFloatRangesAgreeToTheUlp) {
  // libtorch's vectorized loop adds k*step to a float base every 8 elements, so some elements
  // differ from float(start + i*step) in the last bit (element 9 is 0.90000003576278687 in
  // libtorch, not 0.89999997615814209); miniaten computes every element as the latter.
  const std::vector<double> libtorch = {
      0,   0.10000000149011612, 0.20000000298023224, 0.30000001192092896, 0.40000000596046448,
      0.5, 0.60000002384185791, 0.69999998807907104, 0.80000001192092896, 0.90000003576278687,
      1,   1.1000000238418579,  1.2000000476837158,  1.2999999523162842,  1.3999999761581421,
      1.5, 1.6000000238418579,  1.7000000476837158,  1.7999999523162842,  1.8999999761581421,
      2,   2.0999999046325684,  2.2000000476837158,  2.2999999523162842,  2.4000000953674316};
  const std::vector<double> actual = values(at::arange(0, 2.5, 0.1));
  ASSERT_EQ(actual.size(), libtorch.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    EXPECT_FLOAT_EQ(static_cast<float>(actual[i]), static_cast<float>(libtorch[i])) << i;
  }
}

TEST(Arange, Errors) {
  EXPECT_ERROR_TEXT(at::arange(0, 5, 0), "step must be nonzero");
  EXPECT_ERROR_TEXT(at::arange(0., 5., 0.), "step must be nonzero");
  // A Long range converts the step to int64 first, so 0.5 becomes 0.
  EXPECT_ERROR_TEXT(at::arange(0, 5, 0.5, at::kLong), "step must be nonzero");
  EXPECT_ERROR_TEXT(at::arange(5, 0, 1),
                    "upper bound and larger bound inconsistent with step sign");
  EXPECT_ERROR_TEXT(at::arange(0, 5, -1),
                    "upper bound and larger bound inconsistent with step sign");
  EXPECT_ERROR_TEXT(at::arange(-3, at::kByte),
                    "upper bound and larger bound inconsistent with step sign");
  EXPECT_ERROR_TEXT(at::arange(0., kInf), "unsupported range: 0 -> inf");
  EXPECT_ERROR_TEXT(at::arange(3, at::kBool), "\"arange_cpu\" not implemented for 'Bool'");
}

TEST(ArangeOut, ResizesAWrongSizedOutWithAWarning) {
  CapturedWarnings warnings;
  c10::WarningUtils::WarningHandlerGuard guard(&warnings);
  at::Tensor out = at::empty({3});
  at::Tensor& result = at::arange_out(out, 0, 5, 1);
  EXPECT_TRUE(result.is_same(out));
  EXPECT_EQ(out.sizes(), IntArrayRef({5}));
  EXPECT_EQ(out.scalar_type(), at::kFloat);
  EXPECT_EQ(values(out), std::vector<double>({0, 1, 2, 3, 4}));
  EXPECT_EQ(out._version(), 1);
  ASSERT_EQ(warnings.messages.size(), 1u);
  EXPECT_EQ(warnings.messages[0],
            "The number of elements in the out tensor of shape [3] is 3 which does not match the "
            "computed number of elements 5. Note that this may occur as a result of rounding "
            "error. The out tensor will be resized to a tensor of shape (5,).");

  // A 2-d out with the wrong count also becomes 1-d.
  at::Tensor grid = at::empty({2, 2}, at::kLong);
  at::arange_out(grid, 0, 6, 1);
  EXPECT_EQ(grid.sizes(), IntArrayRef({6}));
  EXPECT_EQ(values(grid), std::vector<double>({0, 1, 2, 3, 4, 5}));
  ASSERT_EQ(warnings.messages.size(), 2u);
  EXPECT_EQ(warnings.messages[1],
            "The number of elements in the out tensor of shape [2, 2] is 4 which does not match "
            "the computed number of elements 6. Note that this may occur as a result of rounding "
            "error. The out tensor will be resized to a tensor of shape (6,).");

  // Shrinking keeps the storage.
  at::Tensor big = at::empty({20});
  at::arange_out(big, 0, 5, 1);
  EXPECT_EQ(big.sizes(), IntArrayRef({5}));
  EXPECT_EQ(big.storage().nbytes(), 80u);
  EXPECT_EQ(warnings.messages.size(), 3u);

  // Meta outs are resized too.
  at::Tensor meta = at::empty({3}, at::device(c10::kMeta));
  at::arange_out(meta, 0, 5, 1);
  EXPECT_EQ(meta.sizes(), IntArrayRef({5}));
  EXPECT_EQ(meta.storage().nbytes(), 20u);
  EXPECT_EQ(meta._version(), 1);
  EXPECT_EQ(warnings.messages.size(), 4u);
}

TEST(ArangeOut, NoWarningForAnEmptyOrRightSizedOut) {
  CapturedWarnings warnings;
  c10::WarningUtils::WarningHandlerGuard guard(&warnings);
  at::Tensor empty = at::empty({0}, at::kInt);
  at::arange_out(empty, 0, 5, 1);
  EXPECT_EQ(empty.sizes(), IntArrayRef({5}));
  EXPECT_EQ(values(empty), std::vector<double>({0, 1, 2, 3, 4}));

  at::Tensor exact = at::empty({5}, at::kLong);
  const void* data = exact.data_ptr();
  at::arange_out(exact, 0, 5, 1);
  EXPECT_EQ(exact.data_ptr(), data);

  // The right number of elements in another shape: the shape stays, filled in row-major order.
  at::Tensor grid = at::zeros({2, 3}, at::kLong);
  at::arange_out(grid, 0, 6, 1);
  EXPECT_EQ(grid.sizes(), IntArrayRef({2, 3}));
  EXPECT_EQ(values(grid), std::vector<double>({0, 1, 2, 3, 4, 5}));
  EXPECT_TRUE(warnings.messages.empty());
}

TEST(ArangeOut, NonContiguousOut) {
  // Every other element of a buffer.
  at::Tensor buffer = at::zeros({10}, at::kLong);
  at::Tensor strided = make_view(buffer, {5}, {2});
  at::arange_out(strided, 0, 5, 1);
  EXPECT_EQ(values(buffer), std::vector<double>({0, 0, 1, 0, 2, 0, 3, 0, 4, 0}));
  // A transposed out: element (i, j) gets its row-major index.
  at::Tensor base = at::zeros({2, 3}, at::kLong);
  at::Tensor transposed = make_view(base, {3, 2}, {1, 3});
  at::arange_out(transposed, 0, 6, 1);
  EXPECT_EQ(values(transposed), std::vector<double>({0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(values(base), std::vector<double>({0, 2, 4, 1, 3, 5}));
}

}  // namespace
