// The TCPStore server's thread: one poll() loop over non-blocking sockets that parses requests,
// answers them or holds them until their keys exist. Linux (and other POSIX systems with
// MSG_NOSIGNAL, accept4 and pipe2).

#include "distributed/c10d/TCPStoreServer.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <exception>
#include <iterator>
#include <mutex>
#include <utility>

#include "distributed/c10d/Store.h"
#include "distributed/c10d/exception.h"

namespace c10d {
namespace detail {

TCPServer::TCPServer(Fd listener, std::uint16_t port)
    : listener_(std::move(listener)), port_(port) {
  int ends[2];
  C10D_CHECK(SocketError, ::pipe2(ends, O_CLOEXEC | O_NONBLOCK) == 0,
             "The TCPStore server cannot create its wake-up pipe ", errno_text(errno), ".");
  wake_read_ = Fd(ends[0]);
  wake_write_ = Fd(ends[1]);
  thread_ = std::thread([this] { run(); });
}

TCPServer::~TCPServer() {
  const char stop = 1;
  while (::write(wake_write_.get(), &stop, 1) < 0 && errno == EINTR) {
  }
  if (thread_.joinable()) thread_.join();
}

std::shared_ptr<TCPServer> TCPServer::start(const TCPStoreOptions& opts) {
  auto listen = [](std::uint16_t port) {
    std::vector<std::string> errors;
    Fd fd = try_listen(AF_INET6, port, errors);
    if (!fd.valid()) fd = try_listen(AF_INET, port, errors);
    if (!fd.valid()) {
      std::string all = "The server socket has failed to listen on any local network address.";
      for (const std::string& error : errors) all += " " + error;
      C10D_THROW(SocketError, all);
    }
    const std::uint16_t bound_port = local_port(fd.get());
    return std::make_shared<TCPServer>(std::move(fd), bound_port);
  };
  if (!opts.multiTenant) return listen(opts.port);

  // libtorch's cachedServers_: a port's server lives while a TCPStore holds it.
  static std::mutex mutex;
  static std::unordered_map<std::uint16_t, std::weak_ptr<TCPServer>> servers;
  std::lock_guard<std::mutex> guard(mutex);
  for (auto it = servers.begin(); it != servers.end();) {
    it = it->second.expired() ? servers.erase(it) : std::next(it);
  }
  if (opts.port != 0) {
    auto it = servers.find(opts.port);
    if (it != servers.end()) {
      if (std::shared_ptr<TCPServer> server = it->second.lock()) return server;
    }
  }
  std::shared_ptr<TCPServer> server = listen(opts.port);
  servers[server->port()] = server;
  return server;
}

void TCPServer::run() noexcept {
  std::vector<pollfd> polled;
  try {
    for (;;) {
      polled.clear();
      polled.push_back({wake_read_.get(), POLLIN, 0});
      polled.push_back({listener_.get(), POLLIN, 0});
      for (const auto& [fd, c] : connections_) {
        const bool unsent = c.out_sent < c.out.size();
        polled.push_back({fd, static_cast<short>(POLLIN | (unsent ? POLLOUT : 0)), 0});
      }
      if (::poll(polled.data(), polled.size(), -1) < 0) {
        if (errno == EINTR) continue;
        break;
      }
      if (polled[0].revents != 0) break;  // the destructor asks us to stop
      if (polled[1].revents != 0) accept_all();
      for (size_t i = 2; i < polled.size(); ++i) {
        if (polled[i].revents == 0) continue;
        auto it = connections_.find(polled[i].fd);
        if (it == connections_.end()) continue;
        Connection& c = it->second;
        try {
          if (polled[i].revents & POLLOUT) flush(c);
          if (polled[i].revents & (POLLIN | POLLHUP | POLLERR)) on_readable(c);
        } catch (const std::exception&) {
          c.dead = true;  // out of memory for its request: drop that client, serve the rest
        }
      }
      for (auto it = connections_.begin(); it != connections_.end();) {
        if (it->second.dead) {
          release(it->second);
          forget_watches(it->first);
          it = connections_.erase(it);
        } else {
          ++it;
        }
      }
    }
  } catch (const std::exception&) {
    // Nothing to report to: the clients see their connections close.
  }
  connections_.clear();
  listener_.reset();
}

void TCPServer::accept_all() {
  for (;;) {
    const int fd = ::accept4(listener_.get(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      return;  // EAGAIN: no more waiting; anything else: retried at the next poll
    }
    set_no_delay(fd);
    connections_.emplace(fd, Connection(Fd(fd)));
  }
}

void TCPServer::on_readable(Connection& c) {
  char buffer[64 * 1024];
  const ssize_t got = ::recv(c.fd.get(), buffer, sizeof(buffer), MSG_DONTWAIT);
  if (got < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) return;
  if (got <= 0) {
    c.dead = true;  // the client has gone (or its connection failed)
    return;
  }
  c.in.append(buffer, static_cast<size_t>(got));
  size_t used = 0;
  while (!c.dead) {
    Reader reader(c.in.data() + used, c.in.size() - used);
    Request req;
    const Parse parsed = parse_request(reader, req);
    if (parsed == Parse::kIncomplete) break;
    if (parsed == Parse::kMalformed) {
      c.dead = true;
      break;
    }
    used += reader.consumed();
    serve(c, req);
  }
  c.in.erase(0, used);
}

void TCPServer::serve(Connection& c, Request& req) {
  // Our client sends nothing but kCancel while a request is held.
  if (c.held && req.command != Command::kCancel) {
    c.dead = true;
    return;
  }
  static const std::string kNoKey;
  const std::string& key = req.keys.empty() ? kNoKey : req.keys[0];
  switch (req.command) {
    case Command::kSet: {
      auto it = store_.find(key);
      if (it != store_.end()) {
        std::vector<uint8_t> before = std::move(it->second);
        it->second = std::move(req.value);
        notify_watchers(key, &before, &it->second);
      } else {
        store_new(key, std::move(req.value));
        notify_watchers(key, nullptr, &store_.at(key));
      }
      reply(c, ReplyType::kNone);
      break;
    }
    case Command::kCompareSet: {
      auto it = store_.find(key);
      if (it == store_.end()) {
        if (req.value.empty()) {
          store_new(key, req.desired);
          notify_watchers(key, nullptr, &req.desired);
          reply(c, ReplyType::kBytes, req.desired.data(), req.desired.size());
        } else {
          reply(c, ReplyType::kBytes, req.value.data(), req.value.size());
        }
      } else {
        if (it->second == req.value) {
          std::vector<uint8_t> before = std::move(it->second);
          it->second = std::move(req.desired);
          notify_watchers(key, &before, &it->second);
        }
        reply(c, ReplyType::kBytes, it->second.data(), it->second.size());
      }
      break;
    }
    case Command::kGet: {
      auto it = store_.find(key);
      if (it != store_.end()) {
        reply(c, ReplyType::kBytes, it->second.data(), it->second.size());
      } else {
        c.held = Held{Command::kGet, key, {key}};
        waiters_[key].push_back(c.fd.get());
      }
      break;
    }
    case Command::kAdd: {
      auto it = store_.find(key);
      std::vector<uint8_t> value = it != store_.end() ? it->second : std::vector<uint8_t>();
      int64_t sum = 0;
      try {
        sum = add_to_decimal(value, static_cast<int64_t>(req.number));
      } catch (const c10::Error& e) {
        const std::string& message = e.msg();
        reply(c, ReplyType::kError, message.data(), message.size());
        break;
      }
      if (it != store_.end()) {
        std::vector<uint8_t> before = std::move(it->second);
        it->second = std::move(value);
        notify_watchers(key, &before, &it->second);
      } else {
        store_new(key, std::move(value));
        notify_watchers(key, nullptr, &store_.at(key));
      }
      reply(c, sum);
      break;
    }
    case Command::kDeleteKey: {
      auto it = store_.find(key);
      const bool existed = it != store_.end();
      if (existed) {
        const std::vector<uint8_t> before = std::move(it->second);
        store_.erase(it);
        notify_watchers(key, &before, nullptr);
      }
      reply(c, static_cast<int64_t>(existed));
      break;
    }
    case Command::kWatchKey:
      watchers_[key].push_back(c.fd.get());
      reply(c, ReplyType::kNone);
      break;
    case Command::kCheck:
      reply(c, static_cast<int64_t>(
                   std::all_of(req.keys.begin(), req.keys.end(),
                               [&](const std::string& k) { return store_.count(k) != 0; })));
      break;
    case Command::kGetNumKeys:
      reply(c, static_cast<int64_t>(store_.size()));
      break;
    case Command::kWait: {
      Held held{Command::kWait, {}, {}};
      for (const std::string& k : req.keys) {
        if (store_.count(k) == 0) held.missing.insert(k);
      }
      if (held.missing.empty()) {
        reply(c, ReplyType::kNone);
      } else {
        for (const std::string& k : held.missing) waiters_[k].push_back(c.fd.get());
        c.held = std::move(held);
      }
      break;
    }
    case Command::kCancel:
      release(c);
      reply(c, ReplyType::kCanceled);
      break;
  }
}

void TCPServer::notify_watchers(const std::string& key, const std::vector<uint8_t>* before,
                                const std::vector<uint8_t>* after) {
  auto it = watchers_.find(key);
  if (it == watchers_.end()) return;
  static const std::vector<uint8_t> kAbsent;
  for (int fd : it->second) {
    auto found = connections_.find(fd);
    if (found == connections_.end() || found->second.dead) continue;
    Connection& c = found->second;
    c.out.push_back(static_cast<char>(ReplyType::kKeyUpdate));
    put_bytes(c.out, key.data(), key.size());
    c.out.push_back(static_cast<char>((before ? kHadValue : 0) | (after ? kHasValue : 0)));
    const auto& old_value = before ? *before : kAbsent;
    const auto& new_value = after ? *after : kAbsent;
    put_bytes(c.out, old_value.data(), old_value.size());
    put_bytes(c.out, new_value.data(), new_value.size());
    flush(c);
  }
}

// A closed connection's watches go with it: its descriptor may be reused by the next client.
void TCPServer::forget_watches(int fd) {
  for (auto it = watchers_.begin(); it != watchers_.end();) {
    auto& fds = it->second;
    fds.erase(std::remove(fds.begin(), fds.end(), fd), fds.end());
    it = fds.empty() ? watchers_.erase(it) : std::next(it);
  }
}

void TCPServer::store_new(const std::string& key, std::vector<uint8_t> value) {
  store_.emplace(key, std::move(value));
  key_created(key);
}

// Answers the held requests that were waiting for nothing but `key`.
void TCPServer::key_created(const std::string& key) {
  auto it = waiters_.find(key);
  if (it == waiters_.end()) return;
  const std::vector<int> fds = std::move(it->second);
  waiters_.erase(it);
  for (int fd : fds) {
    auto found = connections_.find(fd);
    if (found == connections_.end() || !found->second.held) continue;
    Connection& c = found->second;
    c.held->missing.erase(key);
    if (!c.held->missing.empty()) continue;
    const Held held = std::move(*c.held);
    c.held.reset();
    if (held.command == Command::kGet) {
      const std::vector<uint8_t>& value = store_.at(held.key);
      reply(c, ReplyType::kBytes, value.data(), value.size());
    } else {
      reply(c, ReplyType::kNone);
    }
  }
}

// Forgets c's held request, if any.
void TCPServer::release(Connection& c) {
  if (!c.held) return;
  for (const std::string& key : c.held->missing) {
    auto it = waiters_.find(key);
    if (it == waiters_.end()) continue;
    std::vector<int>& fds = it->second;
    fds.erase(std::remove(fds.begin(), fds.end(), c.fd.get()), fds.end());
    if (fds.empty()) waiters_.erase(it);
  }
  c.held.reset();
}

void TCPServer::reply(Connection& c, ReplyType type) {
  c.out.push_back(static_cast<char>(type));
  flush(c);
}

void TCPServer::reply(Connection& c, int64_t number) {
  c.out.push_back(static_cast<char>(ReplyType::kInt));
  put_u64(c.out, static_cast<uint64_t>(number));
  flush(c);
}

void TCPServer::reply(Connection& c, ReplyType type, const void* data, size_t size) {
  c.out.push_back(static_cast<char>(type));
  put_bytes(c.out, data, size);
  flush(c);
}

// Sends what the socket takes now; POLLOUT brings the server back for the rest.
void TCPServer::flush(Connection& c) {
  while (c.out_sent < c.out.size()) {
    const ssize_t n = ::send(c.fd.get(), c.out.data() + c.out_sent, c.out.size() - c.out_sent,
                             MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) {
      c.out_sent += static_cast<size_t>(n);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      return;
    } else {
      c.dead = true;
      return;
    }
  }
  c.out.clear();
  c.out_sent = 0;
}

}  // namespace detail
}  // namespace c10d
