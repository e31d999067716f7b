// c10d::TCPStore: each store's connection to its server (detail::TCPClient) and the Store
// methods, which turn into requests on it. The server is in TCPStoreServer.cpp, the bytes on the
// wire in TCPStoreProtocol.h. Linux (and other POSIX systems with MSG_NOSIGNAL).

#include "distributed/c10d/TCPStore.h"

#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <thread>
#include <unordered_map>
#include <utility>

#include "distributed/c10d/Socket.h"
#include "distributed/c10d/TCPStoreProtocol.h"
#include "distributed/c10d/TCPStoreServer.h"

namespace c10d {
namespace detail {

// A connection to the server, retrying until the timeout: ranks may start before their server.
Fd connect_with_retries(const SocketAddress& addr, std::chrono::milliseconds timeout) {
  const Clock::time_point deadline = deadline_after(timeout);
  constexpr auto kMaxBackoff = std::chrono::milliseconds(200);
  std::chrono::milliseconds backoff(10);
  for (;;) {
    Fd fd = try_connect(addr.host, addr.port, deadline);
    if (fd.valid()) return fd;
    const Clock::time_point now = Clock::now();
    C10D_CHECK(TimeoutError, now < deadline, "The client socket has timed out after ",
               connect_timeout_text(timeout), " while trying to connect to (", addr.host, ", ",
               addr.port, ").");
    std::this_thread::sleep_for(std::min<Clock::duration>(backoff, deadline - now));
    backoff = std::min(backoff * 2, kMaxBackoff);
  }
}

// One connection to the server, used under its TCPStore's activeOpLock_.
class TCPClient {
 public:
  struct Reply {
    ReplyType type{};
    int64_t number = 0;
    std::vector<uint8_t> bytes;
  };

  static std::unique_ptr<TCPClient> connect(const SocketAddress& addr,
                                            std::chrono::milliseconds timeout) {
    return std::make_unique<TCPClient>(connect_with_retries(addr, timeout), addr);
  }

  TCPClient(Fd fd, SocketAddress addr) : fd_(std::move(fd)), addr_(std::move(addr)) {}

  // Sends a request and returns its reply of type `expected` (or kError). `holdable`: the
  // server may hold it, so a timeout cancels it. See Note [TCPStore's protocol].
  Reply call(const Message& request, ReplyType expected, Clock::time_point deadline,
             bool holdable) {
    C10D_CHECK(SocketError, broken_.empty(), broken_);
    settle(deadline);
    send_all(request.data(), deadline);
    Reply reply;
    if (!recv_reply(reply, deadline)) {
      if (holdable) {
        const char cancel = static_cast<char>(Command::kCancel);
        ssize_t n = 0;
        do {
          n = ::send(fd_.get(), &cancel, 1, MSG_NOSIGNAL | MSG_DONTWAIT);
        } while (n < 0 && errno == EINTR);
        if (n == 1) {
          owed_ = Owed::kCanceled;
        } else {
          abandon(c10::str("A request to the TCPStore server at ", where(),
                           " timed out and could not be canceled ", errno_text(errno), "."));
        }
      } else {
        owed_ = Owed::kReply;
      }
      C10D_THROW(TimeoutError, "Socket Timeout");
    }
    if (reply.type != expected && reply.type != ReplyType::kError) {
      fail(c10::str("The TCPStore server at ", where(), " sent a reply of type ",
                    static_cast<int>(reply.type), " where ", static_cast<int>(expected),
                    " was due."));
    }
    return reply;
  }

 private:
  enum class Owed { kNothing, kReply, kCanceled };

  std::string where() const { return c10::str("(", addr_.host, ", ", addr_.port, ")"); }

  // Closes the connection; every later call throws SocketError(why).
  void abandon(std::string why) {
    broken_ = std::move(why);
    fd_.reset();
  }
  [[noreturn]] void fail(std::string why) {
    abandon(std::move(why));
    C10D_THROW(SocketError, broken_);
  }

  // Reads the replies an earlier timeout left unread.
  void settle(Clock::time_point deadline) {
    while (owed_ != Owed::kNothing) {
      Reply reply;
      if (!recv_reply(reply, deadline)) C10D_THROW(TimeoutError, "Socket Timeout");
      if (owed_ == Owed::kReply || reply.type == ReplyType::kCanceled) owed_ = Owed::kNothing;
    }
  }

  void send_all(const std::string& data, Clock::time_point deadline) {
    size_t sent = 0;
    while (sent < data.size()) {
      const ssize_t n =
          ::send(fd_.get(), data.data() + sent, data.size() - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n > 0) {
        sent += static_cast<size_t>(n);
      } else if (n < 0 && errno == EINTR) {
        continue;
      } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        if (wait_ready(fd_.get(), POLLOUT, deadline)) continue;
        if (sent > 0) {
          abandon(
              c10::str("A request to the TCPStore server at ", where(), " timed out half sent."));
        }
        C10D_THROW(TimeoutError, "Socket Timeout");
      } else {
        fail(c10::str("Failed to send to the TCPStore server at ", where(), " ", errno_text(errno),
                      "."));
      }
    }
  }

  // False if the deadline passed before all n bytes came.
  bool recv_exact(void* out, size_t n, Clock::time_point deadline) {
    char* p = static_cast<char*>(out);
    while (n > 0) {
      const ssize_t got = ::recv(fd_.get(), p, n, MSG_DONTWAIT);
      if (got > 0) {
        p += got;
        n -= static_cast<size_t>(got);
      } else if (got == 0) {
        fail(c10::str("The TCPStore server at ", where(),
                      " has closed the connection (has the store or the process that runs it "
                      "ended?)."));
      } else if (errno == EINTR) {
        continue;
      } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
        if (!wait_ready(fd_.get(), POLLIN, deadline)) return false;
      } else {
        fail(c10::str("Failed to receive from the TCPStore server at ", where(), " ",
                      errno_text(errno), "."));
      }
    }
    return true;
  }

  // False if no reply began before the deadline; one cut off after its first byte ends the
  // connection, which could not tell where the next reply starts.
  bool recv_reply(Reply& reply, Clock::time_point deadline) {
    uint8_t type = 0;
    if (!recv_exact(&type, 1, deadline)) return false;
    reply.type = static_cast<ReplyType>(type);
    auto rest = [&](void* out, size_t n) {
      if (!recv_exact(out, n, deadline)) {
        abandon(c10::str("A reply from the TCPStore server at ", where(), " timed out half read."));
        C10D_THROW(TimeoutError, "Socket Timeout");
      }
    };
    char word[8];
    switch (reply.type) {
      case ReplyType::kNone:
      case ReplyType::kCanceled:
        break;
      case ReplyType::kInt:
        rest(word, 8);
        reply.number = static_cast<int64_t>(get_u64(word));
        break;
      case ReplyType::kBytes:
      case ReplyType::kError:
        rest(word, 8);
        reply.bytes.resize(get_u64(word));
        rest(reply.bytes.data(), reply.bytes.size());
        break;
      default:
        fail(c10::str("The TCPStore server at ", where(), " sent a reply of unknown type ",
                      static_cast<int>(type), "."));
    }
    return true;
  }

  Fd fd_;
  SocketAddress addr_;
  Owed owed_ = Owed::kNothing;
  std::string broken_;  // why the connection was given up; empty while it is usable
};

// The connection watchKey's updates come through, and the thread that reads it and runs the
// callbacks (see Note [TCPStore's protocol]).
class TCPWatcher {
 public:
  TCPWatcher(const SocketAddress& addr, std::chrono::milliseconds timeout)
      : fd_(connect_with_retries(addr, timeout)), addr_(addr) {
    thread_ = std::thread([this] { run(); });
  }
  // Ends the connection; no callback runs after.
  ~TCPWatcher() {
    ::shutdown(fd_.get(), SHUT_RDWR);
    thread_.join();
  }
  TCPWatcher(const TCPWatcher&) = delete;
  TCPWatcher& operator=(const TCPWatcher&) = delete;

  // Calls `callback` at every change of `key` from now on (it replaces an earlier callback for
  // the key); returns once the server has the watch.
  void watch(const std::string& key, WatchKeyCallback callback, std::chrono::milliseconds timeout) {
    std::lock_guard<std::mutex> one_request(send_mutex_);
    uint64_t acks = 0;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      C10D_CHECK(SocketError, broken_.empty(), broken_);
      callbacks_[key] = std::move(callback);
      acks = acks_;
    }
    const Clock::time_point deadline = deadline_after(timeout);
    const std::string request = Message(Command::kWatchKey).str(key).data();
    size_t sent = 0;
    while (sent < request.size()) {
      const ssize_t n = ::send(fd_.get(), request.data() + sent, request.size() - sent,
                               MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n > 0) {
        sent += static_cast<size_t>(n);
      } else if (n < 0 && (errno == EINTR || ((errno == EAGAIN || errno == EWOULDBLOCK) &&
                                              wait_ready(fd_.get(), POLLOUT, deadline)))) {
        continue;
      } else {
        C10D_THROW(SocketError, "Failed to send a watchKey request to the TCPStore server at (",
                   addr_.host, ", ", addr_.port, ") ", errno_text(errno), ".");
      }
    }
    std::unique_lock<std::mutex> lock(mutex_);
    const bool acked =
        acked_.wait_until(lock, deadline, [&] { return acks_ > acks || !broken_.empty(); });
    C10D_CHECK(SocketError, broken_.empty(), broken_);
    C10D_CHECK(TimeoutError, acked, "Socket Timeout");
  }

 private:
  // Reads exactly n bytes, waiting as long as it takes; false once the connection has ended
  // (the destructor shuts it down to end the thread).
  bool read(void* out, size_t n) {
    char* p = static_cast<char*>(out);
    while (n > 0) {
      const ssize_t got = ::recv(fd_.get(), p, n, MSG_DONTWAIT);
      if (got > 0) {
        p += got;
        n -= static_cast<size_t>(got);
      } else if (got < 0 && errno == EINTR) {
        continue;
      } else if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        pollfd ready{fd_.get(), POLLIN, 0};
        if (::poll(&ready, 1, -1) < 0 && errno != EINTR) return false;
      } else {
        return false;
      }
    }
    return true;
  }
  bool read_bytes(std::string& out) {
    char word[8];
    if (!read(word, 8)) return false;
    out.resize(get_u64(word));
    return read(&out[0], out.size());
  }

  void run() noexcept {
    for (;;) {
      uint8_t type = 0;
      if (!read(&type, 1)) break;
      if (static_cast<ReplyType>(type) == ReplyType::kNone) {
        std::lock_guard<std::mutex> lock(mutex_);
        ++acks_;
        acked_.notify_all();
        continue;
      }
      std::string key, before, after;
      uint8_t flags = 0;
      if (static_cast<ReplyType>(type) != ReplyType::kKeyUpdate || !read_bytes(key) ||
          !read(&flags, 1) || !read_bytes(before) || !read_bytes(after)) {
        break;
      }
      WatchKeyCallback callback;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = callbacks_.find(key);
        if (it != callbacks_.end()) callback = it->second;
      }
      if (!callback) continue;
      try {
        callback(flags & kHadValue ? c10::optional<std::string>(before) : c10::nullopt,
                 flags & kHasValue ? c10::optional<std::string>(after) : c10::nullopt);
      } catch (const std::exception& e) {
        TORCH_WARN("A TCPStore watchKey callback for key ", key, " threw: ", e.what());
      }
    }
    std::lock_guard<std::mutex> lock(mutex_);
    broken_ = c10::str("The TCPStore server at (", addr_.host, ", ", addr_.port,
                       ") has closed the watchKey connection.");
    acked_.notify_all();
  }

  Fd fd_;
  SocketAddress addr_;
  std::mutex send_mutex_;  // one watch request at a time, so each acknowledgement is its own
  std::mutex mutex_;
  std::condition_variable acked_;
  uint64_t acks_ = 0;
  std::unordered_map<std::string, WatchKeyCallback> callbacks_;
  std::string broken_;
  std::thread thread_;
};

}  // namespace detail

namespace {

using detail::ReplyType;
using detail::TCPClient;

// A reply's value, or the server's error as a c10::Error.
TCPClient::Reply ok(TCPClient::Reply reply) {
  TORCH_CHECK(reply.type != ReplyType::kError, std::string(reply.bytes.begin(), reply.bytes.end()));
  return reply;
}

c10::optional<std::size_t> worker_count(c10::optional<int> numWorkers) {
  if (!numWorkers) return c10::nullopt;
  TORCH_CHECK(*numWorkers >= 0, "TCPStore: numWorkers must be non-negative, but got ", *numWorkers);
  return static_cast<std::size_t>(*numWorkers);
}

}  // namespace

TCPStore::TCPStore(std::string host, const TCPStoreOptions& opts)
    : Store(opts.timeout), addr_{std::move(host), opts.port}, numWorkers_(opts.numWorkers) {
  if (opts.isServer) {
    server_ = detail::TCPServer::start(opts);
    addr_.port = server_->port();
  }
  client_ = TCPClient::connect(addr_, opts.timeout);
  if (opts.waitWorkers) waitForWorkers();
}

TCPStore::TCPStore(const std::string& masterAddr, std::uint16_t masterPort,
                   c10::optional<int> numWorkers, bool isServer,
                   const std::chrono::milliseconds& timeout, bool waitWorkers)
    : TCPStore(masterAddr, TCPStoreOptions{masterPort, isServer, worker_count(numWorkers),
                                           waitWorkers, timeout}) {}

// The client closes first, so that the server (if this was its last store) sees it go.
TCPStore::~TCPStore() = default;

void TCPStore::watchKey(const std::string& key, WatchKeyCallback callback) {
  std::lock_guard<std::mutex> lock(watchLock_);
  if (!watcher_) watcher_ = std::make_unique<detail::TCPWatcher>(addr_, timeout_);
  watcher_->watch(keyPrefix_ + key, std::move(callback), timeout_);
}

void TCPStore::set(const std::string& key, const std::vector<uint8_t>& value) {
  const auto request = detail::Message(detail::Command::kSet).str(keyPrefix_ + key).bytes(value);
  std::lock_guard<std::mutex> lock(activeOpLock_);
  ok(client_->call(request, ReplyType::kNone, detail::deadline_after(timeout_), false));
}

std::vector<uint8_t> TCPStore::compareSet(const std::string& key,
                                          const std::vector<uint8_t>& expectedValue,
                                          const std::vector<uint8_t>& desiredValue) {
  const auto request = detail::Message(detail::Command::kCompareSet)
                           .str(keyPrefix_ + key)
                           .bytes(expectedValue)
                           .bytes(desiredValue);
  std::lock_guard<std::mutex> lock(activeOpLock_);
  return ok(client_->call(request, ReplyType::kBytes, detail::deadline_after(timeout_), false))
      .bytes;
}

std::vector<uint8_t> TCPStore::get(const std::string& key) {
  const auto request = detail::Message(detail::Command::kGet).str(keyPrefix_ + key);
  std::lock_guard<std::mutex> lock(activeOpLock_);
  return ok(client_->call(request, ReplyType::kBytes, detail::deadline_after(timeout_), true))
      .bytes;
}

int64_t TCPStore::add(const std::string& key, int64_t value) {
  const auto request = detail::Message(detail::Command::kAdd).str(keyPrefix_ + key).number(value);
  std::lock_guard<std::mutex> lock(activeOpLock_);
  const TCPClient::Reply reply =
      client_->call(request, ReplyType::kInt, detail::deadline_after(timeout_), false);
  // libtorch's server dies of std::stoll here; ours answers an error and goes on.
  TORCH_CHECK(reply.type != ReplyType::kError, "add: the value of key '", key,
              "' is not an integer");
  return reply.number;
}

bool TCPStore::deleteKey(const std::string& key) {
  const auto request = detail::Message(detail::Command::kDeleteKey).str(keyPrefix_ + key);
  std::lock_guard<std::mutex> lock(activeOpLock_);
  return ok(client_->call(request, ReplyType::kInt, detail::deadline_after(timeout_), false))
             .number != 0;
}

bool TCPStore::check(const std::vector<std::string>& keys) {
  const auto request = detail::Message(detail::Command::kCheck).keys(keyPrefix_, keys);
  std::lock_guard<std::mutex> lock(activeOpLock_);
  return ok(client_->call(request, ReplyType::kInt, detail::deadline_after(timeout_), false))
             .number != 0;
}

int64_t TCPStore::getNumKeys() {
  const detail::Message request(detail::Command::kGetNumKeys);
  std::lock_guard<std::mutex> lock(activeOpLock_);
  return ok(client_->call(request, ReplyType::kInt, detail::deadline_after(timeout_), false))
      .number;
}

void TCPStore::wait(const std::vector<std::string>& keys) {
  doWait(keys, timeout_);
}

void TCPStore::wait(const std::vector<std::string>& keys,
                    const std::chrono::milliseconds& timeout) {
  doWait(keys, timeout);
}

void TCPStore::doWait(const std::vector<std::string>& keys, std::chrono::milliseconds timeout) {
  const auto request = detail::Message(detail::Command::kWait).keys(keyPrefix_, keys);
  std::lock_guard<std::mutex> lock(activeOpLock_);
  ok(client_->call(request, ReplyType::kNone, detail::deadline_after(timeout), true));
}

// Note [How workers join]
// As in libtorch, a store counts itself in by adding 1 to the server's key "init/" (user keys
// all start with "/", so no user key meets it), and only stores given numWorkers do: libtorch's
// getNumKeys() counts "init/" exactly when they have. The server's store then polls the count
// every 10 ms as libtorch does. libtorch 1.13 stops waiting silently at the timeout and lets the
// job run short of workers; here that is a TimeoutError.
void TCPStore::waitForWorkers() {
  if (!numWorkers_) return;
  using Clock = std::chrono::steady_clock;
  const Clock::time_point deadline = detail::deadline_after(timeout_);
  // Adds to "init/" (0 to read it) and returns the count.
  const auto count = [&](bool join) {
    std::lock_guard<std::mutex> lock(activeOpLock_);
    const int64_t delta = join && !joined_ ? 1 : 0;  // a second call does not count us twice
    const auto request = detail::Message(detail::Command::kAdd).str(initKey_).number(delta);
    const int64_t joined =
        ok(client_->call(request, ReplyType::kInt, detail::deadline_after(timeout_), false)).number;
    joined_ = joined_ || join;
    return joined;
  };
  int64_t joined = count(true);
  if (!server_) return;
  while (joined < static_cast<int64_t>(*numWorkers_)) {
    const Clock::time_point now = Clock::now();
    C10D_CHECK(TimeoutError, now < deadline, "Timed out after ", timeout_.count(),
               "ms waiting for ", *numWorkers_, " workers; ", joined, " joined.");
    std::this_thread::sleep_for(
        std::min<Clock::duration>(std::chrono::milliseconds(10), deadline - now));
    joined = count(false);
  }
}

}  // namespace c10d
