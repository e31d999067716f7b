// isclose / allclose: libtorch 1.13's rtol/atol/equal_nan semantics and texts (every expected
// value printed by libtorch running the same call). See Note [isclose in other operators].
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "aten/ATen.h"
#include "tests/TestUtils.h"

namespace {

using test_util::error_of;

at::Tensor bools(std::initializer_list<int> v) { return at::tensor(v).to(at::kBool); }

void expect_close(const at::Tensor& close, const at::Tensor& expected) {
  EXPECT_EQ(close.scalar_type(), at::kBool);
  EXPECT_TRUE(close.equal(expected)) << close;
}

TEST(IsClose, FloatingPoint) {
  const at::Tensor a = at::tensor({1.0, 2.0, NAN, INFINITY});
  const at::Tensor b = at::tensor({1.0 + 1e-6, 2.1, NAN, INFINITY});
  expect_close(at::isclose(a, b), bools({1, 0, 0, 1}));
  expect_close(at::isclose(a, b, 1e-5, 1e-8, /*equal_nan=*/true), bools({1, 0, 1, 1}));
  expect_close(a.isclose(b), bools({1, 0, 0, 1}));
  expect_close(at::isclose(at::tensor({-INFINITY, INFINITY}), at::tensor({INFINITY, INFINITY})),
               bools({0, 1}));
  expect_close(at::isclose(at::tensor({1.0, 100.0}), at::tensor({1.5, 101.0}), 0.01, 0.5),
               bools({1, 1}));
  const at::Tensor h = at::tensor({1.0f}).to(at::kHalf);
  expect_close(at::isclose(h, h), bools({1}));
  const at::Tensor bf = at::tensor({1.0f}).to(at::kBFloat16);
  expect_close(at::isclose(bf, bf), bools({1}));
  // Broadcasting.
  expect_close(at::isclose(at::ones({2, 1}), at::ones({1, 3})), at::ones({2, 3}).to(at::kBool));
}

TEST(IsClose, Integral) {
  expect_close(at::isclose(at::tensor({1, 2}), at::tensor({1, 3})), bools({1, 0}));
  expect_close(at::isclose(at::tensor({1, 2}), at::tensor({1, 3}), 0, 0), bools({1, 0}));
  expect_close(at::isclose(at::tensor({1, 2}), at::tensor({1, 3}), 0.5, 0), bools({1, 1}));
  expect_close(at::isclose(at::tensor({int64_t{10}}), at::tensor({int64_t{11}}), 0.1, 0),
               bools({1}));
  expect_close(at::isclose(at::tensor({int64_t{10}}), at::tensor({int64_t{12}}), 0.1, 1),
               bools({1}));
  // The difference is taken in float: 10 - 200 does not wrap to 66 in uint8.
  const at::Tensor u10 = at::tensor({10}).to(at::kByte), u200 = at::tensor({200}).to(at::kByte);
  expect_close(at::isclose(u200, u10, 0, 100), bools({0}));
  expect_close(at::isclose(u10, u200, 0, 100), bools({0}));
  expect_close(at::isclose(bools({1, 0}), bools({1, 1}), 0, 0.5), bools({1, 0}));
}

TEST(AllClose, Values) {
  const at::Tensor a = at::tensor({1.0, 2.0, NAN, INFINITY});
  const at::Tensor b = at::tensor({1.0 + 1e-6, 2.1, NAN, INFINITY});
  EXPECT_FALSE(at::allclose(a, b));
  EXPECT_TRUE(a.allclose(a, 1e-5, 1e-8, /*equal_nan=*/true));
  EXPECT_FALSE(a.allclose(a));  // NaN
  EXPECT_TRUE(at::allclose(at::ones({2, 1}), at::ones({1, 3})));
  EXPECT_TRUE(at::allclose(at::zeros({0}), at::zeros({0})));
  EXPECT_TRUE(at::ones({3}).allclose(at::ones({3}) + 1e-9));
}

TEST(IsClose, Errors) {
  const at::Tensor a = at::tensor({1.0, 2.0});
  EXPECT_EQ(error_of([&] { at::isclose(a, a.to(at::kFloat)); }), "Double did not match Float");
  EXPECT_EQ(error_of([&] { at::allclose(at::tensor({1, 2}), a); }), "Int did not match Double");
  EXPECT_EQ(error_of([&] { at::isclose(a, a, -1); }),
            "rtol must be greater than or equal to zero, but got -1");
  EXPECT_EQ(error_of([&] { at::isclose(a, a, 1e-5, -1); }),
            "atol must be greater than or equal to zero, but got -1");
  EXPECT_EQ(error_of([&] { at::isclose(a, at::tensor({1.0, 2.0, 3.0})); }),
            "The size of tensor a (2) must match the size of tensor b (3) at non-singleton "
            "dimension 0");
}

}  // namespace
