// bitwise_not / bitwise_and / bitwise_or / bitwise_xor and the operators ~ & | ^ &= |= ^=:
// values, result dtypes, promotion with Scalars, out= and in-place, and the error texts,
// against libtorch 1.13 running the same calls. CPU only: no CUDA or Meta kernel is registered
// for them yet.
#include <gtest/gtest.h>

#include <cstdint>

#include "aten/ATen.h"
#include "tests/TestUtils.h"

namespace {

using test_util::error_of;

at::Tensor ints(std::initializer_list<int> v) { return at::tensor(v); }  // Int, as at::tensor
at::Tensor bools(std::initializer_list<int> v) { return at::tensor(v).to(at::kBool); }

void expect_values(const at::Tensor& t, c10::ScalarType dtype, const at::Tensor& expected) {
  EXPECT_EQ(t.scalar_type(), dtype);
  EXPECT_TRUE(t.equal(expected)) << t;
}

TEST(BitwiseOps, IntegralValues) {
  const at::Tensor i = ints({12, 10, -3}), j = ints({10, 6, 5});
  expect_values(i & j, at::kInt, ints({8, 2, 5}));
  expect_values(i | j, at::kInt, ints({14, 14, -3}));
  expect_values(i ^ j, at::kInt, ints({6, 12, -8}));
  expect_values(~i, at::kInt, ints({-13, -11, 2}));
  expect_values(~at::tensor({0, 255}).to(at::kByte), at::kByte,
                at::tensor({255, 0}).to(at::kByte));
  // Long and the vectorized loop: more elements than one vector holds.
  const at::Tensor a = at::arange(100, at::kLong), b = at::full({100}, 0x55, at::kLong);
  const at::Tensor both = a & b;
  for (int64_t k : {0, 3, 31, 64, 99}) {
    EXPECT_EQ(both[k].item<int64_t>(), k & 0x55);
    EXPECT_EQ((a ^ b)[k].item<int64_t>(), k ^ 0x55);
    EXPECT_EQ((~a)[k].item<int64_t>(), ~k);
  }
}

TEST(BitwiseOps, BoolValues) {
  const at::Tensor b1 = bools({1, 0, 1}), b2 = bools({1, 1, 0});
  expect_values(b1 & b2, at::kBool, bools({1, 0, 0}));
  expect_values(b1 | b2, at::kBool, bools({1, 1, 1}));
  expect_values(b1 ^ b2, at::kBool, bools({0, 1, 1}));
  expect_values(~b1, at::kBool, bools({0, 1, 0}));
  expect_values(b1 & true, at::kBool, bools({1, 0, 1}));
}

TEST(BitwiseOps, ScalarsAndPromotion) {
  const at::Tensor i = ints({12, 10, -3});
  expect_values(i & 6, at::kInt, ints({4, 2, 4}));
  expect_values(6 | i, at::kInt, ints({14, 14, -1}));
  expect_values(i ^ 1, at::kInt, ints({13, 11, -4}));
  expect_values(at::bitwise_and(3, ints({1, 2})), at::kInt, ints({1, 2}));
  expect_values(bools({1, 0, 1}) ^ 1, at::kLong, at::tensor({0, 1, 0}).to(at::kLong));
  expect_values(at::bitwise_and(ints({3}), at::tensor({int64_t{1}})), at::kLong,
                at::tensor({int64_t{1}}));
  expect_values(at::bitwise_and(ints({3}).to(at::kByte), ints({1}).to(at::kChar)), at::kShort,
                ints({1}).to(at::kShort));
  expect_values(at::bitwise_and(ints({3}).to(at::kByte), bools({1})), at::kByte,
                ints({1}).to(at::kByte));
  // Broadcasting.
  expect_values(ints({1}) & ints({1, 2, 3}).reshape({3, 1}), at::kInt,
                ints({1, 0, 1}).reshape({3, 1}));
}

TEST(BitwiseOps, InPlaceAndOut) {
  const at::Tensor i = ints({12, 10, -3}), j = ints({10, 6, 5});
  at::Tensor k = i.clone();
  at::Tensor& same = (k &= j);
  EXPECT_TRUE(same.is_same(k));
  expect_values(k, at::kInt, ints({8, 2, 5}));
  k |= ints({256});
  expect_values(k, at::kInt, ints({264, 258, 261}));
  const at::Tensor& itself = k;  // x ^= x, without clang's self-assignment warning
  k ^= itself;
  expect_values(k, at::kInt, ints({0, 0, 0}));
  expect_values(ints({1, 2}).bitwise_and_(3), at::kInt, ints({1, 2}));
  at::Tensor n = i.clone();
  n.bitwise_not_();
  expect_values(n, at::kInt, ints({-13, -11, 2}));

  at::Tensor out = at::empty({3}, at::kLong);
  at::Tensor& r = at::bitwise_and_out(out, i, j);
  EXPECT_TRUE(r.is_same(out));
  expect_values(out, at::kLong, at::tensor({8, 2, 5}).to(at::kLong));
  at::Tensor out_f = at::empty({3}, at::kFloat);  // computed in Int, cast to the out dtype
  at::bitwise_and_out(out_f, i, j);
  expect_values(out_f, at::kFloat, at::tensor({8.f, 2.f, 5.f}));
  at::Tensor out_s = at::empty({3}, at::kInt);
  at::bitwise_xor_out(out_s, i, 1);
  expect_values(out_s, at::kInt, ints({13, 11, -4}));
  at::bitwise_or_outf(6, i, out_s);
  expect_values(out_s, at::kInt, ints({14, 14, -1}));
  at::bitwise_not_out(out_s, i);
  expect_values(out_s, at::kInt, ints({-13, -11, 2}));
}

TEST(BitwiseOps, Errors) {
  const at::Tensor f = at::tensor({1.0f}), d = at::tensor({1.0});
  EXPECT_EQ(error_of([&] { at::bitwise_and(f, f); }),
            "\"bitwise_and_cpu\" not implemented for 'Float'");
  EXPECT_EQ(error_of([&] { at::bitwise_or(f, f); }),
            "\"bitwise_or_cpu\" not implemented for 'Float'");
  EXPECT_EQ(error_of([&] { at::bitwise_xor(d, d); }),
            "\"bitwise_xor_cpu\" not implemented for 'Double'");
  EXPECT_EQ(error_of([&] { at::bitwise_not(d); }),
            "\"bitwise_not_cpu\" not implemented for 'Double'");
  EXPECT_EQ(error_of([&] { at::bitwise_and(ints({1}), 1.5); }),
            "\"bitwise_and_cpu\" not implemented for 'Float'");
  EXPECT_EQ(error_of([&] { at::bitwise_and(ints({3}), f); }),
            "\"bitwise_and_cpu\" not implemented for 'Float'");
  EXPECT_EQ(error_of([&] { ints({5}).to(at::kShort).bitwise_and(7.0); }),
            "\"bitwise_and_cpu\" not implemented for 'Float'");
  const at::Tensor h = at::tensor({1.f}).to(at::kHalf);
  EXPECT_EQ(error_of([&] { h & h; }), "\"bitwise_and_cpu\" not implemented for 'Half'");
  EXPECT_EQ(error_of([&] { ~at::tensor({1.f}).to(at::kBFloat16); }),
            "\"bitwise_not_cpu\" not implemented for 'BFloat16'");
  EXPECT_THROW(at::bitwise_and(f, f), c10::Error);
  EXPECT_EQ(error_of([&] { ints({1, 2}).bitwise_and_(at::tensor({1.0f, 2.0f})); }),
            "result type Float can't be cast to the desired output type Int");
  EXPECT_EQ(error_of([&] { bools({1, 0, 1}).bitwise_or_(ints({1, 2, 3})); }),
            "result type Int can't be cast to the desired output type Bool");
  at::Tensor out = at::empty({3}, at::kLong);
  EXPECT_EQ(error_of([&] { at::bitwise_not_out(out, ints({1, 2, 3})); }),
            "Found dtype Long but expected Int");
}

}  // namespace
