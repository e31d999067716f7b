#pragma once
// PyTorch's zip container (caffe2/serialize/inline_container.h's PyTorchStreamWriter and
// PyTorchStreamReader), through libzip: what torch::jit::pickle_save writes its pickle program
// and storages into.
//
//   std::vector<at::serialization::ArchiveRecord> records = {
//       {"data.pkl", program.data(), program.size()}};
//   std::vector<char> zip = at::serialization::write_archive(records);  // archive/data.pkl
//   at::serialization::ArchiveReader reader(zip);
//   auto [data, size] = reader.get_record("data.pkl");
//
// Note [PyTorch's archive layout]
// Every entry sits under one folder, "archive/" when written; a reader takes the folder from
// the first entry's name and looks names up under it. Entries are stored, not compressed, and
// each entry's data starts at a multiple of 64 bytes in the file: the local header carries a
// padding extra field with id "FB" (bytes 'F','B', then a little-endian length, then that many
// 'Z'), as PyTorchStreamWriter writes it. libzip lays entries out in order from offset 0, each
// a 30-byte local header, its name, its local extra fields and its data (no data descriptor
// for stored data of known size), so the padding is computed before libzip writes; the tests
// check the result. libtorch 1.13 writes a data descriptor after each entry and zero sizes in
// its local headers, and DOS time 0; readers must take sizes from the central directory.
//
// Note [Records stay in the file]
// A reader over a MappedFile hands out a record stored uncompressed at a 16-byte aligned
// offset (all of PyTorch's, 64-aligned) as a pointer into the mapping, whose deleter keeps the
// file mapped (see Note [Loaded tensors keep their file mapped]); its CRC is not checked then.
// libzip 1.7 cannot say where an entry's data starts, so the reader walks the central
// directory (zip64 too) and the entry's local header itself, with bounds checks, and falls
// back to one copy through libzip (which checks the CRC) when anything does not fit.
#include <cstddef>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "aten/serialization/MappedFile.h"
#include "c10/core/Allocator.h"

typedef struct zip zip_t;

namespace at::serialization {

struct ArchiveRecord {
  std::string name;  // under the archive's folder: "data.pkl", "data/0", "version"
  const void* data;
  size_t size;
};

// The records, in order, as a PyTorch archive (see Note [PyTorch's archive layout]).
TORCH_API std::vector<char> write_archive(absl::Span<const ArchiveRecord> records);
TORCH_API void write_archive_file(const std::string& path, absl::Span<const ArchiveRecord> records);

class TORCH_API ArchiveReader {
 public:
  // Over bytes that must outlive the reader; records are copied out of them.
  explicit ArchiveReader(absl::Span<const char> bytes);
  // Over a mapped file; see Note [Records stay in the file].
  explicit ArchiveReader(std::shared_ptr<MappedFile> file);
  ArchiveReader(const ArchiveReader&) = delete;
  ArchiveReader& operator=(const ArchiveReader&) = delete;
  ~ArchiveReader();

  bool has_record(const std::string& name) const;
  // The record's bytes and size; throws c10::Error when it is missing or unreadable.
  std::pair<c10::DataPtr, size_t> get_record(const std::string& name) const;
  // Whether get_record(name) points into the mapped file rather than copying.
  bool is_mapped(const std::string& name) const;
  // The folder every entry sits in ("archive").
  const std::string& archive_name() const { return archive_name_; }

 private:
  void open(absl::Span<const char> bytes);
  void find_data_offsets(absl::Span<const char> bytes);
  int64_t locate(const std::string& name) const;

  struct ZipDiscard {
    void operator()(zip_t* zip) const;
  };

  std::shared_ptr<MappedFile> file_;
  std::unique_ptr<zip_t, ZipDiscard> zip_;  // freed on every path, a throwing constructor's too
  std::string archive_name_;
  // Where each stored entry's data lies in the file, by full name, where that is known.
  struct DataSpan {
    uint64_t offset;
    uint64_t size;
  };
  std::unordered_map<std::string, DataSpan> data_offsets_;
};

}  // namespace at::serialization
