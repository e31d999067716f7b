// Boxed <-> unboxed, both ways: every kernel is callable through a typed call and through a
// Stack, whichever way it was registered.

#include <gtest/gtest.h>

#include "aten/ATen.h"
#include "tests/dispatcher/DispatcherTestUtil.h"

namespace {

using c10::DispatchKey;
using test_util::tensor_for;

struct BoxingFixture : ::testing::Test {
  std::string name = test_util::unique_op("boxing");
  torch::Library def{torch::Library::FRAGMENT, "test", c10::nullopt, __FILE__, __LINE__};
  torch::Library impl{torch::Library::IMPL, "test", DispatchKey::CPU, __FILE__, __LINE__};
  c10::OperatorHandle handle(const std::string& overload = "") {
    return c10::Dispatcher::singleton().findSchemaOrThrow(("test::" + name).c_str(),
                                                          overload.c_str());
  }
};

// A boxed kernel reading (Tensor self, int n=2, *, float scale=1.5) and returning int.
void boxed_sum(const c10::OperatorHandle& op, torch::jit::Stack* stack) {
  EXPECT_EQ(op.schema().arguments().size(), 3u);
  at::Tensor self;
  int64_t n = 0;
  double scale = 0;
  torch::jit::pop(*stack, self, n, scale);
  torch::jit::push(*stack, static_cast<int64_t>(self.numel() * n * scale));
}

TEST_F(BoxingFixture, BoxedKernelThroughATypedCall) {
  def.def(name + "(Tensor self, int n=2, *, float scale=1.5) -> int");
  impl.impl(name, torch::CppFunction::makeFromBoxedFunction<&boxed_sum>());
  auto op = handle().typed<int64_t(const at::Tensor&, int64_t, double)>();
  EXPECT_EQ(op.call(tensor_for(DispatchKey::CPU), 3, 2.0), 12);  // numel 2 * 3 * 2
  // The schema knows the defaults and the keyword-only argument.
  const auto& args = handle().schema().arguments();
  EXPECT_EQ(args[1].default_value()->toInt(), 2);
  EXPECT_TRUE(args[2].kwarg_only());
  EXPECT_DOUBLE_EQ(args[2].default_value()->toDouble(), 1.5);
}

TEST_F(BoxingFixture, UnboxedKernelThroughCallBoxed) {
  def.def(name + "(Tensor self, int[] sizes, Scalar alpha, str mode, bool flag, float? f=None) "
                 "-> (Tensor, int)");
  impl.impl(name, [](const at::Tensor& self, at::IntArrayRef sizes, const at::Scalar& alpha,
                     c10::string_view mode, bool flag, c10::optional<double> f) {
    EXPECT_EQ(sizes, c10::IntArrayRef({4, 5}));
    EXPECT_EQ(alpha.toLong(), 3);
    EXPECT_EQ(mode, "fast");
    EXPECT_TRUE(flag);
    EXPECT_FALSE(f.has_value());
    return std::make_tuple(self, static_cast<int64_t>(sizes.size()));
  });
  at::Tensor t = tensor_for(DispatchKey::CPU);
  torch::jit::Stack stack;
  torch::jit::push(stack, t, std::vector<int64_t>{4, 5}, at::Scalar(3), std::string("fast"), true,
                   c10::IValue());
  handle().callBoxed(&stack);
  ASSERT_EQ(stack.size(), 2u);
  EXPECT_TRUE(stack[0].toTensor().is_same(t));
  EXPECT_EQ(stack[1].toInt(), 2);
}

// A kernel takes its arguments from the top of the stack and leaves what lies beneath (an
// interpreter's values) in place, as libtorch's boxed calling convention does.
TEST_F(BoxingFixture, ValuesBeneathTheArgumentsStay) {
  def.def(name + "(Tensor self, int n) -> int");
  impl.impl(name, [](const at::Tensor&, int64_t n) { return n + 1; });
  torch::jit::Stack stack;
  torch::jit::push(stack, std::string("beneath"), tensor_for(DispatchKey::CPU), int64_t{4});
  handle().callBoxed(&stack);
  ASSERT_EQ(stack.size(), 2u);
  EXPECT_EQ(stack[0].toStringRef(), "beneath");
  EXPECT_EQ(stack[1].toInt(), 5);
}

// In-place and out= kernels return the Tensor& they were given.
void boxed_inplace(const c10::OperatorHandle&, torch::jit::Stack* stack) {
  // (Tensor(a!) self, Scalar other) -> Tensor(a!): leave self as the result.
  torch::jit::drop(*stack, 1);
}

TEST_F(BoxingFixture, TensorReferenceReturnsOfBoxedKernels) {
  def.def(name + "_(Tensor(a!) self, Scalar other) -> Tensor(a!)");
  def.def(name + ".out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)");
  impl.impl(name + "_", torch::CppFunction::makeFromBoxedFunction<&boxed_inplace>());
  impl.impl(name + ".out", torch::CppFunction::makeFromBoxedFunction<&boxed_inplace>());
  at::Tensor self = tensor_for(DispatchKey::CPU);
  at::Tensor& r = c10::Dispatcher::singleton()
                      .findSchemaOrThrow(("test::" + name + "_").c_str(), "")
                      .typed<at::Tensor&(at::Tensor&, const at::Scalar&)>()
                      .call(self, 1);
  EXPECT_EQ(&r, &self);
  at::Tensor out = tensor_for(DispatchKey::CPU);
  at::Tensor& r2 = handle("out").typed<at::Tensor&(const at::Tensor&, at::Tensor&)>().call(self, out);
  EXPECT_EQ(&r2, &out);
}

void boxed_pair(const c10::OperatorHandle&, torch::jit::Stack* stack) {
  at::Tensor t = torch::jit::pop(*stack).toTensor();
  torch::jit::push(*stack, t, t);
}
void boxed_list(const c10::OperatorHandle&, torch::jit::Stack* stack) {
  at::Tensor t = torch::jit::pop(*stack).toTensor();
  torch::jit::push(*stack, std::vector<at::Tensor>{t, t, t});
}
void boxed_void(const c10::OperatorHandle&, torch::jit::Stack* stack) { torch::jit::drop(*stack, 1); }

TEST_F(BoxingFixture, TupleListAndVoidReturnsUnbox) {
  def.def(name + ".pair(Tensor x) -> (Tensor a, Tensor b)");
  def.def(name + ".list(Tensor x) -> Tensor[]");
  def.def(name + ".none(Tensor x) -> ()");
  impl.impl(name + ".pair", torch::CppFunction::makeFromBoxedFunction<&boxed_pair>());
  impl.impl(name + ".list", torch::CppFunction::makeFromBoxedFunction<&boxed_list>());
  impl.impl(name + ".none", torch::CppFunction::makeFromBoxedFunction<&boxed_void>());
  at::Tensor t = tensor_for(DispatchKey::CPU);
  auto pair = handle("pair").typed<std::tuple<at::Tensor, at::Tensor>(const at::Tensor&)>().call(t);
  EXPECT_TRUE(std::get<0>(pair).is_same(t));
  EXPECT_TRUE(std::get<1>(pair).is_same(t));
  auto list = handle("list").typed<std::vector<at::Tensor>(const at::Tensor&)>().call(t);
  EXPECT_EQ(list.size(), 3u);
  handle("none").typed<void(const at::Tensor&)>().call(t);
}

TEST_F(BoxingFixture, TensorListArgumentsDispatchOnTheirElements) {
  def.def(name + "(Tensor[] xs, Tensor? maybe) -> int");
  torch::Library meta(torch::Library::IMPL, "test", DispatchKey::Meta, __FILE__, __LINE__);
  impl.impl(name, [](at::ArrayRef<at::Tensor> xs, const c10::optional<at::Tensor>&) -> int64_t {
    return 100 + static_cast<int64_t>(xs.size());
  });
  meta.impl(name, [](at::ArrayRef<at::Tensor> xs, const c10::optional<at::Tensor>&) -> int64_t {
    return 200 + static_cast<int64_t>(xs.size());
  });
  auto op = handle().typed<int64_t(at::ArrayRef<at::Tensor>, const c10::optional<at::Tensor>&)>();
  std::vector<at::Tensor> cpu{tensor_for(DispatchKey::CPU), tensor_for(DispatchKey::CPU)};
  EXPECT_EQ(op.call(cpu, c10::nullopt), 102);
  EXPECT_EQ(op.call(cpu, tensor_for(DispatchKey::Meta)), 202);
  // Boxed: the extractor finds tensors in the list and the optional.
  torch::jit::Stack stack;
  torch::jit::push(stack, std::vector<at::Tensor>{tensor_for(DispatchKey::Meta)}, c10::IValue());
  handle().callBoxed(&stack);
  EXPECT_EQ(stack.at(0).toInt(), 201);
}

// Kernels taking strings by ArrayRef and maps by std::unordered_map, and returning fixed-size
// arrays, through both calling conventions (libtorch's op_registration_test covers each type).
TEST_F(BoxingFixture, ArrayRefsOfStringsMapsAndArraysBox) {
  // No tensor argument: the kernel is the operator's catch-all (CompositeImplicitAutograd).
  def.def(name + "(str[] names, Dict(str, int) counts) -> int[2]",
          [](c10::ArrayRef<std::string> names,
                     std::unordered_map<std::string, int64_t> counts) -> std::array<int64_t, 2> {
    int64_t total = 0;
    for (const auto& n : names) total += counts.at(n);
    return {static_cast<int64_t>(names.size()), total};
  });
  const std::vector<std::string> names{"a", "b", "a"};
  const std::unordered_map<std::string, int64_t> counts{{"a", 1}, {"b", 10}};
  auto op = handle().typed<std::array<int64_t, 2>(c10::ArrayRef<std::string>,
                                                  std::unordered_map<std::string, int64_t>)>();
  EXPECT_EQ(op.call(names, counts), (std::array<int64_t, 2>{3, 12}));
  torch::jit::Stack stack;
  torch::jit::push(stack, c10::ArrayRef<std::string>(names), counts);
  handle().callBoxed(&stack);
  ASSERT_EQ(stack.size(), 1u);
  EXPECT_EQ(stack[0].toIntVector(), (std::vector<int64_t>{3, 12}));
}

TEST_F(BoxingFixture, KernelsTakingTheDispatchKeySet) {
  def.def(name + "(Tensor x) -> Tensor");
  static c10::DispatchKeySet seen;
  impl.impl(name, [](c10::DispatchKeySet ks, const at::Tensor& x) {
    seen = ks;
    return x;
  });
  handle().typed<at::Tensor(const at::Tensor&)>().call(tensor_for(DispatchKey::CPU));
  // Fallthrough keys (autograd, ADInplaceOrView, BackendSelect) are masked out.
  EXPECT_EQ(seen, c10::DispatchKeySet(DispatchKey::CPU));
  torch::jit::Stack stack{c10::IValue(tensor_for(DispatchKey::CPU))};
  seen = c10::DispatchKeySet();
  handle().callBoxed(&stack);
  EXPECT_EQ(seen, c10::DispatchKeySet(DispatchKey::CPU));
}

}  // namespace

// Found by fuzz_boxed_call: a dtype argument that names no ScalarType ended the process from
// inside a noexcept function. See Note [An enum from an IValue is checked].
TEST(BoxedAtenCall, ADtypeNamingNoScalarTypeIsAnError) {
  const c10::OperatorHandle op = c10::Dispatcher::singleton().findSchemaOrThrow("aten::cumsum", "");
  torch::jit::Stack stack;
  torch::jit::push(stack, at::ones({3}), int64_t{0}, int64_t{8});
  try {
    op.callBoxed(&stack);
    ADD_FAILURE() << "cumsum(dtype=8) ran";
  } catch (const c10::Error& e) {
    EXPECT_EQ(std::string(e.what_without_backtrace()),
              "Expected a ScalarType but got the integer 8, which names none");
  }
}

// Found by fuzz_boxed_call: a kernel returning a tuple of references (max.dim_max's (max,
// max_values)) had its tuple pushed after the arguments it refers to were dropped from the stack.
TEST(BoxedAtenCall, TupleOfReferenceReturnsOutliveTheArguments) {
  const c10::OperatorHandle op =
      c10::Dispatcher::singleton().findSchemaOrThrow("aten::max", "dim_max");
  const at::Tensor x = at::arange(6.0).view({2, 3});
  const at::Tensor values = at::empty({0}), indices = at::empty({0}, at::kLong);
  torch::jit::Stack stack;
  torch::jit::push(stack, x, int64_t{1}, false, values, indices);
  op.callBoxed(&stack);
  ASSERT_EQ(stack.size(), 2u);
  EXPECT_TRUE(stack[0].toTensor().is_same(values));
  EXPECT_TRUE(stack[1].toTensor().is_same(indices));
  EXPECT_TRUE(at::equal(values, at::tensor({2.0f, 5.0f})));
  EXPECT_TRUE(at::equal(indices, at::full({2}, 2, at::kLong)));
}
