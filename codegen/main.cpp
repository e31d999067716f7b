// miniaten_codegen: reads aten/native/native_functions.def (compiled in) and writes the typed
// API into the directory given. A file is rewritten only when its contents change, so an
// unchanged registry rebuilds nothing.
//
//   miniaten_codegen <output-dir>

#include <fstream>
#include <iostream>
#include <sstream>

#include "codegen/Emit.h"

namespace {

const std::vector<codegen::RegistryEntry> kRegistry = {
#define MINIATEN_NATIVE_FUNCTION(schema, variants, dispatch) {schema, variants, dispatch},
#include "aten/native/native_functions.def"
#undef MINIATEN_NATIVE_FUNCTION
};

bool write_if_changed(const std::string& path, const std::string& contents) {
  std::ifstream in(path, std::ios::binary);
  if (in) {
    std::stringstream ss;
    ss << in.rdbuf();
    if (ss.str() == contents) return false;
  }
  std::ofstream out(path, std::ios::binary);
  out << contents;
  if (!out) throw std::runtime_error("cannot write " + path);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: miniaten_codegen <output-dir>\n";
    return 2;
  }
  try {
    const auto functions = codegen::parse_registry(kRegistry);
    int written = 0;
    for (const auto& [name, contents] : codegen::generate_all(functions)) {
      written += write_if_changed(std::string(argv[1]) + "/" + name, contents);
    }
    std::cout << "miniaten_codegen: " << functions.size() << " operators, " << written
              << " files updated\n";
  } catch (const std::exception& e) {
    std::cerr << "miniaten_codegen: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
