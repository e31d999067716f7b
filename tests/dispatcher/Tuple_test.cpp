// ivalue::Tuple and TupleElements; expected values read off libtorch 1.13.
#include <gtest/gtest.h>

#include <sstream>

#include "dispatcher/Tuple.h"
#include "TestUtils.h"

namespace {

using c10::IValue;
using c10::ivalue::Tuple;
using c10::ivalue::TupleElements;

using test_util::printed;

TEST(Tuple, CreateFromElementsOrArguments) {
  auto a = Tuple::create({IValue(1), IValue("x")});
  auto b = Tuple::create(1, "x");
  auto c = Tuple::create(std::vector<IValue>{1, "x"});
  EXPECT_EQ(*a, *b);
  EXPECT_EQ(*a, *c);
  EXPECT_EQ(a->size(), 2u);
  EXPECT_EQ(b->elements()[1].toStringRef(), "x");
  EXPECT_EQ(Tuple::create(IValue(5))->size(), 1u);
  EXPECT_EQ(Tuple::create({})->size(), 0u);
}

TEST(Tuple, FromAndToStdTuple) {
  IValue v(std::make_tuple(int64_t(123), std::string("s"), 2.5));
  EXPECT_TRUE(v.isTuple());
  auto t = v.to<std::tuple<int64_t, std::string, double>>();
  EXPECT_EQ(std::get<0>(t), 123);
  EXPECT_EQ(std::get<1>(t), "s");
  EXPECT_EQ(std::get<2>(t), 2.5);
  EXPECT_TRUE(v.toTuple()->elements()[2].isDouble());
}

TEST(Tuple, PrintsAsPython) {
  EXPECT_EQ(printed(IValue(std::make_tuple(3))), "(3,)");
  EXPECT_EQ(printed(IValue(std::make_tuple(3, 3))), "(3, 3)");
  EXPECT_EQ(printed(IValue(std::make_tuple(3, "x", 2.5))), "(3, x, 2.5)");
  EXPECT_EQ(printed(IValue(std::make_tuple(std::make_tuple(1, "a"), 2.0))), "((1, a), 2.)");
  EXPECT_EQ(printed(Tuple::create(std::vector<IValue>{})), "()");
}

TEST(Tuple, HashesItsElementsAsLibtorch) {
  EXPECT_EQ(IValue::hash(IValue(std::make_tuple(1, 2))), 175247769363u);
  EXPECT_EQ(IValue(std::make_tuple(1, 2, "a")).hash().toInt(), 4993903792897057979);
  EXPECT_EQ(IValue(std::make_tuple(IValue(), 2.5)).hash().toInt(), -9080642156996543102);
}

TEST(TupleElements, AccessAndMoveOut) {
  TupleElements three(1, 2, 3);
  EXPECT_EQ(three.size(), 3u);
  EXPECT_FALSE(three.empty());
  EXPECT_EQ(three[1].toInt(), 2);
  EXPECT_EQ(three.at(2).toInt(), 3);
  EXPECT_EQ((three.begin() + 1)->toInt(), 2);
  EXPECT_EQ(three.back().toInt(), 3);
  three.setContents({IValue("a")});
  EXPECT_EQ(three.size(), 1u);
  std::vector<IValue> out = std::move(three).vec();
  EXPECT_EQ(out[0].toStringRef(), "a");
  EXPECT_TRUE(TupleElements().empty());
}

}  // namespace
