#pragma once
// The POSIX socket calls TCPStore's client and server share: an owning file descriptor, listening,
// connecting with retries in mind, waiting on a deadline, and libtorch's wording of their errors.
// Declarations only, so that the system socket headers stay in the .cpp files that use them.

#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace c10d {
namespace detail {

using Clock = std::chrono::steady_clock;

// A file descriptor, closed with its owner.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(Fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Fd& operator=(Fd&& other) noexcept {
    if (this != &other) {
      reset();
      fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
  }
  ~Fd() { reset(); }
  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  void reset();

 private:
  int fd_ = -1;
};

// "(errno: 111 - Connection refused)", as libtorch appends it to its socket errors.
std::string errno_text(int error);

void set_no_delay(int fd);

// Waits until fd is ready for `events` (poll's POLLIN, POLLOUT); false once the deadline has
// passed.
bool wait_ready(int fd, short events, Clock::time_point deadline);

// Listens on the local addresses of one family (AF_INET6, AF_INET), as libtorch's
// SocketListenOp::tryListen does, adding to `errors` why each one failed; an invalid Fd if none
// would.
Fd try_listen(int family, std::uint16_t port, std::vector<std::string>& errors);

// The port a listening socket is bound to; throws SocketError if it cannot be read.
std::uint16_t local_port(int fd);

// One pass over the host's addresses: a connected socket, or an invalid Fd. The name lookup
// itself is not bounded by the deadline.
Fd try_connect(const std::string& host, std::uint16_t port, Clock::time_point deadline);

// libtorch prints its connect timeout as std::chrono::seconds ("300s"); below a second, which
// it would print as 0s, the milliseconds are shown instead.
std::string connect_timeout_text(std::chrono::milliseconds timeout);

}  // namespace detail
}  // namespace c10d
