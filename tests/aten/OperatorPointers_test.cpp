// ATEN_FN / ATEN_FN2 name an operator's typed entry point as a function pointer.
#include <gtest/gtest.h>

#include <type_traits>

#include "aten/ATen.h"

namespace {

TEST(OperatorPointers, AtenFn) {
  auto* add = ATEN_FN2(add, Tensor);
  static_assert(std::is_same<decltype(add), at::Tensor (*)(const at::Tensor&, const at::Tensor&,
                                                            const at::Scalar&)>::value,
                "ATEN_FN2 is at::_ops::add_Tensor::call");
  const at::Tensor x = at::arange(3, at::kFloat);
  EXPECT_TRUE(add(x, x, 2).equal(at::tensor({0.f, 3.f, 6.f})));

  auto* contiguous = ATEN_FN(contiguous);
  const at::Tensor t = at::zeros({2, 3}).t();
  EXPECT_TRUE(contiguous(t, c10::MemoryFormat::Contiguous).is_contiguous());
  EXPECT_TRUE(ATEN_FN2(bitwise_and, Tensor)(at::tensor({6}), at::tensor({3}))
                  .equal(at::tensor({2})));
}

}  // namespace
