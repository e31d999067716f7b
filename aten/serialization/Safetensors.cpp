#include "aten/serialization/Safetensors.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <string_view>
#include <utility>

#include "aten/ATen.h"
#include "aten/TensorMaker.h"
#include "aten/serialization/MappedFile.h"
#include "c10/util/Exception.h"

namespace at::safetensors {

using serialization::MappedFile;

namespace {

constexpr uint64_t kMaxHeaderBytes = 100'000'000;  // the reference reader's limit

struct DtypeName {
  const char* name;
  ScalarType type;
};
// The format's dtypes miniaten has. C64 is safetensors' complex64 (format 0.4.4 on).
constexpr DtypeName kDtypes[] = {
    {"BOOL", ScalarType::Bool},  {"U8", ScalarType::Byte},          {"I8", ScalarType::Char},
    {"I16", ScalarType::Short},  {"I32", ScalarType::Int},          {"I64", ScalarType::Long},
    {"F16", ScalarType::Half},   {"BF16", ScalarType::BFloat16},    {"F32", ScalarType::Float},
    {"F64", ScalarType::Double}, {"C64", ScalarType::ComplexFloat},
};
// The format's dtypes miniaten has no ScalarType for.
constexpr const char* kDtypesWithoutScalarType[] = {"U16", "U32", "U64", "F8_E5M2", "F8_E4M3"};

[[noreturn]] void header_error(const std::string& kind, const std::string& detail) {
  TORCH_CHECK(false, "Error while deserializing header: ", kind, detail.empty() ? "" : ": ",
              detail);
}

const char* dtype_name(ScalarType type) {
  for (const auto& d : kDtypes) {
    if (d.type == type) return d.name;
  }
  TORCH_CHECK(false, "safetensors has no dtype for ", type);
}

ScalarType scalar_type_of(const std::string& name) {
  for (const auto& d : kDtypes) {
    if (name == d.name) return d.type;
  }
  for (const char* unsupported : kDtypesWithoutScalarType) {
    TORCH_CHECK(name != unsupported, "safetensors dtype ", name,
                " has no miniaten ScalarType to load into");
  }
  header_error("InvalidHeaderDeserialization", "unknown dtype \"" + name + "\"");
}

// One tensor as the header describes it, checked against the format's rules.
struct Entry {
  std::string name;
  ScalarType type;
  std::vector<int64_t> shape;
  uint64_t begin;
  uint64_t end;
};

struct Header {
  std::vector<Entry> entries;  // in offset order
  Metadata metadata;
  uint64_t data_start;  // 8 + N
};

uint64_t unsigned_field(const nlohmann::json& value, const std::string& what) {
  if (!value.is_number_unsigned()) {
    header_error("InvalidHeaderDeserialization", what + " must be a non-negative integer");
  }
  return value.get<uint64_t>();
}

Entry parse_entry(const std::string& name, const nlohmann::json& info) {
  const std::string where = "tensor \"" + name + "\"";
  if (!info.is_object()) header_error("InvalidHeaderDeserialization", where + " is not an object");
  auto field = [&](const char* key) -> const nlohmann::json& {
    auto it = info.find(key);
    if (it == info.end()) {
      header_error("InvalidHeaderDeserialization", where + " has no \"" + key + "\"");
    }
    return *it;
  };
  const auto& dtype = field("dtype");
  if (!dtype.is_string())
    header_error("InvalidHeaderDeserialization", where + ": dtype must be a string");
  Entry entry{name, scalar_type_of(dtype.get<std::string>()), {}, 0, 0};
  const auto& shape = field("shape");
  if (!shape.is_array())
    header_error("InvalidHeaderDeserialization", where + ": shape must be a list");
  for (const auto& size : shape) {
    const uint64_t s = unsigned_field(size, where + "'s sizes");
    if (s > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      header_error("ValidationOverflow", where);
    }
    entry.shape.push_back(static_cast<int64_t>(s));
  }
  const auto& offsets = field("data_offsets");
  if (!offsets.is_array() || offsets.size() != 2) {
    header_error("InvalidHeaderDeserialization", where + ": data_offsets must be [begin, end]");
  }
  entry.begin = unsigned_field(offsets[0], where + "'s data_offsets");
  entry.end = unsigned_field(offsets[1], where + "'s data_offsets");
  return entry;
}

// See Note [What a safetensors reader refuses].
Header parse_header(absl::Span<const char> bytes) {
  if (bytes.size() < 8) header_error("HeaderTooSmall", "");
  uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | static_cast<unsigned char>(bytes[i]);
  if (n > kMaxHeaderBytes) header_error("HeaderTooLarge", std::to_string(n) + " bytes");
  if (n > bytes.size() - 8) {
    header_error("InvalidHeaderLength",
                 std::to_string(n) + " bytes in a file of " + std::to_string(bytes.size()));
  }
  const char* text = bytes.data() + 8;
  if (n == 0 || text[0] != '{') header_error("InvalidHeaderStart", "");
  nlohmann::json json = nlohmann::json::parse(text, text + n, /*cb=*/nullptr,
                                              /*allow_exceptions=*/false);
  if (json.is_discarded() || !json.is_object()) {
    header_error("InvalidHeaderDeserialization", "the header is not a JSON object");
  }

  Header header;
  header.data_start = 8 + n;
  for (const auto& [name, info] : json.items()) {
    if (name == "__metadata__") {
      if (!info.is_object())
        header_error("InvalidHeaderDeserialization", "__metadata__ is not an object");
      for (const auto& [key, value] : info.items()) {
        if (!value.is_string()) {
          header_error("InvalidHeaderDeserialization", "__metadata__ values must be strings");
        }
        header.metadata.emplace(key, value.get<std::string>());
      }
      continue;
    }
    header.entries.push_back(parse_entry(name, info));
  }
  std::sort(header.entries.begin(), header.entries.end(), [](const Entry& a, const Entry& b) {
    return std::tie(a.begin, a.end) < std::tie(b.begin, b.end);
  });

  uint64_t start = 0;
  for (const Entry& entry : header.entries) {
    if (entry.begin != start || entry.end < entry.begin) {
      header_error("InvalidOffset(\"" + entry.name + "\")", "");
    }
    start = entry.end;
    uint64_t nbytes = c10::elementSize(entry.type);
    for (int64_t size : entry.shape) {
      if (size != 0 &&
          nbytes > std::numeric_limits<uint64_t>::max() / static_cast<uint64_t>(size)) {
        header_error("ValidationOverflow", "tensor \"" + entry.name + "\"");
      }
      nbytes *= static_cast<uint64_t>(size);
    }
    if (entry.end - entry.begin != nbytes) {
      header_error("TensorInvalidInfo", "tensor \"" + entry.name + "\" has " +
                                            std::to_string(entry.end - entry.begin) +
                                            " bytes for " + std::to_string(nbytes));
    }
  }
  if (start != bytes.size() - header.data_start) {
    header_error("MetadataIncompleteBuffer", "the tensors end at byte " + std::to_string(start) +
                                                 " of " +
                                                 std::to_string(bytes.size() - header.data_start));
  }
  return header;
}

// `mapping` non-null: point into it where alignment allows. See Note [The safetensors layout].
TensorMap load_tensors(absl::Span<const char> bytes, const std::shared_ptr<MappedFile>& mapping,
                       Metadata* metadata) {
  Header header = parse_header(bytes);
  TensorMap tensors;
  for (const Entry& entry : header.entries) {
    const char* data = bytes.data() + header.data_start + entry.begin;
    const size_t itemsize = c10::elementSize(entry.type);
    const auto options = TensorOptions().dtype(entry.type);
    Tensor t;
    if (mapping && reinterpret_cast<uintptr_t>(data) % itemsize == 0 && entry.end > entry.begin) {
      // Note [Loaded tensors keep their file mapped] (MappedFile.h).
      char* writable = mapping->data() + (data - mapping->bytes().data());
      t = at::from_blob(
          writable, entry.shape, [mapping](void*) {}, options);
    } else {
      t = at::empty(entry.shape, options);
      if (entry.end > entry.begin) std::memcpy(t.data_ptr(), data, entry.end - entry.begin);
    }
    tensors.emplace(entry.name, std::move(t));
  }
  if (metadata != nullptr) *metadata = std::move(header.metadata);
  return tensors;
}

// Writes the file through `write`, tensor bytes straight from each (contiguous) tensor.
void write_safetensors(const TensorMap& tensors, const Metadata& metadata,
                       const std::function<void(const char*, size_t)>& write) {
  std::vector<std::pair<std::string, Tensor>> order;
  for (const auto& [name, tensor] : tensors) {
    TORCH_CHECK(tensor.defined(), "safetensors: tensor \"", name, "\" is undefined");
    TORCH_CHECK(name != "__metadata__", "safetensors: \"__metadata__\" cannot name a tensor");
    dtype_name(tensor.scalar_type());  // refuses what the format lacks before writing anything
    Tensor host = tensor.is_cpu() ? tensor : tensor.cpu();
    order.emplace_back(name, host.contiguous());
  }
  // Largest element first, then by name: see Note [The safetensors layout].
  std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
    return a.second.element_size() > b.second.element_size();
  });

  nlohmann::ordered_json json = nlohmann::ordered_json::object();
  if (!metadata.empty()) json["__metadata__"] = metadata;
  uint64_t offset = 0;
  for (const auto& [name, tensor] : order) {
    const uint64_t nbytes = tensor.numel() * tensor.element_size();
    json[name] = {{"dtype", dtype_name(tensor.scalar_type())},
                  {"shape", tensor.sizes().vec()},
                  {"data_offsets", {offset, offset + nbytes}}};
    offset += nbytes;
  }
  std::string text = json.dump();
  text.append((8 - text.size() % 8) % 8, ' ');
  char length[8];
  uint64_t n = text.size();
  for (int i = 0; i < 8; ++i, n >>= 8) length[i] = static_cast<char>(n & 0xff);
  write(length, 8);
  write(text.data(), text.size());
  for (const auto& [name, tensor] : order) {
    const size_t nbytes = tensor.numel() * tensor.element_size();
    if (nbytes > 0) write(static_cast<const char*>(tensor.data_ptr()), nbytes);
  }
}

}  // namespace

std::vector<char> save(const TensorMap& tensors, const Metadata& metadata) {
  std::vector<char> out;
  write_safetensors(tensors, metadata,
                    [&](const char* data, size_t n) { out.insert(out.end(), data, data + n); });
  return out;
}

void save_file(const TensorMap& tensors, const std::string& path, const Metadata& metadata) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "wb"),
                                                       &std::fclose);
  TORCH_CHECK(file != nullptr, "open file failed because of errno ", errno,
              " on fopen: ", std::strerror(errno), ", file path: ", path);
  write_safetensors(tensors, metadata, [&](const char* data, size_t n) {
    TORCH_CHECK(std::fwrite(data, 1, n, file.get()) == n, "could not write ", path, ": ",
                std::strerror(errno));
  });
  TORCH_CHECK(std::fclose(file.release()) == 0, "could not write ", path, ": ",
              std::strerror(errno));
}

TensorMap load(absl::Span<const char> bytes, Metadata* metadata) {
  return load_tensors(bytes, nullptr, metadata);
}

TensorMap load_file(const std::string& path, Metadata* metadata) {
  std::shared_ptr<MappedFile> mapping = MappedFile::open(path);
  return load_tensors(mapping->bytes(), mapping, metadata);
}

}  // namespace at::safetensors
