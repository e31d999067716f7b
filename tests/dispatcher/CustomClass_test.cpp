// Custom classes (torch::class_): binding, IValue objects and capsules, methods, schema
// inference and operators taking and returning them; texts read off libtorch 1.13.
#include <gtest/gtest.h>

#include <tuple>

#include "dispatcher/Dispatcher.h"
#include "dispatcher/Library.h"
#include "tests/TestUtils.h"
#include "tests/dispatcher/DispatcherTestUtil.h"

namespace {

using c10::IValue;
using test_util::error_of;

struct Counter : torch::CustomClassHolder {
  explicit Counter(int64_t start) : n(start) {}
  int64_t next() { return n++; }
  int64_t peek() const { return n; }
  int64_t n;
};
struct Other : torch::CustomClassHolder {};
struct NeverBound : torch::CustomClassHolder {};

// The operators return the counter itself, and a tuple of a tensor list and a counter, as
// c10d's collectives return their tensors and a Work.
int64_t bump(const c10::intrusive_ptr<Counter>& c, int64_t by) {
  c->n += by;
  return c->n;
}
std::tuple<std::vector<at::Tensor>, c10::intrusive_ptr<Counter>> hand_back(
    at::TensorList tensors, const c10::intrusive_ptr<Counter>& c) {
  return std::make_tuple(tensors.vec(), c);
}

TORCH_LIBRARY(custom_class_test, m) {
  m.class_<Counter>("Counter")
      .def(torch::init<int64_t>())
      .def("next", &Counter::next)
      .def("peek", &Counter::peek)
      .def("add", [](const c10::intrusive_ptr<Counter>& self, int64_t k) { return self->n + k; });
  m.class_<Other>("Other");
  m.def("bump", bump);
  m.def("hand_back", hand_back);
  m.def("take(__torch__.torch.classes.custom_class_test.Counter c) -> int");
}
TORCH_LIBRARY_IMPL(custom_class_test, CompositeImplicitAutograd, m) {
  m.impl("take", [](const c10::intrusive_ptr<Counter>& c) { return c->peek(); });
}

TEST(CustomClass, AnIntrusivePtrBecomesAnObjectHoldingACapsule) {
  auto counter = c10::make_intrusive<Counter>(5);
  IValue v = counter;
  ASSERT_TRUE(v.isObject());
  EXPECT_TRUE(v.isCustomClass());
  EXPECT_EQ(v.toObjectRef().name(), "__torch__.torch.classes.custom_class_test.Counter");
  EXPECT_EQ(v.type()->str(), "__torch__.torch.classes.custom_class_test.Counter");
  ASSERT_EQ(v.toObjectRef().slots().size(), 1u);
  EXPECT_TRUE(v.toObjectRef().getSlot(0).isCapsule());
  EXPECT_EQ(test_util::printed(v.toObjectRef().getSlot(0)), "Capsule");
  // The same object comes back, shared (the IValue holds a reference).
  EXPECT_EQ(v.toCustomClass<Counter>().get(), counter.get());
  EXPECT_EQ(v.to<c10::intrusive_ptr<Counter>>().get(), counter.get());
  EXPECT_EQ(counter.use_count(), 2u);
  EXPECT_EQ(c10::getCustomClassType<c10::intrusive_ptr<Counter>>().get(),
            v.toObjectRef().type().get());
  EXPECT_TRUE(c10::isCustomClassRegistered(typeid(c10::intrusive_ptr<Counter>)));
  EXPECT_FALSE(c10::isCustomClassRegistered(typeid(c10::intrusive_ptr<NeverBound>)));
  // Copies are the same object (identity equality).
  IValue copy = v;
  EXPECT_TRUE(copy.is(v));
  EXPECT_FALSE(IValue(c10::make_intrusive<Counter>(5)).is(v));
}

TEST(CustomClass, ConversionsCheckTheClass) {
  IValue v = c10::make_intrusive<Counter>(1);
  EXPECT_EQ(error_of([&] { v.toCustomClass<Other>(); }),
            "Tried to convert an IValue of type __torch__.torch.classes.custom_class_test.Counter "
            "to custom class type __torch__.torch.classes.custom_class_test.Other");
  EXPECT_EQ(error_of([&] { IValue(3).toCustomClass<Counter>(); }), "Expected Object but got Int");
  EXPECT_FALSE(IValue(3).isCustomClass());
  EXPECT_EQ(error_of([&] { IValue(3).toCapsule(); }), "Expected Capsule but got Int");
  const std::string unbound = error_of([&] { IValue(c10::make_intrusive<NeverBound>()); });
  EXPECT_EQ(unbound.rfind("Can't find class id in custom class type map for ", 0), 0u) << unbound;
}

TEST(CustomClass, MethodsRunBoxed) {
  auto cls = c10::getCustomClassType<c10::intrusive_ptr<Counter>>();
  IValue v = c10::make_intrusive<Counter>(5);
  EXPECT_EQ(cls->getMethod("next")({v}).toInt(), 5);
  EXPECT_EQ(cls->getMethod("next")({v}).toInt(), 6);
  EXPECT_EQ(cls->getMethod("peek")({v}).toInt(), 7);
  EXPECT_EQ(cls->getMethod("add")({v, IValue(10)}).toInt(), 17);
  EXPECT_EQ(cls->findMethod("missing"), nullptr);
  EXPECT_EQ(error_of([&] { cls->getMethod("missing"); }),
            "Couldn't find method: 'missing' on class: "
            "'__torch__.torch.classes.custom_class_test.Counter'");
  // __init__ fills an object made without one.
  auto obj = c10::ivalue::Object::create(c10::StrongTypePtr(nullptr, cls), 1);
  torch::jit::Stack stack{IValue(obj), IValue(40)};
  cls->getMethod("__init__").run(stack);
  EXPECT_TRUE(stack.empty());
  EXPECT_EQ(IValue(obj).toCustomClass<Counter>()->n, 40);
  std::vector<std::string> names;
  for (auto* m : cls->methods()) names.push_back(m->name());
  EXPECT_EQ(names, (std::vector<std::string>{"__init__", "next", "peek", "add"}));
}

TEST(CustomClass, SchemasNameTheClassAndOperatorsPassIt) {
  auto& d = c10::Dispatcher::singleton();
  auto bump_op = d.findSchemaOrThrow("custom_class_test::bump", "");
  EXPECT_EQ(test_util::printed(bump_op.schema()),
            "custom_class_test::bump(__torch__.torch.classes.custom_class_test.Counter _0, int _1) "
            "-> int _0");
  auto hand_back_op = d.findSchemaOrThrow("custom_class_test::hand_back", "");
  EXPECT_EQ(
      test_util::printed(hand_back_op.schema()),
      "custom_class_test::hand_back(Tensor[] _0, __torch__.torch.classes.custom_class_test.Counter "
      "_1) -> (Tensor[] _0, __torch__.torch.classes.custom_class_test.Counter _1)");

  auto counter = c10::make_intrusive<Counter>(1);
  // Typed calls.
  EXPECT_EQ(
      (bump_op.typed<int64_t(const c10::intrusive_ptr<Counter>&, int64_t)>().call(counter, 2)), 3);
  at::Tensor t = test_util::tensor_for(c10::DispatchKey::CPU);
  auto out = hand_back_op
                 .typed<std::tuple<std::vector<at::Tensor>, c10::intrusive_ptr<Counter>>(
                     at::TensorList, const c10::intrusive_ptr<Counter>&)>()
                 .call({t}, counter);
  EXPECT_EQ(std::get<1>(out).get(), counter.get());
  ASSERT_EQ(std::get<0>(out).size(), 1u);
  EXPECT_TRUE(std::get<0>(out)[0].is_same(t));
  // Boxed calls.
  torch::jit::Stack stack{IValue(std::vector<at::Tensor>{t}), IValue(counter)};
  hand_back_op.callBoxed(&stack);
  ASSERT_EQ(stack.size(), 2u);
  EXPECT_EQ(stack[1].toCustomClass<Counter>().get(), counter.get());
  // A schema written out, with the kernel registered apart.
  auto take_op = d.findSchemaOrThrow("custom_class_test::take", "");
  EXPECT_EQ((take_op.typed<int64_t(const c10::intrusive_ptr<Counter>&)>().call(counter)), 3);
}

TEST(CustomClass, RegistrationErrors) {
  EXPECT_EQ(error_of([] { torch::class_<Counter>("custom_class_test", "Counter"); }),
            "Custom class with name __torch__.torch.classes.custom_class_test.Counter is already "
            "registered. Ensure that registration with torch::class_ is only called once.");
  const std::string twice = error_of([] { torch::class_<Counter>("custom_class_test", "Again"); });
  EXPECT_EQ(twice.rfind("The C++ class ", 0), 0u) << twice;
  EXPECT_NE(
      twice.find(" is already registered as __torch__.torch.classes.custom_class_test.Counter; "
                 "torch::class_ registers a class under one name only."),
      std::string::npos)
      << twice;
  EXPECT_EQ(c10::getCustomClass("__torch__.torch.classes.custom_class_test.Again"), nullptr);
  EXPECT_EQ(error_of([] { torch::class_<NeverBound>("custom_class_test", "Bad-Name"); }),
            "Class name must be a valid Python/C++ identifier. Character '-' at index 3 is "
            "illegal.");
  EXPECT_EQ(error_of([] { torch::class_<NeverBound>("9ns", "X"); }),
            "Namespace name must be a valid Python/C++ identifier. Character '9' at index 0 is "
            "illegal.");
  auto impl = MAKE_TORCH_LIBRARY_IMPL(custom_class_test, CPU);
  const std::string msg = error_of([&] { impl.class_<NeverBound>("Never"); });
  EXPECT_EQ(msg.rfind("class_(\"Never\"): Cannot define a class inside of a TORCH_LIBRARY_IMPL "
                      "block.  All class_()s should be placed in the (unique) TORCH_LIBRARY "
                      "block for their namespace.  (Error occurred at ",
                      0),
            0u)
      << msg;
  EXPECT_FALSE(c10::isCustomClassRegistered(typeid(c10::intrusive_ptr<NeverBound>)));
}

}  // namespace
