#pragma once
// A file's bytes, memory-mapped read-only, owned by a shared handle so that tensors loaded
// from it can keep the mapping alive without a copy (the safetensors loader, and PyTorch's zip
// archives whose entries are stored uncompressed).
//
//   auto file = at::serialization::MappedFile::open("weights.safetensors");
//   absl::Span<const char> bytes = file->bytes();   // valid while `file` (or a copy) lives
//
// Note [Loaded tensors keep their file mapped]
// A tensor read from a mapped file points into the mapping; its storage's deleter holds a
// std::shared_ptr<MappedFile>, so the mapping is unmapped when the last such tensor (and the
// caller's handle) is gone. The mapping is MAP_PRIVATE with write access: a loaded tensor is
// writable as any other, a page is copied only when first written, and the file never changes.
#include <cstddef>
#include <memory>
#include <string>

#include "absl/types/span.h"

namespace at::serialization {

class MappedFile {
 public:
  // Maps the whole file; throws c10::Error naming the path when it cannot be opened or mapped.
  // An empty file maps to an empty span.
  static std::shared_ptr<MappedFile> open(const std::string& path);

  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  absl::Span<const char> bytes() const { return {data_, size_}; }
  // The same bytes, writable (copy on write, see the Note above): for storages built on them.
  char* data() const { return data_; }
  size_t size() const { return size_; }
  const std::string& path() const { return path_; }

 private:
  MappedFile(std::string path, char* data, size_t size)
      : path_(std::move(path)), data_(data), size_(size) {}

  std::string path_;
  char* data_;
  size_t size_;
};

}  // namespace at::serialization
