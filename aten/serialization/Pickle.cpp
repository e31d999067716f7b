#include "aten/serialization/Pickle.h"

#include <cstdlib>

#include "aten/serialization/MappedFile.h"
#include "aten/serialization/PickleArchive.h"
#include "aten/serialization/Pickler.h"
#include "aten/serialization/Unpickler.h"

namespace torch::jit {

namespace {

using at::serialization::ArchiveReader;
using at::serialization::ArchiveRecord;

// The file format version libtorch 1.13 writes (kProducedFileFormatVersion) and the range its
// PyTorchStreamReader accepts (kMinSupportedFileFormatVersion .. kMaxSupportedFileFormatVersion).
constexpr const char* kVersionRecord = "3\n";
constexpr uint64_t kMinSupportedVersion = 1;
constexpr uint64_t kMaxSupportedVersion = 10;

// Runs the pickler; `write` gets the records: data/<key> for each storage, then data.pkl, then
// version, in the order PyTorchStreamWriter writes them.
template <typename Write>
void save(const c10::IValue& ivalue, Write write) {
  std::vector<char> program;
  Pickler pickler([&](const char* p, size_t n) { program.insert(program.end(), p, p + n); });
  pickler.protocol();
  pickler.pushIValue(ivalue);
  pickler.stop();
  const auto& tensors = pickler.tensorData();
  std::vector<ArchiveRecord> records;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const at::Tensor& t = tensors[i];
    records.push_back({"data/" + std::to_string(i), t.storage().data(), t.storage().nbytes()});
  }
  records.push_back({"data.pkl", program.data(), program.size()});
  records.push_back({"version", kVersionRecord, 2});
  write(records);
}

c10::IValue load(const ArchiveReader& reader) {
  TORCH_CHECK(reader.has_record("version"),
              "PytorchStreamReader failed locating file version: "
              "file not found");
  auto version = reader.get_record("version");
  const std::string text(static_cast<const char*>(version.first.get()), version.second);
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
  TORCH_CHECK(end != text.c_str() && v >= kMinSupportedVersion && v <= kMaxSupportedVersion,
              "Attempted to read a PyTorch file with version ", text,
              ", but this reader supports versions ", kMinSupportedVersion, " to ",
              kMaxSupportedVersion);
  auto program = reader.get_record("data.pkl");
  Unpickler unpickler(
      absl::Span<const char>(static_cast<const char*>(program.first.get()), program.second),
      [&reader](const std::string& key) { return reader.get_record("data/" + key); });
  return unpickler.parse_ivalue();
}

}  // namespace

std::vector<char> pickle_save(const c10::IValue& ivalue) {
  std::vector<char> out;
  save(ivalue, [&](const std::vector<ArchiveRecord>& records) {
    out = at::serialization::write_archive(records);
  });
  return out;
}

c10::IValue pickle_load(const std::vector<char>& data) {
  ArchiveReader reader(absl::Span<const char>(data.data(), data.size()));
  return load(reader);
}

void pickle_save_file(const c10::IValue& ivalue, const std::string& path) {
  save(ivalue, [&](const std::vector<ArchiveRecord>& records) {
    at::serialization::write_archive_file(path, records);
  });
}

c10::IValue pickle_load_file(const std::string& path) {
  ArchiveReader reader(at::serialization::MappedFile::open(path));
  return load(reader);
}

}  // namespace torch::jit
