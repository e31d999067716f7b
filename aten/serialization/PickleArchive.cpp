#include "aten/serialization/PickleArchive.h"

#include <zip.h>

#include <cstring>
#include <limits>
#include <unordered_set>

#include "c10/util/Exception.h"

namespace at::serialization {

namespace {

constexpr size_t kFieldAlignment = 64;            // PyTorchStreamWriter's kFieldAlignment
constexpr size_t kMappedAlignment = 16;           // enough for every dtype's element
constexpr size_t kLocalHeaderSize = 30;           // MZ_ZIP_LOCAL_DIR_HEADER_SIZE
constexpr size_t kExtraFieldHeaderSize = 4;       // id and length
constexpr zip_uint16_t kPaddingFieldId = 0x4246;  // "FB" as the bytes 'F', 'B'
constexpr time_t kDosEpoch = 315532800;  // 1980-01-01: a fixed time, for reproducible files

std::string zip_error_text(zip_error_t* error) {
  return zip_error_strerror(error);
}

// Adds the records to `zip` with the padding that puts each one's data on a 64-byte boundary.
// See Note [PyTorch's archive layout].
void add_records(zip_t* zip, absl::Span<const ArchiveRecord> records) {
  const std::string padding(kFieldAlignment + 1, 'Z');
  size_t offset = 0;
  for (const ArchiveRecord& record : records) {
    const std::string name = "archive/" + record.name;
    size_t header = kLocalHeaderSize + name.size() + kExtraFieldHeaderSize;
    // libzip writes a record of 4 GB or more with its sizes in a zip64 extra field (id, length,
    // two 8-byte sizes) in the local header too. (Not exercised by the tests: alignment only
    // decides whether a reader maps or copies.)
    if (record.size > 0xFFFFFFFFu) header += 4 + 2 * sizeof(uint64_t);
    const size_t pad = (kFieldAlignment - (offset + header) % kFieldAlignment) % kFieldAlignment;
    zip_source_t* source = zip_source_buffer(zip, record.data, record.size, 0);
    TORCH_CHECK(source != nullptr, "could not add ", name, " to the archive: ", zip_strerror(zip));
    const zip_int64_t index = zip_file_add(zip, name.c_str(), source, ZIP_FL_ENC_UTF_8);
    if (index < 0) {
      zip_source_free(source);
      TORCH_CHECK(false, "could not add ", name, " to the archive: ", zip_strerror(zip));
    }
    const auto i = static_cast<zip_uint64_t>(index);
    TORCH_CHECK(zip_set_file_compression(zip, i, ZIP_CM_STORE, 0) == 0 &&
                    zip_file_set_mtime(zip, i, kDosEpoch, 0) == 0 &&
                    zip_file_extra_field_set(zip, i, kPaddingFieldId, ZIP_EXTRA_FIELD_NEW,
                                             reinterpret_cast<const zip_uint8_t*>(padding.data()),
                                             static_cast<zip_uint16_t>(pad), ZIP_FL_LOCAL) == 0,
                "could not add ", name, " to the archive: ", zip_strerror(zip));
    offset += header + pad + record.size;
  }
}

void close_or_throw(zip_t* zip) {
  if (zip_close(zip) != 0) {
    const std::string message = zip_strerror(zip);
    zip_discard(zip);
    TORCH_CHECK(false, "could not write the archive: ", message);
  }
}

// Bounds-checked little-endian reads for walking the zip directory.
struct Bytes {
  absl::Span<const char> bytes;
  bool has(uint64_t at, uint64_t n) const { return at <= bytes.size() && n <= bytes.size() - at; }
  template <typename T>
  T get(uint64_t at) const {
    T v{};
    if (has(at, sizeof v)) std::memcpy(&v, bytes.data() + at, sizeof v);
    return v;
  }
};

}  // namespace

std::vector<char> write_archive(absl::Span<const ArchiveRecord> records) {
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* buffer = zip_source_buffer_create(nullptr, 0, 0, &error);
  TORCH_CHECK(buffer != nullptr, "could not write the archive: ", zip_error_text(&error));
  zip_t* zip = zip_open_from_source(buffer, ZIP_TRUNCATE, &error);
  if (zip == nullptr) {
    zip_source_free(buffer);
    TORCH_CHECK(false, "could not write the archive: ", zip_error_text(&error));
  }
  zip_source_keep(buffer);  // read the bytes back after zip_close
  std::vector<char> out;
  try {
    add_records(zip, records);
    zip_t* closing = zip;
    zip = nullptr;  // close_or_throw frees it, whether it succeeds or throws
    close_or_throw(closing);
    zip_stat_t st;
    TORCH_CHECK(zip_source_stat(buffer, &st) == 0 && (st.valid & ZIP_STAT_SIZE) &&
                    zip_source_open(buffer) == 0,
                "could not write the archive");
    out.resize(st.size);
    const zip_int64_t n = zip_source_read(buffer, out.data(), out.size());
    zip_source_close(buffer);
    TORCH_CHECK(n == static_cast<zip_int64_t>(out.size()), "could not write the archive");
  } catch (...) {
    if (zip != nullptr) zip_discard(zip);
    zip_source_free(buffer);
    throw;
  }
  zip_source_free(buffer);
  return out;
}

void write_archive_file(const std::string& path, absl::Span<const ArchiveRecord> records) {
  int code = 0;
  zip_t* zip = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &code);
  if (zip == nullptr) {
    zip_error_t error;
    zip_error_init_with_code(&error, code);
    const std::string message = zip_error_text(&error);
    zip_error_fini(&error);
    TORCH_CHECK(false, "open file failed, file path: ", path, ": ", message);
  }
  try {
    add_records(zip, records);
  } catch (...) {
    zip_discard(zip);
    throw;
  }
  close_or_throw(zip);
}

ArchiveReader::ArchiveReader(absl::Span<const char> bytes) {
  open(bytes);
}

ArchiveReader::ArchiveReader(std::shared_ptr<MappedFile> file) : file_(std::move(file)) {
  open(file_->bytes());
  find_data_offsets(file_->bytes());
}

ArchiveReader::~ArchiveReader() = default;

void ArchiveReader::ZipDiscard::operator()(zip_t* zip) const {
  zip_discard(zip);
}

void ArchiveReader::open(absl::Span<const char> bytes) {
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* source = zip_source_buffer_create(bytes.data(), bytes.size(), 0, &error);
  TORCH_CHECK(source != nullptr,
              "PytorchStreamReader failed reading zip archive: ", zip_error_text(&error));
  zip_.reset(zip_open_from_source(source, ZIP_RDONLY, &error));
  if (zip_ == nullptr) {
    zip_source_free(source);
    const std::string message = zip_error_text(&error);
    zip_error_fini(&error);
    TORCH_CHECK(false, "PytorchStreamReader failed reading zip archive: ", message);
  }
  TORCH_CHECK(zip_get_num_entries(zip_.get(), 0) > 0, "archive does not contain any files");
  const char* first = zip_get_name(zip_.get(), 0, ZIP_FL_ENC_RAW);
  TORCH_CHECK(first != nullptr,
              "PytorchStreamReader failed reading zip archive: ", zip_strerror(zip_.get()));
  const std::string name(first);
  const size_t slash = name.find('/');
  TORCH_CHECK(slash != std::string::npos, "file in archive is not in a subdirectory: ", name);
  archive_name_ = name.substr(0, slash);
}

// See Note [Records stay in the file]. Entries whose layout is not as expected are left out of
// data_offsets_ and read by copying.
void ArchiveReader::find_data_offsets(absl::Span<const char> span) {
  const Bytes b{span};
  if (span.size() < 22) return;
  // The end of central directory record: the last "PK\5\6" within 64 KB of comment.
  uint64_t eocd = span.size() - 22;
  const uint64_t lowest = span.size() > 22 + 0xFFFF ? span.size() - 22 - 0xFFFF : 0;
  while (b.get<uint32_t>(eocd) != 0x06054b50) {
    if (eocd == lowest) return;
    --eocd;
  }
  uint64_t entries = b.get<uint16_t>(eocd + 10);
  uint64_t cd_offset = b.get<uint32_t>(eocd + 16);
  if ((entries == 0xFFFF || cd_offset == 0xFFFFFFFF) && eocd >= 20 &&
      b.get<uint32_t>(eocd - 20) == 0x07064b50) {
    const uint64_t zip64_eocd = b.get<uint64_t>(eocd - 20 + 8);
    if (!b.has(zip64_eocd, 56) || b.get<uint32_t>(zip64_eocd) != 0x06064b50) return;
    entries = b.get<uint64_t>(zip64_eocd + 32);
    cd_offset = b.get<uint64_t>(zip64_eocd + 48);
  }
  uint64_t at = cd_offset;
  std::unordered_set<std::string> duplicates;
  for (uint64_t i = 0; i < entries; ++i) {
    if (!b.has(at, 46) || b.get<uint32_t>(at) != 0x02014b50) return;
    const uint16_t method = b.get<uint16_t>(at + 10);
    uint64_t compressed = b.get<uint32_t>(at + 20);
    uint64_t uncompressed = b.get<uint32_t>(at + 24);
    const uint16_t name_len = b.get<uint16_t>(at + 28);
    const uint16_t extra_len = b.get<uint16_t>(at + 30);
    const uint16_t comment_len = b.get<uint16_t>(at + 32);
    uint64_t local = b.get<uint32_t>(at + 42);
    if (!b.has(at + 46, uint64_t{name_len} + extra_len + comment_len)) return;
    const std::string name(span.data() + at + 46, name_len);
    // zip64: the fields that overflowed, in order, in extra field 0x0001.
    for (uint64_t x = at + 46 + name_len; x + 4 <= at + 46 + name_len + extra_len;) {
      const uint16_t id = b.get<uint16_t>(x);
      const uint16_t len = b.get<uint16_t>(x + 2);
      if (id == 0x0001) {
        uint64_t field = x + 4;
        for (uint64_t* v : {&uncompressed, &compressed, &local}) {
          if (*v != 0xFFFFFFFF) continue;
          if (field + 8 > x + 4 + len) return;
          *v = b.get<uint64_t>(field);
          field += 8;
        }
      }
      x += 4 + uint64_t{len};
    }
    at += 46 + uint64_t{name_len} + extra_len + comment_len;
    if (method != ZIP_CM_STORE || compressed != uncompressed) continue;
    if (!b.has(local, kLocalHeaderSize) || b.get<uint32_t>(local) != 0x04034b50) continue;
    const uint64_t data =
        local + kLocalHeaderSize + b.get<uint16_t>(local + 26) + b.get<uint16_t>(local + 28);
    if (!b.has(data, compressed)) continue;
    // A name stored twice is left to libzip, which decides which of them it means.
    if (!data_offsets_.emplace(name, DataSpan{data, compressed}).second) duplicates.insert(name);
  }
  for (const std::string& name : duplicates) data_offsets_.erase(name);
}

int64_t ArchiveReader::locate(const std::string& name) const {
  const std::string full = archive_name_ + "/" + name;
  return zip_name_locate(zip_.get(), full.c_str(), ZIP_FL_ENC_RAW);
}

bool ArchiveReader::has_record(const std::string& name) const {
  return locate(name) >= 0;
}

bool ArchiveReader::is_mapped(const std::string& name) const {
  const int64_t index = locate(name);
  if (file_ == nullptr || index < 0) return false;
  zip_stat_t st;
  if (zip_stat_index(zip_.get(), index, 0, &st) != 0 || !(st.valid & ZIP_STAT_SIZE) ||
      !(st.valid & ZIP_STAT_COMP_METHOD) || st.comp_method != ZIP_CM_STORE) {
    return false;
  }
  auto it = data_offsets_.find(archive_name_ + "/" + name);
  return it != data_offsets_.end() && it->second.offset % kMappedAlignment == 0 &&
         it->second.size == st.size;
}

std::pair<c10::DataPtr, size_t> ArchiveReader::get_record(const std::string& name) const {
  const int64_t index = locate(name);
  TORCH_CHECK(index >= 0, "PytorchStreamReader failed locating file ", name, ": file not found");
  zip_stat_t st;
  TORCH_CHECK(zip_stat_index(zip_.get(), index, 0, &st) == 0 && (st.valid & ZIP_STAT_SIZE),
              "PytorchStreamReader failed reading file ", name, ": ", zip_strerror(zip_.get()));
  TORCH_CHECK(st.size <= static_cast<zip_uint64_t>(std::numeric_limits<int64_t>::max()),
              "PytorchStreamReader failed reading file ", name, ": it is too large");
  const size_t size = static_cast<size_t>(st.size);
  if (is_mapped(name)) {
    char* data = file_->data() + data_offsets_.at(archive_name_ + "/" + name).offset;
    auto* owner = new std::shared_ptr<MappedFile>(file_);
    return {
        c10::DataPtr(
            data, owner, [](void* ctx) { delete static_cast<std::shared_ptr<MappedFile>*>(ctx); },
            c10::Device(c10::DeviceType::CPU)),
        size};
  }
  // One copy, through libzip (which checks the CRC).
  c10::DataPtr data = c10::GetAllocator(c10::DeviceType::CPU)->allocate(size);
  zip_file_t* file = zip_fopen_index(zip_.get(), index, 0);
  TORCH_CHECK(file != nullptr, "PytorchStreamReader failed reading file ", name, ": ",
              zip_strerror(zip_.get()));
  size_t done = 0;
  while (done < size) {
    const zip_int64_t n = zip_fread(file, static_cast<char*>(data.get()) + done, size - done);
    if (n <= 0) {
      const std::string message = n < 0 ? zip_file_strerror(file) : "unexpected end of data";
      zip_fclose(file);
      TORCH_CHECK(false, "PytorchStreamReader failed reading file ", name, ": ", message);
    }
    done += static_cast<size_t>(n);
  }
  // Reading past the end makes libzip check the CRC.
  char extra;
  const zip_int64_t tail = zip_fread(file, &extra, 1);
  const std::string message = tail < 0 ? zip_file_strerror(file) : "";
  zip_fclose(file);
  TORCH_CHECK(tail == 0, "PytorchStreamReader failed reading file ", name, ": ",
              tail < 0 ? message : "more data than its size");
  return {std::move(data), size};
}

}  // namespace at::serialization
