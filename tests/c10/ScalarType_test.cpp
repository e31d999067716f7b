// ScalarType and caffe2::TypeMeta, checked against tables written out from libtorch 1.13.

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <type_traits>

#include "c10/core/ScalarType.h"
#include "c10/util/typeid.h"

namespace {

using c10::ScalarType;

// The ten types, in the row/column order of the tables below.
constexpr ScalarType kAll[] = {c10::kByte, c10::kChar,  c10::kShort,  c10::kInt,  c10::kLong,
                               c10::kHalf, c10::kFloat, c10::kDouble, c10::kBool, c10::kBFloat16};

template <typename T>
std::string printed(const T& value) {
  std::ostringstream ss;
  ss << value;
  return ss.str();
}

TEST(ScalarTypeTest, EnumValuesAreLibtorchs) {
  EXPECT_EQ(static_cast<int>(c10::kByte), 0);
  EXPECT_EQ(static_cast<int>(c10::kChar), 1);
  EXPECT_EQ(static_cast<int>(c10::kShort), 2);
  EXPECT_EQ(static_cast<int>(c10::kInt), 3);
  EXPECT_EQ(static_cast<int>(c10::kLong), 4);
  EXPECT_EQ(static_cast<int>(c10::kHalf), 5);
  EXPECT_EQ(static_cast<int>(c10::kFloat), 6);
  EXPECT_EQ(static_cast<int>(c10::kDouble), 7);
  EXPECT_EQ(static_cast<int>(c10::kBool), 11);
  EXPECT_EQ(static_cast<int>(c10::kBFloat16), 15);
  EXPECT_EQ(static_cast<int>(ScalarType::Undefined), 18);
  EXPECT_EQ(static_cast<int>(ScalarType::NumOptions), 19);
  EXPECT_EQ(sizeof(ScalarType), 1u);
  EXPECT_EQ(at::kFloat, ScalarType::Float);
  static_assert(std::is_same<at::ScalarType, c10::ScalarType>::value, "");
}

TEST(ScalarTypeTest, NamesAndPrinting) {
  const char* names[] = {"Byte", "Char",  "Short",  "Int",  "Long",
                         "Half", "Float", "Double", "Bool", "BFloat16"};
  for (int i = 0; i < 10; ++i) {
    EXPECT_STREQ(c10::toString(kAll[i]), names[i]);
    EXPECT_EQ(printed(kAll[i]), names[i]);
  }
  // libtorch has no name for Undefined either.
  EXPECT_STREQ(at::toString(ScalarType::Undefined), "UNKNOWN_SCALAR");
  EXPECT_EQ(printed(ScalarType::Undefined), "UNKNOWN_SCALAR");
}

TEST(ScalarTypeTest, ElementSize) {
  const size_t sizes[] = {1, 1, 2, 4, 8, 2, 4, 8, 1, 2};
  for (int i = 0; i < 10; ++i) {
    SCOPED_TRACE(c10::toString(kAll[i]));
    EXPECT_EQ(c10::elementSize(kAll[i]), sizes[i]);
  }
  try {
    c10::elementSize(ScalarType::Undefined);
    FAIL() << "expected c10::Error";
  } catch (const c10::Error& e) {
    EXPECT_EQ(e.msg(), "Unknown ScalarType");
  }
}

TEST(ScalarTypeTest, Categories) {
  struct Row {
    ScalarType t;
    bool integral, integral_or_bool, floating, reduced, is_signed;
  };
  const Row rows[] = {
      {c10::kByte, true, true, false, false, false},
      {c10::kChar, true, true, false, false, true},
      {c10::kShort, true, true, false, false, true},
      {c10::kInt, true, true, false, false, true},
      {c10::kLong, true, true, false, false, true},
      {c10::kHalf, false, false, true, true, true},
      {c10::kFloat, false, false, true, false, true},
      {c10::kDouble, false, false, true, false, true},
      {c10::kBool, false, true, false, false, false},
      {c10::kBFloat16, false, false, true, true, true},
  };
  for (const Row& r : rows) {
    SCOPED_TRACE(c10::toString(r.t));
    EXPECT_EQ(c10::isIntegralType(r.t, /*includeBool=*/false), r.integral);
    EXPECT_EQ(c10::isIntegralType(r.t, /*includeBool=*/true), r.integral_or_bool);
    EXPECT_EQ(c10::isFloatingType(r.t), r.floating);
    EXPECT_EQ(c10::isReducedFloatingType(r.t), r.reduced);
    EXPECT_EQ(c10::isSignedType(r.t), r.is_signed);
    EXPECT_FALSE(c10::isComplexType(r.t));
  }
  EXPECT_FALSE(c10::isIntegralType(ScalarType::Undefined, true));
  EXPECT_FALSE(c10::isFloatingType(ScalarType::Undefined));
  EXPECT_THROW(c10::isSignedType(ScalarType::Undefined), c10::Error);
}

TEST(ScalarTypeTest, PromoteTypesMatchesLibtorch) {
  constexpr auto u1 = c10::kByte;
  constexpr auto i1 = c10::kChar;
  constexpr auto i2 = c10::kShort;
  constexpr auto i4 = c10::kInt;
  constexpr auto i8 = c10::kLong;
  constexpr auto f2 = c10::kHalf;
  constexpr auto f4 = c10::kFloat;
  constexpr auto f8 = c10::kDouble;
  constexpr auto b1 = c10::kBool;
  constexpr auto bf = c10::kBFloat16;
  // Printed by libtorch 1.13's c10::promoteTypes over these ten types.
  const ScalarType expected[10][10] = {
      /*        u1  i1  i2  i4  i8  f2  f4  f8  b1  bf */
      /* u1 */ {u1, i2, i2, i4, i8, f2, f4, f8, u1, bf},
      /* i1 */ {i2, i1, i2, i4, i8, f2, f4, f8, i1, bf},
      /* i2 */ {i2, i2, i2, i4, i8, f2, f4, f8, i2, bf},
      /* i4 */ {i4, i4, i4, i4, i8, f2, f4, f8, i4, bf},
      /* i8 */ {i8, i8, i8, i8, i8, f2, f4, f8, i8, bf},
      /* f2 */ {f2, f2, f2, f2, f2, f2, f4, f8, f2, f4},
      /* f4 */ {f4, f4, f4, f4, f4, f4, f4, f8, f4, f4},
      /* f8 */ {f8, f8, f8, f8, f8, f8, f8, f8, f8, f8},
      /* b1 */ {u1, i1, i2, i4, i8, f2, f4, f8, b1, bf},
      /* bf */ {bf, bf, bf, bf, bf, f4, f4, f8, bf, bf},
  };
  for (int i = 0; i < 10; ++i) {
    for (int j = 0; j < 10; ++j) {
      EXPECT_EQ(c10::promoteTypes(kAll[i], kAll[j]), expected[i][j]) << kAll[i] << " + " << kAll[j];
      EXPECT_EQ(c10::promoteTypes(kAll[j], kAll[i]), expected[i][j]) << "not symmetric";
    }
    EXPECT_EQ(c10::promoteTypes(kAll[i], ScalarType::Undefined), ScalarType::Undefined);
    EXPECT_EQ(c10::promoteTypes(ScalarType::Undefined, kAll[i]), ScalarType::Undefined);
  }
  EXPECT_EQ(at::promoteTypes(ScalarType::Undefined, ScalarType::Undefined), ScalarType::Undefined);
}

TEST(ScalarTypeTest, CanCastMatchesLibtorch) {
  // Row: from, column: to, in kAll order. Floating -> integral and non-bool -> bool are refused.
  const char* expected[10] = {
      "1111111101",  // Byte
      "1111111101",  // Char
      "1111111101",  // Short
      "1111111101",  // Int
      "1111111101",  // Long
      "0000011101",  // Half
      "0000011101",  // Float
      "0000011101",  // Double
      "1111111111",  // Bool
      "0000011101",  // BFloat16
  };
  for (int i = 0; i < 10; ++i) {
    for (int j = 0; j < 10; ++j) {
      EXPECT_EQ(c10::canCast(kAll[i], kAll[j]), expected[i][j] == '1')
          << kAll[i] << " -> " << kAll[j];
    }
  }
}

TEST(ScalarTypeTest, CppTypeMapping) {
  static_assert(c10::CppTypeToScalarType<float>::value == c10::kFloat, "");
  static_assert(c10::CppTypeToScalarType<int64_t>::value == c10::kLong, "");
  static_assert(c10::CppTypeToScalarType<c10::Half>::value == c10::kHalf, "");
  static_assert(at::CppTypeToScalarType<bool>::value == at::kBool, "");
  static_assert(std::is_same<c10::impl::ScalarTypeToCPPTypeT<c10::kChar>, int8_t>::value, "");
  static_assert(std::is_same<c10::impl::ScalarTypeToCPPTypeT<c10::kBFloat16>, c10::BFloat16>::value,
                "");

  // The X-macro lists every type once, in enum order, each mapping both ways.
  int count = 0;
  int previous = -1;
#define CHECK_ONE(cpp_type, name)                                                                  \
  EXPECT_EQ(c10::CppTypeToScalarType<cpp_type>::value, ScalarType::name);                          \
  EXPECT_TRUE((std::is_same<c10::impl::ScalarTypeToCPPTypeT<ScalarType::name>, cpp_type>::value)); \
  EXPECT_EQ(c10::elementSize(ScalarType::name), sizeof(cpp_type));                                 \
  EXPECT_LT(previous, static_cast<int>(ScalarType::name));                                         \
  previous = static_cast<int>(ScalarType::name);                                                   \
  ++count;
  C10_FORALL_SCALAR_TYPES(CHECK_ONE)
#undef CHECK_ONE
  EXPECT_EQ(count, 10);
}

TEST(TypeMetaTest, NamesAndSizesMatchLibtorch) {
  using caffe2::TypeMeta;
  const char* names[] = {"unsigned char", "signed char", "short int", "int",  "long int",
                         "c10::Half",     "float",       "double",    "bool", "c10::BFloat16"};
  for (int i = 0; i < 10; ++i) {
    const TypeMeta m = TypeMeta::fromScalarType(kAll[i]);
    EXPECT_EQ(m.name(), names[i]);
    EXPECT_EQ(printed(m), names[i]);
    EXPECT_EQ(m.itemsize(), c10::elementSize(kAll[i]));
    EXPECT_EQ(m.toScalarType(), kAll[i]);
  }
  EXPECT_EQ(TypeMeta::Make<int64_t>().name(), "long int");
  EXPECT_EQ(TypeMeta::Make<c10::Half>().itemsize(), 2u);
}

TEST(TypeMetaTest, DefaultIsUndefined) {
  const caffe2::TypeMeta m;
  EXPECT_EQ(m.name(), "nullptr (uninitialized)");
  EXPECT_EQ(m.itemsize(), 0u);
  EXPECT_EQ(m.toScalarType(), ScalarType::Undefined);
  EXPECT_TRUE(m == ScalarType::Undefined);
}

TEST(TypeMetaTest, Equality) {
  using caffe2::TypeMeta;
  const TypeMeta f = TypeMeta::Make<float>();
  EXPECT_TRUE(f == TypeMeta::fromScalarType(c10::kFloat));
  EXPECT_TRUE(f != TypeMeta::Make<double>());
  EXPECT_FALSE(f == TypeMeta::Make<double>());
  EXPECT_TRUE(f == c10::kFloat);
  EXPECT_TRUE(c10::kFloat == f);
  EXPECT_TRUE(f != c10::kLong);
  EXPECT_TRUE(c10::kLong != f);
  EXPECT_FALSE(f == c10::kHalf);
  EXPECT_TRUE(f.Match<float>());
  EXPECT_FALSE(f.Match<int>());
  EXPECT_TRUE(f.isScalarType(c10::kFloat));

  TypeMeta m;
  m = c10::kBool;
  EXPECT_EQ(m, TypeMeta::Make<bool>());
  EXPECT_EQ(at::typeMetaToScalarType(at::scalarTypeToTypeMeta(c10::kShort)), c10::kShort);
  EXPECT_EQ(c10::scalarTypeToTypeMeta(c10::kBFloat16), TypeMeta::Make<c10::BFloat16>());
}

}  // namespace
