// The rank program Launcher_test.cpp starts under miniaten_run. What it does is its first
// argument:
//   env DIR              write this rank's launcher variables to DIR/rank<RANK>, exit 0
//   fail R CODE          rank R exits CODE at once; the others sleep a minute (to be stopped)
//   stubborn             ignore SIGTERM; rank 0 exits 1, the others sleep a minute
//   sleep                every rank sleeps a minute
//   rendezvous DIR       meet through rendezvous_from_env, add up the ranks, rank 0 writes DIR/ok

#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "distributed/c10d/Rendezvous.h"

namespace {

int rank() {
  const char* r = std::getenv("RANK");
  return r == nullptr ? -1 : std::atoi(r);
}

void sleep_a_minute() {
  for (int i = 0; i < 600; ++i) ::usleep(100 * 1000);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "env" && argc == 3) {
    std::ofstream out(std::string(argv[2]) + "/rank" + std::to_string(rank()));
    for (const char* name : {"RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE", "MASTER_ADDR",
                             "MASTER_PORT", "OMP_NUM_THREADS"}) {
      const char* value = std::getenv(name);
      out << name << "=" << (value == nullptr ? "<unset>" : value) << "\n";
    }
    return 0;
  }
  if (mode == "fail" && argc == 4) {
    if (rank() == std::atoi(argv[2])) return std::atoi(argv[3]);
    sleep_a_minute();
    return 0;
  }
  if (mode == "stubborn") {
    ::signal(SIGTERM, SIG_IGN);
    if (rank() == 0) {
      ::usleep(200 * 1000);
      return 1;
    }
    sleep_a_minute();
    return 0;
  }
  if (mode == "sleep") {
    sleep_a_minute();
    return 0;
  }
  if (mode == "rendezvous" && argc == 3) {
    try {
      c10d::EnvRendezvous r = c10d::rendezvous_from_env(std::chrono::seconds(20));
      r.store->add("sum", r.rank);
      r.store->set("done/" + std::to_string(r.rank), {'1'});
      std::vector<std::string> keys;
      for (int k = 0; k < r.world_size; ++k) keys.push_back("done/" + std::to_string(k));
      r.store->wait(keys);
      if (r.rank == 0) {
        const int64_t sum = r.store->add("sum", 0);
        if (sum != int64_t(r.world_size) * (r.world_size - 1) / 2) return 4;
        std::ofstream(std::string(argv[2]) + "/ok") << r.world_size << "\n";
        // Rank 0 serves the store: it leaves after the others.
        std::vector<std::string> left;
        for (int k = 1; k < r.world_size; ++k) left.push_back("left/" + std::to_string(k));
        r.store->wait(left);
      } else {
        r.store->set("left/" + std::to_string(r.rank), {'1'});
      }
      return 0;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "rank %d: %s\n", rank(), e.what());
      return 3;
    }
  }
  std::fprintf(stderr, "run_child: bad arguments\n");
  return 2;
}
