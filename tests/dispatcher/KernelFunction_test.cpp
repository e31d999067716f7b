// KernelFunction owns its functor through an intrusive_ptr: every copy (the registration, each
// dispatch-table slot, retired tables) is one reference, and the last one frees it.

#include <gtest/gtest.h>

#include <memory>

#include "dispatcher/KernelFunction.h"

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

}  // namespace
