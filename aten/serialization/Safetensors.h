#pragma once
// safetensors: named tensors in one file, a JSON header then the raw bytes
// (https://github.com/huggingface/safetensors, format as of safetensors 0.4). A miniaten
// extension: libtorch has no safetensors API; the names follow Python's safetensors.torch.
//
//   at::safetensors::save_file({{"w", w}, {"b", b}}, "model.safetensors", {{"step", "10"}});
//   auto tensors = at::safetensors::load_file("model.safetensors");   // memory-mapped
//   at::Tensor w = tensors.at("w");
//
// Note [The safetensors layout]
// 8 bytes: N, the header's length, little-endian u64. N bytes: a JSON object mapping each
// tensor's name to {"dtype": "F32", "shape": [2, 3], "data_offsets": [begin, end]}, plus an
// optional "__metadata__" object of strings. Then the data: each tensor row-major and
// contiguous, little-endian, at [begin, end) counted from the data's start. The format has no
// strides, offsets or sharing: a view is saved as its values (made contiguous) and loads as a
// contiguous tensor of its own.
//
// The writer pads the header with spaces to a multiple of 8 and orders tensors by alignment
// (largest element first), then by name, as the reference writer does: every tensor's bytes then
// start at a multiple of its element size from a page-aligned mapping, and load_file can hand
// out tensors pointing into the mapped file. See Note [Loaded tensors keep their file mapped].
//
// Note [What a safetensors reader refuses]
// The reference reader's rules, with its error names ("Error while deserializing header:
// InvalidOffset(\"w\")"): a header longer than 100,000,000 bytes (HeaderTooLarge) or than the
// file (InvalidHeaderLength); a header that does not start with '{' (InvalidHeaderStart), or is
// not UTF-8 JSON of the layout above, or names an unknown dtype (InvalidHeaderDeserialization);
// a dtype miniaten has no ScalarType for (U16, U32, U64, F8_*); a tensor whose byte count
// is not its element count times its element size (TensorInvalidInfo); element counts that
// overflow (ValidationOverflow); tensors that are not laid end to end from offset 0, in offset
// order, with no gap and no overlap (InvalidOffset); and data beyond the last tensor
// (MetadataIncompleteBuffer). Every one is a c10::Error; no input reads out of bounds.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "aten/core/Tensor.h"

namespace at::safetensors {

using TensorMap = std::map<std::string, Tensor>;
using Metadata = std::map<std::string, std::string>;

// The file's bytes. CPU tensors of any layout (each is written contiguous); CUDA tensors are
// copied to the host. "safetensors has no dtype for ComplexDouble" for what the format lacks.
std::vector<char> save(const TensorMap& tensors, const Metadata& metadata = {});
void save_file(const TensorMap& tensors, const std::string& path, const Metadata& metadata = {});

// Each tensor is a copy, owning its memory: `bytes` may go away after the call.
TensorMap load(absl::Span<const char> bytes, Metadata* metadata = nullptr);
// Memory-mapped: a tensor whose bytes are aligned for its dtype points into the mapping
// (copy on write, the file never changes); any other is copied once.
TensorMap load_file(const std::string& path, Metadata* metadata = nullptr);

}  // namespace at::safetensors
