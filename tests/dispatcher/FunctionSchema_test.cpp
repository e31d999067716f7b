#include <gtest/gtest.h>

#include <limits>
#include <sstream>
#include <unordered_map>

#include "dispatcher/FunctionSchema.h"

// Schemas built field by field; the printed texts are what libtorch 1.13 prints for the same
// schema.

namespace {

using c10::AliasInfo;
using c10::Argument;
using c10::FunctionSchema;
using c10::IValue;
using c10::SchemaType;
using c10::TypeKind;

template <typename T>
std::string str(const T& x) {
  std::ostringstream ss;
  ss << x;
  return ss.str();
}

AliasInfo alias(std::vector<std::string> before, bool write,
                c10::optional<std::vector<std::string>> after = c10::nullopt) {
  AliasInfo info;
  for (const auto& s : before) info.addBeforeSet(s);
  for (const auto& s : after ? *after : before) info.addAfterSet(s);
  info.setIsWrite(write);
  return info;
}

TEST(OperatorName, PrintsHashesAndCompares) {
  const c10::OperatorName add_out("aten::add", "out");
  const c10::OperatorName add("aten::add", "");
  EXPECT_EQ(c10::toString(add_out), "aten::add.out");
  EXPECT_EQ(str(add), "aten::add");
  EXPECT_NE(add, add_out);
  EXPECT_EQ(add_out, c10::OperatorName("aten::add", "out"));
  EXPECT_EQ(add.getNamespace(), c10::string_view("aten"));
  EXPECT_EQ(c10::OperatorName("relu", "").getNamespace(), c10::nullopt);
  std::unordered_map<c10::OperatorName, int> table{{add, 1}, {add_out, 2}};
  EXPECT_EQ(table.at(c10::OperatorName("aten::add", "out")), 2);
}

TEST(AliasInfo, PrintsSetsWriteAndArrow) {
  EXPECT_EQ(str(alias({"a"}, false)), "(a)");
  EXPECT_EQ(str(alias({"a"}, true)), "(a!)");
  EXPECT_EQ(str(alias({"a", "b"}, false)), "(a|b)");
  EXPECT_EQ(str(alias({"a"}, false, std::vector<std::string>{"*"})), "(a -> *)");
  EXPECT_EQ(str(alias({"a"}, true, std::vector<std::string>{"b", "c"})), "(a! -> b|c)");
  EXPECT_EQ(str(alias({}, true)), "(!)");

  AliasInfo dup;
  dup.addBeforeSet("a");
  dup.addBeforeSet("a");
  EXPECT_EQ(dup.beforeSets().size(), 1u);
  EXPECT_EQ(dup.beforeSet(), "a");
  EXPECT_FALSE(dup.isWildcardBefore());
  EXPECT_TRUE(alias({"*"}, false).isWildcardBefore());
  EXPECT_THROW(alias({"a", "b"}, false).beforeSet(), c10::Error);
  EXPECT_EQ(alias({"a", "b"}, false), alias({"b", "a"}, false));
  EXPECT_NE(alias({"a"}, false), alias({"a"}, true));
}

TEST(Argument, DefaultsToTensorAndKnowsOutArguments) {
  const Argument plain("self");
  EXPECT_TRUE(plain.type()->isTensor());
  EXPECT_EQ(plain.real_type(), plain.type());
  EXPECT_FALSE(plain.is_out());
  EXPECT_EQ(str(plain), "Tensor self");

  const Argument out("out", nullptr, c10::nullopt, c10::nullopt, /*kwarg_only=*/true,
                     alias({"a"}, true));
  EXPECT_TRUE(out.is_out());
  EXPECT_EQ(str(out), "Tensor(a!) out");
  // Written but positional: not an out= argument (libtorch's in-place `self`).
  EXPECT_FALSE(
      Argument("self", nullptr, c10::nullopt, c10::nullopt, false, alias({"a"}, true)).is_out());
  EXPECT_FALSE(
      Argument("x", nullptr, c10::nullopt, c10::nullopt, true, alias({"a"}, false)).is_out());
}

TEST(Argument, PrintsListsWithElementAliasAndSize) {
  const auto tensor_list = SchemaType::list(SchemaType::get(TypeKind::Tensor));
  AliasInfo element_written;
  element_written.setIsWrite(true);
  element_written.addContainedType(alias({"a"}, true));
  EXPECT_EQ(str(Argument("out", tensor_list, c10::nullopt, c10::nullopt, true, element_written)),
            "Tensor(a!)[] out");

  AliasInfo both = alias({"b"}, false);
  both.addContainedType(alias({"a"}, false));
  EXPECT_EQ(str(Argument("v", tensor_list, c10::nullopt, c10::nullopt, false, both)),
            "Tensor(a)[](b) v");

  const auto ints = SchemaType::list(SchemaType::get(TypeKind::Int));
  EXPECT_EQ(str(Argument("stride", ints, 2, IValue(std::vector<int64_t>{1, 1}))),
            "int[2] stride=1");
  EXPECT_EQ(str(Argument("pad", ints, 2, IValue(std::vector<int64_t>{1, 2}))), "int[2] pad=[1, 2]");
  EXPECT_EQ(str(Argument("dims", ints, c10::nullopt, IValue(std::vector<int64_t>{0}))),
            "int[] dims=[0]");
  EXPECT_EQ(str(Argument("dim", SchemaType::optional(ints), 1, IValue())), "int[1]? dim=None");
  // Only a default of N equal elements collapses: these print as lists (libtorch 1.13 prints
  // `y=1`, which parses back as [1], or not at all; see Note [How a schema prints]).
  EXPECT_EQ(str(Argument("y", ints, 1, IValue(std::vector<int64_t>{1, 1}))), "int[1] y=[1, 1]");
  EXPECT_EQ(str(Argument("y", ints, c10::nullopt, IValue(std::vector<int64_t>{1, 1}))),
            "int[] y=[1, 1]");
  // A string default of another type is quoted too, so it parses back (libtorch prints `s=a`).
  EXPECT_EQ(str(Argument("s", SchemaType::get(TypeKind::Int), c10::nullopt, IValue("a b"))),
            "int s=\"a b\"");
}

TEST(Argument, PrintsDefaultsAsLibtorchDoes) {
  auto arg = [](TypeKind kind, IValue v) {
    return str(Argument("x", SchemaType::get(kind), c10::nullopt, std::move(v)));
  };
  EXPECT_EQ(arg(TypeKind::Float, 1.0), "float x=1.");
  EXPECT_EQ(arg(TypeKind::Float, 1e-5), "float x=1.0000000000000001e-05");
  EXPECT_EQ(arg(TypeKind::Float, 0.5), "float x=0.5");
  EXPECT_EQ(arg(TypeKind::Float, -std::numeric_limits<double>::infinity()), "float x=-inf");
  EXPECT_EQ(arg(TypeKind::Bool, false), "bool x=False");
  EXPECT_EQ(arg(TypeKind::Scalar, 1), "Scalar x=1");
  EXPECT_EQ(arg(TypeKind::MemoryFormat, c10::MemoryFormat::Contiguous), "MemoryFormat x=0");
  EXPECT_EQ(arg(TypeKind::ScalarType, c10::kLong), "ScalarType x=4");
  EXPECT_EQ(arg(TypeKind::Str, "it's \"q\"\n\\"), R"(str x="it\'s \"q\"\n\\")");
  EXPECT_EQ(arg(TypeKind::Str, std::string("\x01\x7f", 2)), R"(str x="\001\177")");
  EXPECT_EQ(str(Argument("x", SchemaType::optional(SchemaType::get(TypeKind::Str)), c10::nullopt,
                         IValue("linear"))),
            R"(str? x="linear")");
  EXPECT_EQ(arg(TypeKind::Device, c10::Device("cuda:1")), "Device x=cuda:1");
}

FunctionSchema schema(std::vector<Argument> args, std::vector<Argument> rets, bool vararg = false,
                      bool varret = false) {
  return FunctionSchema("ns::op", "ov", std::move(args), std::move(rets), vararg, varret);
}

TEST(FunctionSchema, PrintsReturnsLikeLibtorch) {
  const Argument t("", nullptr);
  const Argument named("out", nullptr);
  EXPECT_EQ(c10::toString(schema({}, {})), "ns::op.ov() -> ()");
  EXPECT_EQ(c10::toString(schema({}, {t})), "ns::op.ov() -> Tensor");
  // A single named return prints bare too.
  EXPECT_EQ(c10::toString(schema({}, {named})), "ns::op.ov() -> Tensor out");
  EXPECT_EQ(c10::toString(schema({}, {t, named})), "ns::op.ov() -> (Tensor, Tensor out)");
  EXPECT_EQ(c10::toString(schema({}, {}, true, true)), "ns::op.ov(...) -> ...");
  EXPECT_EQ(c10::toString(schema({Argument("a")}, {t}, true, true)),
            "ns::op.ov(Tensor a, ...) -> (Tensor, ...)");
  const auto tuple = SchemaType::tuple({SchemaType::get(TypeKind::Int)});
  EXPECT_EQ(c10::toString(schema({}, {Argument("", tuple)})), "ns::op.ov() -> ((int))");
  EXPECT_EQ(c10::toString(FunctionSchema("relu", "", {Argument("self")}, {t})),
            "relu(Tensor self) -> Tensor");
}

TEST(FunctionSchema, MarksTheFirstKeywordOnlyArgument) {
  const auto s = schema({Argument("self"), Argument("a", nullptr, c10::nullopt, c10::nullopt, true),
                         Argument("b", nullptr, c10::nullopt, c10::nullopt, true)},
                        {});
  EXPECT_EQ(c10::toString(s), "ns::op.ov(Tensor self, *, Tensor a, Tensor b) -> ()");
  EXPECT_EQ(s.argumentIndexWithName("b"), 2);
  EXPECT_FALSE(s.is_mutable());
}

TEST(FunctionSchema, ChecksDefaultOrderAndComparesFieldByField) {
  const Argument with_default("x", SchemaType::get(TypeKind::Int), c10::nullopt, IValue(1));
  try {
    schema({with_default, Argument("y", SchemaType::get(TypeKind::Int))}, {});
    FAIL();
  } catch (const c10::Error& e) {
    EXPECT_EQ(e.msg(),
              "Non-default positional argument follows default argument. Parameter y in "
              "ns::op.ov(int x=1, int y) -> ()");
  }
  const auto a = schema({with_default}, {Argument()});
  EXPECT_EQ(a, schema({with_default}, {Argument()}));
  EXPECT_NE(a, schema({with_default}, {Argument("named")}));
  EXPECT_NE(a, schema({Argument("x", SchemaType::get(TypeKind::Int), c10::nullopt, IValue(2))},
                      {Argument()}));
  EXPECT_NE(a, schema({with_default}, {Argument()}, false, true));
}

}  // namespace
