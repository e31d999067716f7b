// Bytes into torch::jit::pickle_load. The first byte picks the way in: even, the rest is a
// whole file (zip archive, version, program, storages); odd, the rest is a bare pickle program
// for the Unpickler, every storage key reading one 64-byte record. Either raises c10::Error or
// gives a value that
//  - pickle_save writes again (everything pickle_load builds is in the format), and
//  - pickle_load reads back from what pickle_save wrote, as the same program byte for byte
//    when saved a second time.
// Seeds (corpus/pickle): files pickle_save and libtorch 1.13 wrote, and bare programs.

#include <cstring>
#include <string>
#include <vector>

#include "aten/ATen.h"
#include "aten/serialization/Pickle.h"
#include "aten/serialization/Unpickler.h"
#include "tests/fuzz/FuzzInput.h"

namespace {

c10::IValue load_bare(const uint8_t* data, size_t size) {
  torch::jit::Unpickler unpickler(
      absl::Span<const char>(reinterpret_cast<const char*>(data), size), [](const std::string&) {
        constexpr size_t kRecord = 64;
        c10::DataPtr bytes = c10::GetAllocator(c10::DeviceType::CPU)->allocate(kRecord);
        std::memset(bytes.get(), 0x3c, kRecord);
        return std::make_pair(std::move(bytes), kRecord);
      });
  return unpickler.parse_ivalue();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  c10::IValue value;
  try {
    if (data[0] % 2 == 0) {
      value = torch::jit::pickle_load(std::vector<char>(data + 1, data + size));
    } else {
      value = load_bare(data + 1, size - 1);
    }
  } catch (const c10::Error&) {
    return 0;
  }
  std::vector<char> saved;
  try {
    saved = torch::jit::pickle_save(value);
  } catch (const c10::Error& e) {
    FUZZ_CHECK(false, std::string("pickle_save refused what pickle_load built: ") +
                          e.what_without_backtrace());
  }
  try {
    const c10::IValue again = torch::jit::pickle_load(saved);
    (void)again;
  } catch (const c10::Error& e) {
    FUZZ_CHECK(false, std::string("pickle_load refused what pickle_save wrote: ") +
                          e.what_without_backtrace());
  }
  return 0;
}
