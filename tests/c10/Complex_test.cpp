// c10::complex and the complex Scalar; expected values read off libtorch 1.13.
#include <gtest/gtest.h>

#include <sstream>
#include <type_traits>

#include "c10/core/Scalar.h"
#include "c10/util/complex.h"
#include "TestUtils.h"

namespace {

using c10::complex;

template <class T>
std::string printed(const T& v) {
  std::ostringstream ss;
  ss << v;
  return ss.str();
}

using test_util::error_of;

TEST(Complex, LayoutIsTwoValuesAlignedAsAPair) {
  EXPECT_EQ(sizeof(complex<double>), 16u);
  EXPECT_EQ(alignof(complex<double>), 16u);
  EXPECT_EQ(alignof(complex<float>), 8u);
  complex<double> z(3, 4);
  EXPECT_EQ(reinterpret_cast<double*>(&z)[0], 3);
  EXPECT_EQ(reinterpret_cast<double*>(&z)[1], 4);
}

TEST(Complex, ArithmeticMixesWithRealsAndIntegers) {
  const complex<double> z(3, 4);
  EXPECT_EQ(z * 2, complex<double>(6, 8));
  EXPECT_EQ(2 * z, complex<double>(6, 8));
  EXPECT_EQ(z / z, complex<double>(1, 0));
  EXPECT_EQ(z + 1.5, complex<double>(4.5, 4));
  EXPECT_EQ(z - complex<double>(1, 1), complex<double>(2, 3));
  EXPECT_EQ(-z, complex<double>(-3, -4));
  EXPECT_EQ(z * complex<double>(0, 1), complex<double>(-4, 3));
  EXPECT_TRUE(complex<double>(2, 0) == 2.0);
  EXPECT_TRUE(z != complex<double>(3, -4));
  complex<double> widened = complex<float>(1.5f, -2.f);
  EXPECT_EQ(widened, complex<double>(1.5, -2));
}

TEST(Complex, DivisionIsLibtorchsTextbookFormula) {
  // libtorch 1.13: (a + bi) / (c + di) = ((ac + bd) + (bc - ad)i) / (c^2 + d^2), in T. So
  // (1, 0) / (0.1f, 0) is 0.1f / 0.01f = 9.99999905, not 1 / 0.1f = 10 (libtorch's value).
  const complex<float> q = complex<float>(1, 0) / complex<float>(0.1f, 0);
  EXPECT_EQ(q.real(), 9.99999905f);
  EXPECT_NE(q.real(), 1.f / 0.1f);
  EXPECT_EQ(q.imag(), 0.f);
  EXPECT_EQ(complex<float>(-0.5f, 3) / complex<float>(1, 1), complex<float>(1.25f, 1.75f));
  EXPECT_EQ(complex<double>(1, 2) / complex<double>(2, -1), complex<double>(0, 1));
}

TEST(Complex, StdFunctionsAsLibtorch) {
  const complex<double> z(3, 4);
  EXPECT_EQ(std::abs(z), 5);
  EXPECT_DOUBLE_EQ(std::arg(z), 0.9272952180016122);
  EXPECT_EQ(std::norm(z), 25);
  EXPECT_EQ(std::conj(z), complex<double>(3, -4));
  EXPECT_EQ(std::sqrt(z), complex<double>(2, 1));
  const auto e = std::exp(complex<double>(0, 1));
  EXPECT_DOUBLE_EQ(e.real(), std::cos(1.0));
  EXPECT_DOUBLE_EQ(e.imag(), std::sin(1.0));
  EXPECT_EQ(std::real(z), 3);
  EXPECT_EQ(std::imag(z), 4);
}

TEST(Complex, TraitsAsLibtorch) {
  static_assert(c10::is_complex<complex<float>>::value, "");
  static_assert(c10::is_complex<std::complex<double>>::value, "");
  static_assert(!c10::is_complex<double>::value, "");
  static_assert(std::is_same<c10::scalar_value_type<complex<double>>::type, double>::value, "");
  static_assert(std::is_same<c10::scalar_value_type<float>::type, float>::value, "");
}

TEST(Complex, PrintsAsStdComplex) {
  EXPECT_EQ(printed(complex<double>(2, -3)), "(2,-3)");
  EXPECT_EQ(printed(complex<float>(1.5f, -2.f)), "(1.5,-2)");
}

TEST(ComplexScalar, HoldsAComplexDouble) {
  const c10::Scalar s(complex<double>(3, 4));
  EXPECT_TRUE(s.isComplex());
  EXPECT_FALSE(s.isFloatingPoint());
  EXPECT_EQ(s.toComplexDouble(), complex<double>(3, 4));
  EXPECT_TRUE(s.equal(complex<double>(3, 4)));
  EXPECT_FALSE(s.equal(3.0));
  EXPECT_EQ(printed(s), "(3,4)");
  EXPECT_EQ((-s).toComplexDouble(), complex<double>(-3, -4));
  EXPECT_EQ(sizeof(c10::Scalar), 32u);  // as libtorch's
}

TEST(ComplexScalar, TypeIsComplexDouble) {
  // libtorch 1.13: a complex Scalar of either precision is ComplexDouble.
  EXPECT_EQ(c10::Scalar(complex<double>(1, 2)).type(), c10::kComplexDouble);
  EXPECT_EQ(c10::Scalar(complex<float>(1, 2)).type(), c10::kComplexDouble);
  EXPECT_EQ(printed(c10::Scalar(complex<double>(1.5, -2))), "(1.5,-2)");
  EXPECT_EQ(printed(c10::Scalar(complex<float>(1, 2))), "(1,2)");
  EXPECT_EQ(c10::Scalar(complex<double>(1.5, -2)).toComplexFloat(), complex<float>(1.5f, -2.f));
}

TEST(ComplexScalar, ConvertsLikeLibtorch) {
  EXPECT_EQ(c10::Scalar(2.5).toComplexDouble(), complex<double>(2.5, 0));
  EXPECT_EQ(c10::Scalar(int64_t(2)).toComplexDouble(), complex<double>(2, 0));
  EXPECT_TRUE(c10::Scalar(3.0).equal(complex<double>(3, 0)));
  // A zero imaginary part converts to a real type; any other overflows.
  EXPECT_EQ(c10::Scalar(complex<double>(3, 0)).toDouble(), 3);
  EXPECT_EQ(c10::Scalar(complex<double>(3, 0)).toLong(), 3);
  EXPECT_EQ(error_of([] { c10::Scalar(complex<double>(3, 4)).toDouble(); }),
            "value cannot be converted to type double without overflow");
}

}  // namespace
