// The safetensors reader on any byte string: either a c10::Error, or tensors whose byte counts
// add up to the file's data, and which save back to a file that loads to equal tensors.

#include <cstdint>
#include <cstring>

#include "aten/ATen.h"
#include "aten/serialization/Safetensors.h"
#include "c10/util/Exception.h"
#include "tests/fuzz/FuzzInput.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const absl::Span<const char> bytes(reinterpret_cast<const char*>(data), size);
  at::safetensors::TensorMap tensors;
  at::safetensors::Metadata metadata;
  try {
    tensors = at::safetensors::load(bytes, &metadata);
  } catch (const c10::Error&) {
    return 0;  // refused with a message: fine
  }
  uint64_t header = 0;
  for (int i = 7; i >= 0; --i) header = (header << 8) | data[i];
  uint64_t total = 0;
  for (const auto& [name, t] : tensors) {
    FUZZ_CHECK(t.is_contiguous() && t.storage_offset() == 0, "a loaded tensor is a view: " + name);
    total += t.numel() * t.element_size();
  }
  FUZZ_CHECK(8 + header + total == size, "the tensors do not cover the file's data");

  at::safetensors::Metadata again_metadata;
  const at::safetensors::TensorMap again =
      at::safetensors::load(at::safetensors::save(tensors, metadata), &again_metadata);
  FUZZ_CHECK(again.size() == tensors.size() && again_metadata == metadata,
             "a saved file loads to other names or metadata");
  for (const auto& [name, t] : tensors) {
    const at::Tensor& u = again.at(name);
    // Bytes, not values: NaN payloads and Bool bytes other than 0/1 must survive as they are.
    const size_t nbytes = t.numel() * t.element_size();
    FUZZ_CHECK(u.sizes() == t.sizes() && u.scalar_type() == t.scalar_type() &&
                   (nbytes == 0 || std::memcmp(u.data_ptr(), t.data_ptr(), nbytes) == 0),
               "a saved tensor loads to other bytes: " + name);
  }
  return 0;
}
