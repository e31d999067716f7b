// c10d::TCPStore beyond what every store does (Store_test.cpp runs those checks on it too): the
// server and its clients, the numWorkers handshake, connections before the server is up,
// libtorch 1.13's connect and bind errors, a server that goes away, requests the server does not
// expect, and a forked process as a client. Every test binds port 0 (the kernel's pick) on
// loopback and is bounded in time.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "distributed/c10d/TCPStore.h"
#include "tests/TestUtils.h"
#include "tests/distributed/StoreTestUtils.h"

namespace {

using c10d::TCPStore;
using c10d::TCPStoreOptions;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

using store_test::bytes;
using store_test::text;
using test_util::error_of;

int64_t ms_since(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
}

TCPStoreOptions server_opts(std::chrono::milliseconds timeout = 2s) {
  TCPStoreOptions opts;
  opts.port = 0;
  opts.isServer = true;
  opts.timeout = timeout;
  return opts;
}

TCPStoreOptions client_opts(uint16_t port, std::chrono::milliseconds timeout = 2s) {
  TCPStoreOptions opts;
  opts.port = port;
  opts.timeout = timeout;
  return opts;
}

// A raw connection to the server, for speaking bytes it does not expect.
int raw_connect(uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(port);
  EXPECT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  return fd;
}

TEST(TCPStore, SetGetAddDeleteCheckAsLibtorch) {
  TCPStore store("127.0.0.1", server_opts());
  EXPECT_NE(store.getPort(), 0);
  EXPECT_EQ(store.getHost(), "127.0.0.1");
  EXPECT_EQ(store.getNumKeys(), 0);  // libtorch: no "init/" without numWorkers
  store.set("a", bytes("x"));
  EXPECT_EQ(text(store.get("a")), "x");
  EXPECT_EQ(store.getNumKeys(), 1);
  store.set("a", bytes("yz"));
  EXPECT_EQ(text(store.get("a")), "yz");

  EXPECT_EQ(store.add("c", 5), 5);  // a missing key starts at 0
  EXPECT_EQ(store.add("c", 1), 6);
  EXPECT_EQ(store.add("c", -10), -4);
  EXPECT_EQ(text(store.get("c")), "-4");  // kept as decimal text
  store.set("n", bytes("41"));
  EXPECT_EQ(store.add("n", 1), 42);

  EXPECT_TRUE(store.check({"a", "c"}));
  EXPECT_FALSE(store.check({"a", "zz"}));
  EXPECT_TRUE(store.check({}));
  EXPECT_TRUE(store.deleteKey("c"));
  EXPECT_FALSE(store.deleteKey("c"));
  EXPECT_FALSE(store.check({"c"}));
  EXPECT_EQ(store.getNumKeys(), 2);

  store.set("empty", {});
  EXPECT_TRUE(store.get("empty").empty());
  EXPECT_TRUE(store.check({"empty"}));
}

TEST(TCPStore, CompareSetAsLibtorch) {
  TCPStore store("127.0.0.1", server_opts());
  EXPECT_EQ(text(store.compareSet("k", {}, bytes("d"))), "d");  // missing, expected empty: set
  EXPECT_EQ(text(store.get("k")), "d");
  EXPECT_EQ(text(store.compareSet("k2", bytes("e"), bytes("d"))), "e");  // missing: expected
  EXPECT_FALSE(store.check({"k2"}));
  EXPECT_EQ(text(store.compareSet("k", bytes("d"), bytes("n"))), "n");   // equal: swapped
  EXPECT_EQ(text(store.compareSet("k", bytes("zz"), bytes("q"))), "n");  // unequal: current
  EXPECT_EQ(text(store.get("k")), "n");
}

TEST(TCPStore, LargeAndBinaryValuesRoundTrip) {
  TCPStore store("127.0.0.1", server_opts());
  std::vector<uint8_t> big(8 << 20);
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<uint8_t>(i * 131 + (i >> 13));
  store.set("big", big);
  EXPECT_EQ(store.get("big"), big);
  const std::string key("k\0ey", 4);
  store.set(key, bytes(std::string("\0\xff\n", 3)));
  EXPECT_EQ(text(store.get(key)), std::string("\0\xff\n", 3));
  EXPECT_FALSE(store.check({"k"}));
}

TEST(TCPStore, WorkersCounterIsHiddenAndCounted) {
  TCPStoreOptions opts = server_opts();
  opts.numWorkers = 1;
  TCPStore store("127.0.0.1", opts);
  EXPECT_EQ(store.getNumKeys(), 1);  // "init/"
  store.set("a", bytes("1"));
  EXPECT_EQ(store.getNumKeys(), 2);      // as libtorch's single-worker store
  EXPECT_FALSE(store.check({"init/"}));  // user keys live under "/"
  store.set("init/", bytes("mine"));
  EXPECT_EQ(text(store.get("init/")), "mine");
  store.waitForWorkers();  // joined already: does not count itself again
  EXPECT_EQ(store.getNumKeys(), 3);
}

TEST(TCPStore, AddToNonIntegerThrowsAndServerLives) {
  TCPStore store("127.0.0.1", server_opts());
  store.set("s", bytes("abc"));
  EXPECT_EQ(error_of([&] { store.add("s", 1); }), "add: the value of key 's' is not an integer");
  EXPECT_EQ(text(store.get("s")), "abc");
  EXPECT_EQ(store.add("t", 2), 2);
}

TEST(TCPStore, GetOfMissingKeyTimesOut) {
  TCPStore store("127.0.0.1", server_opts(300ms));
  const auto start = Clock::now();
  EXPECT_THROW(
      {
        try {
          store.get("missing");
        } catch (const c10d::TimeoutError& e) {
          EXPECT_EQ(std::string(e.msg()), "Socket Timeout");
          throw;
        }
      },
      c10d::TimeoutError);
  const int64_t elapsed = ms_since(start);
  EXPECT_GE(elapsed, 295);
  EXPECT_LT(elapsed, 1000);
  // The connection is still in step: the canceled get's reply does not answer these.
  store.set("a", bytes("1"));
  EXPECT_EQ(text(store.get("a")), "1");
  EXPECT_EQ(store.getNumKeys(), 1);
}

TEST(TCPStore, WaitTimesOutWithItsOwnTimeout) {
  TCPStore store("127.0.0.1", server_opts(2s));
  const auto start = Clock::now();
  EXPECT_EQ(error_of([&] { store.wait({"x", "y"}, 200ms); }), "Socket Timeout");
  EXPECT_LT(ms_since(start), 900);
  EXPECT_GE(ms_since(start), 195);
  store.setTimeout(200ms);
  EXPECT_THROW(store.wait({"x"}), c10d::TimeoutError);
  store.wait({});  // nothing to wait for
  store.set("x", bytes("1"));
  store.set("y", bytes("2"));
  store.wait({"x", "y", "x"});
  EXPECT_EQ(store.getNumKeys(), 2);
}

TEST(TCPStore, RepliesStayPairedWhenTheKeyComesJustAfterATimeout) {
  TCPStore store("127.0.0.1", server_opts());
  TCPStore other("127.0.0.1", client_opts(store.getPort()));
  for (int i = 0; i < 10; ++i) {
    const std::string key = "late" + std::to_string(i);
    std::thread setter([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(45 + i));
      other.set(key, bytes("v" + std::to_string(i)));
    });
    try {
      store.wait({key}, 50ms);
    } catch (const c10d::TimeoutError&) {
    }
    setter.join();
    EXPECT_EQ(store.add("counter", 1), i + 1);
    EXPECT_EQ(text(store.get(key)), "v" + std::to_string(i));
  }
}

TEST(TCPStore, GetWaitsOnTheServerForAnotherClientsSet) {
  TCPStore store("127.0.0.1", server_opts());
  TCPStore client("127.0.0.1", client_opts(store.getPort()));
  std::thread setter([&] {
    std::this_thread::sleep_for(100ms);
    client.set("k", bytes("v"));
    client.add("n", 3);
  });
  const auto start = Clock::now();
  EXPECT_EQ(text(store.get("k")), "v");
  EXPECT_GE(ms_since(start), 95);
  store.wait({"n"});
  EXPECT_EQ(text(store.get("n")), "3");
  setter.join();
}

TEST(TCPStore, NoTimeoutWaitsUntilTheKeyComes) {
  TCPStore store("127.0.0.1", server_opts(c10d::Store::kNoTimeout));
  TCPStore client("127.0.0.1", client_opts(store.getPort()));
  std::thread setter([&] {
    std::this_thread::sleep_for(200ms);
    client.compareSet("k", {}, bytes("made"));
  });
  EXPECT_EQ(text(store.get("k")), "made");
  setter.join();
}

TEST(TCPStore, ClientStartedBeforeItsServerConnects) {
  const uint16_t port = store_test::unused_port();
  auto client = std::async(std::launch::async, [&] {
    TCPStore store("127.0.0.1", client_opts(port, 3s));
    store.set("from_client", bytes("hi"));
    return text(store.get("from_server"));
  });
  std::this_thread::sleep_for(300ms);
  TCPStoreOptions opts = server_opts();
  opts.port = port;
  TCPStore server("127.0.0.1", opts);
  EXPECT_EQ(server.getPort(), port);
  server.set("from_server", bytes("hello"));
  EXPECT_EQ(client.get(), "hello");
  EXPECT_EQ(text(server.get("from_client")), "hi");
}

TEST(TCPStore, ConnectTimeoutTextIsLibtorchs) {
  const uint16_t port = store_test::unused_port();
  auto start = Clock::now();
  EXPECT_EQ(error_of([&] { TCPStore("127.0.0.1", client_opts(port, 1000ms)); }),
            "The client socket has timed out after 1s while trying to connect to (127.0.0.1, " +
                std::to_string(port) + ").");
  EXPECT_GE(ms_since(start), 995);  // retried all along
  EXPECT_LT(ms_since(start), 1600);

  start = Clock::now();
  EXPECT_THROW(TCPStore("127.0.0.1", client_opts(port, 300ms)), c10d::TimeoutError);
  EXPECT_EQ(error_of([&] { TCPStore("127.0.0.1", client_opts(port, 300ms)); }),
            "The client socket has timed out after 300ms while trying to connect to "
            "(127.0.0.1, " +
                std::to_string(port) + ").");
  EXPECT_LT(ms_since(start), 1500);

  EXPECT_EQ(error_of([&] { TCPStore("no.such.host.invalid", client_opts(29500, 300ms)); }),
            "The client socket has timed out after 300ms while trying to connect to "
            "(no.such.host.invalid, 29500).");
}

TEST(TCPStore, BindFailureTextIsLibtorchs) {
  TCPStore first("127.0.0.1", server_opts());
  const std::string port = std::to_string(first.getPort());
  TCPStoreOptions opts = server_opts();
  opts.port = first.getPort();
  std::string message;
  try {
    TCPStore second("127.0.0.1", opts);
  } catch (const c10d::SocketError& e) {
    message = e.msg();
  }
  const std::string head = "The server socket has failed to listen on any local network address.";
  const std::string v6 = " The server socket has failed to bind to [::]:" + port +
                         " (errno: 98 - Address already in use).";
  const std::string v4 = " The server socket has failed to bind to 0.0.0.0:" + port +
                         " (errno: 98 - Address already in use).";
  // libtorch's text on this machine (IPv6 present) lists [::] first; without IPv6, 0.0.0.0 alone.
  EXPECT_TRUE(message == head + v6 + v4 || message == head + v4) << message;
}

TEST(TCPStore, MultiTenantServersShareAPort) {
  TCPStoreOptions opts = server_opts();
  opts.multiTenant = true;
  auto first = std::make_unique<TCPStore>("127.0.0.1", opts);
  opts.port = first->getPort();
  auto second = std::make_unique<TCPStore>("127.0.0.1", opts);
  EXPECT_EQ(second->getPort(), first->getPort());
  first->set("shared", bytes("1"));
  EXPECT_EQ(text(second->get("shared")), "1");
  first.reset();  // the server lives on in second
  EXPECT_EQ(second->add("n", 2), 2);
  second.reset();
  // The port is free again: a new (single-tenant) server can bind it.
  TCPStore again("127.0.0.1", opts);
  EXPECT_FALSE(again.check({"shared"}));
}

TEST(TCPStore, ConcurrentAddsFromManyClients) {
  TCPStore server("127.0.0.1", server_opts());
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      TCPStore client("127.0.0.1", client_opts(server.getPort()));
      for (int i = 0; i < 200; ++i) client.add("sum", 1);
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(text(server.get("sum")), "800");
}

TEST(TCPStore, ConcurrentCallsOnOneStoreAreSerialized) {
  TCPStore server("127.0.0.1", server_opts());
  TCPStore shared("127.0.0.1", client_opts(server.getPort()));
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      const std::string mine = "t" + std::to_string(t);
      for (int i = 0; i < 200; ++i) {
        shared.add("sum", 1);
        shared.set(mine, bytes(std::to_string(i)));
        EXPECT_EQ(text(shared.get(mine)), std::to_string(i));
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(server.add("sum", 0), 800);
}

TEST(TCPStore, ClientGetsSocketErrorAfterTheServerIsGone) {
  auto server = std::make_unique<TCPStore>("127.0.0.1", server_opts());
  const uint16_t port = server->getPort();
  TCPStore client("127.0.0.1", client_opts(port));
  client.set("k", bytes("v"));
  server.reset();
  const std::string where = "(127.0.0.1, " + std::to_string(port) + ")";
  std::string first;
  try {
    client.get("k");
  } catch (const c10d::SocketError& e) {
    first = e.msg();
  }
  EXPECT_NE(first.find("TCPStore server at " + where), std::string::npos) << first;
  EXPECT_THROW(client.set("k", bytes("v")), c10d::SocketError);  // and stays so
}

TEST(TCPStore, WaitingClientGetsSocketErrorWhenTheServerGoes) {
  auto server = std::make_unique<TCPStore>("127.0.0.1", server_opts());
  TCPStore client("127.0.0.1", client_opts(server->getPort(), c10d::Store::kNoTimeout));
  std::thread stopper([&] {
    std::this_thread::sleep_for(100ms);
    server.reset();
  });
  EXPECT_THROW(client.get("never"), c10d::SocketError);
  stopper.join();
}

TEST(TCPStore, ServerWaitsForNumWorkers) {
  const uint16_t port = store_test::unused_port();
  std::thread worker([&] {
    std::this_thread::sleep_for(100ms);
    TCPStoreOptions opts = client_opts(port);
    opts.numWorkers = 2;
    TCPStore client("127.0.0.1", opts);
    client.set("worker", bytes("here"));
  });
  TCPStoreOptions opts = server_opts();
  opts.port = port;
  opts.numWorkers = 2;
  const auto start = Clock::now();
  TCPStore server("127.0.0.1", opts);
  EXPECT_GE(ms_since(start), 95);
  worker.join();
  EXPECT_EQ(text(server.get("worker")), "here");
  EXPECT_EQ(server.getNumKeys(), 2);  // "init/" and "worker"
}

TEST(TCPStore, ServerTimesOutWaitingForMissingWorkers) {
  TCPStoreOptions opts = server_opts(300ms);
  opts.numWorkers = 2;
  const auto start = Clock::now();
  EXPECT_EQ(error_of([&] { TCPStore("127.0.0.1", opts); }),
            "Timed out after 300ms waiting for 2 workers; 1 joined.");
  EXPECT_GE(ms_since(start), 295);
  EXPECT_LT(ms_since(start), 1000);
  EXPECT_THROW(TCPStore("127.0.0.1", opts), c10d::TimeoutError);
  opts.waitWorkers = false;  // then nobody waits
  TCPStore server("127.0.0.1", opts);
  EXPECT_THROW(server.waitForWorkers(), c10d::TimeoutError);
}

TEST(TCPStore, ForkedChildIsAClient) {
  TCPStore server("127.0.0.1", server_opts());
  server.set("parent", bytes("p"));
  const uint16_t port = server.getPort();
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    int code = 0;
    try {
      TCPStore child("127.0.0.1", client_opts(port));
      if (text(child.get("parent")) != "p") code = 2;
      if (child.add("count", 5) != 5) code = 3;
      child.set("child", bytes("c"));
    } catch (...) {
      code = 4;
    }
    ::_exit(code);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(text(server.get("child")), "c");
  EXPECT_EQ(server.add("count", 1), 6);
}

TEST(TCPStore, ServerSurvivesPartialAndMalformedRequests) {
  TCPStore server("127.0.0.1", server_opts());
  const int half = raw_connect(server.getPort());
  const char set_start[] = {1, 9, 0};  // kSet, then 2 of a length's 8 bytes
  ASSERT_EQ(::send(half, set_start, sizeof(set_start), 0), 3);
  const int junk = raw_connect(server.getPort());
  const char bad = 77;  // no such command
  ASSERT_EQ(::send(junk, &bad, 1, 0), 1);
  char byte = 0;
  EXPECT_EQ(::recv(junk, &byte, 1, 0), 0);  // the server hangs up on it
  server.set("k", bytes("v"));              // and goes on serving the others
  EXPECT_EQ(text(server.get("k")), "v");
  ::close(half);
  ::close(junk);
  EXPECT_EQ(server.getNumKeys(), 1);
}

// The server's side of Note [TCPStore's protocol]: a held wait whose key comes before the cancel
// is answered, then the cancel is; the client discards both before its next request. The bytes
// are the protocol's: kWait = 8, kCancel = 9; replies kNone = 1, kCanceled = 5.
TEST(TCPStore, HeldReplyThatBeatsTheCancelComesFirst) {
  TCPStore server("127.0.0.1", server_opts());
  const int raw = raw_connect(server.getPort());
  std::string wait_x = {8, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, '/', 'x'};
  ASSERT_EQ(::send(raw, wait_x.data(), wait_x.size(), 0), static_cast<ssize_t>(wait_x.size()));
  server.getNumKeys();  // the server has read the wait by the time it answers this
  server.set("x", bytes("1"));
  const char cancel = 9;
  ASSERT_EQ(::send(raw, &cancel, 1, 0), 1);
  char replies[2] = {0, 0};
  ASSERT_EQ(::recv(raw, replies, 2, MSG_WAITALL), 2);
  EXPECT_EQ(replies[0], 1);
  EXPECT_EQ(replies[1], 5);
  ASSERT_EQ(::send(raw, &cancel, 1, 0), 1);  // nothing held: answered all the same
  ASSERT_EQ(::recv(raw, replies, 1, MSG_WAITALL), 1);
  EXPECT_EQ(replies[0], 5);
  ::close(raw);
}

TEST(TCPStore, DeprecatedConstructor) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  TCPStore server("127.0.0.1", 0, 1, true, std::chrono::milliseconds(2000));
#pragma GCC diagnostic pop
  EXPECT_NE(server.getPort(), 0);
  EXPECT_EQ(server.getTimeout(), 2000ms);
  EXPECT_EQ(server.getNumKeys(), 1);  // one worker joined
}

TEST(TCPStore, MakeIntrusiveAsAStore) {
  c10::intrusive_ptr<c10d::Store> store = c10::make_intrusive<TCPStore>("localhost", server_opts());
  store->set("a", bytes("1"));
  EXPECT_EQ(store->add("a", 1), 2);
}

// What watchKey's callbacks heard, as "old->new" ("none" for an absent value).
class Heard {
 public:
  c10d::WatchKeyCallback callback() {
    return [this](c10::optional<std::string> before, c10::optional<std::string> after) {
      std::lock_guard<std::mutex> lock(mutex_);
      events_.push_back(before.value_or("none") + "->" + after.value_or("none"));
      changed_.notify_all();
    };
  }
  // The events once there are n of them (or after 10 s).
  std::vector<std::string> first(size_t n) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait_for(lock, 10s, [&] { return events_.size() >= n; });
    return events_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::string> events_;
};

// The sequence libtorch 1.13's TCPStore gives (read off it with the same calls).
TEST(TCPStore, WatchKeyHearsEveryChangeAsLibtorch) {
  TCPStore server("127.0.0.1", server_opts());
  Heard heard;
  server.watchKey("k", heard.callback());
  server.set("k", bytes("1"));
  server.set("k", bytes("2"));
  server.compareSet("k", bytes("2"), bytes("3"));
  server.compareSet("k", bytes("9"), bytes("4"));  // no change: nothing heard
  server.watchKey("n", heard.callback());
  server.add("n", 5);
  server.add("n", 1);
  server.deleteKey("k");
  server.deleteKey("k");  // already gone: nothing heard
  server.set("k", bytes("4"));
  EXPECT_EQ(heard.first(7), (std::vector<std::string>{"none->1", "1->2", "2->3", "none->5", "5->6",
                                                      "3->none", "none->4"}));
  // Watching again: every change is heard twice. Another client's changes are heard too, and
  // its own watch hears this client's.
  server.watchKey("k", heard.callback());
  server.set("k", bytes("5"));
  TCPStore client("127.0.0.1", client_opts(server.getPort()));
  client.set("k", bytes("6"));
  Heard other;
  client.watchKey("k", other.callback());
  server.set("k", bytes("7"));
  const auto all = heard.first(13);
  EXPECT_EQ(std::vector<std::string>(all.begin() + 7, all.end()),
            (std::vector<std::string>{"4->5", "4->5", "5->6", "5->6", "6->7", "6->7"}));
  EXPECT_EQ(other.first(1), (std::vector<std::string>{"6->7"}));
}

TEST(TCPStore, WatchKeyThroughAPrefixStoreAndAfterTheClientGoes) {
  auto server = c10::make_intrusive<TCPStore>("127.0.0.1", server_opts());
  c10d::PrefixStore prefixed("job", server);
  Heard heard;
  prefixed.watchKey("x", heard.callback());
  server->set("job/x", bytes("a"));  // the same key
  prefixed.set("x", bytes("b"));
  EXPECT_EQ(heard.first(2), (std::vector<std::string>{"none->a", "a->b"}));
  {
    // A client that watched and left: the server forgets its watch (and its descriptor, which
    // the next client may be given).
    TCPStore gone("127.0.0.1", client_opts(server->getPort()));
    Heard unused;
    gone.watchKey("y", unused.callback());
  }
  TCPStore next("127.0.0.1", client_opts(server->getPort()));
  server->set("y", bytes("1"));
  EXPECT_EQ(text(next.get("y")), "1");  // next's replies are not mixed with y's updates
  EXPECT_EQ(next.add("z", 2), 2);
}

}  // namespace
