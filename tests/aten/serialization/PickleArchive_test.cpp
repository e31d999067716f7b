// The zip container on its own, over archives this file lays out by hand: another folder
// name, no alignment padding (records are then copied, not mapped), and the ways an archive
// can fail to be PyTorch's.
#include "aten/serialization/PickleArchive.h"

#include <gtest/gtest.h>

#include <unistd.h>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "TestUtils.h"
#include "aten/ATen.h"
#include "aten/serialization/MappedFile.h"
#include "aten/serialization/Pickle.h"

namespace {

using test_util::error_of;

uint32_t crc32(const std::string& data) {
  uint32_t crc = 0xFFFFFFFFu;
  for (unsigned char c : data) {
    crc ^= c;
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

void put16(std::string& out, uint32_t v) {
  out += static_cast<char>(v & 0xFF);
  out += static_cast<char>(v >> 8 & 0xFF);
}
void put32(std::string& out, uint32_t v) {
  put16(out, v & 0xFFFF);
  put16(out, v >> 16);
}

// A plain stored zip of (name, data) entries, in order, with no extra fields: the layout of
// an ordinary zip tool, not PyTorchStreamWriter's.
std::string plain_zip(const std::vector<std::pair<std::string, std::string>>& entries) {
  std::string out, central;
  for (const auto& [name, data] : entries) {
    const uint32_t offset = static_cast<uint32_t>(out.size());
    std::string header;
    put32(header, 0x04034b50);
    put16(header, 20);  // version needed
    put16(header, 0);   // flags
    put16(header, 0);   // stored
    put32(header, 0);   // time, date
    put32(header, crc32(data));
    put32(header, static_cast<uint32_t>(data.size()));
    put32(header, static_cast<uint32_t>(data.size()));
    put16(header, static_cast<uint32_t>(name.size()));
    put16(header, 0);  // extra
    out += header + name + data;
    put32(central, 0x02014b50);
    put16(central, 20);
    central += header.substr(4, 26);
    put16(central, 0);  // comment
    put16(central, 0);  // disk
    put16(central, 0);  // internal attributes
    put32(central, 0);  // external attributes
    put32(central, offset);
    central += name;
  }
  const uint32_t cd_offset = static_cast<uint32_t>(out.size());
  out += central;
  put32(out, 0x06054b50);
  put32(out, 0);  // disks
  put16(out, static_cast<uint32_t>(entries.size()));
  put16(out, static_cast<uint32_t>(entries.size()));
  put32(out, static_cast<uint32_t>(central.size()));
  put32(out, cd_offset);
  put16(out, 0);
  return out;
}

std::vector<char> bytes_of(const std::string& s) {
  return std::vector<char>(s.begin(), s.end());
}

std::string record_text(const at::serialization::ArchiveReader& reader, const std::string& name) {
  auto record = reader.get_record(name);
  return std::string(static_cast<const char*>(record.first.get()), record.second);
}

// The program and storage of pickle_save(at::arange(5)), under another folder, unpadded.
std::string unaligned_model_zip() {
  const std::vector<char> ours = torch::jit::pickle_save(at::arange(0, 5, 1).to(at::kFloat));
  at::serialization::ArchiveReader reader(absl::Span<const char>(ours.data(), ours.size()));
  return plain_zip({{"my_model/data.pkl", record_text(reader, "data.pkl")},
                    {"my_model/data/0", "x" + record_text(reader, "data/0")},  // misaligned
                    {"my_model/version", "3\n"}});
}

TEST(PickleArchive, AnyFolderNameAndUnalignedRecordsAreRead) {
  const std::string zip = unaligned_model_zip();
  // "x" + storage: the storage record is one byte longer than the program needs; both are read.
  const at::Tensor t = torch::jit::pickle_load(bytes_of(zip)).toTensor();
  EXPECT_EQ(t.sizes(), (std::vector<int64_t>{5}));

  const std::string path =
      ::testing::TempDir() + "/miniaten_unaligned_" + std::to_string(::getpid());
  std::ofstream(path, std::ios::binary) << zip;
  {
    at::serialization::ArchiveReader reader(at::serialization::MappedFile::open(path));
    EXPECT_EQ(reader.archive_name(), "my_model");
    EXPECT_TRUE(reader.has_record("data.pkl"));
    EXPECT_FALSE(reader.is_mapped("data/0"));  // stored, but not at an aligned offset: copied
    EXPECT_EQ(record_text(reader, "version"), "3\n");
  }
  const at::Tensor u = torch::jit::pickle_load_file(path).toTensor();
  std::remove(path.c_str());
  EXPECT_EQ(u[1].item<float>(), 0.0f);  // "x" then the floats: the bytes as stored
}

TEST(PickleArchive, ArchivesThatAreNotPyTorchs) {
  EXPECT_EQ(error_of([] { torch::jit::pickle_load(bytes_of(plain_zip({}))); }),
            "archive does not contain any files");
  EXPECT_EQ(error_of([] {
              torch::jit::pickle_load(bytes_of(plain_zip({{"data.pkl", "N."}})));
            }),
            "file in archive is not in a subdirectory: data.pkl");
  EXPECT_EQ(
      error_of([] {
        torch::jit::pickle_load(bytes_of(plain_zip({{"a/data.pkl", "N."}, {"a/version", "99\n"}})));
      }),
      "Attempted to read a PyTorch file with version 99\n, but this reader supports "
      "versions 1 to 10");
  // A flipped byte in a stored record: libzip's CRC check, on the copying path.
  std::string zip = plain_zip({{"a/data.pkl", "\x80\x02N."}, {"a/version", "3\n"}});
  zip[zip.find("\x80\x02N.") + 2] = 'K';
  EXPECT_EQ(error_of([&] { torch::jit::pickle_load(bytes_of(zip)); }),
            "PytorchStreamReader failed reading file data.pkl: CRC error");
}

}  // namespace
