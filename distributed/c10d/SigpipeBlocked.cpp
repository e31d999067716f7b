#include "distributed/c10d/SigpipeBlocked.h"

#include <pthread.h>
#include <signal.h>

#include <cerrno>
#include <ctime>

namespace c10d {

namespace {

sigset_t sigpipe_set() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGPIPE);
  return set;
}

bool sigpipe_pending() {
  sigset_t pending;
  sigemptyset(&pending);
  return sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1;
}

}  // namespace

SigpipeBlocked::SigpipeBlocked() {
  const sigset_t set = sigpipe_set();
  sigset_t old;
  sigemptyset(&old);
  pthread_sigmask(SIG_BLOCK, &set, &old);
  was_blocked_ = sigismember(&old, SIGPIPE) == 1;
}

SigpipeBlocked::~SigpipeBlocked() {
  if (was_blocked_) return;
  const sigset_t set = sigpipe_set();
  // Note [A peer's death must not end this process]: take what a failed write raised here.
  while (sigpipe_pending()) {
    const timespec now{0, 0};
    if (sigtimedwait(&set, nullptr, &now) == -1 && errno != EINTR) break;
  }
  pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
}

}  // namespace c10d
