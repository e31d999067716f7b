// cumsum against a naive running sum over every dtype, layout and dim; accumulation dtypes,
// out=, empty and zero-dim tensors and error texts as libtorch 1.13 gives them; serial against
// parallel. See Note [How cumsum walks the scan dim] in aten/native/cpu/ReduceOpsKernel.cpp.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "aten/ATen.h"
#include "aten/Parallel.h"
#include "aten/native/ReduceOps.h"
#include "tests/aten/ReduceTestUtils.h"

namespace {

using at::Tensor;
using namespace reduce_test;

// The running sum along dim, in double, in row-major order.
std::vector<double> reference_cumsum(const Tensor& x, int64_t dim) {
  std::vector<double> v = values_of(x);
  const std::vector<int64_t> sizes = x.sizes().vec();
  int64_t inner = 1;
  for (size_t d = static_cast<size_t>(dim) + 1; d < sizes.size(); ++d) inner *= sizes[d];
  const int64_t n = sizes[static_cast<size_t>(dim)];
  for (int64_t i = 0; i < static_cast<int64_t>(v.size()); ++i) {
    if ((i / inner) % n != 0) v[static_cast<size_t>(i)] += v[static_cast<size_t>(i - inner)];
  }
  return v;
}

// The dtypes libtorch 1.13's CPU cumsum computes in (not Half; Bool only as an input).
const at::ScalarType kCumsumDtypes[] = {at::kByte,   at::kChar, at::kShort,
                                        at::kInt,    at::kLong, at::kFloat,
                                        at::kDouble, at::kBool, at::kBFloat16};

class CumSumLayouts : public ::testing::TestWithParam<Layout> {};

TEST_P(CumSumLayouts, MatchesReferenceForEveryDtypeAndDim) {
  const std::vector<int64_t> sizes = {2, 3, 4, 5};
  for (at::ScalarType dtype : kCumsumDtypes) {
    const Tensor x = GetParam().make(sizes, dtype);
    for (int64_t dim = -4; dim < 4; ++dim) {
      SCOPED_TRACE(std::string(c10::toString(dtype)) + " dim " + std::to_string(dim));
      const Tensor c = x.cumsum(dim);
      EXPECT_EQ(c.scalar_type(), promoted(dtype));
      EXPECT_EQ(c.sizes().vec(), sizes);
      // A new output is contiguous whatever the input's layout (libtorch 1.13: a channels-last
      // input gives (60, 20, 5, 1)).
      EXPECT_EQ(c.strides().vec(), contiguous_strides(sizes));
      const std::vector<double> expected = reference_cumsum(x, dim < 0 ? dim + 4 : dim);
      const std::vector<double> actual = values_of(c);
      for (size_t i = 0; i < actual.size(); ++i) {
        // BFloat16 rounds each running sum once; the others hold these sums exactly.
        const double tol = dtype == at::kBFloat16 ? 8e-3 * std::fabs(expected[i]) : 0.0;
        EXPECT_NEAR(actual[i], expected[i], tol) << "element " << i;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(CumSum, CumSumLayouts, ::testing::ValuesIn(kLayouts),
                         [](const auto& info) { return std::string(info.param.name); });

// Values printed by libtorch 1.13.
TEST(CumSum, AccumulationDtypes) {
  // float accumulates in double: the 1 survives next to 1e8.
  EXPECT_EQ(values_of(make_from({1e8, 1, -1e8}, at::kFloat).cumsum(0)),
            std::vector<double>({1e8, 1e8, 1}));
  // BFloat16 accumulates in float and rounds each output: 257 -> 256, 259 -> 260.
  EXPECT_EQ(values_of(make_from({256, 1, 1, 1}, at::kBFloat16).cumsum(0)),
            std::vector<double>({256, 256, 258, 260}));
  // Integers default to Long; an explicit dtype is where the sum lives (and wraps).
  EXPECT_EQ(at::ones({3}, at::kChar).cumsum(0).scalar_type(), at::kLong);
  EXPECT_EQ(at::ones({3}, at::kBool).cumsum(0).scalar_type(), at::kLong);
  const Tensor wrapped = at::full({200}, 1, at::kChar).cumsum(0, at::kChar);
  EXPECT_EQ(wrapped.scalar_type(), at::kChar);
  EXPECT_EQ(values_of(wrapped.slice(0, 125, 130)),
            std::vector<double>({126, 127, -128, -127, -126}));
  const Tensor f = at::arange(4).cumsum(0, at::kFloat);
  EXPECT_EQ(f.scalar_type(), at::kFloat);
  EXPECT_EQ(values_of(f), std::vector<double>({0, 1, 3, 6}));
}

TEST(CumSum, ZeroDimAndEmpty) {
  const Tensor s = at::scalar_tensor(3.5);
  for (int64_t dim : {0, -1}) {
    const Tensor c = s.cumsum(dim);
    EXPECT_EQ(c.dim(), 0);
    EXPECT_EQ(c.item().to<float>(), 3.5f);
  }
  EXPECT_EQ(at::scalar_tensor(2, at::kInt).cumsum(0).scalar_type(), at::kLong);
  const Tensor e = at::empty({0, 3}).cumsum(1);
  EXPECT_EQ(e.sizes().vec(), std::vector<int64_t>({0, 3}));
  EXPECT_EQ(e.strides().vec(), std::vector<int64_t>({3, 1}));
}

TEST(CumSum, ErrorTexts) {
  expect_error([] { at::scalar_tensor(1.0).cumsum(1); },
               "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
  expect_error(
      [] {
        at::arange(6).reshape({2, 3}).cumsum(2);
      },
      "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  expect_error([] { at::ones({3}).cumsum(0, at::kBool); },
               "\"cumsum_out_cpu\" not implemented for 'Bool'");
  expect_error([] { at::ones({3}, at::kHalf).cumsum(0); },
               "\"cumsum_out_cpu\" not implemented for 'Half'");
}

TEST(CumSum, OutVariant) {
  const Tensor x = at::arange(12).to(at::kFloat).reshape({3, 4});
  // A non-contiguous out of the right shape keeps its strides.
  Tensor out = at::empty({4, 3}).t();
  Tensor& r = at::cumsum_out(out, x, 0);
  EXPECT_TRUE(r.is_same(out));
  EXPECT_EQ(out.strides().vec(), std::vector<int64_t>({1, 3}));
  EXPECT_EQ(values_of(out), std::vector<double>({0, 1, 2, 3, 4, 6, 8, 10, 12, 15, 18, 21}));
  // The out's dtype is the accumulation dtype; an empty out is resized contiguous.
  Tensor e = at::empty({0}, at::kLong);
  at::cumsum_out(e, at::ones({2, 3}, at::kInt), 1);
  EXPECT_EQ(e.sizes().vec(), std::vector<int64_t>({2, 3}));
  EXPECT_EQ(e.strides().vec(), std::vector<int64_t>({3, 1}));
  EXPECT_EQ(values_of(e), std::vector<double>({1, 2, 3, 1, 2, 3}));
  Tensor wrong = at::empty({3}, at::kFloat);
  expect_error([&] { at::cumsum_out(wrong, x.select(0, 0), 0, at::kDouble); },
               "Expected out tensor to have dtype double, but got float instead");
  expect_error(
      [&] {
        at::cumsum_out(e, at::ones({2, 3}, at::kInt), 2);
      },
      "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  // In place: each element is read before it is written.
  Tensor b = at::ones({4});
  at::cumsum_out(b, b, 0);
  EXPECT_EQ(values_of(b), std::vector<double>({1, 2, 3, 4}));
}

// Lines are independent, so the split across threads changes nothing, even for floats.
TEST(CumSum, ParallelMatchesSerial) {
  const int saved = at::get_num_threads();
  for (at::ScalarType dtype : {at::kFloat, at::kLong, at::kBFloat16}) {
    const Tensor x = make_values({300, 200}, dtype);
    for (const Tensor& input : {x, x.t(), x.slice(1, 0, 200, 3)}) {
      for (int64_t dim : {0, 1}) {
        SCOPED_TRACE(std::string(c10::toString(dtype)) + " dim " + std::to_string(dim));
        at::set_num_threads(1);
        const Tensor serial = input.cumsum(dim);
        at::set_num_threads(2);
        const Tensor parallel = input.cumsum(dim);
        EXPECT_EQ(values_of(serial), values_of(parallel));
        if (dtype != at::kBFloat16) {
          EXPECT_EQ(values_of(serial), reference_cumsum(input, dim));
        }
      }
    }
  }
  at::set_num_threads(saved);
}

// Over dim 0 of a row-major matrix the lines advance side by side, up to a whole row of them
// (kAdjacentLines = 4096) per step; wider rows take several blocks. Each line is still summed
// in order: the same bits as walking the transposed copy line by line.
TEST(CumSum, AdjacentLinesInBlocksAreSummedInOrder) {
  const int saved = at::get_num_threads();
  for (int threads : {1, 2}) {
    at::set_num_threads(threads);
    for (int64_t cols : {3, 64, 4096, 5000}) {
      SCOPED_TRACE("cols " + std::to_string(cols) + " threads " + std::to_string(threads));
      const Tensor x = at::exp(at::randn({37, cols}) * 4);
      const Tensor side_by_side = x.cumsum(0);
      const Tensor line_by_line = x.t().contiguous().cumsum(1).t();
      EXPECT_TRUE(at::equal(side_by_side, line_by_line));
      EXPECT_EQ(side_by_side.strides().vec(), std::vector<int64_t>({cols, 1}));
    }
  }
  at::set_num_threads(saved);
}

// Float lines along memory go through the AVX2 and AVX512 kernels eight at a time in register
// tiles (Note [Eight float lines through a register transpose]); the DEFAULT kernel walks them
// line by line. Every capability the CPU has must give the DEFAULT kernel's bits: line counts
// that are not multiples of 8, lengths around the 8- and 16-element steps, rows with padding
// between them, a strided out=, results big enough for streaming stores, and 2 threads.
TEST(CumSum, FloatLinesInTilesMatchLineByLineOnEveryCapability) {
  using at::native::CPUCapability;
  const int detected = static_cast<int>(at::native::detail::detect_cpu_capability());
  const auto reference = at::native::cumsum_stub.cpu_kernel_for(CPUCapability::DEFAULT);
  const int saved = at::get_num_threads();
  struct Case {
    int64_t lines, length, padding;
    bool strided_out;
  };
  const std::vector<Case> cases = {
      {8, 16, 0, false}, {13, 37, 0, false},   {37, 7, 0, false},      {16, 24, 5, false},
      {9, 33, 3, true},  {64, 4096, 0, false}, {2051, 1040, 0, false}, {2051, 1040, 16, false}};
  for (CPUCapability c : {CPUCapability::AVX2, CPUCapability::AVX512}) {
    if (static_cast<int>(c) > detected) continue;
    const auto kernel = at::native::cumsum_stub.cpu_kernel_for(c);
    ASSERT_NE(kernel, nullptr);
    for (int threads : {1, 2}) {
      at::set_num_threads(threads);
      for (const Case& k : cases) {
        SCOPED_TRACE(std::string(cpu_capability_name(c)) + " lines " + std::to_string(k.lines) +
                     " length " + std::to_string(k.length) + " padding " +
                     std::to_string(k.padding) + " threads " + std::to_string(threads));
        const Tensor x =
            at::exp(at::randn({k.lines, k.length + k.padding}) * 4).narrow(1, 0, k.length);
        Tensor expected = at::empty({k.lines, k.length});
        reference(expected, x, 1);
        Tensor actual = k.strided_out ? at::empty({k.lines, k.length + 1}).narrow(1, 1, k.length)
                                      : at::empty({k.lines, k.length});
        kernel(actual, x, 1);
        EXPECT_TRUE(at::equal(actual, expected));
      }
    }
  }
  at::set_num_threads(saved);
}

}  // namespace
