#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "dispatcher/CustomClass.h"
#include "dispatcher/SchemaParser.h"

// Every schema libtorch registers, parsed and printed back. Needs a dump made by
// tools/compat/dump_libtorch_schemas; skipped otherwise:
//
//   MINIATEN_LIBTORCH_SCHEMAS=/tmp/libtorch_schemas.txt ./dispatcher_tests

namespace {

TEST(SchemaRoundTrip, EveryLibtorchSchemaPrintsBackUnchanged) {
  const char* path = std::getenv("MINIATEN_LIBTORCH_SCHEMAS");
  if (path == nullptr || *path == '\0') {
    GTEST_SKIP() << "set MINIATEN_LIBTORCH_SCHEMAS to the output of dump_libtorch_schemas";
  }
  std::ifstream in(path);
  ASSERT_TRUE(in) << "cannot read " << path;

  size_t total = 0;
  size_t unchanged = 0;
  std::vector<std::string> failures;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    ++total;
    // The custom classes the line names were registered in libtorch when it printed the line
    // (Note [Custom classes must be registered]).
    for (size_t at = line.find("__torch__.torch.classes."); at != std::string::npos;
         at = line.find("__torch__.torch.classes.", at + 1)) {
      size_t end = at + std::strlen("__torch__.torch.classes.");
      while (end < line.size() && (std::isalnum(static_cast<unsigned char>(line[end])) ||
                                   line[end] == '_' || line[end] == '.')) {
        ++end;
      }
      c10::registerCustomClass(line.substr(at, end - at));
    }
    try {
      const c10::FunctionSchema schema = torch::jit::parseSchema(line);
      const std::string text = c10::toString(schema);
      if (text == line) {
        ++unchanged;
        // Printing loses nothing: the text parses back to an equal schema.
        if (!(torch::jit::parseSchema(text) == schema)) failures.push_back("not equal: " + line);
      } else {
        failures.push_back(line + "\n   printed as " + text);
      }
    } catch (const c10::Error& e) {
      failures.push_back(line + "\n   " + e.msg());
    }
  }
  std::cout << unchanged << " of " << total << " libtorch schemas print back unchanged\n";
  EXPECT_GT(total, 0u);
  EXPECT_EQ(unchanged, total);
  for (const auto& f : failures) ADD_FAILURE() << f;
}

}  // namespace
