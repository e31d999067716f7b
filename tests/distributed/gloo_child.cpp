// A rank of a Gloo process group in its own process, for GlooFaults_test.cpp. It meets the
// others through rendezvous_from_env (RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT). What it does
// is its first argument:
//   sum DIR               allreduce rank + 1 over the world; write the sum to DIR/sum<RANK>
//   loop DIR TIMEOUT_MS   allreduce 4M floats over and over; after the first, write
//                         DIR/ready<RANK>; when one fails, write "<ms the failing wait took>\n
//                         <its message>" to DIR/error<RANK> and exit 0
// Exit codes: 0 done, 2 bad arguments, 3 an unexpected error (printed to stderr).

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>

#include "aten/ATen.h"
#include "distributed/c10d/ProcessGroupGloo.h"
#include "distributed/c10d/Rendezvous.h"

namespace {

c10::intrusive_ptr<c10d::ProcessGroupGloo> join(const c10d::EnvRendezvous& r,
                                                std::chrono::milliseconds timeout) {
  auto opts = c10d::ProcessGroupGloo::Options::create(timeout);
  opts->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
  return c10::make_intrusive<c10d::ProcessGroupGloo>(r.store, r.rank, r.world_size, opts);
}

void write(const std::string& path, const std::string& text) {
  std::ofstream out(path + ".tmp");
  out << text;
  out.close();
  std::rename((path + ".tmp").c_str(), path.c_str());  // readers see the whole file or none
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  try {
    if (mode == "sum" && argc == 3) {
      auto r = c10d::rendezvous_from_env(std::chrono::seconds(20));
      auto pg = join(r, std::chrono::seconds(20));
      std::vector<at::Tensor> t{at::full({8}, r.rank + 1.0)};
      pg->allreduce(t)->wait();
      pg->barrier()->wait();  // rank 0 serves the store: nobody leaves before all are done
      write(std::string(argv[2]) + "/sum" + std::to_string(r.rank),
            std::to_string(t[0][0].item<float>()));
      return 0;
    }
    if (mode == "loop" && argc == 4) {
      const std::string dir = argv[2];
      const auto timeout = std::chrono::milliseconds(std::stol(argv[3]));
      auto r = c10d::rendezvous_from_env(std::chrono::seconds(20));
      auto pg = join(r, timeout);
      std::vector<at::Tensor> t{at::ones({4 << 20})};
      for (int i = 0;; ++i) {
        auto work = pg->allreduce(t);
        const auto start = std::chrono::steady_clock::now();
        try {
          work->wait();
        } catch (const c10::Error& e) {
          const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                              std::chrono::steady_clock::now() - start)
                              .count();
          write(dir + "/error" + std::to_string(r.rank),
                std::to_string(ms) + "\n" + e.what_without_backtrace());
          return 0;
        }
        if (i == 0) write(dir + "/ready" + std::to_string(r.rank), "ready");
        t[0].fill_(1.0);
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gloo_child: %s\n", e.what());
    return 3;
  }
  std::fprintf(stderr, "gloo_child: bad arguments\n");
  return 2;
}
