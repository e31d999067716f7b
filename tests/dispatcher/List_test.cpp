// c10::List: shared, reference semantics; expected values read off libtorch 1.13.
#include <gtest/gtest.h>

#include <array>
#include <sstream>

#include "dispatcher/List.h"
#include "TestUtils.h"

namespace {

using c10::IValue;

using test_util::printed;

using test_util::error_of;

TEST(List, CopiesShareOneListAndCopyMakesANewOne) {
  c10::List<int64_t> a({1, 2});
  auto b = a;
  b[0] = 7;
  EXPECT_EQ(a.get(0), 7);
  EXPECT_TRUE(a.is(b));
  EXPECT_EQ(a.use_count(), 2u);
  auto c = a.copy();
  EXPECT_EQ(a.use_count(), 2u);
  EXPECT_EQ(c.use_count(), 1u);
  c.push_back(3);
  EXPECT_EQ(a.size(), 2u);
  EXPECT_EQ(c.size(), 3u);
  EXPECT_TRUE(a == b);
  EXPECT_FALSE(a == c);
  EXPECT_TRUE(a == c10::List<int64_t>({7, 2}));
}

TEST(List, IValueSharesTheList) {
  c10::List<int64_t> a({1, 2});
  IValue iv(a);
  EXPECT_EQ(a.use_count(), 2u);
  EXPECT_TRUE(iv.isIntList());
  EXPECT_TRUE(iv.toIntList().is(a));
  EXPECT_EQ(iv.use_count(), 2u);
  a.push_back(3);
  EXPECT_EQ(iv.toIntVector(), (std::vector<int64_t>{1, 2, 3}));
  // Taking the list out of an rvalue IValue moves the reference.
  auto taken = std::move(iv).toIntList();
  EXPECT_TRUE(iv.isNone());
  EXPECT_EQ(a.use_count(), 2u);
}

TEST(List, ElementReferencesReadAndWriteThrough) {
  c10::List<std::string> s({"x", "y"});
  s[1] = "z";
  EXPECT_EQ(s.get(1), "z");
  EXPECT_EQ(static_cast<std::string>(s[0]), "x");
  EXPECT_TRUE(s[0] == std::string("x"));
  c10::List<bool> flags({true, false});
  flags[1] = true;
  EXPECT_EQ(flags.vec(), (std::vector<bool>{true, true}));
  std::vector<int64_t> seen;
  const c10::List<int64_t> ints({4, 5, 6});
  for (int64_t x : ints) seen.push_back(x);
  EXPECT_EQ(seen, (std::vector<int64_t>{4, 5, 6}));
  c10::List<int64_t> mutable_ints({1, 2, 3});
  for (size_t i = 0; i < mutable_ints.size(); ++i) mutable_ints[i] = 0;
  EXPECT_EQ(mutable_ints.vec(), (std::vector<int64_t>{0, 0, 0}));
  mutable_ints.erase(mutable_ints.begin());
  mutable_ints.insert(mutable_ints.begin(), 9);
  EXPECT_EQ(mutable_ints.vec(), (std::vector<int64_t>{9, 0, 0}));
  EXPECT_EQ(mutable_ints.extract(0), 9);
}

TEST(List, KindsAndTags) {
  EXPECT_TRUE(IValue(c10::List<double>({3.5})).isDoubleList());
  EXPECT_TRUE(IValue(c10::List<bool>({true})).isBoolList());
  EXPECT_TRUE(IValue(c10::List<c10::complex<double>>({{1, 2}})).isComplexDoubleList());
  const IValue strings(c10::List<std::string>({"a"}));
  EXPECT_TRUE(strings.isList());
  EXPECT_FALSE(strings.isIntList());
  EXPECT_EQ(strings.tagKind(), "GenericList");
  EXPECT_EQ(strings.toList().get(0).toStringRef(), "a");
  const IValue nested(std::vector<std::vector<int64_t>>{{0}, {0, 1}});
  EXPECT_EQ(nested.to<std::vector<std::vector<int64_t>>>(),
            (std::vector<std::vector<int64_t>>{{0}, {0, 1}}));
  EXPECT_EQ(nested.to<c10::List<c10::List<int64_t>>>().get(1).vec(), (std::vector<int64_t>{0, 1}));
}

TEST(List, PrintsAsLibtorch) {
  EXPECT_EQ(printed(IValue(c10::List<int64_t>({1, 2, 3}))), "[1, 2, 3]");
  EXPECT_EQ(printed(IValue(c10::List<int64_t>())), "[]");
  EXPECT_EQ(printed(IValue(c10::List<double>({1.0, 2.5}))), "[1., 2.5]");
  EXPECT_EQ(printed(IValue(c10::List<bool>({true, false}))), "[True, False]");
  EXPECT_EQ(printed(IValue(c10::List<c10::complex<double>>({{1, 2}, {3, -4}}))),
            "[1.+2.j, 3.-4.j]");
  EXPECT_EQ(printed(IValue(std::vector<std::string>{"a", "b"})), "[a, b]");
  EXPECT_EQ(printed(IValue(std::vector<std::vector<int64_t>>({{0}, {0, 1}}))), "[[0], [0, 1]]");
  EXPECT_EQ(printed(IValue(
                c10::List<c10::List<int64_t>>({c10::List<int64_t>({1}), c10::List<int64_t>()}))),
            "[[1], []]");
  EXPECT_EQ(printed(IValue(std::vector<double>{1e-8, 0.1, 3.0})),
            "[1e-08, 0.10000000000000001, 3.]");
}

TEST(List, EqualityAsLibtorch) {
  EXPECT_EQ(IValue(std::vector<int64_t>{0, 1}), IValue(std::vector<int64_t>{0, 1}));
  EXPECT_NE(IValue(std::vector<int64_t>{0, 1}), IValue(std::vector<int64_t>{0, 1, 2}));
  // Different element types never compare equal, even empty.
  EXPECT_NE(IValue(std::vector<int64_t>{}), IValue(std::vector<double>{}));
  EXPECT_NE(IValue(std::vector<int64_t>{1}), IValue(std::vector<double>{1.0}));
  EXPECT_EQ(IValue(std::vector<std::vector<int64_t>>({{0}, {1}})),
            IValue(std::vector<std::vector<int64_t>>({{0}, {1}})));
  EXPECT_NE(IValue(std::vector<std::vector<int64_t>>({{0}, {1}})),
            IValue(std::vector<std::vector<int64_t>>({{1}, {1}})));
}

TEST(List, WrongKindErrors) {
  EXPECT_EQ(error_of([] { IValue(std::vector<double>{1}).toIntList(); }),
            "Expected IntList but got GenericList");
  EXPECT_EQ(error_of([] { IValue(1).toDoubleList(); }), "Expected DoubleList but got Int");
  EXPECT_EQ(error_of([] { IValue(1).toList(); }), "Expected GenericList but got Int");
  EXPECT_EQ(error_of([] { IValue(1).toComplexDoubleList(); }),
            "Expected ComplexDoubleList but got Int");
}

}  // namespace

namespace {

TEST(List, StdArraysBoxAsLists) {
  EXPECT_TRUE(IValue(std::array<bool, 2>{true, false}).isBoolList());
  const IValue strings(std::array<std::string, 2>{"first", "second"});
  EXPECT_EQ(strings.toListRef().size(), 2u);
  EXPECT_EQ(strings.toListRef()[1].toStringRef(), "second");
}

TEST(List, ListsConvertToStdArraysOfTheirSize) {
  const IValue ints(std::array<int64_t, 3>{1, 2, 3});
  EXPECT_TRUE(ints.isIntList());
  EXPECT_EQ((ints.to<std::array<int64_t, 3>>()), (std::array<int64_t, 3>{1, 2, 3}));
  const auto strings = IValue(std::array<std::string, 2>{"a", "b"}).to<std::array<std::string, 2>>();
  EXPECT_EQ(strings[1], "b");
  EXPECT_EQ(error_of([&] { ints.to<std::array<int64_t, 2>>(); }),
            "Tried to convert a List with 3 elements to a fixed-size array of size 2");
}

TEST(List, ArrayRefsOfAnyElementBoxAsLists) {
  const std::vector<std::string> names{"x", "y"};
  const IValue v{c10::ArrayRef<std::string>(names)};  // a GenericList of strings, as libtorch's
  EXPECT_TRUE(v.isList());
  EXPECT_EQ(printed(v), "[x, y]");
  EXPECT_EQ(v.to<std::vector<std::string>>(), names);
}

}  // namespace
