// KernelFunction owns its functor through an intrusive_ptr: every copy (the registration, each
// dispatch-table slot, retired tables) is one reference, and the last one frees it. Arguments
// the ABI passes in memory go down a chain of kernels by reference, each kernel still getting
// its own by-value copy (Note [Arguments by reference down the chain]).

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <type_traits>

#include "aten/core/Tensor.h"
#include "c10/core/AutoDispatchGuards.h"
#include "dispatcher/Dispatcher.h"
#include "dispatcher/KernelFunction.h"
#include "dispatcher/Library.h"
#include "tests/dispatcher/DispatcherTestUtil.h"

namespace {

TEST(KernelFunction, CopiesShareTheFunctorAndTheLastOneFreesIt) {
  auto state = std::make_shared<int64_t>(41);
  std::weak_ptr<int64_t> watch = state;
  c10::KernelFunction kernel =
      c10::KernelFunction::makeFromUnboxedLambda([state](int64_t x) { return x + *state; });
  state.reset();  // the lambda's copy is the only one left
  {
    c10::KernelFunction copy = kernel;
    EXPECT_FALSE(watch.expired());
  }
  // A fresh functor starts with one reference: dropping a copy must not free it under the
  // original (it once did, and a dispatch table then called a freed functor).
  EXPECT_FALSE(watch.expired());
  kernel = c10::KernelFunction();
  EXPECT_TRUE(watch.expired());
}

using c10::impl::unboxed_arg_t;
static_assert(std::is_same<unboxed_arg_t<int64_t>, int64_t>::value, "");
static_assert(std::is_same<unboxed_arg_t<c10::IntArrayRef>, c10::IntArrayRef>::value, "");
static_assert(std::is_same<unboxed_arg_t<c10::optional<c10::ScalarType>>,
                           c10::optional<c10::ScalarType>>::value,
              "an optional of 8 bytes or less still travels in a register");
static_assert(std::is_same<unboxed_arg_t<const at::Tensor&>, const at::Tensor&>::value, "");
static_assert(std::is_same<unboxed_arg_t<c10::optional<int64_t>>, c10::optional<int64_t>&&>::value,
              "");
static_assert(std::is_same<unboxed_arg_t<c10::optional<c10::IntArrayRef>>,
                           c10::optional<c10::IntArrayRef>&&>::value,
              "24 bytes: passed in memory");

using Sig = at::Tensor(const at::Tensor&, c10::optional<int64_t>, c10::optional<double>);

TEST(KernelFunction, ArgumentsPassedInMemoryAreEachKernelsOwnCopy) {
  const std::string name = test_util::unique_op();
  torch::Library def(torch::Library::FRAGMENT, "test", c10::nullopt, __FILE__, __LINE__);
  def.def(name + "(Tensor self, int? a, float? b) -> Tensor");
  c10::TypedOperatorHandle<Sig> op =
      c10::Dispatcher::singleton().findSchemaOrThrow(("test::" + name).c_str(), "").typed<Sig>();

  static std::string seen;
  seen.clear();
  auto show = [](c10::optional<int64_t> a, c10::optional<double> b) {
    return (a ? std::to_string(*a) : "None") + "," + (b ? std::to_string(*b) : "None");
  };
  torch::Library autograd(torch::Library::IMPL, "test", c10::DispatchKey::Autograd, __FILE__,
                          __LINE__);
  autograd.impl(name, [op, show](c10::DispatchKeySet ks, const at::Tensor& t,
                                 c10::optional<int64_t> a, c10::optional<double> b) {
    seen += "autograd(" + show(a, b) + ") ";
    a = *a + 1;  // its own copies: the caller's arguments stay as they were
    b.reset();
    at::AutoDispatchBelowADInplaceOrView guard;
    return op.redispatch(ks & c10::after_autograd_keyset, t, a, b);
  });
  torch::Library cpu(torch::Library::IMPL, "test", c10::DispatchKey::CPU, __FILE__, __LINE__);
  cpu.impl(name, [show](const at::Tensor& t, c10::optional<int64_t> a, c10::optional<double> b) {
    seen += "cpu(" + show(a, b) + ")";
    a = 100;
    return t;
  });

  c10::optional<int64_t> a = 5;
  c10::optional<double> b = 2.5;
  op.call(test_util::tensor_for(c10::DispatchKey::CPU), a, b);
  EXPECT_EQ(seen, "autograd(5,2.500000) cpu(6,None)");
  EXPECT_EQ(a, c10::optional<int64_t>(5));
  EXPECT_EQ(b, c10::optional<double>(2.5));
}

}  // namespace
