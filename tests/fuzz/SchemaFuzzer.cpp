// The schema parser on any byte string: either a c10::Error, or a FunctionSchema that prints
// back to text which parses to the same schema and prints identically again.

#include <string>
#include <string_view>

#include "c10/util/Exception.h"
#include "dispatcher/FunctionSchema.h"
#include "dispatcher/SchemaParser.h"
#include "tests/fuzz/FuzzInput.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  c10::optional<c10::FunctionSchema> parsed;
  try {
    parsed = torch::jit::parseSchema(text);
  } catch (const c10::Error&) {
    return 0;  // rejected with a message: fine
  }
  const c10::FunctionSchema& schema = *parsed;
  const std::string printed = c10::toString(schema);
  // A bare `!` (`Tensor!`) writes to a fresh alias set that the parser names `$0`, `$1`, ...;
  // libtorch 1.13 prints it as `Tensor($0! -> )`, which no parser reads back (checked: the same
  // text from libtorch's parseSchema). miniaten prints what libtorch prints, so the round trip
  // is not promised for such schemas; they must still print.
  if (printed.find("($") != std::string::npos) return 0;
  // The same for a Device default: libtorch prints `Device d="cpu"` as `Device d=cpu`.
  for (const auto& arg : schema.arguments())
    if (arg.default_value() && arg.default_value()->isDevice()) return 0;
  c10::optional<c10::FunctionSchema> reparsed;
  try {
    reparsed = torch::jit::parseSchema(printed);
  } catch (const c10::Error& e) {
    FUZZ_CHECK(false, "the printed schema does not parse: " + printed + "\n" + e.what());
  }
  const c10::FunctionSchema& again = *reparsed;
  FUZZ_CHECK(again == schema, "the printed schema parses to another schema: " + printed);
  FUZZ_CHECK(c10::toString(again) == printed, "printing is not stable: " + printed);
  return 0;
}
