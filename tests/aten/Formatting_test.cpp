// Every expected string below is libtorch 1.13's output for the same tensor, pasted verbatim
// (printed by a throwaway program linked against the installed libtorch). Inputs are written in
// the same order as the cases were built there.

#include <gtest/gtest.h>

#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "aten/ATen.h"
#include "aten/core/Formatting.h"

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

template <typename T>
void fill(const at::Tensor& t, const std::vector<double>& values) {
  T* p = t.data_ptr<T>();
  for (size_t i = 0; i < values.size(); ++i) {
    // Half and BFloat16 are made from float, as libtorch's c10::Half(float) is.
    if constexpr (std::is_same_v<T, c10::Half> || std::is_same_v<T, c10::BFloat16>) {
      p[i] = T(static_cast<float>(values[i]));
    } else {
      p[i] = static_cast<T>(values[i]);
    }
  }
}

// A contiguous tensor of `sizes` holding `values` in row-major order.
at::Tensor make(c10::ScalarType dtype, std::vector<int64_t> sizes, std::vector<double> values) {
  at::Tensor t = at::detail::empty_cpu(sizes, dtype);
  EXPECT_EQ(t.numel(), static_cast<int64_t>(values.size()));
  switch (dtype) {
#define FILL_CASE(ctype, name) \
  case c10::ScalarType::name:  \
    fill<ctype>(t, values);    \
    break;
    C10_FORALL_SCALAR_TYPES(FILL_CASE)
#undef FILL_CASE
    default:
      ADD_FAILURE() << "unexpected dtype";
  }
  return t;
}

// A view of base's storage with the given geometry.
at::Tensor view(const at::Tensor& base, std::vector<int64_t> sizes, std::vector<int64_t> strides,
                int64_t offset) {
  auto impl = c10::make_intrusive<c10::TensorImpl>(c10::Storage(base.storage()), base.key_set(),
                                                   base.dtype());
  impl->set_sizes_and_strides(sizes, strides, offset);
  return at::Tensor(std::move(impl));
}

std::string printed(const at::Tensor& t, int64_t linesize = 80) {
  std::ostringstream out;
  at::print(out, t, linesize);
  return out.str();
}

// Expected texts start on the line after R"( for readability; drop that first newline.
std::string text(const char* raw) {
  return std::string(raw + 1);
}

// ---- Undefined, 0-dim, empty ----------------------------------------------------------------

TEST(Formatting, UndefinedTensor) {
  EXPECT_EQ(printed(at::Tensor()), "[ Tensor (undefined) ]");
}

TEST(Formatting, ZeroDimUsesDefaultNotationAndStreamPrecision) {
  EXPECT_EQ(printed(make(at::kFloat, {}, {3.5})), text(R"(
3.5
[ CPUFloatType{} ])"));
  EXPECT_EQ(printed(make(at::kLong, {}, {42})), text(R"(
42
[ CPULongType{} ])"));
  EXPECT_EQ(printed(make(at::kDouble, {}, {3.14159265358979})), text(R"(
3.14159
[ CPUDoubleType{} ])"));
  EXPECT_EQ(printed(make(at::kBool, {}, {1})), text(R"(
1
[ CPUBoolType{} ])"));
  EXPECT_EQ(printed(make(at::kFloat, {}, {kNaN})), text(R"(
nan
[ CPUFloatType{} ])"));
  EXPECT_EQ(printed(make(at::kDouble, {}, {1.23456789e10})), text(R"(
1.23457e+10
[ CPUDoubleType{} ])"));
  // A precision the caller set on the stream is honoured (and left in place).
  std::ostringstream out;
  out.precision(3);
  at::print(out, make(at::kDouble, {}, {3.14159265358979}), 80);
  EXPECT_EQ(out.str(), text(R"(
3.14
[ CPUDoubleType{} ])"));
  EXPECT_EQ(out.precision(), 3);
}

TEST(Formatting, EmptyTensorsPrintOnlyTheFooter) {
  EXPECT_EQ(printed(make(at::kFloat, {0}, {})), "[ CPUFloatType{0} ]");
  EXPECT_EQ(printed(make(at::kFloat, {2, 0}, {})), "[ CPUFloatType{2,0} ]");
  EXPECT_EQ(printed(make(at::kLong, {0, 3, 2}, {})), "[ CPULongType{0,3,2} ]");
}

// libtorch 1.13 throws "Cannot copy out of meta tensor; no data!" here (Note [Printing a meta
// tensor]); miniaten prints "..." for the values and the usual type line.
TEST(Formatting, MetaTensorsPrintNoValues) {
  const auto meta = at::TensorOptions().device(at::kMeta);
  EXPECT_EQ(printed(at::empty({2, 3}, meta)), "...\n[ MetaFloatType{2,3} ]");
  EXPECT_EQ(printed(at::empty({}, meta.dtype(at::kLong))), "...\n[ MetaLongType{} ]");
  EXPECT_EQ(printed(at::empty({0, 4}, meta.dtype(at::kHalf))), "...\n[ MetaHalfType{0,4} ]");
  // A transposed view prints its own sizes.
  EXPECT_EQ(printed(at::empty({2, 5}, meta).t()), "...\n[ MetaFloatType{5,2} ]");
}

// ---- 1-d: the number format -----------------------------------------------------------------

TEST(Formatting, IntegerValuedFloatsHaveNoDecimalPoint) {
  EXPECT_EQ(printed(make(at::kFloat, {3}, {1, 2, 3})), text(R"(
 1
 2
 3
[ CPUFloatType{3} ])"));
  EXPECT_EQ(printed(make(at::kFloat, {3}, {0, 0, 0})), text(R"(
 0
 0
 0
[ CPUFloatType{3} ])"));
  EXPECT_EQ(printed(make(at::kFloat, {3}, {-1, -22, -333})), text(R"(
-1
-22
-333
[ CPUFloatType{3} ])"));
}

TEST(Formatting, FixedNotationWidthFollowsTheLargestValue) {
  EXPECT_EQ(printed(make(at::kFloat, {4}, {0.5, 1.25, -2.75, 3})), text(R"(
 0.5000
 1.2500
-2.7500
 3.0000
[ CPUFloatType{4} ])"));
  EXPECT_EQ(printed(make(at::kFloat, {3}, {-1.5, -22.25, 333.125})), text(R"(
  -1.5000
 -22.2500
 333.1250
[ CPUFloatType{3} ])"));
  EXPECT_EQ(printed(make(at::kDouble, {2}, {0.15, 0.25})), text(R"(
 0.1500
 0.2500
[ CPUDoubleType{2} ])"));
  EXPECT_EQ(printed(make(at::kFloat, {2}, {-0.0, 0.5})), text(R"(
-0.0000
 0.5000
[ CPUFloatType{2} ])"));
}

TEST(Formatting, MixedMagnitudesSwitchToScientific) {
  EXPECT_EQ(printed(make(at::kDouble, {3}, {1e-5, 1, 1e5})), text(R"(
 1.0000e-05
 1.0000e+00
 1.0000e+05
[ CPUDoubleType{3} ])"));
  EXPECT_EQ(printed(make(at::kDouble, {3}, {123456.7, 234567.8, 1.5})), text(R"(
 1.2346e+05
 2.3457e+05
 1.5000e+00
[ CPUDoubleType{3} ])"));
  // Three-digit exponents widen the column by one.
  EXPECT_EQ(printed(make(at::kDouble, {2}, {1e-200, 1e200})), text(R"(
 1.0000e-200
 1.0000e+200
[ CPUDoubleType{2} ])"));
}

TEST(Formatting, SmallValuesShareAScaleFactor) {
  EXPECT_EQ(printed(make(at::kDouble, {3}, {0.001234, 0.002, 0.0005})), text(R"(
0.001 *
 1.2340
 2.0000
 0.5000
[ CPUDoubleType{3} ])"));
}

TEST(Formatting, NonFiniteValuesAreIgnoredWhenChoosingTheFormat) {
  EXPECT_EQ(printed(make(at::kFloat, {5}, {1.5, kNaN, kInf, -kInf, 2})), text(R"(
 1.5000
    nan
    inf
   -inf
 2.0000
[ CPUFloatType{5} ])"));
  EXPECT_EQ(printed(make(at::kFloat, {2}, {kNaN, kNaN})), text(R"(
nan
nan
[ CPUFloatType{2} ])"));
}

// See Note [How libtorch picks the number format]: a negative value widens the columns only
// when it is the first finite one.
TEST(Formatting, OnlyTheFirstNegativeMagnitudeCounts) {
  EXPECT_EQ(printed(make(at::kDouble, {3}, {-123456.5, 1, 2})), text(R"(
-1.2346e+05
 1.0000e+00
 2.0000e+00
[ CPUDoubleType{3} ])"));
  EXPECT_EQ(printed(make(at::kDouble, {3}, {1, -123456.5, 2})), text(R"(
 1.0000
-123456.5000
 2.0000
[ CPUDoubleType{3} ])"));
  EXPECT_EQ(printed(make(at::kDouble, {3}, {1, -123456789, 2})), text(R"(
 1
-1.23457e+08
 2
[ CPUDoubleType{3} ])"));
}

// ---- Integer, bool and reduced-precision dtypes ---------------------------------------------

TEST(Formatting, IntegerDtypes) {
  EXPECT_EQ(printed(make(at::kByte, {3}, {0, 128, 255})), text(R"(
   0
 128
 255
[ CPUByteType{3} ])"));
  EXPECT_EQ(printed(make(at::kChar, {3}, {-128, 0, 127})), text(R"(
-128
   0
 127
[ CPUCharType{3} ])"));
  EXPECT_EQ(printed(make(at::kInt, {2, 3}, {-1, 200, 3, 4, -50000, 6})), text(R"(
  -1  200    3
   4 -50000    6
[ CPUIntType{2,3} ])"));
}

TEST(Formatting, LargeIntegersGoScientificPastNineDigits) {
  // Nine digits stay in default notation, whose 6-digit precision already rounds them.
  EXPECT_EQ(printed(make(at::kLong, {2}, {123456789, 5})), text(R"(
1.23457e+08
         5
[ CPULongType{2} ])"));
  EXPECT_EQ(printed(make(at::kLong, {2}, {1234567890, 5})), text(R"(
 1.2346e+09
 5.0000e+00
[ CPULongType{2} ])"));
  EXPECT_EQ(printed(make(at::kLong, {3}, {1, 4611686018427387904.0, -7})), text(R"(
 1.0000e+00
 4.6117e+18
-7.0000e+00
[ CPULongType{3} ])"));
}

TEST(Formatting, BoolPrintsAsZeroAndOne) {
  EXPECT_EQ(printed(make(at::kBool, {4}, {1, 0, 1, 1})), text(R"(
 1
 0
 1
 1
[ CPUBoolType{4} ])"));
}

TEST(Formatting, HalfAndBFloat16PrintTheirRoundedValues) {
  EXPECT_EQ(printed(make(at::kHalf, {4}, {0.1, 1.5, -2, 65504})), text(R"(
 9.9976e-02
 1.5000e+00
-2.0000e+00
 6.5504e+04
[ CPUHalfType{4} ])"));
  EXPECT_EQ(printed(make(at::kBFloat16, {3}, {0.1, 3.14159, 1000})), text(R"(
    0.1001
    3.1406
 1000.0000
[ CPUBFloat16Type{3} ])"));
}

// ---- 2-d: alignment, scale line, column blocks ----------------------------------------------

TEST(Formatting, MatrixColumnsAreAligned) {
  EXPECT_EQ(printed(make(at::kFloat, {2, 3}, {1, 2, 3, 4, 5, 6})), text(R"(
 1  2  3
 4  5  6
[ CPUFloatType{2,3} ])"));
  EXPECT_EQ(printed(make(at::kFloat, {2, 3}, {1.5, 2, 3, 4, 5, 6})), text(R"(
 1.5000  2.0000  3.0000
 4.0000  5.0000  6.0000
[ CPUFloatType{2,3} ])"));
  EXPECT_EQ(printed(make(at::kDouble, {2, 2}, {1e-5, 1, 1e5, 2})), text(R"(
 1.0000e-05  1.0000e+00
 1.0000e+05  2.0000e+00
[ CPUDoubleType{2,2} ])"));
  EXPECT_EQ(printed(make(at::kDouble, {2, 2}, {1e4, 2e4, 3.5e4, 1e5})), text(R"(
  10000   20000
  35000  100000
[ CPUDoubleType{2,2} ])"));
}

TEST(Formatting, MatrixScaleLineIndentsLaterRows) {
  // libtorch's quirk: with a scale line, every row after the first gets one more space.
  EXPECT_EQ(printed(make(at::kDouble, {3, 2}, {1e-3, 2e-3, 3.5e-3, 1e-4, 2e-3, 3e-3})), text(R"(
0.001 *
 1.0000  2.0000
  3.5000  0.1000
  2.0000  3.0000
[ CPUDoubleType{3,2} ])"));
}

std::vector<double> arange(int64_t n, double start, double step) {
  std::vector<double> v;
  for (int64_t i = 0; i < n; ++i) v.push_back(start + static_cast<double>(i) * step);
  return v;
}

TEST(Formatting, WideMatricesWrapIntoColumnBlocks) {
  EXPECT_EQ(printed(make(at::kFloat, {2, 20}, arange(40, 0, 0.5))), text(R"(
Columns 1 to 8  0.0000   0.5000   1.0000   1.5000   2.0000   2.5000   3.0000   3.5000
 10.0000  10.5000  11.0000  11.5000  12.0000  12.5000  13.0000  13.5000

Columns 9 to 16  4.0000   4.5000   5.0000   5.5000   6.0000   6.5000   7.0000   7.5000
 14.0000  14.5000  15.0000  15.5000  16.0000  16.5000  17.0000  17.5000

Columns 17 to 20  8.0000   8.5000   9.0000   9.5000
 18.0000  18.5000  19.0000  19.5000
[ CPUFloatType{2,20} ])"));
  EXPECT_EQ(printed(make(at::kLong, {3, 30}, arange(90, -45, 1))), text(R"(
Columns 1 to 20-45 -44 -43 -42 -41 -40 -39 -38 -37 -36 -35 -34 -33 -32 -31 -30 -29 -28 -27 -26
-15 -14 -13 -12 -11 -10  -9  -8  -7  -6  -5  -4  -3  -2  -1   0   1   2   3   4
 15  16  17  18  19  20  21  22  23  24  25  26  27  28  29  30  31  32  33  34

Columns 21 to 30-25 -24 -23 -22 -21 -20 -19 -18 -17 -16
  5   6   7   8   9  10  11  12  13  14
 35  36  37  38  39  40  41  42  43  44
[ CPULongType{3,30} ])"));
  EXPECT_EQ(printed(make(at::kDouble, {2, 12}, arange(24, 1e6, 12345.678))), text(R"(
Columns 1 to 101e+06 *
 1.0000  1.0123  1.0247  1.0370  1.0494  1.0617  1.0741  1.0864  1.0988  1.1111
  1.1481  1.1605  1.1728  1.1852  1.1975  1.2099  1.2222  1.2346  1.2469  1.2593

Columns 11 to 121e+06 *
 1.1235  1.1358
  1.2716  1.2840
[ CPUDoubleType{2,12} ])"));
}

TEST(Formatting, LinesizeSetsTheBlockWidth) {
  EXPECT_EQ(printed(make(at::kFloat, {2, 5}, arange(10, 0, 0.25)), 20), text(R"(
Columns 1 to 2 0.0000  0.2500
 1.2500  1.5000

Columns 3 to 4 0.5000  0.7500
 1.7500  2.0000

Columns 5 to 5 1.0000
 2.2500
[ CPUFloatType{2,5} ])"));
  EXPECT_EQ(printed(make(at::kFloat, {2, 20}, arange(40, 0, 0.5)), 120), text(R"(
Columns 1 to 13  0.0000   0.5000   1.0000   1.5000   2.0000   2.5000   3.0000   3.5000   4.0000   4.5000   5.0000   5.5000   6.0000
 10.0000  10.5000  11.0000  11.5000  12.0000  12.5000  13.0000  13.5000  14.0000  14.5000  15.0000  15.5000  16.0000

Columns 14 to 20  6.5000   7.0000   7.5000   8.0000   8.5000   9.0000   9.5000
 16.5000  17.0000  17.5000  18.0000  18.5000  19.0000  19.5000
[ CPUFloatType{2,20} ])"));
}

// ---- n-d: (i,j,.,.) slices ------------------------------------------------------------------

TEST(Formatting, ThreeDimPrintsOneSlicePerLeadingIndex) {
  EXPECT_EQ(printed(make(at::kFloat, {2, 2, 3}, arange(12, 0, 0.5))), text(R"(
(1,.,.) = 
  0.0000  0.5000  1.0000
  1.5000  2.0000  2.5000

(2,.,.) = 
  3.0000  3.5000  4.0000
  4.5000  5.0000  5.5000
[ CPUFloatType{2,2,3} ])"));
  EXPECT_EQ(printed(make(at::kLong, {2, 2, 2}, arange(8, 0, 1))), text(R"(
(1,.,.) = 
  0  1
  2  3

(2,.,.) = 
  4  5
  6  7
[ CPULongType{2,2,2} ])"));
}

TEST(Formatting, FourDimSlicesCountFirstIndexFastest) {
  EXPECT_EQ(printed(make(at::kFloat, {2, 3, 2, 2}, arange(24, 0, 1))), text(R"(
(1,1,.,.) = 
  0  1
  2  3

(2,1,.,.) = 
  12  13
  14  15

(1,2,.,.) = 
  4  5
  6  7

(2,2,.,.) = 
  16  17
  18  19

(1,3,.,.) = 
   8   9
  10  11

(2,3,.,.) = 
  20  21
  22  23
[ CPUFloatType{2,3,2,2} ])"));
}

TEST(Formatting, EachSliceChoosesItsOwnFormat) {
  EXPECT_EQ(printed(make(at::kDouble, {2, 2, 2}, {1e5, 2e5, 3e5, 4.5e5, 1, 2, 3, 4.5})), text(R"(
(1,.,.) = 
  100000  200000
  300000  450000

(2,.,.) = 
  1.0000  2.0000
  3.0000  4.5000
[ CPUDoubleType{2,2,2} ])"));
  // The precision 4 set for the first slice carries into the second's default notation.
  EXPECT_EQ(printed(make(at::kDouble, {2, 1, 2}, {0.5, 1.5, 1234567, 2})), text(R"(
(1,.,.) = 
  0.5000  1.5000

(2,.,.) = 
 1.235e+06        2
[ CPUDoubleType{2,1,2} ])"));
}

TEST(Formatting, SlicesWrapWithIndent) {
  EXPECT_EQ(printed(make(at::kFloat, {2, 2, 15}, arange(60, 0, 0.125))), text(R"(
(1,.,.) = 
 Columns 1 to 9  0.0000  0.1250  0.2500  0.3750  0.5000  0.6250  0.7500  0.8750  1.0000
  1.8750  2.0000  2.1250  2.2500  2.3750  2.5000  2.6250  2.7500  2.8750

Columns 10 to 15  1.1250  1.2500  1.3750  1.5000  1.6250  1.7500
  3.0000  3.1250  3.2500  3.3750  3.5000  3.6250

(2,.,.) = 
 Columns 1 to 9  3.7500  3.8750  4.0000  4.1250  4.2500  4.3750  4.5000  4.6250  4.7500
  5.6250  5.7500  5.8750  6.0000  6.1250  6.2500  6.3750  6.5000  6.6250

Columns 10 to 15  4.8750  5.0000  5.1250  5.2500  5.3750  5.5000
  6.7500  6.8750  7.0000  7.1250  7.2500  7.3750
[ CPUFloatType{2,2,15} ])"));
}

// ---- Non-contiguous tensors are read through strides and storage offset ---------------------

struct Layout {
  const char* name;
  std::vector<double> storage;
  std::vector<int64_t> strides;
  int64_t offset;
};

class FormattingLayout : public testing::TestWithParam<Layout> {};

// The 3x2 matrix [[1, 5.5], [2.5, 7], [4, 8.5]] stored four ways prints the same.
TEST_P(FormattingLayout, PrintsTheLogicalValues) {
  const Layout& layout = GetParam();
  at::Tensor base = make(at::kFloat, {static_cast<int64_t>(layout.storage.size())}, layout.storage);
  at::Tensor t = view(base, {3, 2}, layout.strides, layout.offset);
  EXPECT_EQ(t.storage_offset(), layout.offset);
  EXPECT_EQ(printed(t), text(R"(
 1.0000  5.5000
 2.5000  7.0000
 4.0000  8.5000
[ CPUFloatType{3,2} ])"));
}

INSTANTIATE_TEST_SUITE_P(
    Layouts, FormattingLayout,
    testing::Values(Layout{"contiguous", {1, 5.5, 2.5, 7, 4, 8.5}, {2, 1}, 0},
                    Layout{"transposed", {1, 2.5, 4, 5.5, 7, 8.5}, {1, 3}, 0},
                    Layout{"row_sliced", {0, 0, 1, 5.5, 9, 2.5, 7, 9, 4, 8.5}, {3, 1}, 2},
                    Layout{
                        "column_strided", {9, 1, 9, 5.5, 9, 2.5, 9, 7, 9, 4, 9, 8.5}, {4, 2}, 1}),
    [](const testing::TestParamInfo<Layout>& info) { return std::string(info.param.name); });

TEST(Formatting, StridedViews) {
  at::Tensor storage = make(at::kFloat, {12}, arange(12, 0, 0.25));
  EXPECT_EQ(printed(view(storage, {2, 2}, {6, 2}, 3)), text(R"(
 0.7500  1.2500
 2.2500  2.7500
[ CPUFloatType{2,2} ])"));
  at::Tensor row = make(at::kInt, {4}, {7, 8, 9, 10});
  EXPECT_EQ(printed(view(row, {3, 4}, {0, 1}, 0)), text(R"(
  7   8   9  10
  7   8   9  10
  7   8   9  10
[ CPUIntType{3,4} ])"));
  at::Tensor doubles = make(at::kDouble, {9}, arange(9, 0, 0.5));
  EXPECT_EQ(printed(view(doubles, {3}, {3}, 1)), text(R"(
 0.5000
 2.0000
 3.5000
[ CPUDoubleType{3} ])"));
  at::Tensor three = make(at::kFloat, {3}, {1, 2, 2.5});
  EXPECT_EQ(printed(view(three, {}, {}, 2)), text(R"(
2.5
[ CPUFloatType{} ])"));
}

// ---- Entry points and stream state ----------------------------------------------------------

TEST(Formatting, OperatorAndPrintToCoutAgree) {
  at::Tensor t = make(at::kFloat, {2, 3}, {1.5, 2, 3, 4, 5, 6});
  std::ostringstream out;
  out << t;
  EXPECT_EQ(out.str(), printed(t));
  testing::internal::CaptureStdout();
  at::print(t);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), printed(t));
}

TEST(Formatting, StreamFormatIsRestored) {
  std::ostringstream out;
  out << std::hex << std::setprecision(9);
  const auto flags = out.flags();
  out << make(at::kDouble, {2}, {1e-5, 1e5});
  EXPECT_EQ(out.flags(), flags);
  EXPECT_EQ(out.precision(), 9);
}

TEST(Formatting, CallerFlagsApplyAsInLibtorch) {
  // libtorch does not reset showpos: it reaches the values and the footer's sizes alike.
  std::ostringstream out;
  out << std::showpos << std::fixed << std::setprecision(2);
  out << make(at::kInt, {2, 2}, {1, -2, 3, 4});
  EXPECT_EQ(out.str(), text(R"(
+1 -2
+3 +4
[ CPUIntType{+2,+2} ])"));
}

}  // namespace
