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
#include "tests/TestUtils.h"
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

// ---- The factories, in libtorch's template forms ---------------------------------------------

c10::OperatorHandle dummy_op() {
  static auto lib = [] {
    torch::Library l(torch::Library::FRAGMENT, "test", c10::nullopt, __FILE__, __LINE__);
    l.def("kernel_function_dummy() -> ()");
    return l;
  }();
  return c10::Dispatcher::singleton().findSchemaOrThrow("test::kernel_function_dummy", "");
}

struct Scale final : c10::OperatorKernel {
  explicit Scale(int64_t factor) : factor_(factor) {}
  int64_t operator()(int64_t a, int64_t b) { return factor_ * (a + b); }
  int64_t factor_;
};
int64_t plus(int64_t a, int64_t b) { return a + b; }

// Both ways of calling give the same answer.
void expect_sum_kernel(const c10::KernelFunction& k, int64_t expected) {
  EXPECT_TRUE(k.isValid());
  EXPECT_TRUE(k.isValidUnboxed());
  EXPECT_FALSE(k.isFallthrough());
  EXPECT_EQ((k.call<int64_t, int64_t, int64_t>(dummy_op(), c10::DispatchKeySet(), 3, 4)), expected);
  // Lvalues and other integer types convert, as for a function taking int64_t by value.
  int64_t three = 3;
  const int four = 4;
  EXPECT_EQ((k.call<int64_t, int64_t, int64_t>(dummy_op(), c10::DispatchKeySet(), three, four)),
            expected);
  torch::jit::Stack stack{int64_t(3), int64_t(4)};
  k.callBoxed(dummy_op(), c10::DispatchKeySet(), &stack);
  ASSERT_EQ(stack.size(), 1u);
  EXPECT_EQ(stack[0].toInt(), expected);
}

TEST(KernelFunction, UnboxedFactories) {
  using c10::KernelFunction;
  expect_sum_kernel(KernelFunction::makeFromUnboxedFunctor<false, Scale>(
                        std::unique_ptr<c10::OperatorKernel>(std::make_unique<Scale>(10))),
                    70);
  expect_sum_kernel(KernelFunction::makeFromUnboxedFunction(TORCH_FN(plus)), 7);
  expect_sum_kernel(KernelFunction::makeFromUnboxedFunction<TORCH_FN_TYPE(plus), true>(
                        TORCH_FN(plus)),
                    7);
  expect_sum_kernel(KernelFunction::makeFromUnboxedRuntimeFunction(&plus), 7);
  expect_sum_kernel(KernelFunction::makeFromUnboxedRuntimeFunction<true>(&plus), 7);
  auto lambda = [](int64_t a, int64_t b) { return a * b; };
  expect_sum_kernel(KernelFunction::makeFromUnboxedLambda(lambda), 12);  // an lvalue lambda
  expect_sum_kernel(KernelFunction::makeFromUnboxedLambda<true>(std::move(lambda)), 12);
}

struct Counter final : c10::OperatorKernel {
  void operator()(const c10::OperatorHandle&, c10::DispatchKeySet, torch::jit::Stack* stack) {
    ++calls;
    stack->clear();
    stack->emplace_back(calls);
  }
  int64_t calls = 0;
};
void boxed_sum(const c10::OperatorHandle&, c10::Stack* stack) {
  const int64_t sum = (*stack)[0].toInt() + (*stack)[1].toInt();
  stack->clear();
  stack->emplace_back(sum);
}

TEST(KernelFunction, BoxedFactories) {
  using c10::KernelFunction;
  // A boxed functor keeps its state between calls; copies share it.
  KernelFunction counter = KernelFunction::makeFromBoxedFunctor(std::make_unique<Counter>());
  KernelFunction copy = counter;
  EXPECT_TRUE(counter.isValid());
  EXPECT_FALSE(counter.isValidUnboxed());
  torch::jit::Stack stack;
  counter.callBoxed(dummy_op(), c10::DispatchKeySet(), &stack);
  copy.callBoxed(dummy_op(), c10::DispatchKeySet(), &stack);
  EXPECT_EQ(stack.at(0).toInt(), 2);

  // A boxed kernel called with typed arguments: they are boxed, the return unboxed.
  KernelFunction sum = KernelFunction::makeFromBoxedKernel(c10::BoxedKernel::makeFromFunction<&boxed_sum>());
  EXPECT_EQ((sum.call<int64_t, int64_t, int64_t>(dummy_op(), c10::DispatchKeySet(), 3, 4)), 7);

  EXPECT_FALSE(KernelFunction().isValid());
  EXPECT_FALSE(c10::BoxedKernel().isValid());
  EXPECT_TRUE(KernelFunction::makeFallthrough().isFallthrough());
  EXPECT_TRUE(c10::BoxedKernel::makeFallthrough().isFallthrough());
}

int64_t boxed_out_seen = 0;
void boxed_out_multi(const c10::OperatorHandle&, c10::Stack* stack) {
  // (Scalar a, Tensor(a!) out0, Tensor(b!) out1) -> (Tensor(a!), Tensor(b!))
  boxed_out_seen = (*stack)[0].toScalar().to<int64_t>();
  at::Tensor out0 = (*stack)[1].toTensor();
  at::Tensor out1 = (*stack)[2].toTensor();
  stack->clear();
  stack->emplace_back(out0);
  stack->emplace_back(out1);
}

TEST(KernelFunction, BoxedOutKernelsReturnReferencesToTheOutArguments) {
  auto k = c10::KernelFunction::makeFromBoxedFunction<&boxed_out_multi>();
  at::Tensor out0 = test_util::tensor_for(c10::DispatchKey::CPU);
  at::Tensor out1 = test_util::tensor_for(c10::DispatchKey::CPU);
  std::tuple<at::Tensor&, at::Tensor&> result =
      k.call<std::tuple<at::Tensor&, at::Tensor&>, at::Scalar, at::Tensor&, at::Tensor&>(
          dummy_op(), c10::DispatchKeySet(), 5, out0, out1);
  EXPECT_EQ(boxed_out_seen, 5);
  EXPECT_EQ(&std::get<0>(result), &out0);
  EXPECT_EQ(&std::get<1>(result), &out1);
}

TEST(KernelFunction, KernelsThatOnlyReportErrors) {
  using c10::KernelFunction;
  torch::jit::Stack stack;
  const std::string fallthrough = test_util::error_of([&] {
    KernelFunction::makeFallthrough().callBoxed(dummy_op(), c10::DispatchKeySet(), &stack);
  });
  EXPECT_NE(fallthrough.find("fallthrough_kernel was executed but it should have been "
                             "short-circuited by the dispatcher. This could occur if you "
                             "registered a fallthrough kernel as a override for a specific "
                             "operator (as opposed to a backend fallback); this is NOT currently "
                             "supported, and we do not intend to add support for it in the near "
                             "future.  If you do find yourself in need of this, let us know in "
                             "the bug tracker."),
            std::string::npos)
      << fallthrough;
  const std::string ambiguous = test_util::error_of([&] {
    KernelFunction::makeAmbiguousAutogradOther().callBoxed(dummy_op(), c10::DispatchKeySet(),
                                                           &stack);
  });
  EXPECT_NE(ambiguous.find("test::kernel_function_dummy has kernels registered to both "
                           "CompositeImplicitAutograd and a backend mapped to AutogradOther. "),
            std::string::npos)
      << ambiguous;
  EXPECT_NE(ambiguous.find("\nCanonical state\n~~~~~~~~~~~\n"), std::string::npos) << ambiguous;
  EXPECT_EQ(test_util::error_of([&] {
              KernelFunction::makeNamedNotSupported().callBoxed(dummy_op(), c10::DispatchKeySet(),
                                                                &stack);
            }),
            "test::kernel_function_dummy is not yet supported with named tensors. Please drop "
            "names via `tensor = tensor.rename(None)`, call the op with an unnamed tensor, and set "
            "names on the result of the operation.");
}

[[maybe_unused]] auto stateless = [](int64_t x) { return x; };
int64_t captured = 1;
[[maybe_unused]] auto stateful = [c = captured](int64_t x) { return x + c; };
static_assert(c10::guts::is_stateless_lambda<decltype(stateless)>::value, "");
static_assert(!c10::guts::is_stateless_lambda<decltype(stateful)>::value, "");
static_assert(!c10::guts::is_functor<int64_t(int64_t)>::value, "");
static_assert(c10::guts::is_functor<Scale>::value, "");

}  // namespace
