#pragma once
// c10d::TCPStore: a Store served over TCP by one rank to all (libtorch 1.13's
// torch/csrc/distributed/c10d/TCPStore.hpp). The rank that passes isServer runs the server in a
// background thread; every TCPStore, the server's own included, is a client of it over a socket.
//
//   c10d::TCPStoreOptions opts;
//   opts.port = 29500;                 // 0 on the server: any free port, then read getPort()
//   opts.isServer = (rank == 0);
//   opts.numWorkers = world_size;      // the server's constructor waits for them to connect
//   opts.timeout = std::chrono::seconds(30);
//   auto store = c10::make_intrusive<c10d::TCPStore>("10.0.0.1", opts);
//   store->set("addr/" + std::to_string(rank), my_address);
//   std::vector<uint8_t> peer = store->get("addr/0");   // waits on the server until rank 0 sets it
//
// A client retries its connection until the timeout, so ranks may start before the server.
// Operations of one TCPStore are serialized; they block their thread, not the server.
// See Note [TCPStore's protocol] in TCPStoreProtocol.h for what travels on the sockets.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "c10/util/Optional.h"
#include "distributed/c10d/Store.h"

namespace c10d {
namespace detail {

class TCPServer;
class TCPClient;
class TCPWatcher;

struct SocketAddress {
  std::string host{};
  std::uint16_t port{};
};

}  // namespace detail

struct TCPStoreOptions {
  static constexpr std::uint16_t kDefaultPort = 29500;

  std::uint16_t port = kDefaultPort;
  bool isServer = false;
  // With waitWorkers, each store counts itself in on connecting and the server's constructor
  // waits until numWorkers stores have (see TCPStore::waitForWorkers).
  c10::optional<std::size_t> numWorkers = c10::nullopt;
  bool waitWorkers = true;
  std::chrono::milliseconds timeout = Store::kDefaultTimeout;

  // Whether several TCPStores of this process with isServer may share the server on one port.
  bool multiTenant = false;
};

class TCPStore : public Store {
 public:
  explicit TCPStore(std::string host, const TCPStoreOptions& opts = {});

  [[deprecated("Use TCPStore(host, opts) instead.")]] explicit TCPStore(
      const std::string& masterAddr, std::uint16_t masterPort,
      c10::optional<int> numWorkers = c10::nullopt, bool isServer = false,
      const std::chrono::milliseconds& timeout = kDefaultTimeout, bool waitWorkers = true);

  // Stops this store's server, if it owns the last reference to one; never throws.
  ~TCPStore() override;

  void set(const std::string& key, const std::vector<uint8_t>& value) override;
  std::vector<uint8_t> compareSet(const std::string& key, const std::vector<uint8_t>& expectedValue,
                                  const std::vector<uint8_t>& desiredValue) override;
  // Waits on the server until the key exists, at most getTimeout().
  std::vector<uint8_t> get(const std::string& key) override;
  int64_t add(const std::string& key, int64_t value) override;
  bool deleteKey(const std::string& key) override;
  bool check(const std::vector<std::string>& keys) override;
  // Every key on the server, the workers' counter "init/" included once a store has joined.
  int64_t getNumKeys() override;
  void wait(const std::vector<std::string>& keys) override;
  void wait(const std::vector<std::string>& keys,
            const std::chrono::milliseconds& timeout) override;

  // Calls callback(old value, new value) on a thread of this store's at every later change of
  // `key` by any client: a set, a compareSet that changes it, an add (old or new absent when the
  // key is created or deleted). Watching a key again replaces its callback and makes every
  // change heard once more, as in libtorch 1.13.
  void watchKey(const std::string& key, WatchKeyCallback callback) override;

  // Counts this store in among the workers (once), then, on the server, waits until numWorkers
  // have joined or throws c10d::TimeoutError after the timeout. Nothing without numWorkers.
  void waitForWorkers();

  const std::string& getHost() const noexcept { return addr_.host; }
  // The server's port; on a server started with port 0, the one it bound.
  std::uint16_t getPort() const noexcept { return addr_.port; }

 private:
  void doWait(const std::vector<std::string>& keys, std::chrono::milliseconds timeout);

  detail::SocketAddress addr_;
  std::shared_ptr<detail::TCPServer> server_;
  std::unique_ptr<detail::TCPClient> client_;
  // Made by the first watchKey; destroyed first, so no callback outlives the store.
  std::unique_ptr<detail::TCPWatcher> watcher_;
  std::mutex watchLock_;
  c10::optional<std::size_t> numWorkers_;
  bool joined_ = false;

  const std::string initKey_ = "init/";
  const std::string keyPrefix_ = "/";
  // One operation at a time on client_'s socket.
  std::mutex activeOpLock_;
};

}  // namespace c10d
