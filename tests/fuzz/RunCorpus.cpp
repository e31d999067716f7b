// Replays fuzz inputs without libFuzzer: `fuzz_x_replay <file or folder>...` runs the fuzzer's
// LLVMFuzzerTestOneInput once on each file. It makes each fuzzer's corpus (its seeds and the
// regression inputs of every crash found) a test of the ordinary build, with any compiler.

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {
int replay(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  return 1;
}
}  // namespace

int main(int argc, char** argv) {
  int runs = 0;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path path(argv[i]);
    if (std::filesystem::is_directory(path)) {
      for (const auto& entry : std::filesystem::directory_iterator(path))
        if (entry.is_regular_file()) runs += replay(entry.path());
    } else {
      runs += replay(path);
    }
  }
  std::fprintf(stderr, "replayed %d inputs\n", runs);
  return runs > 0 ? 0 : 1;
}
