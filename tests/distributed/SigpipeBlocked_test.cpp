// Note [A peer's death must not end this process]: SigpipeBlocked on the caller's thread (a
// write to a closed pipe fails with EPIPE; the mask and the pending set are as they were
// afterwards), on threads started inside it, and on the threads Gloo and ProcessGroupGloo start:
// the device's event loop and the group's workers. The masks are read from /proc.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <dirent.h>
#include <cerrno>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "distributed/c10d/HashStore.h"
#include "distributed/c10d/ProcessGroupGloo.h"
#include "distributed/c10d/SigpipeBlocked.h"

namespace {

bool this_thread_blocks_sigpipe() {
  sigset_t mask;
  sigemptyset(&mask);
  pthread_sigmask(SIG_BLOCK, nullptr, &mask);
  return sigismember(&mask, SIGPIPE) == 1;
}

bool sigpipe_pending() {
  sigset_t pending;
  sigemptyset(&pending);
  sigpending(&pending);
  return sigismember(&pending, SIGPIPE) == 1;
}

// The threads of this process whose SigBlk line in /proc has SIGPIPE's bit.
int threads_blocking_sigpipe() {
  int count = 0;
  DIR* dir = opendir("/proc/self/task");
  if (dir == nullptr) {
    ADD_FAILURE() << "cannot read /proc/self/task";
    return -1;
  }
  while (const dirent* entry = readdir(dir)) {
    if (entry->d_name[0] == '.') continue;
    std::ifstream status(std::string("/proc/self/task/") + entry->d_name + "/status");
    std::string line;
    while (std::getline(status, line)) {
      if (line.rfind("SigBlk:", 0) != 0) continue;
      const unsigned long long mask = std::stoull(line.substr(7), nullptr, 16);
      if (mask & (1ull << (SIGPIPE - 1))) ++count;
    }
  }
  closedir(dir);
  return count;
}

struct ClosedPipe {
  int write_end = -1;
  ClosedPipe() {
    int fds[2];
    EXPECT_EQ(::pipe(fds), 0);
    ::close(fds[0]);
    write_end = fds[1];
  }
  ~ClosedPipe() { ::close(write_end); }
};

TEST(SigpipeBlocked, AWriteToAClosedPipeFailsAndLeavesNothingBehind) {
  ASSERT_FALSE(this_thread_blocks_sigpipe());
  ClosedPipe pipe;
  {
    const c10d::SigpipeBlocked no_sigpipe;
    EXPECT_TRUE(this_thread_blocks_sigpipe());
    errno = 0;
    EXPECT_EQ(::write(pipe.write_end, "x", 1), -1);
    EXPECT_EQ(errno, EPIPE);
    EXPECT_TRUE(sigpipe_pending());  // raised, held back by the mask
  }
  // Unblocking with the signal still pending would have ended this test process here.
  EXPECT_FALSE(this_thread_blocks_sigpipe());
  EXPECT_FALSE(sigpipe_pending());
}

TEST(SigpipeBlocked, AThreadThatBlockedItAlreadyKeepsItsMaskAndItsSignal) {
  ClosedPipe pipe;
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  {
    const c10d::SigpipeBlocked no_sigpipe;
    EXPECT_EQ(::write(pipe.write_end, "x", 1), -1);
  }
  EXPECT_TRUE(this_thread_blocks_sigpipe());
  EXPECT_TRUE(sigpipe_pending());  // the caller's to handle, not the guard's
  const timespec now{0, 0};
  EXPECT_EQ(sigtimedwait(&set, nullptr, &now), SIGPIPE);
  pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
}

TEST(SigpipeBlocked, ThreadsStartedInsideInheritTheMask) {
  bool inside = false;
  bool after = true;
  {
    const c10d::SigpipeBlocked no_sigpipe;
    std::thread([&] { inside = this_thread_blocks_sigpipe(); }).join();
  }
  std::thread([&] { after = this_thread_blocks_sigpipe(); }).join();
  EXPECT_TRUE(inside);
  EXPECT_FALSE(after);
}

TEST(SigpipeBlocked, GloosLoopThreadAndTheGroupsWorkersBlockIt) {
  const int before = threads_blocking_sigpipe();
  auto device = c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1");
  EXPECT_EQ(threads_blocking_sigpipe(), before + 1);  // the device's event loop
  EXPECT_FALSE(this_thread_blocks_sigpipe());
  {
    auto opts = c10d::ProcessGroupGloo::Options::create(std::chrono::seconds(20));
    opts->devices.push_back(device);
    opts->threads = 3;
    auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(c10::make_intrusive<c10d::HashStore>(), 0,
                                                          1, opts);
    EXPECT_EQ(threads_blocking_sigpipe(), before + 4);
    EXPECT_FALSE(this_thread_blocks_sigpipe());
  }
  EXPECT_EQ(threads_blocking_sigpipe(), before + 1);
}

}  // namespace
