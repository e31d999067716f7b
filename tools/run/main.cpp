// miniaten_run: torchrun's job on one machine (a miniaten extension; libtorch's C++ API has no
// launcher). Starts N copies of a program as the ranks of one job and watches them.
//
//   miniaten_run --nproc 4 ./train --epochs 3
//   miniaten_run --nproc 2 --master-port 29500 -- ./train
//
// Each rank gets RANK and LOCAL_RANK (0 .. N-1), WORLD_SIZE and LOCAL_WORLD_SIZE (N),
// MASTER_ADDR (127.0.0.1) and MASTER_PORT (--master-port, else a free port the launcher picks),
// and OMP_NUM_THREADS=1 unless it is set already (N ranks would otherwise each start a thread per
// core), the rest of the environment as it is. See Note [How miniaten_run ends a job].

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "tools/run/Launcher.h"

namespace {

void usage() {
  std::fprintf(stderr,
               "usage: miniaten_run --nproc N [--master-port PORT] [--grace SECONDS] [--] "
               "program [args...]\n");
}

}  // namespace

int main(int argc, char** argv) {
  miniaten_run::Options options;
  int i = 1;
  for (; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](const char* name) -> const char* {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "miniaten_run: %s needs a value\n", name);
        return nullptr;
      }
      return argv[++i];
    };
    if (arg == "--") {
      ++i;
      break;
    } else if (arg == "--nproc" || arg == "--nproc_per_node" || arg == "--nproc-per-node") {
      const char* v = value(arg.c_str());
      if (v == nullptr || !miniaten_run::parse_count(v, &options.nproc)) {
        usage();
        return 2;
      }
    } else if (arg == "--master-port" || arg == "--master_port") {
      int port = 0;
      const char* v = value(arg.c_str());
      if (v == nullptr || !miniaten_run::parse_count(v, &port) || port > 65535) {
        usage();
        return 2;
      }
      options.master_port = port;
    } else if (arg == "--grace") {
      const char* v = value(arg.c_str());
      if (v == nullptr || !miniaten_run::parse_count(v, &options.grace_seconds)) {
        usage();
        return 2;
      }
    } else if (arg == "-h" || arg == "--help") {
      usage();
      return 0;
    } else if (arg.compare(0, 2, "--") == 0) {
      std::fprintf(stderr, "miniaten_run: unknown option %s\n", arg.c_str());
      usage();
      return 2;
    } else {
      break;
    }
  }
  if (options.nproc < 1 || i >= argc) {
    usage();
    return 2;
  }
  options.command.assign(argv + i, argv + argc);
  return miniaten_run::run(options);
}
