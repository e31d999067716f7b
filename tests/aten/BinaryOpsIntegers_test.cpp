// div's rounding modes and the integer edge cases of the binary ops (division by -1, the
// lowest alpha): every expected number printed by libtorch 1.13 for the same calls.

#include <gtest/gtest.h>

#include <limits>
#include <utility>
#include <vector>

#include "ElementwiseTestUtils.h"

namespace {

using namespace elementwise_test;
using at::Tensor;

std::vector<double> doubles(const Tensor& t) {
  const Tensor c = t.to(at::kDouble).contiguous();
  return std::vector<double>(c.data_ptr<double>(), c.data_ptr<double>() + c.numel());
}

std::vector<int64_t> longs(const Tensor& t) {
  const Tensor c = t.to(at::kLong).contiguous();
  return std::vector<int64_t>(c.data_ptr<int64_t>(), c.data_ptr<int64_t>() + c.numel());
}

TEST(DivRoundingMode, ValuesDtypesAndErrorsAsLibtorch) {
  const Tensor a = at::arange(-7, 8, 3);  // -7 -4 -1 2 5
  const Tensor b = at::full({5}, 2, at::kLong);
  EXPECT_EQ(at::div(a, b, "trunc").scalar_type(), at::kLong);
  EXPECT_EQ(doubles(at::div(a, b, "trunc")), (std::vector<double>{-3, -2, 0, 1, 2}));
  EXPECT_EQ(doubles(at::div(a, b, "floor")), (std::vector<double>{-4, -2, -1, 1, 2}));
  EXPECT_EQ(doubles(at::div(a, -b, "floor")), (std::vector<double>{3, 2, 0, -1, -3}));
  EXPECT_EQ(at::div(a, b, c10::nullopt).scalar_type(), at::kFloat);
  EXPECT_EQ(doubles(at::div(a, b, c10::nullopt)), (std::vector<double>{-3.5, -2, -0.5, 1, 2.5}));

  const Tensor f = at::arange(-7, 8, 3, at::kFloat) + 0.5;
  EXPECT_EQ(doubles(f.div(2, "trunc")), (std::vector<double>{-3, -1, -0., 1, 2}));
  EXPECT_TRUE(std::signbit(doubles(f.div(2, "trunc"))[2]));
  EXPECT_EQ(doubles(at::div(f, -2.5, "floor")), (std::vector<double>{2, 1, 0, -1, -3}));
  EXPECT_EQ(doubles(at::div(f, at::full({5}, 0.3), "floor")),
            (std::vector<double>{-22, -12, -2, 8, 18}));
  EXPECT_EQ(doubles(at::div(f, at::zeros({5}), "floor")),
            (std::vector<double>{-INFINITY, -INFINITY, -INFINITY, INFINITY, INFINITY}));
  EXPECT_EQ(doubles(at::div(at::full({1}, -0.5), 4.0, "floor")), (std::vector<double>{-1}));
  EXPECT_EQ(doubles(at::div(f.to(at::kHalf), 3, "trunc")),
            (std::vector<double>{-2, -1, -0., 0, 1}));
  EXPECT_EQ(at::div(a, 2.5, "floor").scalar_type(), at::kFloat);
  EXPECT_EQ(doubles(at::div(a, 2.5, "floor")), (std::vector<double>{-3, -2, -1, 0, 2}));

  Tensor c = a.clone();
  c.div_(b, "floor");
  EXPECT_EQ(doubles(c), (std::vector<double>{-4, -2, -1, 1, 2}));
  Tensor out = at::empty({5}, at::kLong);
  at::div_out(out, a, b, "trunc");
  EXPECT_EQ(doubles(out), (std::vector<double>{-3, -2, 0, 1, 2}));

  EXPECT_EQ(error_of([&] { at::div(a, at::zeros({5}, at::kLong), "trunc"); }), "ZeroDivisionError");
  EXPECT_EQ(error_of([&] { at::div(a, 0, "floor"); }), "ZeroDivisionError");
  // Note [Integer division by -1]: INT_MIN / -1 wraps to INT_MIN (libtorch 1.13 dies of SIGFPE);
  // other divisions by -1 negate; unsigned 255 / 255 is 1, not a negation.
  const std::pair<at::ScalarType, int64_t> kMins[] = {
      {at::kLong, std::numeric_limits<int64_t>::min()},
      {at::kInt, std::numeric_limits<int32_t>::min()},
      {at::kShort, std::numeric_limits<int16_t>::min()},
      {at::kChar, std::numeric_limits<int8_t>::min()}};
  for (const char* mode : {"trunc", "floor"}) {
    for (const auto& [dtype, min] : kMins) {
      const Tensor x = at::tensor(std::vector<int64_t>{min, 7, -7}).to(dtype);
      const Tensor q = at::div(x, -1, mode);
      EXPECT_EQ(q.scalar_type(), dtype);
      EXPECT_EQ(longs(q), (std::vector<int64_t>{min, -7, 7})) << mode << " " << dtype;
      EXPECT_EQ(longs(at::div(x, at::full({3}, -1, dtype), mode)),
                (std::vector<int64_t>{min, -7, 7}));
    }
    EXPECT_EQ(longs(at::div(at::full({1}, 255, at::kByte), at::full({1}, 255, at::kByte), mode)),
              (std::vector<int64_t>{1}));
  }
  EXPECT_EQ(error_of([&] { at::div(a, b, "round"); }),
            "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found 'round'");
  EXPECT_EQ(error_of([&] { at::div(at::ones({2}, at::kBool), at::ones({2}, at::kBool), "trunc"); }),
            "\"div_trunc_cpu\" not implemented for 'Bool'");
  Tensor ci = a.clone();
  EXPECT_EQ(error_of([&] { ci.div_(b, c10::nullopt); }),
            "result type Float can't be cast to the desired output type Long");
}

}  // namespace

namespace {

// An undefined out= is libtorch's unpack error, raised before any kernel runs (found by the
// boxed-call fuzzer: the kernel used to allocate a result the caller never saw, and bumping the
// undefined out's version then crashed). Texts printed by libtorch 1.13.

// sub(a, b, alpha) is add(a, b, -alpha), and -INT64_MIN wraps to INT64_MIN, as libtorch 1.13's
// results are (its negation overflows; found by fuzz_boxed_call under UBSan).
TEST(BinaryOps, SubWithTheLowestAlphaWraps) {
  const int64_t min = std::numeric_limits<int64_t>::min();
  EXPECT_EQ((-c10::Scalar(min)).toLong(), min);
  const Tensor a = at::tensor(std::vector<int64_t>{5, 7});
  EXPECT_EQ(longs(at::sub(a, at::tensor(std::vector<int64_t>{1, 2}), min)),
            (std::vector<int64_t>{5 + min, 7}));
  EXPECT_EQ(longs(at::sub(a, 3, min)), (std::vector<int64_t>{5 + min, 7 + min}));
}

}  // namespace
