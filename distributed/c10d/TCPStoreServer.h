#pragma once
// The TCPStore server: the keys, a thread serving every client connection, and the registry
// through which multiTenant stores of one process share a port's server. Only TCPStore.cpp
// starts one; its clients reach it over sockets, even from the same process.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "c10/util/Optional.h"
#include "distributed/c10d/Socket.h"
#include "distributed/c10d/TCPStore.h"
#include "distributed/c10d/TCPStoreProtocol.h"

namespace c10d {
namespace detail {

// The store's server: a thread that owns the keys and serves every connection with poll().
// Only that thread touches the keys and connections after construction.
class TCPServer {
 public:
  // Listens on `opts.port` (0: a free port) on every local address, or reuses this process's
  // server on that port if both are multiTenant.
  static std::shared_ptr<TCPServer> start(const TCPStoreOptions& opts);

  // Starts the serving thread on `listener`, bound to `port`.
  TCPServer(Fd listener, std::uint16_t port);
  // Stops the thread, closing every connection.
  ~TCPServer();

  TCPServer(const TCPServer&) = delete;
  TCPServer& operator=(const TCPServer&) = delete;

  std::uint16_t port() const { return port_; }

 private:
  // A kGet or kWait waiting for keys; see Note [TCPStore's protocol].
  struct Held {
    Command command;
    std::string key;  // kGet's
    std::unordered_set<std::string> missing;
  };

  struct Connection {
    explicit Connection(Fd f) : fd(std::move(f)) {}
    Fd fd;
    std::string in;
    std::string out;
    size_t out_sent = 0;
    c10::optional<Held> held;
    bool dead = false;
  };

  void run() noexcept;
  void accept_all();
  void on_readable(Connection& c);
  void serve(Connection& c, Request& req);
  void store_new(const std::string& key, std::vector<uint8_t> value);
  // Tells every watch of `key` that it went from `before` to `after` (absent: nullptr).
  void notify_watchers(const std::string& key, const std::vector<uint8_t>* before,
                       const std::vector<uint8_t>* after);
  void forget_watches(int fd);
  void key_created(const std::string& key);
  void release(Connection& c);
  void reply(Connection& c, ReplyType type);
  void reply(Connection& c, int64_t number);
  void reply(Connection& c, ReplyType type, const void* data, size_t size);
  void flush(Connection& c);

  Fd listener_;
  std::uint16_t port_;
  Fd wake_read_, wake_write_;
  std::unordered_map<std::string, std::vector<uint8_t>> store_;
  std::unordered_map<int, Connection> connections_;
  // For each missing key, the connections whose held request waits for it.
  std::unordered_map<std::string, std::vector<int>> waiters_;
  // For each watched key, the connections watching it (once per watchKey call).
  std::unordered_map<std::string, std::vector<int>> watchers_;
  std::thread thread_;
};

}  // namespace detail
}  // namespace c10d
