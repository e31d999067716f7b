// c10d's stores, each through the same checks: the values libtorch 1.13 gives for set / get /
// add / compareSet / deleteKey / check / getNumKeys (printed by a libtorch program), timeouts
// with libtorch's wording and within their bound, waits woken by other threads, atomic counters
// under contention, and the processes that share a FileStore.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "distributed/c10d/FileStore.h"
#include "distributed/c10d/HashStore.h"
#include "distributed/c10d/PrefixStore.h"
#include "tests/TestUtils.h"
#include "tests/distributed/StoreTestUtils.h"

namespace {

using namespace std::chrono_literals;
using c10d::Store;
using store_test::bytes;
using store_test::text;

// ---- One suite, every store ------------------------------------------------------------------

class EveryStore : public ::testing::TestWithParam<store_test::StoreKind> {
 protected:
  void SetUp() override { store_ = GetParam().make(); }
  c10::intrusive_ptr<Store> store_;
};

TEST_P(EveryStore, ValuesAsLibtorchGivesThem) {
  Store& st = *store_;
  const int64_t base_keys = st.getNumKeys();  // TCPStore counts its "init/" key
  st.set("a", bytes("1"));
  EXPECT_EQ(st.getNumKeys(), base_keys + 1);
  EXPECT_EQ(st.add("a", 5), 6);
  EXPECT_EQ(text(st.get("a")), "6");
  st.set("b", bytes("xyz"));
  EXPECT_EQ(st.add("c", 3), 3);  // a missing counter starts at 0
  EXPECT_EQ(st.add("c", -5), -2);
  EXPECT_EQ(text(st.get("c")), "-2");
  // compareSet: the expected value matches -> desired; it does not -> what is there; a missing
  // key with an empty expected value -> set; missing with another -> the expected value back.
  EXPECT_EQ(text(st.compareSet("b", bytes("xyz"), bytes("q"))), "q");
  EXPECT_EQ(text(st.compareSet("b", bytes("nope"), bytes("r"))), "q");
  EXPECT_EQ(text(st.get("b")), "q");
  EXPECT_EQ(text(st.compareSet("m", bytes(""), bytes("n"))), "n");
  EXPECT_EQ(text(st.get("m")), "n");
  EXPECT_EQ(text(st.compareSet("m2", bytes("x"), bytes("n"))), "x");
  EXPECT_FALSE(st.check({"m2"}));
  EXPECT_TRUE(st.check({"a", "c"}));
  EXPECT_FALSE(st.check({"a", "z"}));
  EXPECT_TRUE(st.check({}));
  EXPECT_EQ(st.getNumKeys(), base_keys + 4);
  EXPECT_TRUE(st.deleteKey("a"));
  EXPECT_FALSE(st.deleteKey("a"));
  EXPECT_FALSE(st.check({"a"}));
  EXPECT_EQ(st.getNumKeys(), base_keys + 3);
  // After a delete the key can come back.
  EXPECT_EQ(st.add("a", 2), 2);
  // Empty keys and values, and bytes that are not text.
  st.set("", bytes("e"));
  EXPECT_EQ(text(st.get("")), "e");
  st.set("empty", {});
  EXPECT_TRUE(st.get("empty").empty());
  const std::vector<uint8_t> binary = {0, 255, 10, 0, 13};
  st.set("bin", binary);
  EXPECT_EQ(st.get("bin"), binary);
  // A big value.
  std::vector<uint8_t> big(3 << 20);
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<uint8_t>(i * 7);
  st.set("big", big);
  EXPECT_EQ(st.get("big"), big);
}

TEST_P(EveryStore, AddOfSomethingNotANumberIsAnErrorAndChangesNothing) {
  store_->set("b", bytes("xyz"));
  EXPECT_THROW(store_->add("b", 1), c10::Error);
  EXPECT_EQ(text(store_->get("b")), "xyz");
  EXPECT_EQ(store_->add("ok", 1), 1);  // the store still works
}

TEST_P(EveryStore, TimeoutsAreLibtorchsAndBounded) {
  store_->setTimeout(200ms);
  EXPECT_EQ(store_->getTimeout(), 200ms);
  for (const auto& call : std::vector<std::function<void()>>{
           [&] { store_->get("nokey"); },
           [&] {
             store_->wait({"nokey", "k2"});
           },
           [&] { store_->wait({"nokey"}, 150ms); },
       }) {
    const auto start = std::chrono::steady_clock::now();
    try {
      call();
      ADD_FAILURE() << "no timeout";
    } catch (const c10d::TimeoutError& e) {
      EXPECT_EQ(std::string(e.what_without_backtrace()).find(GetParam().timeout_text), 0u)
          << e.what_without_backtrace();
    }
    const auto took = std::chrono::steady_clock::now() - start;
    EXPECT_GE(took, 140ms);
    EXPECT_LT(took, 2s);
  }
  // A key that exists does not wait.
  store_->set("here", bytes("1"));
  store_->wait({"here"}, 1ms);
}

TEST_P(EveryStore, WaitIsWokenByAnotherThreadsSet) {
  store_->setTimeout(5s);
  const c10::intrusive_ptr<Store> other = GetParam().other_handle(store_);
  std::thread setter([&] {
    std::this_thread::sleep_for(50ms);
    other->set("late", bytes("v"));
  });
  EXPECT_EQ(text(store_->get("late")), "v");
  store_->wait({"late"});
  setter.join();
}

TEST_P(EveryStore, CountersAreAtomicUnderContention) {
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    const c10::intrusive_ptr<Store> handle = GetParam().other_handle(store_);
    threads.emplace_back([handle] {
      for (int i = 0; i < 100; ++i) handle->add("counter", 1);
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(text(store_->get("counter")), "400");
}

// Only a TCPStore (or a PrefixStore over one) watches keys; the others refuse with the base
// class's words, as libtorch 1.13's do. What a watch hears: TCPStore_test.cpp.
TEST_P(EveryStore, WatchKeyIsRefusedButByTCPStore) {
  const bool tcp = GetParam().name.find("TCPStore") != std::string::npos;
  std::atomic<int> heard{0};
  const std::string msg = test_util::error_of([&] {
    store_->watchKey("w", [&](c10::optional<std::string>, c10::optional<std::string>) { ++heard; });
  });
  if (!tcp) {
    EXPECT_EQ(msg, "watchKey only implemented for TCPStore and PrefixStore that wraps TCPStore.");
    return;
  }
  EXPECT_EQ(msg, "no error");
  store_->set("w", bytes("1"));
  for (int i = 0; i < 1000 && heard == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_EQ(heard, 1);
}

INSTANTIATE_TEST_SUITE_P(Stores, EveryStore, ::testing::ValuesIn(store_test::every_store()),
                         [](const auto& info) { return info.param.name; });

// ---- PrefixStore -----------------------------------------------------------------------------

TEST(PrefixStore, KeysLiveUnderThePrefixInTheUnderlyingStore) {
  auto hash = c10::make_intrusive<c10d::HashStore>();
  c10d::PrefixStore pre("pre", hash);
  pre.set("c", bytes("1"));
  EXPECT_TRUE(hash->check({"pre/c"}));
  EXPECT_FALSE(hash->check({"c"}));
  hash->set("other", bytes("x"));
  // libtorch 1.13 counts the underlying store's keys.
  EXPECT_EQ(pre.getNumKeys(), 2);
  pre.setTimeout(123ms);
  EXPECT_EQ(hash->getTimeout(), 123ms);
  EXPECT_EQ(pre.getUnderlyingStore().get(), hash.get());
  c10d::PrefixStore nested("outer", c10::make_intrusive<c10d::PrefixStore>("inner", hash));
  nested.set("k", bytes("v"));
  EXPECT_EQ(text(hash->get("inner/outer/k")), "v");
  EXPECT_THROW(c10d::PrefixStore("p", c10::intrusive_ptr<Store>()), c10::Error);
}

// ---- FileStore across processes ----------------------------------------------------------------

TEST(FileStore, ProcessesMeetInTheFileAndTheLastOneRemovesIt) {
  const std::string path = store_test::temp_path("filestore_processes");
  constexpr int kRanks = 3;
  std::vector<pid_t> children;
  for (int rank = 1; rank < kRanks; ++rank) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      // A child: its own store on the same path. Exit codes say what failed.
      int code = 0;
      try {
        c10d::FileStore store(path, kRanks);
        store.setTimeout(10s);
        store.set("rank" + std::to_string(rank), bytes(std::to_string(rank * 10)));
        for (int i = 0; i < 50; ++i) store.add("counter", 1);
        store.wait({"go"});
        if (text(store.get("rank0")) != "0") code = 2;
      } catch (...) {
        code = 3;
      }
      ::_exit(code);
    }
    children.push_back(pid);
  }
  {
    c10d::FileStore store(path, kRanks);
    store.setTimeout(10s);
    store.set("rank0", bytes("0"));
    for (int i = 0; i < 50; ++i) store.add("counter", 1);
    EXPECT_EQ(text(store.get("rank1")), "10");
    EXPECT_EQ(text(store.get("rank2")), "20");
    store.set("go", bytes("1"));
    for (const pid_t pid : children) {
      int status = 0;
      ASSERT_EQ(::waitpid(pid, &status, 0), pid);
      EXPECT_TRUE(WIFEXITED(status));
      EXPECT_EQ(WEXITSTATUS(status), 0);
    }
    EXPECT_EQ(text(store.get("counter")), std::to_string(50 * kRanks));
    EXPECT_EQ(::access(path.c_str(), F_OK), 0);  // two of three stores are gone
  }
  EXPECT_NE(::access(path.c_str(), F_OK), 0);  // the third removed the file
}

TEST(FileStore, AnUnopenablePathIsAnError) {
  EXPECT_THROW(c10d::FileStore("/nonexistent-dir/store", 1), c10d::C10dError);
  EXPECT_THROW(c10d::FileStore(store_test::temp_path("workers"), 0), c10::Error);
}

TEST(FileStore, ATruncatedRecordIsAnError) {
  const std::string path = store_test::temp_path("filestore_truncated");
  c10d::FileStore store(path, 1);
  store.set("a", bytes("1"));
  // Another writer died after writing half a record's length.
  FILE* f = std::fopen(path.c_str(), "ab");
  ASSERT_NE(f, nullptr);
  const uint64_t length = 1000;
  std::fwrite(&length, sizeof(length), 1, f);
  std::fclose(f);
  EXPECT_THROW(store.check({"a"}), c10d::C10dError);
}

}  // namespace
