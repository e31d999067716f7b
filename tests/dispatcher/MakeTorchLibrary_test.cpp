// Library as a value (MAKE_TORCH_LIBRARY, MAKE_TORCH_LIBRARY_IMPL), torch::schema and the alias
// analysis kind each way of defining an operator gives it, CatchAll as "no dispatch key", and
// kernels registered for a DeviceType.

#include <gtest/gtest.h>

#include <string>

#include "dispatcher/Dispatcher.h"
#include "dispatcher/Library.h"
#include "dispatcher/SchemaParser.h"
#include "tests/TestUtils.h"
#include "tests/dispatcher/DispatcherTestUtil.h"

namespace {

using c10::AliasAnalysisKind;
using c10::Dispatcher;
using c10::DispatchKey;

const c10::FunctionSchema& schema_of(const char* name) {
  return Dispatcher::singleton().findSchema({name, ""})->schema();
}

TEST(MakeTorchLibrary, SchemaTextIsFromSchemaAndParsedSchemasKeepTheDefault) {
  auto m = MAKE_TORCH_LIBRARY(makelib_alias);
  m.def("text(Tensor self) -> Tensor");
  m.def(torch::schema("wrapped(Tensor self) -> Tensor"));
  m.def(torch::schema("pure(Tensor self) -> Tensor", AliasAnalysisKind::PURE_FUNCTION));
  m.def(torch::jit::parseSchema("parsed(Tensor self) -> Tensor"));
  m.def("with_fn(Tensor self) -> Tensor", [](const at::Tensor& t) { return t; });

  EXPECT_EQ(schema_of("makelib_alias::text").aliasAnalysis(), AliasAnalysisKind::FROM_SCHEMA);
  EXPECT_EQ(schema_of("makelib_alias::wrapped").aliasAnalysis(), AliasAnalysisKind::FROM_SCHEMA);
  EXPECT_EQ(schema_of("makelib_alias::pure").aliasAnalysis(), AliasAnalysisKind::PURE_FUNCTION);
  EXPECT_EQ(schema_of("makelib_alias::with_fn").aliasAnalysis(), AliasAnalysisKind::FROM_SCHEMA);
  EXPECT_TRUE(schema_of("makelib_alias::parsed").isDefaultAliasAnalysisKind());
  EXPECT_EQ(schema_of("makelib_alias::parsed").aliasAnalysis(), AliasAnalysisKind::CONSERVATIVE);
  // The kind is no part of the schema's identity.
  EXPECT_EQ(c10::toString(schema_of("makelib_alias::pure")),
            "makelib_alias::pure(Tensor self) -> Tensor");
}

TEST(MakeTorchLibrary, OneDefLibraryPerNamespaceUntilItIsDropped) {
  {
    auto m = MAKE_TORCH_LIBRARY(makelib_once);
    const std::string error =
        test_util::error_of([] { auto m2 = MAKE_TORCH_LIBRARY(makelib_once); });
    EXPECT_EQ(error.rfind("Only a single TORCH_LIBRARY can be used to register the namespace "
                          "makelib_once",
                          0),
              0u)
        << error;
  }
  auto m = MAKE_TORCH_LIBRARY(makelib_once);
}

TEST(MakeTorchLibrary, CatchAllMeansCompositeImplicitAutograd) {
  auto def = MAKE_TORCH_LIBRARY(makelib_catchall);
  def.def("f(Tensor self) -> Tensor");
  def.def("g(Tensor self) -> Tensor");
  auto impl = MAKE_TORCH_LIBRARY_IMPL(makelib_catchall, CatchAll);
  impl.impl("f", [](const at::Tensor& t) { return t; });
  def.impl("g", torch::dispatch(DispatchKey::CatchAll, [](const at::Tensor& t) { return t; }));
  for (const char* name : {"makelib_catchall::f", "makelib_catchall::g"}) {
    auto op = Dispatcher::singleton().findSchema({name, ""});
    EXPECT_TRUE(op->hasKernelForDispatchKey(DispatchKey::CompositeImplicitAutograd)) << name;
    EXPECT_FALSE(op->hasKernelForDispatchKey(DispatchKey::Undefined)) << name;
  }
}

TEST(MakeTorchLibrary, KernelsForADeviceTypeGoToItsBackendKey) {
  auto def = MAKE_TORCH_LIBRARY(makelib_device);
  def.def("f(Tensor self) -> Tensor");
  def.impl("f", c10::DeviceType::XLA, [](const at::Tensor& t) { return t; });
  def.impl("f", c10::DeviceType::Lazy, [](const at::Tensor& t) { return t; });
  auto op = Dispatcher::singleton().findSchema({"makelib_device::f", ""});
  EXPECT_TRUE(op->hasKernelForDispatchKey(DispatchKey::XLA));
  EXPECT_TRUE(op->hasKernelForDispatchKey(DispatchKey::Lazy));
}

int64_t fallback_calls = 0;
void count_fallback(const c10::OperatorHandle&, torch::jit::Stack* stack) {
  ++fallback_calls;
  stack->clear();
}

TEST(MakeTorchLibrary, UnderscoreIsTheNamespaceOfAFallbackLibrary) {
  auto def = MAKE_TORCH_LIBRARY(makelib_fallback);
  def.def("f(Tensor self) -> ()");
  {
    auto fb = MAKE_TORCH_LIBRARY_IMPL(_, PrivateUse1);
    fb.fallback(torch::CppFunction::makeFromBoxedFunction<&count_fallback>());
    auto op = Dispatcher::singleton().findSchemaOrThrow("makelib_fallback::f", "");
    torch::jit::Stack stack{test_util::tensor_for(DispatchKey::PrivateUse1)};
    fallback_calls = 0;
    op.callBoxed(&stack);
    EXPECT_EQ(fallback_calls, 1);
  }
  // Dropped with the library.
  EXPECT_EQ(Dispatcher::singleton().backendFallback(DispatchKey::PrivateUse1), nullptr);
}

}  // namespace
