// libtorch's header paths through miniaten::torch_compat: all of them at once, and a few of the
// names a libtorch program expects each to give.
#include <gtest/gtest.h>

#include <type_traits>

#include "AllCompatHeaders.h"  // generated: one #include <libtorch path> per line of the map
// libtorch paths miniaten has under the same name:
#include <c10/util/CallOnce.h>
#include <c10/util/accumulate.h>

namespace {

TEST(CompatHeaders, LibtorchNamesResolveToMiniatens) {
  static_assert(std::is_same<torch::Tensor, at::Tensor>::value, "");
  static_assert(std::is_same<torch::jit::Stack, std::vector<c10::IValue>>::value, "");
  static_assert(std::is_same<at::DimVector, c10::SmallVector<int64_t, 5>>::value, "");
  EXPECT_EQ(at::Reduction::Mean, 1);
  EXPECT_EQ(c10::UndefinedTensorImpl::singleton(), at::Tensor().unsafeGetTensorImpl());
  c10::once_flag once;
  int calls = 0;
  for (int i = 0; i < 2; ++i) c10::call_once(once, [&] { ++calls; });
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(c10::multiply_integers(at::IntArrayRef({2, 3})), 6);
}

TEST(CompatHeaders, TorchFactoriesAndDispatcher) {
  torch::Tensor x = torch::ones({2}, torch::requires_grad());
  EXPECT_TRUE(x.requires_grad());
  EXPECT_TRUE(c10::Dispatcher::singleton().findSchema({"aten::add", "Tensor"}).has_value());
  EXPECT_FALSE(torch::cuda::is_available() && torch::cuda::device_count() == 0);
}

}  // namespace
