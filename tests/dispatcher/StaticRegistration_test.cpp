// The TORCH_LIBRARY macros, used exactly as libtorch code uses them.

#include <gtest/gtest.h>

#include "dispatcher/Library.h"
#include "tests/dispatcher/DispatcherTestUtil.h"

namespace {

at::Tensor identity(const at::Tensor& t) { return t; }
at::Tensor meta_identity(const at::Tensor& t) { return t; }

}  // namespace

TORCH_LIBRARY(statictest, m) {
  m.def("identity(Tensor self) -> Tensor");
  m.def("overloaded.scalar(Tensor self, Scalar s) -> Tensor");
}

TORCH_LIBRARY_FRAGMENT(statictest, m) { m.def("more(Tensor self) -> Tensor", &identity); }

TORCH_LIBRARY_IMPL(statictest, CPU, m) { m.impl("identity", TORCH_FN(identity)); }

TORCH_LIBRARY_IMPL(statictest, Meta, m) { m.impl("identity", &meta_identity); }

namespace {

TEST(StaticRegistration, MacrosRegisterAtLoadTime) {
  auto op = c10::Dispatcher::singleton().findSchemaOrThrow("statictest::identity", "");
  EXPECT_EQ(c10::toString(op.schema()), "statictest::identity(Tensor self) -> Tensor");
  EXPECT_TRUE(op.hasKernelForDispatchKey(c10::DispatchKey::CPU));
  EXPECT_TRUE(op.hasKernelForDispatchKey(c10::DispatchKey::Meta));
  at::Tensor t = test_util::tensor_for(c10::DispatchKey::CPU);
  EXPECT_TRUE(op.typed<at::Tensor(const at::Tensor&)>().call(t).is_same(t));
  // TORCH_FN remembers the function's name for the dumps and the trace.
  EXPECT_NE(op.dumpComputedTable().find("CPU: identity (registered at "), std::string::npos);
  auto more = c10::Dispatcher::singleton().findSchemaOrThrow("statictest::more", "");
  EXPECT_TRUE(more.typed<at::Tensor(const at::Tensor&)>().call(t).is_same(t));
  EXPECT_TRUE(
      c10::Dispatcher::singleton().findSchema({"statictest::overloaded", "scalar"}).has_value());
}

}  // namespace
