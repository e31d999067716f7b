// safetensors: round trips for every dtype and layout, the file's layout byte for byte, tensors
// that point into the mapped file, and the reference reader's refusals (Note [What a
// safetensors reader refuses]) on hand-made and truncated files.

#include "aten/serialization/Safetensors.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "TestUtils.h"
#include "aten/ATen.h"

namespace {

namespace st = at::safetensors;

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "miniaten_" + std::to_string(::getpid()) + "_" + name;
}

std::vector<char> file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A header and data made by hand: the 8-byte length, then the text, then the data.
std::vector<char> make_file(const std::string& header, const std::vector<char>& data) {
  std::vector<char> out(8);
  uint64_t n = header.size();
  for (int i = 0; i < 8; ++i, n >>= 8) out[i] = static_cast<char>(n & 0xff);
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

std::string error_text(const std::vector<char>& bytes) {
  return test_util::error_of([&] { st::load(bytes); });
}

at::Tensor values_of(at::ScalarType type) {
  if (type == at::kBool) return at::arange(12).remainder(3).eq(0).reshape({3, 4});
  if (type == at::kComplexFloat) {
    return at::view_as_complex(at::arange(-12, 12, at::kFloat).reshape({3, 4, 2}));
  }
  return at::arange(-5, 7).to(type).reshape({3, 4});
}

const at::ScalarType kAllTypes[] = {at::kBool,  at::kByte,   at::kChar,        at::kShort,
                                    at::kInt,   at::kLong,   at::kHalf,        at::kBFloat16,
                                    at::kFloat, at::kDouble, at::kComplexFloat};

TEST(Safetensors, EveryDtypeRoundTripsThroughBytesAndFiles) {
  st::TensorMap tensors;
  for (at::ScalarType type : kAllTypes) tensors.emplace(c10::toString(type), values_of(type));
  const std::string path = temp_path("dtypes.safetensors");
  st::save_file(tensors, path);
  EXPECT_EQ(file_bytes(path), st::save(tensors));
  for (const st::TensorMap& loaded : {st::load(st::save(tensors)), st::load_file(path)}) {
    ASSERT_EQ(loaded.size(), tensors.size());
    for (const auto& [name, t] : tensors) {
      SCOPED_TRACE(name);
      const at::Tensor& u = loaded.at(name);
      EXPECT_EQ(u.scalar_type(), t.scalar_type());
      EXPECT_EQ(u.sizes(), t.sizes());
      EXPECT_EQ(u.strides(), t.strides());
      EXPECT_EQ(u.storage_offset(), 0);
      EXPECT_TRUE(at::equal(u, t));
    }
  }
  std::remove(path.c_str());
}

// The format has no strides or sharing (Note [The safetensors layout]): each view is saved as
// its values and loads as a contiguous tensor of its own.
TEST(Safetensors, ViewsAreSavedAsTheirValues) {
  at::Tensor base = at::arange(120, at::kFloat).reshape({2, 3, 4, 5});
  const st::TensorMap tensors = {{"transposed", base.transpose(0, 3)},
                                 {"sliced", base.slice(1, 1, 3).select(3, 2)},
                                 {"channels_last", base.contiguous(at::MemoryFormat::ChannelsLast)},
                                 {"expanded", at::arange(3.).expand({4, 3})},
                                 {"zero_size", at::empty({0, 3}, at::kLong)},
                                 {"zero_dim", at::scalar_tensor(2.5)},
                                 {"shares_a", base[0]},
                                 {"shares_b", base[0][1]}};
  const std::string path = temp_path("views.safetensors");
  st::save_file(tensors, path);
  const st::TensorMap loaded = st::load_file(path);
  for (const auto& [name, t] : tensors) {
    SCOPED_TRACE(name);
    const at::Tensor& u = loaded.at(name);
    EXPECT_EQ(u.sizes(), t.sizes());
    EXPECT_TRUE(u.is_contiguous());
    EXPECT_EQ(u.storage_offset(), 0);
    EXPECT_TRUE(at::equal(u, t));
  }
  EXPECT_FALSE(loaded.at("shares_a").is_alias_of(loaded.at("shares_b")));
  std::remove(path.c_str());
}

// Byte for byte: the length, the JSON (largest element first, then by name), the padding to a
// multiple of 8, the data.
TEST(Safetensors, TheFileIsLaidOutAsTheReferenceWriterLaysIt) {
  const st::TensorMap tensors = {{"b", at::tensor({1, 2}, at::kShort)},
                                 {"a", at::tensor({1.5}, at::kDouble)},
                                 {"c", at::tensor({3}, at::kShort)}};
  const std::vector<char> bytes = st::save(tensors, {{"format", "pt"}});
  const std::string json =
      R"({"__metadata__":{"format":"pt"},"a":{"dtype":"F64","shape":[1],"data_offsets":[0,8]},)"
      R"("b":{"dtype":"I16","shape":[2],"data_offsets":[8,12]},)"
      R"("c":{"dtype":"I16","shape":[1],"data_offsets":[12,14]}})";
  std::string header = json + std::string((8 - json.size() % 8) % 8, ' ');
  std::vector<char> data(14);
  const double a = 1.5;
  const int16_t b[3] = {1, 2, 3};
  std::memcpy(data.data(), &a, 8);
  std::memcpy(data.data() + 8, b, 6);
  EXPECT_EQ(bytes, make_file(header, data));
  EXPECT_EQ((bytes.size() - data.size()) % 8, 0u);

  st::Metadata metadata;
  st::load(bytes, &metadata);
  EXPECT_EQ(metadata, (st::Metadata{{"format", "pt"}}));
}

// The example of the reference implementation's own tests loads.
TEST(Safetensors, TheReferenceExampleLoads) {
  const std::string header = R"({"test":{"dtype":"I32","shape":[2,2],"data_offsets":[0,16]}})";
  const st::TensorMap loaded = st::load(make_file(header, std::vector<char>(16, 0)));
  EXPECT_TRUE(at::equal(loaded.at("test"), at::zeros({2, 2}, at::kInt)));
}

// load_file hands out tensors inside the mapping, aligned, at their offsets; writing one
// copies its page and leaves the file as it was.
TEST(Safetensors, MappedLoadsPointIntoTheFileAndNeverWriteIt) {
  const st::TensorMap tensors = {{"x", at::arange(1000, at::kFloat)},
                                 {"y", at::arange(1000, at::kFloat).neg()},
                                 {"z", at::arange(10, at::kDouble)}};
  const std::string path = temp_path("mapped.safetensors");
  st::save_file(tensors, path);
  const std::vector<char> before = file_bytes(path);
  {
    st::TensorMap loaded = st::load_file(path);
    const auto* z = static_cast<const char*>(loaded.at("z").data_ptr());
    const auto* x = static_cast<const char*>(loaded.at("x").data_ptr());
    const auto* y = static_cast<const char*>(loaded.at("y").data_ptr());
    EXPECT_EQ(x - z, 80);  // z (F64) first, then x, then y: one mapping, no copies
    EXPECT_EQ(y - x, 4000);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(z) % 8, 0u);
    at::Tensor keep = loaded.at("y").slice(0, 10, 20);
    loaded.clear();  // the slice keeps the mapping alive
    keep.fill_(42);
    EXPECT_TRUE(at::equal(keep, at::full({10}, 42.f)));
  }
  EXPECT_EQ(file_bytes(path), before);
  std::remove(path.c_str());
}

// A header whose length is not a multiple of 8 puts the data off alignment: those tensors are
// copied, the others still point into the mapping.
TEST(Safetensors, MisalignedTensorsAreCopied) {
  const std::string header =
      R"({"d":{"dtype":"F64","shape":[2],"data_offsets":[0,16]},"u":{"dtype":"U8","shape":[3],"data_offsets":[16,19]}})";
  ASSERT_NE((8 + header.size()) % 8, 0u);
  std::vector<char> data(19);
  const double d[2] = {0.25, -8};
  std::memcpy(data.data(), d, 16);
  data[16] = 7, data[17] = 8, data[18] = 9;
  const std::vector<char> bytes = make_file(header, data);
  const std::string path = temp_path("misaligned.safetensors");
  {
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  const st::TensorMap loaded = st::load_file(path);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(loaded.at("d").data_ptr()) % 8, 0u);
  EXPECT_TRUE(at::equal(loaded.at("d"), at::tensor({0.25, -8.0}, at::kDouble)));
  EXPECT_TRUE(at::equal(loaded.at("u"), at::tensor({7, 8, 9}, at::kByte)));
  std::remove(path.c_str());
}

TEST(Safetensors, WhatTheFormatLacksIsRefusedBeforeWriting) {
  const std::string path = temp_path("refused.safetensors");
  try {
    st::save_file({{"c", at::zeros({2}, at::kComplexDouble)}}, path);
    FAIL() << "no error";
  } catch (const c10::Error& e) {
    EXPECT_EQ(std::string(e.what_without_backtrace()),
              "safetensors has no dtype for ComplexDouble");
  }
  EXPECT_THROW(st::save({{"__metadata__", at::zeros({1})}}), c10::Error);
  EXPECT_THROW(st::save({{"u", at::Tensor()}}), c10::Error);
  EXPECT_THROW(st::load_file(temp_path("does_not_exist")), c10::Error);
}

TEST(Safetensors, TheReferenceReadersRefusalsAreErrors) {
  const std::vector<char> eight(8, 0);
  struct Case {
    const char* name;
    std::vector<char> bytes;
    std::string text;
  };
  std::vector<char> too_large(8, 0);
  too_large[3] = 0x10;  // 2^28 > 10^8
  std::vector<char> too_long = make_file("{}", {});
  too_long[0] = 100;
  const std::string prefix = "Error while deserializing header: ";
  const std::vector<Case> cases = {
      {"too_small", {1, 2, 3}, prefix + "HeaderTooSmall"},
      {"too_large", too_large, prefix + "HeaderTooLarge: 268435456 bytes"},
      {"longer_than_file", too_long, prefix + "InvalidHeaderLength: 100 bytes in a file of 10"},
      {"start", make_file(" {}", {}), prefix + "InvalidHeaderStart"},
      {"empty_header", make_file("", {}), prefix + "InvalidHeaderStart"},
      {"not_json", make_file("{\"a\":", {}),
       prefix + "InvalidHeaderDeserialization: the header is not a JSON object"},
      {"not_utf8", make_file("{\"\xff\":1}", {}),
       prefix + "InvalidHeaderDeserialization: the header is not a JSON object"},
      {"unknown_dtype", make_file(R"({"a":{"dtype":"F7","shape":[1],"data_offsets":[0,1]}})", {0}),
       prefix + "InvalidHeaderDeserialization: unknown dtype \"F7\""},
      {"no_scalar_type",
       make_file(R"({"a":{"dtype":"U16","shape":[1],"data_offsets":[0,2]}})", {0, 0}),
       "safetensors dtype U16 has no miniaten ScalarType to load into"},
      {"negative_size", make_file(R"({"a":{"dtype":"U8","shape":[-1],"data_offsets":[0,1]}})", {0}),
       prefix +
           "InvalidHeaderDeserialization: tensor \"a\"'s sizes must be a non-negative integer"},
      {"no_offsets", make_file(R"({"a":{"dtype":"U8","shape":[1]}})", {0}),
       prefix + "InvalidHeaderDeserialization: tensor \"a\" has no \"data_offsets\""},
      {"metadata_not_strings", make_file(R"({"__metadata__":{"a":1}})", {}),
       prefix + "InvalidHeaderDeserialization: __metadata__ values must be strings"},
      {"gap", make_file(R"({"a":{"dtype":"U8","shape":[1],"data_offsets":[1,2]}})", {0, 0}),
       prefix + "InvalidOffset(\"a\")"},
      {"overlap",
       make_file(R"({"a":{"dtype":"U8","shape":[2],"data_offsets":[0,2]},)"
                 R"("b":{"dtype":"U8","shape":[2],"data_offsets":[1,3]}})",
                 {0, 0, 0}),
       prefix + "InvalidOffset(\"b\")"},
      {"reversed", make_file(R"({"a":{"dtype":"U8","shape":[0],"data_offsets":[2,0]}})", {0, 0}),
       prefix + "InvalidOffset(\"a\")"},
      {"wrong_byte_count",
       make_file(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,4]}})", {0, 0, 0, 0}),
       prefix + "TensorInvalidInfo: tensor \"a\" has 4 bytes for 8"},
      {"overflow",
       make_file(R"({"a":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,4]}})",
                 {0, 0, 0, 0}),
       prefix + "ValidationOverflow: tensor \"a\""},
      {"past_the_end",
       make_file(R"({"a":{"dtype":"U8","shape":[4],"data_offsets":[0,4]}})", {0, 0}),
       prefix + "MetadataIncompleteBuffer: the tensors end at byte 4 of 2"},
      {"trailing_data",
       make_file(R"({"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1]}})", {0, 0}),
       prefix + "MetadataIncompleteBuffer: the tensors end at byte 1 of 2"}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(error_text(c.bytes), c.text);
  }
}

// Every prefix of a valid file, and every single-byte change of its header, is a c10::Error
// or a valid load: never a crash or an out-of-bounds read (ASan runs this too).
TEST(Safetensors, TruncatedAndCorruptedFilesAreErrors) {
  const std::vector<char> bytes =
      st::save({{"w", at::arange(6, at::kFloat).reshape({2, 3})}, {"b", at::ones({3}, at::kHalf)}},
               {{"k", "v"}});
  for (size_t n = 0; n < bytes.size(); ++n) {
    SCOPED_TRACE(n);
    EXPECT_THROW(st::load(absl::MakeConstSpan(bytes.data(), n)), c10::Error);
  }
  uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | static_cast<unsigned char>(bytes[i]);
  const size_t header_end = 8 + n;
  for (size_t i = 0; i < header_end; ++i) {
    for (unsigned char flip : {0x01, 0x20, 0x80}) {
      std::vector<char> corrupt = bytes;
      corrupt[i] = static_cast<char>(corrupt[i] ^ flip);
      try {
        st::load(corrupt);
      } catch (const c10::Error&) {
      }
    }
  }
}

}  // namespace
