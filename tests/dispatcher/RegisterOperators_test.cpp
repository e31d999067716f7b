// c10::RegisterOperators, libtorch's older registration API: the kernel forms it takes, schema
// inference from a name alone, alias analysis kinds, and its error texts (read off libtorch
// 1.13 with the same calls).

#include <gtest/gtest.h>

#include <string>

#include "aten/core/Tensor.h"
#include "dispatcher/Dispatcher.h"
#include "dispatcher/RegisterOperators.h"
#include "tests/TestUtils.h"
#include "tests/dispatcher/DispatcherTestUtil.h"

namespace {

using c10::AliasAnalysisKind;
using c10::Dispatcher;
using c10::DispatchKey;
using c10::RegisterOperators;

// Each kernel returns a number saying which one ran.
struct AddKernel final : c10::OperatorKernel {
  explicit AddKernel(int64_t offset) : offset_(offset) {}
  int64_t operator()(const at::Tensor&, int64_t x) { return x + offset_; }
  int64_t offset_;
};
int64_t times_two(const at::Tensor&, int64_t x) {
  return 2 * x;
}
void boxed_kernel(const c10::OperatorHandle&, torch::jit::Stack* stack) {
  torch::jit::drop(*stack, 2);
  stack->emplace_back(int64_t(-1));
}

using Sig = int64_t(const at::Tensor&, int64_t);

int64_t call(const std::string& name, DispatchKey key, int64_t x) {
  auto op = Dispatcher::singleton().findSchemaOrThrow(name.c_str(), "");
  return op.typed<Sig>().call(test_util::tensor_for(key), x);
}

TEST(RegisterOperators, KernelsPerKeyAndCatchAll) {
  const std::string name = "test::" + test_util::unique_op("legacy");
  auto registrar =
      RegisterOperators().op(name + "(Tensor self, int x) -> int",
                             RegisterOperators::options()
                                 .kernel<AddKernel>(DispatchKey::CPU, 100)
                                 .kernel<decltype(times_two), &times_two>(DispatchKey::CUDA)
                                 .kernel<&boxed_kernel>(DispatchKey::Meta)
                                 .catchAllKernel([](const at::Tensor&, int64_t x) { return x; }));
  EXPECT_EQ(call(name, DispatchKey::CPU, 5), 105);
  EXPECT_EQ(call(name, DispatchKey::CUDA, 5), 10);
  EXPECT_EQ(call(name, DispatchKey::Meta, 5), -1);
  // The catch-all kernel is CompositeImplicitAutograd: it serves keys with no kernel.
  EXPECT_EQ(call(name, DispatchKey::PrivateUse1, 5), 5);
  auto op = Dispatcher::singleton().findSchema({name, ""});
  EXPECT_TRUE(op->hasKernelForDispatchKey(DispatchKey::CompositeImplicitAutograd));
  EXPECT_EQ(op->debug(), "registered by RegisterOperators");
}

TEST(RegisterOperators, SchemaAfterKernelsAndRuntimeFunctionPointers) {
  const std::string name = "test::" + test_util::unique_op("legacy");
  auto registrar = RegisterOperators().op(RegisterOperators::options()
                                              .kernel(DispatchKey::CPU, &times_two)
                                              .schema(name + "(Tensor self, int x) -> int"));
  EXPECT_EQ(call(name, DispatchKey::CPU, 4), 8);
}

TEST(RegisterOperators, DeprecatedFunctionAndLambdaForms) {
  const std::string f = "test::" + test_util::unique_op("legacy");
  const std::string l = "test::" + test_util::unique_op("legacy");
  int64_t state = 7;
  auto registrar = RegisterOperators()
                       .op(f + "(Tensor self, int x) -> int", &times_two)
                       .op(l, [state](const at::Tensor&, int64_t x) { return x + state; });
  EXPECT_EQ(call(f, DispatchKey::CPU, 3), 6);
  EXPECT_EQ(call(l, DispatchKey::CUDA, 3), 10);  // a catch-all kernel
}

TEST(RegisterOperators, InfersTheSchemaFromTheFirstKernelThatHasOne) {
  const std::string name = "test::" + test_util::unique_op("legacy");
  auto registrar =
      RegisterOperators().op(name + ".ov", RegisterOperators::options()
                                               .kernel<&boxed_kernel>(DispatchKey::CPU)
                                               .kernel<AddKernel>(DispatchKey::CUDA, 1));
  auto op = Dispatcher::singleton().findSchema({name, "ov"});
  ASSERT_TRUE(op.has_value());
  EXPECT_EQ(c10::toString(op->schema()), name + ".ov(Tensor _0, int _1) -> int _0");
  EXPECT_TRUE(op->schema().isDefaultAliasAnalysisKind());
  EXPECT_EQ(op->schema().aliasAnalysis(), AliasAnalysisKind::CONSERVATIVE);

  const std::string tuple = "test::" + test_util::unique_op("legacy");
  auto registrar2 = RegisterOperators().op(
      tuple, [](const at::Tensor& a, double b) { return std::make_tuple(a, b); });
  EXPECT_EQ(c10::toString(Dispatcher::singleton().findSchema({tuple, ""})->schema()),
            tuple + "(Tensor _0, float _1) -> (Tensor _0, float _1)");
}

TEST(RegisterOperators, AliasAnalysisIsRecordedOnTheSchema) {
  const std::string name = "test::" + test_util::unique_op("legacy");
  auto registrar = RegisterOperators().op(
      name + "(Tensor x) -> Tensor",
      RegisterOperators::options().aliasAnalysis(AliasAnalysisKind::PURE_FUNCTION));
  const auto& schema = Dispatcher::singleton().findSchema({name, ""})->schema();
  EXPECT_EQ(schema.aliasAnalysis(), AliasAnalysisKind::PURE_FUNCTION);
  EXPECT_FALSE(schema.isDefaultAliasAnalysisKind());
  EXPECT_STREQ(c10::toString(schema.aliasAnalysis()), "PURE_FUNCTION");
}

TEST(RegisterOperators, DestroyingTheRegistrarRemovesTheOperator) {
  const std::string name = "test::" + test_util::unique_op("legacy");
  {
    auto registrar =
        RegisterOperators().op(name + "(Tensor self, int x) -> int",
                               RegisterOperators::options().kernel<AddKernel>(DispatchKey::CPU, 0));
    EXPECT_TRUE(Dispatcher::singleton().findOp({name, ""}).has_value());
  }
  // Neither schema nor kernel is left: the name is gone altogether, as in libtorch.
  EXPECT_FALSE(Dispatcher::singleton().findOp({name, ""}).has_value());
  // Moving a registrar moves the registrations with it.
  RegisterOperators outer;
  {
    auto inner = RegisterOperators().op(name + "(Tensor self, int x) -> int");
    outer = std::move(inner);
  }
  EXPECT_TRUE(Dispatcher::singleton().findSchema({name, ""}).has_value());
}

TEST(RegisterOperators, ErrorTexts) {
  EXPECT_EQ(test_util::error_of([] {
              RegisterOperators().op(RegisterOperators::options().catchAllKernel<AddKernel>(1));
            }),
            "In operator registration: Tried to register an operator without specifying a "
            "schema or operator name.");
  EXPECT_EQ(test_util::error_of([] { RegisterOperators().op("_t::a.ov"); }),
            "Cannot infer operator schema in registration of operator _t::a.ov because "
            "there is no kernel specified.");
  EXPECT_EQ(
      test_util::error_of([] {
        RegisterOperators().op(
            "_t::a", RegisterOperators::options().kernel<&boxed_kernel>(DispatchKey::CPU));
      }),
      "Cannot infer operator schema for this kind of kernel in registration of operator _t::a. "
      "Please explicitly specify the operator schema or specify at least one kernel for which we "
      "can infer the schema.");
  EXPECT_EQ(test_util::error_of([] {
              RegisterOperators().op("_t::a(Tensor x, int y) -> int",
                                     RegisterOperators::options()
                                         .kernel<AddKernel>(DispatchKey::CPU, 1)
                                         .kernel<AddKernel>(DispatchKey::CPU, 2));
            }),
            "In operator registration: Tried to register multiple kernels with same "
            "dispatch key CPU for operator schema _t::a(Tensor x, int y) -> int");
  EXPECT_EQ(
      test_util::error_of([] {
        RegisterOperators().op(
            "_t::a(Tensor x, int y) -> int",
            RegisterOperators::options().catchAllKernel<AddKernel>(1).catchAllKernel<AddKernel>(2));
      }),
      "In operator registration: Tried to register multiple catch-all kernels for "
      "operator schema _t::a(Tensor x, int y) -> int");
  EXPECT_EQ(test_util::error_of([] {
              RegisterOperators().op(
                  "_t::a", RegisterOperators::options().catchAllKernel<AddKernel>(1).aliasAnalysis(
                               AliasAnalysisKind::FROM_SCHEMA));
            }),
            "In operator registration: Tried to register operator _t::a(Tensor _0, int _1) "
            "-> int _0 with AliasAnalysisKind::FROM_SCHEMA, but the schema is inferred.");
  EXPECT_EQ(test_util::error_of([] {
              RegisterOperators().op(RegisterOperators::options().schema("_t::a").schema("_t::b"));
            }),
            "Tried to register operator _t::b but specified schema multiple times. You can only "
            "specify the schema once per operator registration.");
  EXPECT_EQ(test_util::error_of([] {
              RegisterOperators().op("_t::a(Tensor x, int y) -> int",
                                     RegisterOperators::options()
                                         .aliasAnalysis(AliasAnalysisKind::PURE_FUNCTION)
                                         .aliasAnalysis(AliasAnalysisKind::CONSERVATIVE));
            }),
            "You can only call aliasAnalysis() once per operator registration.");
  EXPECT_EQ(
      test_util::error_of([] {
        RegisterOperators().op("_t::a(Tensor x) -> int",
                               RegisterOperators::options().kernel<AddKernel>(DispatchKey::CPU, 1));
      }),
      "Inferred operator schema for a C++ kernel function doesn't match the expected function "
      "schema.\n  operator: _t::a\n  expected schema: _t::a(Tensor x) -> int\n    registered by "
      "RegisterOperators\n  inferred schema: (Tensor _0, int _1) -> int _0\n    registered by "
      "RegisterOperators\n  reason: The number of arguments is different. 1 vs 2.");
  // Every failed registration above was undone.
  EXPECT_FALSE(Dispatcher::singleton().findOp({"_t::a", ""}).has_value());
}

}  // namespace
