// scalar_tensor, at::tensor, fill_ / zero_ (every dtype, views, errors) and item /
// _local_scalar_dense against libtorch 1.13.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "FactoriesTestUtils.h"

namespace {

using namespace factories_test;

// ---- scalar_tensor and at::tensor ---------------------------------------------------------

TEST(ScalarTensor, DefaultsToFloatWhateverTheScalar) {
  for (const at::Scalar& s : {at::Scalar(3), at::Scalar(2.5), at::Scalar(true)}) {
    at::Tensor t = at::scalar_tensor(s);
    EXPECT_EQ(t.dim(), 0);
    EXPECT_EQ(t.strides(), IntArrayRef({}));
    EXPECT_EQ(t.scalar_type(), at::kFloat);
    EXPECT_EQ(values(t), repeated(s.toDouble(), 1));
  }
  at::Tensor l = at::scalar_tensor(3, at::kLong);
  EXPECT_EQ(l.scalar_type(), at::kLong);
  EXPECT_EQ(values(l), repeated(3, 1));
  at::Tensor i = at::scalar_tensor(2.5, at::kInt);
  EXPECT_EQ(values(i), repeated(2, 1));
  EXPECT_ERROR_TEXT(at::scalar_tensor(300, at::kByte),
                    "value cannot be converted to type uint8_t without overflow");
  at::Tensor m = at::scalar_tensor(1, at::device(c10::kMeta));
  EXPECT_TRUE(m.is_meta());
  EXPECT_EQ(m.dim(), 0);
  EXPECT_EQ(m.scalar_type(), at::kFloat);
}

TEST(TensorFromValues, DtypeFollowsTheCppType) {
  at::Tensor i = at::tensor({1, 2, 3});
  EXPECT_EQ(i.scalar_type(), at::kInt);
  EXPECT_EQ(i.sizes(), IntArrayRef({3}));
  EXPECT_EQ(values(i), std::vector<double>({1, 2, 3}));
  at::Tensor d = at::tensor({1.5, 2.5});
  EXPECT_EQ(d.scalar_type(), at::kDouble);
  EXPECT_EQ(values(d), std::vector<double>({1.5, 2.5}));
  EXPECT_EQ(at::tensor({1.5f}).scalar_type(), at::kFloat);
  EXPECT_EQ(at::tensor({uint8_t(1)}).scalar_type(), at::kByte);
  EXPECT_EQ(at::tensor({int8_t(1)}).scalar_type(), at::kChar);
  EXPECT_EQ(at::tensor({int16_t(1)}).scalar_type(), at::kShort);
  at::Tensor v = at::tensor(std::vector<int64_t>{4, 5});
  EXPECT_EQ(v.scalar_type(), at::kLong);
  EXPECT_EQ(values(v), std::vector<double>({4, 5}));
  // A single value is a 1-element 1-d tensor, not a 0-dim one.
  at::Tensor one = at::tensor(int64_t(4));
  EXPECT_EQ(one.scalar_type(), at::kLong);
  EXPECT_EQ(one.sizes(), IntArrayRef({1}));
  EXPECT_EQ(at::tensor(7).scalar_type(), at::kInt);
  at::Tensor none = at::tensor(std::vector<double>{});
  EXPECT_EQ(none.sizes(), IntArrayRef({0}));
  EXPECT_EQ(none.strides(), IntArrayRef({1}));
  EXPECT_EQ(none.scalar_type(), at::kDouble);
  EXPECT_EQ(i._version(), 0);
}

TEST(TensorFromValues, WithOptions) {
  at::Tensor f = at::tensor({1, 2, 3}, at::kFloat);
  EXPECT_EQ(f.scalar_type(), at::kFloat);
  EXPECT_EQ(values(f), std::vector<double>({1, 2, 3}));
  // static_cast semantics: truncation toward zero, modular wrap into uint8.
  EXPECT_EQ(values(at::tensor({1.5, 2.7, -1.5}, at::kInt)), std::vector<double>({1, 2, -1}));
  EXPECT_EQ(values(at::tensor({300, -1}, at::kByte)), std::vector<double>({44, 255}));
  // Options that name no dtype mean Float.
  EXPECT_EQ(at::tensor({1, 2}, at::TensorOptions()).scalar_type(), at::kFloat);
  at::Tensor m = at::tensor({1, 2}, at::device(c10::kMeta));
  EXPECT_TRUE(m.is_meta());
  EXPECT_EQ(m.scalar_type(), at::kFloat);
  EXPECT_EQ(m.sizes(), IntArrayRef({2}));
  EXPECT_ERROR_TEXT(
      at::tensor({1, 2}, at::TensorOptions().requires_grad(true)),
      "Operators taking TensorOptions cannot take a TensorOptions with options.requires_grad "
      "set as true. This isn't implemented yet.");
}

TEST(TensorFromValues, BoolHalfBFloat16AreAMiniatenExtension) {
  // libtorch 1.13 declares these overloads but its tensor_cpu does not dispatch on the types:
  // "\"tensor_cpu\" not implemented for 'Bool'" (and 'Half', 'BFloat16'). miniaten builds them.
  at::Tensor b = at::tensor({true, false});
  EXPECT_EQ(b.scalar_type(), at::kBool);
  EXPECT_EQ(values(b), std::vector<double>({1, 0}));
  EXPECT_EQ(values(at::tensor({0.0, 0.5, 2.0}, at::kBool)), std::vector<double>({0, 1, 1}));
  at::Tensor h = at::tensor({c10::Half(1.5f)});
  EXPECT_EQ(h.scalar_type(), at::kHalf);
  EXPECT_EQ(values(h), std::vector<double>({1.5}));
  EXPECT_EQ(values(at::tensor({1.1, 2.2}, at::kHalf)),
            std::vector<double>({1.099609375, 2.19921875}));
  EXPECT_EQ(at::tensor({c10::BFloat16(1.5f)}).scalar_type(), at::kBFloat16);
}

// ---- fill_ and zero_ ----------------------------------------------------------------------

TEST(Fill, NonContiguousViewReturnsSelfAndBumpsTheVersion) {
  at::Tensor base = at::zeros({3, 4});
  at::Tensor view = make_view(base, {2, 2}, {4, 2}, /*storage_offset=*/1);
  EXPECT_EQ(view._version(), 0);
  const at::Tensor& result = view.fill_(5);
  EXPECT_TRUE(result.is_same(view));
  EXPECT_EQ(view._version(), 1);
  EXPECT_EQ(values(base), std::vector<double>({0, 5, 0, 5, 0, 5, 0, 5, 0, 0, 0, 0}));
  at::Tensor& same = at::fill_(view, 6);
  EXPECT_TRUE(same.is_same(view));
  EXPECT_EQ(view._version(), 2);
  EXPECT_EQ(values(view), repeated(6, 4));
}

struct FillCase {
  const char* name;
  ScalarType dtype;
  at::Scalar value;
  double expected;            // when it fits
  const char* overflow_type;  // when it does not: the type named in the error
};

const FillCase kFillCases[] = {
    {"ByteMinusOneWraps", at::kByte, -1, 255, nullptr},
    {"Byte255", at::kByte, 255, 255, nullptr},
    {"Byte256", at::kByte, 256, 0, "uint8_t"},
    {"Byte300", at::kByte, 300, 0, "uint8_t"},
    {"ByteMinus256", at::kByte, -256, 0, "uint8_t"},
    {"Byte300Point5", at::kByte, 300.5, 0, "uint8_t"},
    {"ByteMinus1Point5", at::kByte, -1.5, 0, "uint8_t"},
    {"Char200", at::kChar, 200, 0, "int8_t"},
    {"CharMinus129", at::kChar, -129, 0, "int8_t"},
    {"CharMinus128", at::kChar, -128, -128, nullptr},
    {"Short40000", at::kShort, 40000, 0, "int16_t"},
    {"ShortMin", at::kShort, -32768, -32768, nullptr},
    {"Int2Point9Truncates", at::kInt, 2.9, 2, nullptr},
    {"IntTrue", at::kInt, true, 1, nullptr},
    {"Long9Point2e18", at::kLong, 9.2e18, 9.2e18, nullptr},
    {"Long1e19", at::kLong, 1e19, 0, "int64_t"},
    {"BoolTwo", at::kBool, 2, 1, nullptr},
    {"BoolMinusOne", at::kBool, -1, 1, nullptr},
    {"BoolHalf", at::kBool, 0.5, 1, nullptr},
    {"Half65504", at::kHalf, 65504, 65504, nullptr},
    {"HalfInfinity", at::kHalf, kInf, kInf, nullptr},
    {"HalfNaN", at::kHalf, kNaN, kNaN, nullptr},
    {"FloatBigInt", at::kFloat, int64_t(1) << 62, 4.6116860184273879e+18, nullptr},
    {"Float1e300", at::kFloat, 1e300, 0, "float"},
    {"Double1e300", at::kDouble, 1e300, 1e300, nullptr},
};

class FillTest : public ::testing::TestWithParam<FillCase> {};

TEST_P(FillTest, ValueOrOverflowError) {
  const FillCase& c = GetParam();
  at::Tensor t = at::zeros({2}, c.dtype);
  EXPECT_EQ(t._version(), 1);
  if (c.overflow_type == nullptr) {
    EXPECT_TRUE(t.fill_(c.value).is_same(t));
    expect_same_values(values(t), repeated(c.expected, 2));
    EXPECT_EQ(t._version(), 2);
  } else {
    EXPECT_EQ(
        error_of([&] { t.fill_(c.value); }),
        std::string("value cannot be converted to type ") + c.overflow_type + " without overflow");
    EXPECT_EQ(values(t), repeated(0, 2));
    EXPECT_EQ(t._version(), 1);  // a failed fill_ is not a write
  }
}

INSTANTIATE_TEST_SUITE_P(Values, FillTest, ::testing::ValuesIn(kFillCases),
                         [](const ::testing::TestParamInfo<FillCase>& info) {
                           return std::string(info.param.name);
                         });

// libtorch names these types "int", "at::Half" and "at::BFloat16", and checks integer sources
// against Half's range too. Both live in c10::Scalar::to (c10/core/Scalar.h); enable this test
// when it matches.
TEST(Fill, OverflowTypeNamesAsLibtorch) {
  auto fill_error = [](ScalarType dtype, const at::Scalar& v) {
    return error_of([&] { at::zeros({2}, dtype).fill_(v); });
  };
  EXPECT_EQ(fill_error(at::kInt, int64_t(1) << 40),
            "value cannot be converted to type int without overflow");
  EXPECT_EQ(fill_error(at::kInt, 1e10), "value cannot be converted to type int without overflow");
  EXPECT_EQ(fill_error(at::kInt, kNaN), "value cannot be converted to type int without overflow");
  EXPECT_EQ(fill_error(at::kHalf, 70000),
            "value cannot be converted to type at::Half without overflow");
  EXPECT_EQ(fill_error(at::kHalf, 65520.),
            "value cannot be converted to type at::Half without overflow");
  EXPECT_EQ(fill_error(at::kHalf, 1e300),
            "value cannot be converted to type at::Half without overflow");
  EXPECT_EQ(fill_error(at::kBFloat16, 3.5e38),
            "value cannot be converted to type at::BFloat16 without overflow");
}

TEST(Fill, WithAZeroDimTensor) {
  at::Tensor t = at::zeros({2, 3});
  at::Tensor v = at::full({}, 2.5, at::kDouble);
  EXPECT_TRUE(t.fill_(v).is_same(t));
  EXPECT_EQ(values(t), repeated(2.5, 6));
  EXPECT_EQ(t._version(), 2);
  EXPECT_EQ(v._version(), 1);  // the value is only read
  // The value converts as a Scalar would: truncated, and checked for overflow.
  at::Tensor i = at::zeros({2}, at::kInt);
  at::fill_(i, at::scalar_tensor(2.7));
  EXPECT_EQ(values(i), repeated(2, 2));
  at::fill_(i, at::scalar_tensor(300., at::kDouble));
  EXPECT_EQ(values(i), repeated(300, 2));
  at::Tensor b = at::zeros({2}, at::kByte);
  EXPECT_ERROR_TEXT(b.fill_(at::scalar_tensor(300, at::kLong)),
                    "value cannot be converted to type uint8_t without overflow");
  b.fill_(at::scalar_tensor(-1, at::kLong));
  EXPECT_EQ(values(b), repeated(255, 2));
  b.fill_(at::ones({}, at::kBool));
  EXPECT_EQ(values(b), repeated(1, 2));
  EXPECT_EQ(b._version(), 3);
  // A tensor filled from itself.
  at::Tensor self = at::full({}, 4.);
  EXPECT_TRUE(self.fill_(self).is_same(self));
  EXPECT_EQ(values(self), repeated(4, 1));
}

TEST(Fill, OnlyZeroDimValueTensors) {
  at::Tensor t = at::zeros({2}, at::kByte);
  EXPECT_ERROR_TEXT(
      t.fill_(at::ones({1})),
      "fill_ only supports 0-dimension value tensor but got tensor with 1 dimensions.");
  EXPECT_ERROR_TEXT(
      t.fill_(at::ones({2, 3})),
      "fill_ only supports 0-dimension value tensor but got tensor with 2 dimensions.");
  at::Tensor m = at::empty({2, 3}, at::device(c10::kMeta));
  EXPECT_ERROR_TEXT(
      m.fill_(at::ones({2})),
      "fill_ only supports 0-dimension value tensor but got tensor with 1 dimensions.");
  EXPECT_EQ(values(t), repeated(0, 2));
}

TEST(Fill, MetaTensorsCountWritesButHoldNothing) {
  at::Tensor m = at::empty({2, 3}, at::device(c10::kMeta));
  EXPECT_TRUE(m.fill_(1).is_same(m));
  EXPECT_EQ(m._version(), 1);
  EXPECT_TRUE(m.zero_().is_same(m));
  EXPECT_EQ(m._version(), 2);
  EXPECT_TRUE(m.fill_(at::scalar_tensor(1)).is_same(m));
  EXPECT_EQ(m.data_ptr(), nullptr);
}

TEST(Zero, NonContiguousViewReturnsSelf) {
  at::Tensor base = at::ones({3, 4});
  at::Tensor view = make_view(base, {3, 2}, {4, 2});
  const at::Tensor& result = view.zero_();
  EXPECT_TRUE(result.is_same(view));
  EXPECT_EQ(view._version(), 1);
  EXPECT_EQ(values(base), std::vector<double>({0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1}));
  EXPECT_TRUE(at::zero_(base).is_same(base));
  EXPECT_EQ(base._version(), 2);
  EXPECT_EQ(values(base), repeated(0, 12));
}

TEST(Versions, OfFreshTensors) {
  // What libtorch reports for a tensor straight out of each factory: the composites that fill
  // through an in-place op count that write.
  EXPECT_EQ(at::empty({2})._version(), 0);
  EXPECT_EQ(at::empty_strided({2}, {1})._version(), 0);
  EXPECT_EQ(at::empty_like(at::ones({2}))._version(), 0);
  EXPECT_EQ(at::tensor({1, 2})._version(), 0);
  EXPECT_EQ(at::zeros({2})._version(), 1);
  EXPECT_EQ(at::ones({2})._version(), 1);
  EXPECT_EQ(at::full({2}, 1)._version(), 1);
  EXPECT_EQ(at::arange(3)._version(), 1);
  EXPECT_EQ(at::zeros({2}, at::device(c10::kMeta))._version(), 1);
}

// ---- item and _local_scalar_dense ---------------------------------------------------------

TEST(Item, NeedsExactlyOneElement) {
  EXPECT_ERROR_TEXT(at::ones({2, 3}).item(),
                    "a Tensor with 6 elements cannot be converted to Scalar");
  EXPECT_ERROR_TEXT(at::ones({0}).item(), "a Tensor with 0 elements cannot be converted to Scalar");
  // Any shape with one element will do, and a view reads at its offset.
  EXPECT_EQ(at::full({1, 1, 1}, -5, at::kChar).item().toLong(), -5);
  at::Tensor base = at::zeros({2, 3});
  base.data_ptr<float>()[4] = 9;
  EXPECT_EQ(make_view(base, {1}, {1}, 4).item().toDouble(), 9);
  // _local_scalar_dense does not check: it reads the first element.
  EXPECT_EQ(at::_local_scalar_dense(at::arange(1, 4)).toLong(), 1);
}

struct ItemCase {
  ScalarType dtype;
  at::Scalar fill;
  ScalarType scalar_type;  // of the Scalar item() returns
  double value;
};

const ItemCase kItemCases[] = {
    {at::kByte, 200, at::kLong, 200},
    {at::kChar, -5, at::kLong, -5},
    {at::kShort, 3, at::kLong, 3},
    {at::kInt, 3, at::kLong, 3},
    {at::kLong, int64_t(1) << 40, at::kLong, 1099511627776.0},
    {at::kHalf, 1.1, at::kDouble, 1.099609375},
    {at::kBFloat16, 1.1, at::kDouble, 1.1015625},
    {at::kFloat, 1.1, at::kDouble, 1.1000000238418579},
    {at::kDouble, 1.1, at::kDouble, 1.1000000000000001},
    {at::kBool, true, at::kBool, 1},
};

class ItemTest : public ::testing::TestWithParam<ItemCase> {};

TEST_P(ItemTest, ScalarKindAndValue) {
  const ItemCase& c = GetParam();
  at::Tensor t = at::full({1, 1}, c.fill, c.dtype);
  const at::Scalar s = t.item();
  EXPECT_EQ(s.type(), c.scalar_type);
  EXPECT_EQ(s.isFloatingPoint(), c.scalar_type == at::kDouble);
  EXPECT_EQ(s.isIntegral(/*includeBool=*/false), c.scalar_type == at::kLong);
  EXPECT_EQ(s.isBoolean(), c.scalar_type == at::kBool);
  EXPECT_EQ(s.toDouble(), c.value);
  const at::Scalar dense = at::_local_scalar_dense(t);
  EXPECT_EQ(dense.type(), c.scalar_type);
  EXPECT_EQ(dense.toDouble(), c.value);
}

INSTANTIATE_TEST_SUITE_P(Dtypes, ItemTest, ::testing::ValuesIn(kItemCases),
                         [](const ::testing::TestParamInfo<ItemCase>& info) {
                           return std::string(c10::toString(info.param.dtype));
                         });

}  // namespace
