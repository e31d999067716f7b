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

TEST(Dispatch, ComplexFamilies) {
  using cf = c10::complex<float>;
  using cd = c10::complex<double>;
  auto complex = [](ScalarType t) {
    return AT_DISPATCH_COMPLEX_TYPES(t, "cx", [&] { return name_of<scalar_t>(); });
  };
  EXPECT_EQ(complex(ScalarType::ComplexFloat), name_of<cf>());
  EXPECT_EQ(complex(ScalarType::ComplexDouble), name_of<cd>());
  EXPECT_EQ(error_of([&] { complex(ScalarType::Float); }), "\"cx\" not implemented for 'Float'");
  auto complex_and = [](ScalarType t) {
    return AT_DISPATCH_COMPLEX_TYPES_AND(ScalarType::Half, t, "cx",
                                         [&] { return sizeof(scalar_t); });
  };
  EXPECT_EQ(complex_and(ScalarType::Half), 2u);

  auto all = [](ScalarType t) {
    return AT_DISPATCH_ALL_TYPES_AND_COMPLEX(t, "allc", [&] { return name_of<scalar_t>(); });
  };
  EXPECT_EQ(all(ScalarType::Int), name_of<int32_t>());
  EXPECT_EQ(all(ScalarType::ComplexDouble), name_of<cd>());
  EXPECT_EQ(error_of([&] { all(ScalarType::Bool); }), "\"allc\" not implemented for 'Bool'");
  auto all3 = [](ScalarType t) {
    return AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(ScalarType::Bool, ScalarType::Half,
                                                  ScalarType::BFloat16, t, "allc3",
                                                  [&] { return sizeof(scalar_t); });
  };
  EXPECT_EQ(all3(ScalarType::ComplexDouble), 16u);
  EXPECT_EQ(all3(ScalarType::BFloat16), 2u);
  EXPECT_EQ(AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND(ScalarType::Bool, ScalarType::Bool, "a1",
                                                  [&] { return sizeof(scalar_t); }),
            1u);
  EXPECT_EQ(AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND2(ScalarType::Bool, ScalarType::Half,
                                                   ScalarType::ComplexFloat, "a2",
                                                   [&] { return sizeof(scalar_t); }),
            8u);

  auto fc = [](ScalarType t) {
    return AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES(t, "fc", [&] { return name_of<scalar_t>(); });
  };
  EXPECT_EQ(fc(ScalarType::Double), name_of<double>());
  EXPECT_EQ(fc(ScalarType::ComplexFloat), name_of<cf>());
  EXPECT_EQ(error_of([&] { fc(ScalarType::Long); }), "\"fc\" not implemented for 'Long'");
  EXPECT_EQ(AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND1(ScalarType::Half, ScalarType::Half, "fc1",
                                                        [&] { return sizeof(scalar_t); }),
            2u);
  EXPECT_EQ(AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND2(ScalarType::Half, ScalarType::BFloat16,
                                                        ScalarType::BFloat16, "fc2",
                                                        [&] { return sizeof(scalar_t); }),
            2u);

  // The composable forms.
  auto pick = [](ScalarType t) {
    return AT_DISPATCH_SWITCH(t, "pickc",
                              AT_DISPATCH_CASE_FLOATING_AND_COMPLEX_TYPES_AND1(
                                  ScalarType::Half, [&] { return sizeof(scalar_t); }));
  };
  EXPECT_EQ(pick(ScalarType::ComplexDouble), 16u);
  EXPECT_EQ(pick(ScalarType::Half), 2u);
  EXPECT_EQ(error_of([&] { pick(ScalarType::Int); }), "\"pickc\" not implemented for 'Int'");
  auto every = [](ScalarType t) {
    return AT_DISPATCH_SWITCH(t, "every",
                              AT_DISPATCH_CASE_ALL_TYPES_AND_COMPLEX_AND3(
                                  ScalarType::Bool, ScalarType::Half, ScalarType::BFloat16,
                                  [&] { return sizeof(scalar_t); }));
  };
  EXPECT_EQ(every(ScalarType::ComplexFloat), 8u);
  EXPECT_EQ(every(ScalarType::Bool), 1u);
  auto only = [](ScalarType t) {
    return AT_DISPATCH_SWITCH(t, "only",
                              AT_DISPATCH_CASE_COMPLEX_TYPES([&] { return sizeof(scalar_t); }));
  };
  EXPECT_EQ(only(ScalarType::ComplexFloat), 8u);
  EXPECT_EQ(error_of([&] { only(ScalarType::Double); }), "\"only\" not implemented for 'Double'");
}

}  // namespace
