#include "distributed/c10d/Rendezvous.h"

#include <cerrno>
#include <cstdlib>
#include <string>

#include "distributed/c10d/TCPStore.h"

namespace c10d {

namespace {

// Python's wording (torch/distributed/rendezvous.py, _env_rendezvous_handler).
std::string env(const char* name) {
  const char* value = std::getenv(name);
  TORCH_CHECK_VALUE(value != nullptr && *value != '\0',
                    "Error initializing torch.distributed using env:// rendezvous: environment "
                    "variable ",
                    name, " expected, but not set");
  return value;
}

int64_t env_int(const char* name) {
  const std::string text = env(name);
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  TORCH_CHECK_VALUE(*end == '\0' && errno == 0,
                    "Error initializing torch.distributed using env:// "
                    "rendezvous: environment variable ",
                    name, " is not an integer: '", text, "'");
  return value;
}

}  // namespace

EnvRendezvous rendezvous_from_env(std::chrono::milliseconds timeout) {
  const int64_t rank = env_int("RANK");
  const int64_t world_size = env_int("WORLD_SIZE");
  const std::string host = env("MASTER_ADDR");
  const int64_t port = env_int("MASTER_PORT");
  TORCH_CHECK_VALUE(world_size >= 1, "WORLD_SIZE must be at least 1, got ", world_size);
  TORCH_CHECK_VALUE(rank >= 0 && rank < world_size, "RANK must be in [0, WORLD_SIZE), got RANK ",
                    rank, " and WORLD_SIZE ", world_size);
  TORCH_CHECK_VALUE(port >= 1 && port <= 65535, "MASTER_PORT must be in [1, 65535], got ", port);
  TCPStoreOptions opts;
  opts.port = static_cast<std::uint16_t>(port);
  opts.isServer = rank == 0;
  opts.numWorkers = static_cast<std::size_t>(world_size);
  opts.timeout = timeout;
  EnvRendezvous r;
  r.store = c10::make_intrusive<TCPStore>(host, opts);
  r.rank = static_cast<int>(rank);
  r.world_size = static_cast<int>(world_size);
  return r;
}

}  // namespace c10d
