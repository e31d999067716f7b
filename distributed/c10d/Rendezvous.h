#pragma once
// Meeting from the environment (a miniaten extension: Python's init_process_group("env://")
// does this; libtorch's C++ API leaves it to the program). MASTER_ADDR, MASTER_PORT, RANK and
// WORLD_SIZE, as miniaten_run and torchrun set them, give a TCPStore served by rank 0 that every
// rank has joined.
//
//   c10d::EnvRendezvous r = c10d::rendezvous_from_env();   // blocks until all ranks are there
//   r.store->set("addr/" + std::to_string(r.rank), bytes);

#include <chrono>

#include "distributed/c10d/Store.h"

namespace c10d {

struct EnvRendezvous {
  c10::intrusive_ptr<Store> store;
  int rank = 0;
  int world_size = 0;
};

// Reads the four variables (Python's error for a missing one), starts the TCPStore's server in
// rank 0 and connects every rank to it. Rank 0 returns once world_size ranks have connected (a
// TimeoutError after `timeout` otherwise), the others once they have.
EnvRendezvous rendezvous_from_env(std::chrono::milliseconds timeout = Store::kDefaultTimeout);

}  // namespace c10d
