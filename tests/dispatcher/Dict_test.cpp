// c10::Dict: insertion-ordered, shared, keys hashed as libtorch; expected values read off
// libtorch 1.13.
#include <gtest/gtest.h>

#include <sstream>
#include <unordered_map>

#include "c10/core/TensorImpl.h"
#include "dispatcher/Dict.h"
#include "TestUtils.h"

namespace {

using c10::IValue;

using test_util::printed;

using test_util::error_of;

at::Tensor make_tensor() {
  return at::detail::make_tensor<c10::TensorImpl>(c10::keysetForBackend(c10::DispatchKey::CPU),
                                                  caffe2::TypeMeta::Make<float>(),
                                                  c10::Device(c10::kCPU));
}

TEST(Dict, InsertionOrderedAndInsertNeverOverwrites) {
  c10::Dict<std::string, int64_t> d;
  d.insert("one", 1);
  d.insert("two", 2);
  d.insert("three", 3);
  EXPECT_FALSE(d.insert("one", 100).second);
  EXPECT_EQ(d.at("one"), 1);
  EXPECT_FALSE(d.insert_or_assign("one", 11).second);
  EXPECT_EQ(d.at("one"), 11);
  EXPECT_EQ(d.erase("one"), 1u);
  d.insert("one", 1);
  EXPECT_EQ(printed(IValue(d)), "{two: 2, three: 3, one: 1}");
  EXPECT_EQ(d.size(), 3u);
  EXPECT_TRUE(d.contains("two"));
  EXPECT_TRUE(d.find("zz") == d.end());
  std::vector<std::string> keys;
  for (const auto& entry : d) keys.push_back(entry.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"two", "three", "one"}));
  d.begin()->setValue(20);
  EXPECT_EQ(d.at("two"), 20);
}

TEST(Dict, SharedUntilCopied) {
  c10::Dict<std::string, int64_t> d;
  d.insert("a", 1);
  auto same = d;
  same.insert("b", 2);
  EXPECT_EQ(d.size(), 2u);
  auto other = d.copy();
  other.insert("c", 3);
  EXPECT_EQ(d.size(), 2u);
  EXPECT_FALSE(d == other);
  IValue v(d);
  auto generic = v.toGenericDict();
  EXPECT_TRUE(generic.is(v.toGenericDict()));
  EXPECT_EQ(generic.at(IValue("b")), IValue(2));
  EXPECT_EQ((v.to<c10::Dict<std::string, int64_t>>().at("a")), 1);
}

TEST(Dict, EqualityIgnoresOrder) {
  c10::Dict<std::string, int64_t> a, b;
  a.insert("one", 1);
  a.insert("two", 2);
  b.insert("two", 2);
  b.insert("one", 1);
  EXPECT_EQ(a, b);
  b.insert_or_assign("one", 3);
  EXPECT_NE(a, b);
}

TEST(Dict, KeysHashAsLibtorch) {
  at::Tensor t1 = make_tensor(), t1b = t1, t2 = make_tensor();
  c10::Dict<at::Tensor, int64_t> by_identity;
  by_identity.insert(t1, 1);
  by_identity.insert(t2, 2);
  by_identity.insert(t1b, 3);
  EXPECT_EQ(by_identity.size(), 2u);
  EXPECT_EQ(by_identity.at(t1), 1);

  c10::Dict<c10::complex<double>, int64_t> complex_keys;
  complex_keys.insert(c10::complex<double>(2.3, -3.5), 1);
  EXPECT_EQ(complex_keys.at(c10::complex<double>(2.3, -3.5)), 1);
  c10::Dict<double, std::string> doubles;
  doubles.insert(1.5, "a");
  EXPECT_EQ(printed(IValue(doubles)), "{1.5: a}");
  c10::Dict<bool, int64_t> bools;
  bools.insert(true, 1);
  EXPECT_EQ(printed(IValue(bools)), "{True: 1}");
  c10::Dict<int64_t, std::string> ints;
  ints.insert(1, "x");
  EXPECT_EQ(printed(IValue(ints)), "{1: x}");
  EXPECT_EQ(printed(IValue(c10::Dict<std::string, int64_t>())), "{}");
}

TEST(Dict, Errors) {
  EXPECT_EQ(error_of([] { c10::Dict<std::string, int64_t>().at("three"); }),
            "Argument passed to at() was not in the map.");
  EXPECT_EQ(error_of([] {
              c10::Dict<IValue, IValue> d(c10::StringType::get(), c10::IntType::get());
              d.insert(IValue(std::vector<int64_t>{1}), 1);
            }),
            "Can't hash IValues with tag 'GenericList'");
  EXPECT_EQ(error_of([] { IValue(1).toGenericDict(); }), "Expected GenericDict but got Int");
  EXPECT_EQ(IValue(c10::Dict<std::string, int64_t>()).tagKind(), "GenericDict");
}

}  // namespace

namespace {

TEST(Dict, TypedAndGenericViewsShareTheDict) {
  c10::Dict<int64_t, std::string> typed;
  typed.insert(1, "one");
  c10::impl::GenericDict generic = c10::impl::toGenericDict(typed);
  EXPECT_TRUE(generic.is(c10::impl::toGenericDict(typed)));
  auto back = c10::impl::toTypedDict<int64_t, std::string>(generic);
  back.insert(2, "two");
  EXPECT_EQ(typed.size(), 2u);
  EXPECT_EQ(error_of([] {
              c10::Dict<int64_t, std::string> d;
              c10::impl::toTypedDict<std::string, std::string>(c10::impl::toGenericDict(d));
            }),
            "Tried to cast a Dict<int, str> to a Dict<str, str>. Key or value types mismatch.");
}

// The deprecated std::unordered_map boxes as a Dict and unboxes back (libtorch prints it so).
TEST(Dict, UnorderedMapsBoxAsDicts) {
  const std::unordered_map<std::string, int64_t> map{{"a", 1}};
  const IValue v(map);
  EXPECT_TRUE(v.isGenericDict());
  EXPECT_EQ(printed(v), "{a: 1}");
  EXPECT_EQ(v.toGenericDict().keyType()->str(), "str");
  EXPECT_EQ((v.to<std::unordered_map<std::string, int64_t>>()), map);
  EXPECT_EQ(error_of([&] { IValue(3).to<std::unordered_map<std::string, int64_t>>(); }),
            "Expected GenericDict but got Int");
}

}  // namespace
