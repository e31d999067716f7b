// torch::jit::pickle_save / pickle_load: round trips over every dtype and layout, containers,
// storage sharing, the archive's layout, memory-mapped loading, and a file libtorch 1.13 wrote.
#include "aten/serialization/Pickle.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>

#include "aten/ATen.h"
#include "aten/serialization/MappedFile.h"
#include "aten/serialization/PickleArchive.h"
#include "aten/serialization/Unpickler.h"
#include "dispatcher/Dict.h"
#include "dispatcher/List.h"
#include "dispatcher/Tuple.h"

namespace {

using at::Tensor;
using c10::IValue;

IValue round_trip(const IValue& v) {
  return torch::jit::pickle_load(torch::jit::pickle_save(v));
}

// The bytes a tensor's storage holds, whole.
std::string storage_bytes(const Tensor& t) {
  return std::string(static_cast<const char*>(t.storage().data()), t.storage().nbytes());
}

void expect_same_tensor(const Tensor& expected, const Tensor& actual) {
  EXPECT_EQ(actual.scalar_type(), expected.scalar_type());
  EXPECT_EQ(actual.sizes(), expected.sizes());
  EXPECT_EQ(actual.strides(), expected.strides());
  EXPECT_EQ(actual.storage_offset(), expected.storage_offset());
  EXPECT_EQ(actual.requires_grad(), expected.requires_grad());
  EXPECT_EQ(storage_bytes(actual), storage_bytes(expected));  // the whole storage came back
}

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "/miniaten_pickle_" + name + "_" + std::to_string(::getpid());
}

// ---- every dtype --------------------------------------------------------------------------

class PickleDtype : public ::testing::TestWithParam<c10::ScalarType> {};

TEST_P(PickleDtype, RoundTripKeepsDtypeLayoutAndBytes) {
  const Tensor t = at::arange(0, 12, 1).to(GetParam()).view({3, 4});
  const Tensor back = round_trip(t).toTensor();
  expect_same_tensor(t, back);
  EXPECT_TRUE(at::equal(back, t));
  EXPECT_NE(back.storage().data(), t.storage().data());
}

INSTANTIATE_TEST_SUITE_P(AllDtypes, PickleDtype,
                         ::testing::Values(at::kFloat, at::kDouble, at::kHalf, at::kBFloat16,
                                           at::kInt, at::kLong, at::kShort, at::kChar, at::kByte,
                                           at::kBool, at::kComplexFloat, at::kComplexDouble),
                         [](const auto& info) { return std::string(c10::toString(info.param)); });

// ---- every layout -------------------------------------------------------------------------

struct Layout {
  const char* name;
  std::function<Tensor(const Tensor&)> make;  // a view of a 2x3x4x5 float tensor (or new)
};

class PickleLayout : public ::testing::TestWithParam<Layout> {};

TEST_P(PickleLayout, ViewComesBackAsTheSameViewOfTheWholeStorage) {
  const Tensor base = at::arange(0, 120, 1).to(at::kFloat).view({2, 3, 4, 5});
  const Tensor t = GetParam().make(base);
  const Tensor back = round_trip(t).toTensor();
  expect_same_tensor(t, back);
  EXPECT_TRUE(at::equal(back, t));
}

INSTANTIATE_TEST_SUITE_P(
    Layouts, PickleLayout,
    ::testing::Values(Layout{"contiguous", [](const Tensor& b) { return b; }},
                      Layout{"transposed", [](const Tensor& b) { return b.transpose(0, 3); }},
                      Layout{"sliced_with_offset",
                             [](const Tensor& b) { return b.select(0, 1).narrow(2, 1, 2); }},
                      Layout{"channels_last",
                             [](const Tensor& b) {
                               return b.contiguous(at::MemoryFormat::ChannelsLast);
                             }},
                      Layout{"expanded",
                             [](const Tensor& b) {
                               return b.select(3, 2).select(2, 1).unsqueeze(2).expand({2, 3, 7});
                             }},
                      Layout{"zero_size", [](const Tensor& b) { return b.narrow(1, 1, 0); }},
                      Layout{"empty_storage",
                             [](const Tensor&) {
                               return at::empty({0, 4});
                             }},
                      Layout{"zero_dim", [](const Tensor& b) { return b[1][2][3][4]; }}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(Pickle, ViewsSharingAStorageShareItAfterLoading) {
  const Tensor base = at::arange(0, 24, 1).to(at::kLong).view({4, 6});
  const Tensor a = base.t();
  const Tensor b = base.narrow(0, 1, 2);
  const IValue back = round_trip(c10::ivalue::Tuple::create({a, b}));
  const Tensor a2 = back.toTupleRef().elements()[0].toTensor();
  const Tensor b2 = back.toTupleRef().elements()[1].toTensor();
  EXPECT_EQ(a2.storage().data(), b2.storage().data());
  EXPECT_TRUE(a2.is_alias_of(b2));
  expect_same_tensor(a, a2);
  expect_same_tensor(b, b2);
  b2.fill_(-1);  // one storage: a write through one view shows in the other
  EXPECT_EQ(a2[1][2].item<int64_t>(), -1);
}

TEST(Pickle, TheSameTensorTwiceIsOneTensorAfterLoading) {
  const Tensor t = at::ones({3});
  const IValue back = round_trip(c10::List<Tensor>({t, t}));
  ASSERT_TRUE(back.isTensorList());
  const auto& list = back.toTensorListRef();
  EXPECT_TRUE(list[0].is_same(list[1]));
}

TEST(Pickle, RequiresGradComesBack) {
  const Tensor t = at::ones({2}).set_requires_grad(true);
  EXPECT_TRUE(round_trip(t).toTensor().requires_grad());
}

// ---- containers and numbers -----------------------------------------------------------------

TEST(Pickle, NestedContainersAndNumbersRoundTrip) {
  c10::impl::GenericDict dict(c10::StringType::get(), c10::AnyType::get());
  const std::vector<int64_t> ints = {0,
                                     1,
                                     255,
                                     256,
                                     65535,
                                     65536,
                                     -1,
                                     -129,
                                     std::numeric_limits<int32_t>::min(),
                                     std::numeric_limits<int32_t>::max(),
                                     int64_t{1} << 40,
                                     std::numeric_limits<int64_t>::min(),
                                     std::numeric_limits<int64_t>::max()};
  dict.insert("ints", ints);
  dict.insert("doubles",
              std::vector<double>{0.5, -0.0, 1e300, std::numeric_limits<double>::infinity()});
  dict.insert("bools", std::vector<bool>{true, false, true});
  dict.insert("strings", c10::List<std::string>({"a", "", "h\xc3\xa9llo"}));
  dict.insert("tuple", c10::ivalue::Tuple::create(
                           {1, "two", 3.5, false, IValue(), IValue(c10::complex<double>(1, -2))}));
  dict.insert("empty_tuple", c10::ivalue::Tuple::create(std::vector<IValue>()));
  dict.insert("single", c10::ivalue::Tuple::create({IValue(7)}));
  c10::Dict<int64_t, std::string> by_int;
  by_int.insert(3, "three");
  by_int.insert(-4, "minus four");
  dict.insert("by_int", by_int);
  c10::impl::GenericList nested(c10::List<IValue>{});
  nested.push_back(IValue(std::vector<int64_t>{1, 2}));
  nested.push_back(IValue(c10::Dict<std::string, Tensor>()));
  dict.insert("nested", nested);
  dict.insert("none", IValue());
  dict.insert("true", true);
  dict.insert("double", 2.25);
  dict.insert("nan", std::nan(""));
  dict.insert("device", c10::Device("cpu"));

  const IValue back = round_trip(dict);
  ASSERT_TRUE(back.isGenericDict());
  const auto d = back.toGenericDict();
  EXPECT_EQ(d.keyType()->str(), "str");
  EXPECT_EQ(d.valueType()->str(), "Any");
  ASSERT_EQ(d.size(), dict.size());
  EXPECT_EQ(d.at("ints").toIntVector(), ints);
  const auto doubles = d.at("doubles").toDoubleVector();
  ASSERT_EQ(doubles.size(), 4u);
  EXPECT_EQ(doubles[1], 0.0);
  EXPECT_TRUE(std::signbit(doubles[1]));
  EXPECT_EQ(doubles[2], 1e300);
  EXPECT_TRUE(std::isinf(doubles[3]));
  EXPECT_EQ(d.at("bools").toBoolListRef(), (std::vector<bool>{true, false, true}));
  ASSERT_TRUE(d.at("strings").isList());
  EXPECT_EQ(d.at("strings").to<c10::List<std::string>>().vec(),
            (std::vector<std::string>{"a", "", "h\xc3\xa9llo"}));
  const auto& tuple = d.at("tuple").toTupleRef().elements();
  ASSERT_EQ(tuple.size(), 6u);
  EXPECT_EQ(tuple[0].toInt(), 1);
  EXPECT_EQ(tuple[1].toStringRef(), "two");
  EXPECT_EQ(tuple[2].toDouble(), 3.5);
  EXPECT_FALSE(tuple[3].toBool());
  EXPECT_TRUE(tuple[4].isNone());
  EXPECT_EQ(tuple[5].toComplexDouble(), c10::complex<double>(1, -2));
  EXPECT_EQ(d.at("empty_tuple").toTupleRef().elements().size(), 0u);
  EXPECT_EQ(d.at("single").toTupleRef().elements()[0].toInt(), 7);
  const auto by_int_back = d.at("by_int").toGenericDict();
  EXPECT_EQ(by_int_back.keyType()->str(), "int");
  EXPECT_EQ(by_int_back.at(-4).toStringRef(), "minus four");
  // Insertion order is kept.
  EXPECT_EQ(by_int_back.begin()->key().toInt(), 3);
  const auto nested_back = d.at("nested").toListRef();
  ASSERT_EQ(nested_back.size(), 2u);
  EXPECT_EQ(nested_back[0].toIntVector(), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(nested_back[1].toGenericDict().valueType()->str(), "Tensor");
  EXPECT_TRUE(d.at("none").isNone());
  EXPECT_TRUE(d.at("true").toBool());
  EXPECT_EQ(d.at("double").toDouble(), 2.25);
  EXPECT_TRUE(std::isnan(d.at("nan").toDouble()));
  EXPECT_EQ(d.at("device").toDevice(), c10::Device("cpu"));
}

TEST(Pickle, ScalarsAtTheTopRoundTrip) {
  EXPECT_EQ(round_trip(IValue(int64_t{-5})).toInt(), -5);
  EXPECT_EQ(round_trip(IValue("s")).toStringRef(), "s");
  EXPECT_TRUE(round_trip(IValue()).isNone());
  EXPECT_EQ(round_trip(IValue(std::vector<int64_t>{})).toIntVector().size(), 0u);
}

TEST(Pickle, ValuesOutsideTheFormatAreRefused) {
  EXPECT_THROW(torch::jit::pickle_save(IValue(Tensor())), c10::Error);
}

// ---- the archive ----------------------------------------------------------------------------

// (name, data offset, size) of each entry, walking the local headers from the start.
struct Entry {
  std::string name;
  size_t data_offset;
  size_t size;
};
std::vector<Entry> local_entries(const std::vector<char>& zip) {
  std::vector<Entry> out;
  size_t at = 0;
  auto u16 = [&](size_t p) {
    return static_cast<size_t>(uint8_t(zip[p]) | uint8_t(zip[p + 1]) << 8);
  };
  auto u32 = [&](size_t p) { return u16(p) | u16(p + 2) << 16; };
  while (at + 30 <= zip.size() && u32(at) == 0x04034b50) {
    const size_t name_len = u16(at + 26), extra_len = u16(at + 28), size = u32(at + 18);
    const size_t data = at + 30 + name_len + extra_len;
    out.push_back({std::string(&zip[at + 30], name_len), data, size});
    at = data + size;
  }
  return out;
}

TEST(PickleArchive, EntriesAreStoredInPyTorchsOrderWithAlignedData) {
  c10::Dict<std::string, Tensor> d;
  d.insert("a", at::ones({3}, at::kByte));
  d.insert("b", at::ones({5}, at::kDouble));
  const std::vector<char> zip = torch::jit::pickle_save(d);
  const auto entries = local_entries(zip);
  ASSERT_EQ(entries.size(), 4u);
  EXPECT_EQ(entries[0].name, "archive/data/0");
  EXPECT_EQ(entries[1].name, "archive/data/1");
  EXPECT_EQ(entries[2].name, "archive/data.pkl");
  EXPECT_EQ(entries[3].name, "archive/version");
  for (const Entry& e : entries) EXPECT_EQ(e.data_offset % 64, 0u) << e.name;
  EXPECT_EQ(std::string(&zip[entries[3].data_offset], 2), "3\n");
  EXPECT_EQ(entries[1].size, 40u);
}

TEST(PickleArchive, FileLoadsMapStoragesInPlace) {
  const std::string path = temp_path("mapped");
  const Tensor t = at::arange(0, 1000, 1).to(at::kFloat).view({10, 100}).t();
  torch::jit::pickle_save_file(t, path);
  {
    auto file = at::serialization::MappedFile::open(path);
    at::serialization::ArchiveReader reader(file);
    EXPECT_EQ(reader.archive_name(), "archive");
    ASSERT_TRUE(reader.is_mapped("data/0"));
    auto record = reader.get_record("data/0");
    EXPECT_EQ(record.second, 4000u);
    EXPECT_GE(static_cast<const char*>(record.first.get()), file->data());
    EXPECT_LT(static_cast<const char*>(record.first.get()), file->data() + file->size());
  }
  Tensor back = torch::jit::pickle_load_file(path).toTensor();
  std::remove(path.c_str());  // the mapping keeps the bytes
  expect_same_tensor(t, back);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(back.storage().data()) % 64, 0u);
  back.fill_(3);  // copy on write: the tensor changes, never the file
  EXPECT_EQ(back[5][7].item<float>(), 3);
}

TEST(PickleArchive, ABufferLoadCopiesTheRecords) {
  const std::vector<char> zip = torch::jit::pickle_save(at::ones({4}));
  at::serialization::ArchiveReader reader(absl::Span<const char>(zip.data(), zip.size()));
  EXPECT_FALSE(reader.is_mapped("data/0"));
  auto record = reader.get_record("data/0");
  EXPECT_TRUE(static_cast<const char*>(record.first.get()) < zip.data() ||
              static_cast<const char*>(record.first.get()) >= zip.data() + zip.size());
}

// ---- a file libtorch 1.13 wrote ------------------------------------------------------------

std::vector<char> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(in), {});
}

const std::string kLibtorchFile =
    std::string(MINIATEN_SERIALIZATION_DATA_DIR) + "/libtorch_pickle_save.pt";

void check_libtorch_file(const IValue& v) {
  ASSERT_TRUE(v.isGenericDict());
  const auto d = v.toGenericDict();
  EXPECT_EQ(d.keyType()->str(), "str");
  EXPECT_EQ(d.valueType()->str(), "Any");
  ASSERT_EQ(d.size(), 13u);
  const Tensor base = d.at("base").toTensor();
  EXPECT_EQ(base.scalar_type(), at::kFloat);
  EXPECT_EQ(base.sizes(), (std::vector<int64_t>{2, 3, 4}));
  EXPECT_EQ(base.strides(), (std::vector<int64_t>{12, 4, 1}));
  EXPECT_TRUE(at::equal(base, at::arange(0, 24, 1).to(at::kFloat).view({2, 3, 4})));
  const Tensor transposed = d.at("transposed").toTensor();
  EXPECT_EQ(transposed.sizes(), (std::vector<int64_t>{4, 3, 2}));
  EXPECT_EQ(transposed.strides(), (std::vector<int64_t>{1, 4, 12}));
  EXPECT_TRUE(at::equal(transposed, base.transpose(0, 2)));
  const Tensor sliced = d.at("sliced").toTensor();
  EXPECT_EQ(sliced.storage_offset(), 13);
  EXPECT_EQ(sliced.sizes(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(sliced.strides(), (std::vector<int64_t>{4, 1}));
  EXPECT_EQ(sliced.storage().data(), base.storage().data());
  EXPECT_EQ(transposed.storage().data(), base.storage().data());
  const Tensor dbl = d.at("double").toTensor();
  EXPECT_EQ(dbl.scalar_type(), at::kDouble);
  EXPECT_EQ(dbl[4].item<double>(), 1.0);
  EXPECT_EQ(dbl[1].item<double>(), 0.25);
  const Tensor lng = d.at("long").toTensor();
  EXPECT_EQ(lng.scalar_type(), at::kLong);
  EXPECT_EQ(lng.strides(), (std::vector<int64_t>{1, 3}));
  EXPECT_TRUE(at::equal(lng, at::arange(-3, 3, 1).view({2, 3}).t()));
  const Tensor half = d.at("half").toTensor();
  EXPECT_EQ(half.scalar_type(), at::kHalf);
  EXPECT_EQ(half[1].item<float>(), 1.5f);
  const Tensor boolean = d.at("bool").toTensor();
  EXPECT_EQ(boolean.scalar_type(), at::kBool);
  EXPECT_FALSE(boolean[1].item<bool>());
  EXPECT_TRUE(boolean[2].item<bool>());
  const Tensor int0d = d.at("int0d").toTensor();
  EXPECT_EQ(int0d.scalar_type(), at::kInt);
  EXPECT_EQ(int0d.dim(), 0);
  EXPECT_EQ(int0d.item<int>(), 7);
  EXPECT_EQ(d.at("ints").toIntVector(), (std::vector<int64_t>{1, -2, 300000, int64_t{1} << 40}));
  EXPECT_EQ(d.at("doubles").toDoubleVector(), (std::vector<double>{0.5, -2.0}));
  const auto& tensors = d.at("tensors").toTensorListRef();
  ASSERT_EQ(tensors.size(), 2u);
  EXPECT_TRUE(tensors[0].is_same(base));  // libtorch memoized the tensor it held twice
  EXPECT_EQ(tensors[1].scalar_type(), at::kByte);
  const auto& tuple = d.at("tuple").toTupleRef().elements();
  ASSERT_EQ(tuple.size(), 5u);
  EXPECT_EQ(tuple[1].toStringRef(), "two");
  EXPECT_TRUE(tuple[4].isNone());
  const auto typed = d.at("typed").toGenericDict();
  EXPECT_EQ(typed.valueType()->str(), "Tensor");
  EXPECT_TRUE(typed.at("w").toTensor().is_same(base));
}

TEST(PickleLibtorch, LoadsTheFileLibtorchWrote) {
  check_libtorch_file(torch::jit::pickle_load(read_file(kLibtorchFile)));
  check_libtorch_file(torch::jit::pickle_load_file(kLibtorchFile));
}

TEST(PickleLibtorch, ItsStoragesAreMappedInPlace) {
  // libtorch writes zero sizes in its local headers and a data descriptor after each entry;
  // the data is 64-byte aligned all the same, and found through the central directory.
  at::serialization::ArchiveReader reader(at::serialization::MappedFile::open(kLibtorchFile));
  for (int i = 0; i < 7; ++i) EXPECT_TRUE(reader.is_mapped("data/" + std::to_string(i))) << i;
  EXPECT_EQ(reader.get_record("data/0").second, 96u);
  EXPECT_FALSE(reader.is_mapped("data/7"));
  EXPECT_FALSE(reader.has_record("data/7"));
}

TEST(PickleLibtorch, SavingWhatWeLoadedWritesLibtorchsProgramByteForByte) {
  // Memoization follows sharing: hold what write_libtorch_pickle.cpp held while it saved (the
  // dict and the typed dict; base is held twice inside the dict already).
  const std::vector<char> theirs = read_file(kLibtorchFile);
  const IValue loaded = torch::jit::pickle_load(theirs);
  const IValue dict = loaded;
  const IValue typed = loaded.toGenericDict().at("typed");
  const std::vector<char> ours = torch::jit::pickle_save(dict);
  auto program = [](const std::vector<char>& zip) {
    at::serialization::ArchiveReader reader(absl::Span<const char>(zip.data(), zip.size()));
    auto record = reader.get_record("data.pkl");
    return std::string(static_cast<const char*>(record.first.get()), record.second);
  };
  EXPECT_EQ(program(ours), program(theirs));
}

// Python's torch.save of a state_dict (data/write_python_torch_save.py), which libtorch 1.13's
// pickle_load cannot read: the dict comes back, its _metadata dropped (Note [Python's
// state_dict]), each parameter arange(numel) * (index + 1).
TEST(PicklePython, LoadsAStateDictPythonSaved) {
  const std::string path = std::string(MINIATEN_SERIALIZATION_DATA_DIR) + "/python_state_dict.pt";
  for (const IValue& v :
       {torch::jit::pickle_load(read_file(path)), torch::jit::pickle_load_file(path)}) {
    ASSERT_TRUE(v.isGenericDict());
    const auto d = v.toGenericDict();
    const std::vector<std::pair<std::string, std::vector<int64_t>>> expected = {
        {"0.weight", {4, 3}}, {"0.bias", {4}}, {"2.weight", {2, 4}}, {"2.bias", {2}}};
    ASSERT_EQ(d.size(), expected.size());
    size_t i = 0;
    for (const auto& entry : d) {  // in the file's order
      SCOPED_TRACE(expected[i].first);
      EXPECT_EQ(entry.key().toStringRef(), expected[i].first);
      const Tensor t = entry.value().toTensor();
      EXPECT_EQ(t.scalar_type(), at::kFloat);
      EXPECT_EQ(t.sizes(), expected[i].second);
      EXPECT_TRUE(t.is_contiguous());
      EXPECT_FALSE(t.requires_grad());
      const Tensor values = at::arange(0, t.numel(), 1).to(at::kFloat).mul(double(i + 1));
      EXPECT_TRUE(at::equal(t.reshape({-1}), values));
      ++i;
    }
  }
}

// BUILD is read only to drop an OrderedDict's attributes.
TEST(PicklePython, BuildOnAnythingButADictIsRefused) {
  // PROTO 2, EMPTY_LIST, EMPTY_DICT, BUILD, STOP
  const std::string program = std::string("\x80\x02]}b.", 6);
  try {
    torch::jit::Unpickler(absl::Span<const char>(program.data(), program.size()), nullptr)
        .parse_ivalue();
    FAIL() << "no error";
  } catch (const c10::Error& e) {
    EXPECT_EQ(std::string(e.what_without_backtrace()),
              "Unpickler: BUILD is read only to set an OrderedDict's attributes");
  }
}

}  // namespace
