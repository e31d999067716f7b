// Tensor operators as libtorch's ATen/TensorOperators.h and TensorBody.h define them: each is
// one op call, so the checks are the result's values, dtype and layout, and the aliasing of
// the compound and indexing forms.

#include <gtest/gtest.h>

#include <functional>
#include <type_traits>
#include <utility>
#include <string>
#include <vector>

#include "tests/TestUtils.h"
#include "aten/ATen.h"

namespace {

std::vector<float> floats(const at::Tensor& t) {
  at::Tensor c = t.contiguous().to(at::kFloat);
  return std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
}

TEST(TensorOperators, ArithmeticWithTensorsAndScalars) {
  at::Tensor x = at::arange(1, 4, at::kFloat);  // 1 2 3
  at::Tensor y = at::full({3}, 2.0);
  EXPECT_EQ(floats(x + y), (std::vector<float>{3, 4, 5}));
  EXPECT_EQ(floats(x - y), (std::vector<float>{-1, 0, 1}));
  EXPECT_EQ(floats(x * y), (std::vector<float>{2, 4, 6}));
  EXPECT_EQ(floats(x / y), (std::vector<float>{0.5, 1, 1.5}));
  EXPECT_EQ(floats(2 * x + 1), (std::vector<float>{3, 5, 7}));
  EXPECT_EQ(floats(x * 2.5), (std::vector<float>{2.5, 5, 7.5}));
  EXPECT_EQ(floats(10 - x), (std::vector<float>{9, 8, 7}));
  EXPECT_EQ(floats(6 / x), (std::vector<float>{6, 3, 2}));
  EXPECT_EQ(floats(-x), (std::vector<float>{-1, -2, -3}));
  // Broadcasting as the ops do.
  at::Tensor col = at::arange(2, at::kFloat).view({2, 1});
  EXPECT_EQ((col + x).sizes(), c10::IntArrayRef({2, 3}));
}

TEST(TensorOperators, ScalarOnTheLeftKeepsTheTensorsTypeAndLayout) {
  // libtorch: 1 - int_tensor is empty_like(int_tensor).fill_(1).sub_(int_tensor): still Long.
  at::Tensor i = at::arange(3);
  at::Tensor r = 1 - i;
  EXPECT_EQ(r.scalar_type(), at::kLong);
  EXPECT_EQ(floats(r), (std::vector<float>{1, 0, -1}));
  // ... while i - 1.5 promotes as sub.Scalar does.
  EXPECT_EQ((i - 1.5).scalar_type(), at::kFloat);
  // A channels-last right operand gives a channels-last result.
  at::Tensor cl = at::ones({2, 3, 4, 5}).contiguous(at::MemoryFormat::ChannelsLast);
  EXPECT_TRUE((1 - cl).is_contiguous(at::MemoryFormat::ChannelsLast));
  EXPECT_TRUE((2 * cl).is_contiguous(at::MemoryFormat::ChannelsLast));
}

TEST(TensorOperators, Comparisons) {
  at::Tensor x = at::arange(1, 4, at::kFloat);
  at::Tensor two = at::full({3}, 2.0);
  EXPECT_EQ((x < 2).scalar_type(), at::kBool);
  EXPECT_EQ(floats(x < 2), (std::vector<float>{1, 0, 0}));
  EXPECT_EQ(floats(x <= two), (std::vector<float>{1, 1, 0}));
  EXPECT_EQ(floats(x > two), (std::vector<float>{0, 0, 1}));
  EXPECT_EQ(floats(x >= 2), (std::vector<float>{0, 1, 1}));
  EXPECT_EQ(floats(x == 2), (std::vector<float>{0, 1, 0}));
  EXPECT_EQ(floats(x != two), (std::vector<float>{1, 0, 1}));
  // A Scalar on the left swaps the comparison: 2 < x is x > 2.
  EXPECT_EQ(floats(2 < x), (std::vector<float>{0, 0, 1}));
  EXPECT_EQ(floats(2 >= x), (std::vector<float>{1, 1, 0}));
  EXPECT_EQ(floats(2 == x), (std::vector<float>{0, 1, 0}));
}

TEST(TensorOperators, CompoundAssignmentWritesInPlace) {
  at::Tensor x = at::arange(1, 4, at::kFloat);
  const void* data = x.data_ptr();
  at::Tensor& same = (x += 1);
  EXPECT_TRUE(same.is_same(x));
  x *= at::full({3}, 2.0);
  x -= 1;
  x /= 2;
  EXPECT_EQ(x.data_ptr(), data);
  EXPECT_EQ(floats(x), (std::vector<float>{1.5, 2.5, 3.5}));
  // arange wrote x once (version 1, as in libtorch), then four in-place ops.
  EXPECT_EQ(x._version(), 5);
  // A view written through += bumps the base it shares its counter with.
  at::Tensor base = at::zeros({2, 2});
  at::Tensor row = base[1];
  row += 5;
  EXPECT_EQ(floats(base), (std::vector<float>{0, 0, 5, 5}));
}

TEST(TensorOperators, IndexingSelectsAlongDimZero) {
  at::Tensor t = at::arange(6, at::kFloat).view({3, 2});
  at::Tensor row = t[1];
  EXPECT_EQ(row.sizes(), c10::IntArrayRef({2}));
  EXPECT_EQ(row.storage_offset(), 2);
  EXPECT_TRUE(row.is_alias_of(t));
  EXPECT_EQ(t[-1].storage_offset(), 4);
  EXPECT_EQ(t[c10::Scalar(2)].storage_offset(), 4);
  EXPECT_EQ(t[at::scalar_tensor(1, at::kLong)].storage_offset(), 2);
  EXPECT_EQ(t[1][0].item().toDouble(), 2.0);
  using test_util::error_of;
  EXPECT_EQ(error_of([&] { (void)t[c10::Scalar(1.5)]; }),
            "Can only index tensors with integral scalars");
  EXPECT_EQ(error_of([&] { (void)t[at::Tensor()]; }),
            "Can only index with tensors that are defined");
  EXPECT_EQ(error_of([&] { (void)t[at::arange(2)]; }),
            "Can only index with tensors that are scalars (zero-dim)");
  EXPECT_EQ(error_of([&] { (void)t[3]; }),
            "select(): index 3 out of range for tensor of size [3, 2] at dimension 0");
}

}  // namespace

// In-place methods return a mutable reference, as libtorch 1.13's TensorBody.h declares them
// (resize_ alone returns a const one).
static_assert(std::is_same<decltype(std::declval<const at::Tensor&>().add_(1)), at::Tensor&>::value,
              "add_ returns at::Tensor&");
static_assert(std::is_same<decltype(std::declval<const at::Tensor&>().zero_()), at::Tensor&>::value,
              "zero_ returns at::Tensor&");
static_assert(std::is_same<decltype(std::declval<const at::Tensor&>().resize_({2})),
                           const at::Tensor&>::value,
              "resize_ returns const at::Tensor&");

TEST(TensorOperators, TypedItem) {
  EXPECT_EQ(at::full({1}, 2.5).item<float>(), 2.5f);
  EXPECT_EQ(at::full({}, 7, at::kLong).item<int64_t>(), 7);
  EXPECT_EQ(at::full({1}, 3.0).item<int>(), 3);
}
