// AT_DISPATCH_*: which C++ type each macro binds to scalar_t (or index_t) for each dtype, and
// libtorch's text for a dtype outside the family.
#include <gtest/gtest.h>

#include <string>
#include <typeinfo>

#include "aten/ATen.h"
#include "aten/Dispatch.h"
#include "tests/TestUtils.h"

namespace {

using c10::ScalarType;
using test_util::error_of;

template <typename T>
std::string name_of() {
  return typeid(T).name();
}

TEST(Dispatch, ClassicFamilies) {
  auto all = [](ScalarType t) {
    return AT_DISPATCH_ALL_TYPES(t, "all", [&] { return name_of<scalar_t>(); });
  };
  EXPECT_EQ(all(ScalarType::Byte), name_of<uint8_t>());
  EXPECT_EQ(all(ScalarType::Long), name_of<int64_t>());
  EXPECT_EQ(all(ScalarType::Double), name_of<double>());
  EXPECT_EQ(error_of([&] { all(ScalarType::Half); }), "\"all\" not implemented for 'Half'");
  EXPECT_EQ(error_of([&] { all(ScalarType::Bool); }), "\"all\" not implemented for 'Bool'");

  auto floating = [](ScalarType t) {
    return AT_DISPATCH_FLOATING_TYPES_AND2(ScalarType::Half, ScalarType::BFloat16, t, "fl",
                                           [&] { return name_of<scalar_t>(); });
  };
  EXPECT_EQ(floating(ScalarType::BFloat16), name_of<c10::BFloat16>());
  EXPECT_EQ(error_of([&] { floating(ScalarType::Int); }), "\"fl\" not implemented for 'Int'");

  int bound = 0;
  AT_DISPATCH_INTEGRAL_TYPES_AND(ScalarType::Bool, ScalarType::Bool, "int_and",
                                 [&] { bound = sizeof(scalar_t); });
  EXPECT_EQ(bound, 1);
}

TEST(Dispatch, SwitchAndCases) {
  auto pick = [](ScalarType t) {
    return AT_DISPATCH_SWITCH(t, "pick",
                              AT_DISPATCH_CASE_FLOATING_TYPES([&] { return name_of<scalar_t>(); })
                                  AT_DISPATCH_CASE(ScalarType::Long, [&] { return std::string("L"); }));
  };
  EXPECT_EQ(pick(ScalarType::Float), name_of<float>());
  EXPECT_EQ(pick(ScalarType::Long), "L");
  EXPECT_EQ(error_of([&] { pick(ScalarType::Int); }), "\"pick\" not implemented for 'Int'");

  auto half = [](ScalarType t) {
    return AT_DISPATCH_FLOATING_TYPES_AND_HALF(t, "h", [&] { return name_of<scalar_t>(); });
  };
  EXPECT_EQ(half(ScalarType::Half), name_of<c10::Half>());
  auto all3 = [](ScalarType t) {
    return AT_DISPATCH_SWITCH(t, "all3",
                              AT_DISPATCH_CASE_ALL_TYPES_AND3(ScalarType::Bool, ScalarType::Half,
                                                              ScalarType::BFloat16,
                                                              [&] { return sizeof(scalar_t); }));
  };
  EXPECT_EQ(all3(ScalarType::Short), 2u);
  EXPECT_EQ(all3(ScalarType::Bool), 1u);

  auto index = [](ScalarType t) {
    return AT_DISPATCH_INDEX_TYPES(t, "idx", [&] { return sizeof(index_t); });
  };
  EXPECT_EQ(index(ScalarType::Int), 4u);
  EXPECT_EQ(index(ScalarType::Long), 8u);
  EXPECT_EQ(error_of([&] { index(ScalarType::Short); }), "\"idx\" not implemented for 'Short'");
}

}  // namespace
