// c10d's stores under threads (issue 25): ranks played by threads meet in a HashStore and in a
// TCPStore (one client each), each setting its own keys, waiting for the others' and counting
// on one key; then threads share one TCPStore client. The TCPStore's server thread serves them
// all. Bounded by rounds and by time (Note [Stress tests are bounded by rounds and by time]).

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "distributed/c10d/HashStore.h"
#include "distributed/c10d/TCPStore.h"
#include "tests/concurrency/StressTestUtil.h"
#include "tests/distributed/StoreTestUtils.h"

namespace {

using namespace std::chrono_literals;
using store_test::bytes;

// Round r: every rank sets "r/<rank>", waits for all ranks' keys, checks them, and adds 1 to
// "count"; the counter then holds the number of (rank, round) pairs that ran.
void meet(int ranks, int rank, int rounds,
          const std::vector<c10::intrusive_ptr<c10d::Store>>& handles,
          const stress::Deadline& deadline, stress::Outcomes& seen) {
  c10d::Store& store = *handles[static_cast<size_t>(rank) % handles.size()];
  for (int r = 0; r < rounds && !deadline.passed(); ++r) {
    const std::string round = std::to_string(r) + "/";
    store.set(round + std::to_string(rank), bytes(std::to_string(rank * 1000 + r)));
    std::vector<std::string> keys;
    for (int k = 0; k < ranks; ++k) keys.push_back(round + std::to_string(k));
    try {
      store.wait(keys, 20s);
      bool right = true;
      for (int k = 0; k < ranks; ++k) {
        right =
            right && store.get(keys[static_cast<size_t>(k)]) == bytes(std::to_string(k * 1000 + r));
      }
      seen.add(right ? "ok" : "wrong value");
    } catch (const c10::Error& e) {
      seen.add(e.what_without_backtrace());
    }
    store.add("count", 1);
  }
}

TEST(StoreThreads, RanksMeetInAHashStore) {
  auto store = c10::make_intrusive<c10d::HashStore>();
  stress::Deadline deadline(1500ms);
  stress::Outcomes seen;
  stress::run_threads(4, [&](int t) { meet(4, t, 30, {store}, deadline, seen); });
  EXPECT_EQ(seen.count("ok"), seen.total());
  EXPECT_EQ(store->add("count", 0), seen.total());
}

TEST(StoreThreads, RanksMeetInATCPStoreAndShareAClient) {
  c10d::TCPStoreOptions opts;
  opts.port = 0;
  opts.isServer = true;
  opts.timeout = 20s;
  auto server = c10::make_intrusive<c10d::TCPStore>("127.0.0.1", opts);
  opts.isServer = false;
  opts.port = server->getPort();
  // One client per rank: a wait holds its client until the keys come (operations of one
  // TCPStore are serialized, as libtorch's are), so ranks that wait for each other cannot share.
  std::vector<c10::intrusive_ptr<c10d::Store>> handles = {server};
  for (int i = 0; i < 2; ++i) {
    handles.push_back(c10::make_intrusive<c10d::TCPStore>("127.0.0.1", opts));
  }
  stress::Deadline deadline(1500ms);
  stress::Outcomes seen;
  stress::run_threads(3, [&](int t) { meet(3, t, 30, handles, deadline, seen); });
  EXPECT_EQ(seen.count("ok"), seen.total());
  EXPECT_EQ(server->add("count", 0), seen.total());
  // Threads sharing one client without waiting on each other: their calls are serialized.
  auto shared = c10::make_intrusive<c10d::TCPStore>("127.0.0.1", opts);
  stress::Outcomes shared_seen;
  stress::run_threads(3, [&](int t) {
    for (int i = 0; i < 100 && !deadline.passed(); ++i) {
      const std::string key = "own/" + std::to_string(t) + "/" + std::to_string(i);
      shared->set(key, bytes(key));
      shared_seen.add(shared->get(key) == bytes(key) ? "ok" : "wrong value");
      shared->add("shared_count", 1);
    }
  });
  EXPECT_EQ(shared_seen.count("ok"), shared_seen.total());
  EXPECT_EQ(server->add("shared_count", 0), shared_seen.total());
}

}  // namespace
