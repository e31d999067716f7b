#include "tools/run/Launcher.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace miniaten_run {

// Note [How miniaten_run ends a job]
// The launcher waits for its ranks with every signal it cares about blocked and taken in turn by
// sigtimedwait, so no handler runs in the middle of anything:
//  * every rank exits 0: the job succeeded, miniaten_run exits 0;
//  * a rank fails (a non-zero exit, or killed by a signal): the others get SIGTERM; those still
//    running after --grace seconds get SIGKILL; miniaten_run exits with the first failure's
//    code (128 + the signal's number for a signal, as a shell reports it), so no rank is left
//    waiting for a peer that will never come;
//  * miniaten_run gets SIGINT, SIGTERM or SIGHUP: it passes the signal to every rank still
//    running, ends the job as for a failure and exits 128 + that signal.
// A rank whose command cannot be started exits 127, as a shell's does.

bool parse_count(const char* text, int* out) {
  if (text == nullptr || *text == '\0') return false;
  char* end = nullptr;
  errno = 0;
  const long value = std::strtol(text, &end, 10);
  if (*end != '\0' || errno != 0 || value < 0 || value > INT_MAX) return false;
  *out = static_cast<int>(value);
  return true;
}

namespace {

struct Rank {
  pid_t pid = -1;
  bool running = false;
};

// A port nobody is listening on: the kernel's pick for port 0, released again. (Another program
// could take it before rank 0 binds it; torchrun takes the same risk.)
int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof(address);
  int port = -1;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size) == 0) {
    port = ntohs(address.sin_port);
  }
  ::close(fd);
  return port;
}

// The exit code a shell would report for this wait status.
int exit_code(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

[[noreturn]] void exec_rank(const Options& options, int rank, int port, const sigset_t& old_mask) {
  const std::string n = std::to_string(options.nproc), r = std::to_string(rank);
  ::setenv("RANK", r.c_str(), 1);
  ::setenv("LOCAL_RANK", r.c_str(), 1);
  ::setenv("WORLD_SIZE", n.c_str(), 1);
  ::setenv("LOCAL_WORLD_SIZE", n.c_str(), 1);
  ::setenv("MASTER_ADDR", "127.0.0.1", 1);
  ::setenv("MASTER_PORT", std::to_string(port).c_str(), 1);
  ::setenv("OMP_NUM_THREADS", "1", /*overwrite=*/0);
  ::sigprocmask(SIG_SETMASK, &old_mask, nullptr);
  std::vector<char*> argv;
  for (const std::string& arg : options.command) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  ::execvp(argv[0], argv.data());
  std::fprintf(stderr, "miniaten_run: cannot run %s: %s\n", argv[0], std::strerror(errno));
  ::_exit(127);
}

void signal_running(std::vector<Rank>& ranks, int signal) {
  for (const Rank& rank : ranks) {
    if (rank.running) ::kill(rank.pid, signal);
  }
}

}  // namespace

int run(const Options& options) {
  const int port = options.master_port != 0 ? options.master_port : free_port();
  if (port <= 0) {
    std::fprintf(stderr, "miniaten_run: cannot find a free port: %s\n", std::strerror(errno));
    return 1;
  }
  sigset_t watched, old_mask;
  sigemptyset(&watched);
  for (const int s : {SIGCHLD, SIGINT, SIGTERM, SIGHUP}) sigaddset(&watched, s);
  ::sigprocmask(SIG_BLOCK, &watched, &old_mask);

  std::vector<Rank> ranks(static_cast<size_t>(options.nproc));
  int result = 0;  // the first failure's code
  bool stopping = false;
  using Clock = std::chrono::steady_clock;
  Clock::time_point kill_at = Clock::time_point::max();
  const auto stop = [&](int code, int signal) {
    if (stopping) return;
    stopping = true;
    result = code;
    signal_running(ranks, signal);
    kill_at = Clock::now() + std::chrono::seconds(options.grace_seconds);
  };

  for (int r = 0; r < options.nproc && !stopping; ++r) {
    const pid_t pid = ::fork();
    if (pid < 0) {
      std::fprintf(stderr, "miniaten_run: fork: %s\n", std::strerror(errno));
      stop(1, SIGTERM);
      break;
    }
    if (pid == 0) exec_rank(options, r, port, old_mask);
    ranks[static_cast<size_t>(r)] = {pid, true};
  }

  int running = 0;
  for (const Rank& rank : ranks) running += rank.running ? 1 : 0;
  while (running > 0) {
    // Reap every rank that has ended.
    int status = 0;
    pid_t pid;
    while ((pid = ::waitpid(-1, &status, WNOHANG)) > 0) {
      for (size_t r = 0; r < ranks.size(); ++r) {
        if (ranks[r].pid != pid || !ranks[r].running) continue;
        ranks[r].running = false;
        --running;
        const int code = exit_code(status);
        if (code != 0 && !stopping) {
          std::fprintf(stderr, "miniaten_run: rank %zu (pid %d) %s %d; stopping the other ranks\n",
                       r, static_cast<int>(pid),
                       WIFSIGNALED(status) ? "was killed by signal" : "exited with code",
                       WIFSIGNALED(status) ? WTERMSIG(status) : code);
          stop(code, SIGTERM);
        }
      }
    }
    if (running == 0) break;
    if (stopping && Clock::now() >= kill_at) {
      signal_running(ranks, SIGKILL);
      kill_at = Clock::time_point::max();
    }
    const timespec tick{0, 100 * 1000 * 1000};
    const int signal = ::sigtimedwait(&watched, nullptr, &tick);
    if (signal == SIGINT || signal == SIGTERM || signal == SIGHUP) {
      if (stopping) {
        signal_running(ranks, signal);
      } else {
        std::fprintf(stderr, "miniaten_run: got signal %d; passing it to the ranks\n", signal);
        stop(128 + signal, signal);
      }
    }
  }
  ::sigprocmask(SIG_SETMASK, &old_mask, nullptr);
  return result;
}

}  // namespace miniaten_run
