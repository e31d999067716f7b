// What pickle_load and the Unpickler say about input outside the format: every malformed file
// or program raises c10::Error with a clear text, never crashes or reads out of bounds.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "TestUtils.h"
#include "aten/ATen.h"
#include "aten/serialization/Pickle.h"
#include "aten/serialization/PickleArchive.h"
#include "aten/serialization/Unpickler.h"
#include "dispatcher/Dict.h"
#include "dispatcher/Tuple.h"

namespace {

using c10::IValue;
using namespace std::string_literals;

using test_util::error_of;

IValue unpickle(const std::string& program) {
  torch::jit::Unpickler unpickler(absl::Span<const char>(program.data(), program.size()), nullptr);
  return unpickler.parse_ivalue();
}

std::vector<char> small_file() {
  c10::Dict<std::string, at::Tensor> d;
  d.insert("w", at::arange(0, 6, 1).to(at::kFloat).view({2, 3}).t());
  d.insert("b", at::ones({2}, at::kLong));
  return torch::jit::pickle_save(d);
}

// An archive of a given program and storage records, laid out as pickle_save lays it out.
std::vector<char> archive_of(const std::string& program,
                             const std::vector<std::pair<std::string, std::string>>& storages) {
  std::vector<at::serialization::ArchiveRecord> records;
  for (const auto& s : storages)
    records.push_back({"data/" + s.first, s.second.data(), s.second.size()});
  records.push_back({"data.pkl", program.data(), program.size()});
  records.push_back({"version", "3\n", 2});
  return at::serialization::write_archive(records);
}

std::string program_of(const std::vector<char>& zip) {
  at::serialization::ArchiveReader reader(absl::Span<const char>(zip.data(), zip.size()));
  auto record = reader.get_record("data.pkl");
  return std::string(static_cast<const char*>(record.first.get()), record.second);
}

TEST(PickleErrors, TruncatedAtEveryByteIsAnError) {
  const std::vector<char> zip = small_file();
  for (size_t n = 0; n < zip.size(); ++n) {
    const std::vector<char> cut(zip.begin(), zip.begin() + n);
    EXPECT_THROW(torch::jit::pickle_load(cut), c10::Error) << "cut at " << n;
  }
  const std::string program = program_of(zip);
  for (size_t n = 0; n < program.size(); ++n) {
    EXPECT_THROW(torch::jit::pickle_load(archive_of(program.substr(0, n), {})), c10::Error)
        << "program cut at " << n;
  }
}

TEST(PickleErrors, FlippedBytesLoadOrRaise) {
  const std::vector<char> zip = small_file();
  for (size_t i = 0; i < zip.size(); ++i) {
    for (char mask : {'\x01', '\x80', '\xff'}) {
      std::vector<char> bad = zip;
      bad[i] ^= mask;
      try {
        torch::jit::pickle_load(bad);
      } catch (const c10::Error&) {
      }
    }
  }
  // The same inside the program, where no CRC guards it.
  const std::string program = program_of(zip);
  const std::string w(24, '\0'), b(16, '\0');
  for (size_t i = 0; i < program.size(); ++i) {
    for (char mask : {'\x01', '\x10', '\x80', '\xff'}) {
      std::string bad = program;
      bad[i] ^= mask;
      try {
        torch::jit::pickle_load(archive_of(bad, {{"0", w}, {"1", b}}));
      } catch (const c10::Error&) {
      }
    }
  }
}

TEST(PickleErrors, NotAZipArchive) {
  EXPECT_EQ(error_of([] {
              torch::jit::pickle_load({'n', 'o', 't', ' ', 'z', 'i', 'p'});
            }),
            "PytorchStreamReader failed reading zip archive: Not a zip archive");
  EXPECT_EQ(error_of([] {
              torch::jit::pickle_load_file("/nonexistent/x.pt");
            }).rfind("open file failed", 0),
            0u);
}

TEST(PickleErrors, UnwritablePath) {
  EXPECT_THROW(torch::jit::pickle_save_file(at::ones({2}), "/nonexistent/dir/x.pt"), c10::Error);
}

TEST(PickleErrors, MissingRecords) {
  std::vector<at::serialization::ArchiveRecord> records = {{"data.pkl", "\x80\x02N.", 4}};
  const auto no_version = at::serialization::write_archive(records);
  EXPECT_EQ(error_of([&] { torch::jit::pickle_load(no_version); }),
            "PytorchStreamReader failed locating file version: file not found");
  // A program naming a storage the archive lacks.
  const std::string program = program_of(torch::jit::pickle_save(at::ones({2})));
  EXPECT_EQ(error_of([&] { torch::jit::pickle_load(archive_of(program, {})); }),
            "PytorchStreamReader failed locating file data/0: file not found");
}

TEST(PickleErrors, StorageSmallerThanItClaims) {
  const std::string program = program_of(torch::jit::pickle_save(at::ones({4})));
  EXPECT_EQ(error_of([&] {
              torch::jit::pickle_load(archive_of(program, {{"0", std::string(8, 'x')}}));
            }),
            "Unpickler: storage '0' holds 4 Float elements (16 bytes) but its record has 8 bytes");
}

TEST(PickleErrors, TensorOutsideItsStorage) {
  // A view needing 7 floats over a storage of 4: storage numel 4, size (7,), stride (1,).
  std::string program = program_of(torch::jit::pickle_save(at::ones({4})));
  const std::string sizes = std::string("(K\x04t", 4);
  const size_t at = program.find(sizes);
  ASSERT_NE(at, std::string::npos);
  program[at + 2] = 7;
  EXPECT_EQ(error_of([&] {
              torch::jit::pickle_load(archive_of(program, {{"0", std::string(16, 'x')}}));
            }),
            "setStorage: sizes [7], strides [1], storage offset 0, and itemsize 4 requiring a "
            "storage size of 28 are out of bounds for storage of size 16");
}

TEST(PickleErrors, OneStorageKeyNamedWithTwoDtypes) {
  // Found by fuzz_pickle: the second name of storage '0' used to view the first's bytes as
  // Half, a tensor pickle_save could not write back.
  std::string program = program_of(torch::jit::pickle_save(
      c10::ivalue::Tuple::create({at::ones({2}, at::kFloat), at::ones({2}, at::kHalf)})));
  const size_t second_key = program.find(
      "X\x01\x00\x00\x00"
      "1"s);
  ASSERT_NE(second_key, std::string::npos);
  program[second_key + 5] = '0';
  EXPECT_EQ(error_of([&] {
              torch::jit::pickle_load(archive_of(program, {{"0", std::string(8, 'x')}}));
            }),
            "Unpickler: storage '0' is named as 2 Float elements and as 2 Half elements");
  EXPECT_EQ(error_of([] {
              const at::Tensor t = at::ones({4});
              // t's storage seen as Int, as libtorch's view(dtype) would make it.
              auto impl = c10::make_intrusive<c10::TensorImpl>(
                  c10::Storage(t.storage()), c10::keysetForBackend(c10::DispatchKey::CPU),
                  caffe2::TypeMeta::fromScalarType(at::kInt));
              impl->set_sizes_contiguous({4});
              const at::Tensor as_int(std::move(impl));
              torch::jit::pickle_save(c10::ivalue::Tuple::create({t, as_int}));
            }),
            "pickle_save: tensors of dtypes Float and Int share a storage, which PyTorch's format "
            "cannot express");
}

TEST(PickleErrors, ProgramsOutsideTheSubset) {
  EXPECT_EQ(error_of([] { unpickle("\x80\x02\x63os\nsystem\n."); }),
            "Unpickler found unknown global, 'os.system': pickle_load reads tensors and "
            "TorchScript's builtin containers only");
  EXPECT_EQ(error_of([] { unpickle("\x80\x02\x63torch\nFooStorage\n."); }),
            "Unpickler found unknown torch global, 'torch.FooStorage'");
  EXPECT_EQ(error_of([] { unpickle("\x80\x02\x63torch.jit._pickle\nbuild_foo\n."); }),
            "Unknown pickler class id build_foo");
  EXPECT_EQ(error_of([] { unpickle(std::string("\x80\x02\xff", 3)); }),
            "Unknown opcode for unpickling at 2: 255");
  EXPECT_EQ(error_of([] { unpickle("\x80\x03N."); }),
            "Only Pickle protocol 2 is supported, found protocol = 3");
  EXPECT_EQ(error_of([] { unpickle("\x80\x02t."); }),
            "Unpickler: an opcode needs a MARK but none is open");
  EXPECT_EQ(error_of([] { unpickle("\x80\x02\x85."); }), "Unpickler: stack underflow");
  EXPECT_EQ(error_of([] { unpickle("\x80\x02h\x05."); }),
            "Parsing error: memo entry 5 was never written");
  EXPECT_EQ(error_of([] { unpickle("\x80\x02X\x05\x00\x00\x00ab"s); }),
            "Unexpected end of pickler archive.");
  EXPECT_EQ(error_of([] { unpickle("\x80\x02NN."); }),
            "Unpickler: the program must leave one value on the stack but left 2");
  EXPECT_EQ(error_of([] { unpickle("\x80\x02K\x01)R."); }),
            "Unpickler: REDUCE needs a global to call");
  EXPECT_EQ(error_of([] { unpickle("\x80\x02]K\x01K\x02\x86u."); }),
            "Unpickler: an opcode needs a MARK but none is open");
  // An unhashable key.
  EXPECT_EQ(error_of([] { unpickle("\x80\x02}]K\x01s."); }),
            "Can't hash IValues with tag 'GenericList'");
  // A type tag that does not parse.
  EXPECT_EQ(
      error_of([] {
        unpickle(
            "\x80\x02\x63torch.jit._pickle\nrestore_type_tag\n]X\x07\x00\x00\x00List[x]\x86R."s);
      }),
      "Unpickler cannot read the type tag 'List[x]'");
  // See Note [Containers are complete before they are placed]: no cycles, no endless nests.
  EXPECT_EQ(error_of([] {
              unpickle(
                  "\x80\x02]q\x00h\x00"
                  "a."s);
            }),
            "Unpickler: a container cannot hold itself");
  EXPECT_EQ(error_of([] { unpickle("\x80\x02]q\x00\x85h\x00N\x61."s); }),
            "Unpickler: a list or dict cannot change after it is placed in another container");
  EXPECT_EQ(error_of([] { unpickle("\x80\x02N" + std::string(1001, '\x85') + "."); }),
            "Unpickler: containers nested more than 1000 deep are not supported");
  EXPECT_TRUE(unpickle("\x80\x02N" + std::string(999, '\x85') + ".").isTuple());
  // A storage without an archive.
  const std::string program = program_of(torch::jit::pickle_save(at::ones({2})));
  EXPECT_EQ(error_of([&] { unpickle(program); }),
            "Unpickler: the program names storage '0' but there is no archive to read it from");
}

}  // namespace
