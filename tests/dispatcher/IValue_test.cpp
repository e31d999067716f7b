#include <gtest/gtest.h>

#include <limits>
#include <sstream>

#include "c10/core/TensorImpl.h"
#include "dispatcher/IValue.h"
#include "dispatcher/Stack.h"
#include "TestUtils.h"

namespace {

using c10::IValue;

at::Tensor make_tensor() {
  return at::detail::make_tensor<c10::TensorImpl>(c10::keysetForBackend(c10::DispatchKey::CPU),
                                                  caffe2::TypeMeta::Make<float>(),
                                                  c10::Device(c10::kCPU));
}

using test_util::printed;

using test_util::error_of;

TEST(IValue, IsSixteenBytes) {
  EXPECT_EQ(sizeof(IValue), 16u);
}

TEST(IValue, NumbersAndNone) {
  IValue none;
  EXPECT_TRUE(none.isNone());
  EXPECT_TRUE(IValue(c10::nullopt).isNone());
  EXPECT_EQ(none.tagKind(), "None");

  IValue i = 3;
  EXPECT_TRUE(i.isInt());
  EXPECT_EQ(i.toInt(), 3);
  EXPECT_EQ(IValue(int64_t(-7)).toInt(), -7);
  EXPECT_EQ(IValue(uint8_t(200)).toInt(), 200);
  EXPECT_EQ(IValue(2.5).toDouble(), 2.5);
  EXPECT_TRUE(IValue(true).toBool());
  EXPECT_EQ(IValue(false).tagKind(), "Bool");
  EXPECT_EQ(i.tagKind(), "Int");
  EXPECT_EQ(IValue(1.0).tagKind(), "Double");
}

TEST(IValue, ScalarsTravelAsIntDoubleOrBool) {
  EXPECT_TRUE(IValue(c10::Scalar(2)).isInt());
  EXPECT_TRUE(IValue(c10::Scalar(2.5)).isDouble());
  EXPECT_TRUE(IValue(c10::Scalar(true)).isBool());
  for (const IValue& v : {IValue(2), IValue(2.5), IValue(true)}) EXPECT_TRUE(v.isScalar());
  EXPECT_TRUE(IValue(2).toScalar().isIntegral(false));
  EXPECT_EQ(IValue(2.5).toScalar().toDouble(), 2.5);
  EXPECT_TRUE(IValue(true).toScalar().isBoolean());
  EXPECT_FALSE(IValue("s").isScalar());
  EXPECT_EQ(error_of([] { IValue("s").toScalar(); }), "IValue is not a Scalar");
}

TEST(IValue, EnumsAreStoredAsInt) {
  const IValue dtype = c10::kFloat;
  EXPECT_TRUE(dtype.isInt());
  EXPECT_EQ(dtype.toInt(), 6);  // PyTorch's numbering
  EXPECT_EQ(dtype.toScalarType(), c10::kFloat);
  EXPECT_EQ(IValue(c10::MemoryFormat::ChannelsLast).toMemoryFormat(),
            c10::MemoryFormat::ChannelsLast);
  EXPECT_EQ(IValue(c10::kStrided).toLayout(), c10::kStrided);
  EXPECT_EQ(printed(dtype), "6");
}

// Note [An enum from an IValue is checked]: a number that names no enumerator is an error, not
// a ScalarType that ends the process when its item size is asked for.
TEST(IValue, AnEnumMustNameAnEnumerator) {
  EXPECT_EQ(IValue(int64_t{15}).toScalarType(), c10::kBFloat16);
  EXPECT_EQ(IValue(int64_t{18}).toScalarType(), c10::ScalarType::Undefined);
  for (int64_t gap : {-1, 8, 12, 16, 19, 127}) {
    EXPECT_EQ(
        error_of([&] { IValue(gap).toScalarType(); }),
        "Expected a ScalarType but got the integer " + std::to_string(gap) + ", which names none");
  }
  EXPECT_EQ(error_of([] { IValue(int64_t{1}).toLayout(); }),
            "Expected a Layout but got the integer 1, which names none");
  EXPECT_EQ(error_of([] { IValue(int64_t{-1}).toMemoryFormat(); }),
            "Expected a MemoryFormat but got the integer -1, which names none");
  EXPECT_EQ(IValue(int64_t{3}).toMemoryFormat(), c10::MemoryFormat::ChannelsLast3d);
}

TEST(IValue, StringsAndDevices) {
  const IValue s = "hello";
  EXPECT_TRUE(s.isString());
  EXPECT_EQ(s.toStringRef(), "hello");
  EXPECT_EQ(s.toStringView(), "hello");
  EXPECT_EQ(IValue(std::string("a")), IValue(c10::string_view("a")));
  EXPECT_EQ(s.tagKind(), "String");

  const IValue d = c10::Device("cuda:1");
  EXPECT_TRUE(d.isDevice());
  EXPECT_EQ(d.toDevice(), c10::Device(c10::kCUDA, 1));
  EXPECT_EQ(printed(d), "cuda:1");
}

TEST(IValue, TensorsMoveOutWithoutACopy) {
  at::Tensor t = make_tensor();
  IValue v = t;
  EXPECT_TRUE(v.isTensor());
  EXPECT_TRUE(v.toTensor().is_same(t));
  EXPECT_EQ(t.use_count(), 2u);
  at::Tensor out = std::move(v).toTensor();
  EXPECT_TRUE(v.isNone());  // taken
  EXPECT_EQ(t.use_count(), 2u);
  EXPECT_TRUE(out.is_same(t));

  IValue undefined = at::Tensor();
  EXPECT_TRUE(undefined.isTensor());
  EXPECT_FALSE(undefined.toTensor().defined());
  EXPECT_EQ(printed(undefined), "[ Tensor (undefined) ]");
  EXPECT_EQ(printed(IValue(t)).rfind("[ CPUFloatType{", 0), 0u);
}

TEST(IValue, CopiesShareAndMovesLeaveNone) {
  at::Tensor t = make_tensor();
  IValue a = std::vector<at::Tensor>{t, t};
  IValue b = a;  // shares the list
  EXPECT_EQ(&a.toTensorList(), &b.toTensorList());
  EXPECT_EQ(t.use_count(), 3u);
  IValue c = std::move(a);
  EXPECT_TRUE(a.isNone());
  EXPECT_EQ(&c.toTensorList(), &b.toTensorList());
  // Taking the list from a shared IValue copies it; from the last owner, moves it.
  std::vector<at::Tensor> copied = std::move(c).toTensorList();
  EXPECT_EQ(t.use_count(), 5u);
  std::vector<at::Tensor> moved = std::move(b).toTensorList();
  EXPECT_EQ(t.use_count(), 5u);
  EXPECT_EQ(moved.size(), 2u);
  a = IValue(1.5);
  const IValue& same = a;
  a = same;  // self-assignment keeps the value
  EXPECT_EQ(a.toDouble(), 1.5);
}

TEST(IValue, Lists) {
  const std::vector<int64_t> ints{1, 2, 3};
  const IValue il = c10::IntArrayRef(ints);
  EXPECT_TRUE(il.isIntList());
  EXPECT_TRUE(il.isList());
  EXPECT_EQ(il.toIntVector(), ints);
  EXPECT_EQ(il.toIntList().vec(), ints);
  EXPECT_EQ(il.toIntListRef(), ints);
  EXPECT_EQ(il.tagKind(), "GenericList");  // as libtorch reports every list

  const IValue dl = std::vector<double>{1.0, 2.5};
  EXPECT_TRUE(dl.isDoubleList());
  EXPECT_EQ(dl.toDoubleVector(), (std::vector<double>{1.0, 2.5}));
  const IValue bl = std::vector<bool>{true, false};
  EXPECT_EQ(bl.toBoolList().vec(), (std::vector<bool>{true, false}));

  at::Tensor t = make_tensor();
  const IValue tl = std::vector<at::Tensor>{t};
  EXPECT_TRUE(tl.isTensorList());
  EXPECT_TRUE(tl.toTensorVector()[0].is_same(t));
  const IValue otl = std::vector<c10::optional<at::Tensor>>{t, c10::nullopt};
  EXPECT_TRUE(otl.isOptionalTensorList());
  EXPECT_FALSE(otl.toOptionalTensorList()[1].has_value());
  EXPECT_FALSE(IValue(3).isList());
}

TEST(IValue, Tuples) {
  const IValue t = c10::ivalue::Tuple::create({IValue(1), IValue("x")});
  EXPECT_TRUE(t.isTuple());
  ASSERT_EQ(t.toTupleRef().size(), 2u);
  EXPECT_EQ(t.toTupleRef().elements()[1].toStringRef(), "x");
  EXPECT_EQ(t.tagKind(), "Tuple");
}

TEST(IValue, PrintsAsLibtorch) {
  EXPECT_EQ(printed(IValue()), "None");
  EXPECT_EQ(printed(IValue(3)), "3");
  EXPECT_EQ(printed(IValue(true)), "True");
  EXPECT_EQ(printed(IValue(1.0)), "1.");
  EXPECT_EQ(printed(IValue(-0.0)), "0.");
  EXPECT_EQ(printed(IValue(0.1)), "0.10000000000000001");
  EXPECT_EQ(printed(IValue(1e-5)), "1.0000000000000001e-05");
  EXPECT_EQ(printed(IValue(9.2e18)), "9200000000000000000.");
  EXPECT_EQ(printed(IValue(1e19)), "1e+19");
  EXPECT_EQ(printed(IValue(std::numeric_limits<double>::infinity())), "inf");
  EXPECT_EQ(printed(IValue(4.9e-324)), "4.9406564584124654e-324");
  EXPECT_EQ(printed(IValue("a'b")), "a'b");  // raw; schemas quote their own defaults
  EXPECT_EQ(printed(IValue(std::vector<int64_t>{1, 2})), "[1, 2]");
  EXPECT_EQ(printed(IValue(std::vector<int64_t>{})), "[]");
  EXPECT_EQ(printed(IValue(std::vector<double>{1, 2.5})), "[1., 2.5]");
  EXPECT_EQ(printed(IValue(std::vector<bool>{true, false})), "[True, False]");
  EXPECT_EQ(printed(IValue(std::vector<at::Tensor>{at::Tensor()})), "[[ Tensor (undefined) ]]");
  EXPECT_EQ(printed(IValue(std::vector<c10::optional<at::Tensor>>{c10::nullopt})), "[None]");
  EXPECT_EQ(printed(c10::ivalue::Tuple::create({IValue(1), IValue("x")})), "(1, x)");
  EXPECT_EQ(printed(c10::ivalue::Tuple::create({IValue(1)})), "(1,)");
  EXPECT_EQ(printed(c10::ivalue::Tuple::create({})), "()");
}

TEST(IValue, WrongKindErrorsNameBothKinds) {
  EXPECT_EQ(error_of([] { IValue(1.5).toTensor(); }), "Expected Tensor but got Double");
  EXPECT_EQ(error_of([] { IValue(1.5).toInt(); }), "Expected Int but got Double");
  EXPECT_EQ(error_of([] { IValue(1).toDouble(); }), "Expected Double but got Int");
  EXPECT_EQ(error_of([] { IValue().toBool(); }), "Expected Bool but got None");
  EXPECT_EQ(error_of([] { IValue(1.5).toStringRef(); }), "Expected String but got Double");
  EXPECT_EQ(error_of([] { IValue(1.5).toIntVector(); }), "Expected IntList but got Double");
  EXPECT_EQ(error_of([] { IValue(std::vector<double>{}).toIntList(); }),
            "Expected IntList but got GenericList");
  EXPECT_EQ(error_of([] { IValue(1).toTupleRef(); }), "Expected Tuple but got Int");
  EXPECT_EQ(error_of([] { IValue(1).toDevice(); }), "Expected Device but got Int");
  EXPECT_EQ(error_of([] { IValue(1).toTensorList(); }), "Expected TensorList but got Int");
}

TEST(IValue, GenericToAndOptionals) {
  EXPECT_EQ(IValue(3).to<int64_t>(), 3);
  EXPECT_EQ(IValue(c10::kLong).to<c10::ScalarType>(), c10::kLong);
  EXPECT_EQ(IValue("s").to<std::string>(), "s");
  EXPECT_EQ(IValue(std::vector<int64_t>{1}).to<std::vector<int64_t>>(), std::vector<int64_t>{1});
  EXPECT_EQ(IValue(2.5).to<c10::Scalar>().toDouble(), 2.5);
  EXPECT_EQ(IValue().toOptional<int64_t>(), c10::nullopt);
  EXPECT_EQ(IValue(4).toOptional<int64_t>(), 4);
  EXPECT_EQ(IValue().to<c10::optional<double>>(), c10::nullopt);
  EXPECT_TRUE(IValue(c10::optional<int64_t>()).isNone());
  EXPECT_EQ(IValue(c10::optional<int64_t>(5)).toInt(), 5);
  at::Tensor t = make_tensor();
  EXPECT_TRUE(IValue(t).to<at::Tensor>().is_same(t));
  EXPECT_FALSE(IValue().toOptional<at::Tensor>().has_value());
}

TEST(IValue, EqualityIsDeepAndContainersCompareTensorsByIdentityFirst) {
  EXPECT_EQ(IValue(1), IValue(1));
  EXPECT_NE(IValue(1), IValue(1.0));
  EXPECT_EQ(IValue(std::vector<int64_t>{1, 2}), IValue(std::vector<int64_t>{1, 2}));
  EXPECT_EQ(IValue(c10::ivalue::Tuple::create({IValue(1), IValue("a")})),
            IValue(c10::ivalue::Tuple::create({IValue(1), IValue("a")})));
  at::Tensor t = make_tensor();
  EXPECT_TRUE(IValue(t).is(IValue(t)));
  EXPECT_FALSE(IValue(t).is(IValue(make_tensor())));
  // [container equality]: the same tensor in two lists is equal without comparing elements.
  EXPECT_EQ(IValue(std::vector<at::Tensor>{t}), IValue(std::vector<at::Tensor>{t}));
}

TEST(Stack, PushPopPeekDropLast) {
  torch::jit::Stack stack;
  torch::jit::push(stack, 1, 2.5, "three");
  ASSERT_EQ(stack.size(), 3u);
  EXPECT_EQ(torch::jit::peek(stack, 0, 3).toInt(), 1);  // first argument deepest
  EXPECT_EQ(torch::jit::last(stack, 2).size(), 2u);
  EXPECT_EQ(torch::jit::last(stack, 2)[0].toDouble(), 2.5);

  int64_t a = 0;
  double b = 0;
  std::string c;
  torch::jit::pop(stack, a, b, c);
  EXPECT_EQ(a, 1);
  EXPECT_EQ(b, 2.5);
  EXPECT_EQ(c, "three");
  EXPECT_TRUE(stack.empty());

  torch::jit::push(&stack, 4, 5, 6);
  EXPECT_EQ(torch::jit::pop(stack).toInt(), 6);
  const std::vector<IValue> popped = torch::jit::pop(stack, size_t(2));
  EXPECT_EQ(popped[0].toInt(), 4);
  EXPECT_EQ(popped[1].toInt(), 5);
  torch::jit::push_one(stack, IValue(7));
  torch::jit::drop(stack, 1);
  EXPECT_TRUE(stack.empty());
}

}  // namespace
