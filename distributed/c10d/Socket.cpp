// Socket.h's socket calls. Linux (and other POSIX systems with SOCK_NONBLOCK and
// SOCK_CLOEXEC).

#include "distributed/c10d/Socket.h"

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <memory>

#include "distributed/c10d/exception.h"

namespace c10d {
namespace detail {
namespace {

using AddrInfoPtr = std::unique_ptr<addrinfo, decltype(&::freeaddrinfo)>;

// "0.0.0.0:29500", "[::]:29500": libtorch's spelling of an address in its messages.
std::string address_text(const sockaddr* address, socklen_t size) {
  char host[NI_MAXHOST];
  char service[NI_MAXSERV];
  if (::getnameinfo(address, size, host, sizeof(host), service, sizeof(service),
                    NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
    return "?";
  }
  return address->sa_family == AF_INET6 ? c10::str("[", host, "]:", service)
                                        : c10::str(host, ":", service);
}

// Whether a connection to a local port went to its own source port (TCP's simultaneous open,
// possible when retrying a port in the ephemeral range that nobody listens on yet).
bool connected_to_itself(int fd) {
  sockaddr_storage self{}, peer{};
  socklen_t self_size = sizeof(self), peer_size = sizeof(peer);
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&self), &self_size) != 0 ||
      ::getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &peer_size) != 0) {
    return false;
  }
  return self_size == peer_size && std::memcmp(&self, &peer, self_size) == 0;
}

}  // namespace

void Fd::reset() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

std::string errno_text(int error) {
  return c10::str("(errno: ", error, " - ", std::strerror(error), ")");
}

void set_no_delay(int fd) {
  const int on = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on));
}

bool wait_ready(int fd, short events, Clock::time_point deadline) {
  for (;;) {
    int ms = -1;
    if (deadline != Clock::time_point::max()) {
      const auto left = deadline - Clock::now();
      if (left <= Clock::duration::zero()) return false;
      ms = static_cast<int>(
          std::min<int64_t>(std::chrono::ceil<std::chrono::milliseconds>(left).count(), INT_MAX));
    }
    pollfd p{fd, events, 0};
    const int r = ::poll(&p, 1, ms);
    // An error other than EINTR is left for the recv or send that follows to report.
    if (r > 0 || (r < 0 && errno != EINTR)) return true;
  }
}

Fd try_listen(int family, std::uint16_t port, std::vector<std::string>& errors) {
  addrinfo hints{};
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  hints.ai_family = family;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const int r = ::getaddrinfo(nullptr, std::to_string(port).c_str(), &hints, &found);
  if (r != 0) {
    errors.push_back(c10::str("The local ", family == AF_INET6 ? "IPv6 " : "IPv4 ",
                              "network addresses cannot be retrieved (gai error: ", r, " - ",
                              ::gai_strerror(r), ")."));
    return Fd();
  }
  AddrInfoPtr owner(found, &::freeaddrinfo);
  for (const addrinfo* a = found; a != nullptr; a = a->ai_next) {
    const std::string where = address_text(a->ai_addr, a->ai_addrlen);
    Fd fd(::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol));
    if (!fd.valid()) {
      const int error = errno;
      errors.push_back(c10::str("The server socket cannot be initialized on ", where, " ",
                                errno_text(error), "."));
      continue;
    }
    const int on = 1, off = 0;
    ::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
    // [::] also takes IPv4 clients, as libtorch's server does.
    if (a->ai_family == AF_INET6) {
      ::setsockopt(fd.get(), IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof(off));
    }
    if (::bind(fd.get(), a->ai_addr, a->ai_addrlen) != 0) {
      const int error = errno;
      errors.push_back(
          c10::str("The server socket has failed to bind to ", where, " ", errno_text(error), "."));
      continue;
    }
    if (::listen(fd.get(), SOMAXCONN) != 0) {
      const int error = errno;
      errors.push_back(c10::str("The server socket has failed to listen on ", where, " ",
                                errno_text(error), "."));
      continue;
    }
    return fd;
  }
  return Fd();
}

std::uint16_t local_port(int fd) {
  sockaddr_storage bound{};
  socklen_t size = sizeof(bound);
  C10D_CHECK(SocketError, ::getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &size) == 0,
             "The server socket's address cannot be read ", errno_text(errno), ".");
  return ntohs(bound.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port
                                           : reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
}

Fd try_connect(const std::string& host, std::uint16_t port, Clock::time_point deadline) {
  addrinfo hints{};
  hints.ai_flags = AI_NUMERICSERV;
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found) != 0) {
    return Fd();  // a name not resolvable yet is retried like a server not up yet
  }
  AddrInfoPtr owner(found, &::freeaddrinfo);
  for (const addrinfo* a = found; a != nullptr; a = a->ai_next) {
    Fd fd(::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol));
    if (!fd.valid()) continue;
    if (::connect(fd.get(), a->ai_addr, a->ai_addrlen) != 0) {
      if (errno != EINPROGRESS && errno != EINTR) continue;
      if (!wait_ready(fd.get(), POLLOUT, deadline)) return Fd();
      int error = 0;
      socklen_t size = sizeof(error);
      if (::getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &error, &size) != 0 || error != 0) {
        continue;
      }
    }
    if (connected_to_itself(fd.get())) continue;
    set_no_delay(fd.get());
    return fd;
  }
  return Fd();
}

std::string connect_timeout_text(std::chrono::milliseconds timeout) {
  if (timeout < std::chrono::seconds(1)) return c10::str(timeout.count(), "ms");
  return c10::str(std::chrono::duration_cast<std::chrono::seconds>(timeout).count(), "s");
}

}  // namespace detail
}  // namespace c10d
