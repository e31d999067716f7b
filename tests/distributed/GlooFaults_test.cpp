// Ranks as separate processes (gloo_child.cpp), meeting through a TCPStore from the
// environment: a job that sums across them, and a rank killed in the middle of an allreduce,
// after which the surviving rank's wait() throws a c10::Error naming the lost connection
// within the group's timeout rather than hanging. Every process is killed by the test if it
// outlives 30 s.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/distributed/StoreTestUtils.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Ranks {
  std::vector<pid_t> pids;
};

// Starts `world` gloo_child processes with the launcher's variables and `args`. Everything the
// child needs is made before fork(): this process has threads, so the child only execs.
Ranks start(int world, const std::vector<std::string>& args) {
  const std::string port = std::to_string(store_test::unused_port());
  std::vector<std::string> argv_strings = {GLOO_CHILD};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_strings) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  Ranks ranks;
  for (int r = 0; r < world; ++r) {
    std::vector<std::string> env_strings = {
        "RANK=" + std::to_string(r), "WORLD_SIZE=" + std::to_string(world), "MASTER_ADDR=127.0.0.1",
        "MASTER_PORT=" + port, "OMP_NUM_THREADS=1"};
    for (char** e = environ; *e != nullptr; ++e) env_strings.emplace_back(*e);
    std::vector<char*> envp;
    for (auto& e : env_strings) envp.push_back(const_cast<char*>(e.c_str()));
    envp.push_back(nullptr);
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::execve(GLOO_CHILD, argv.data(), envp.data());
      ::_exit(126);
    }
    ranks.pids.push_back(pid);
  }
  return ranks;
}

// Waits for a rank's exit code (128 + signal when killed); kills it after `limit`.
int finish(pid_t pid, std::chrono::seconds limit = std::chrono::seconds(30)) {
  const auto start = Clock::now();
  int status = 0;
  while (::waitpid(pid, &status, WNOHANG) != pid) {
    if (Clock::now() - start > limit) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      ADD_FAILURE() << "rank process " << pid << " did not end";
      return -1;
    }
    ::usleep(10 * 1000);
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

bool wait_for_file(const std::string& path, std::chrono::seconds limit) {
  const auto start = Clock::now();
  while (Clock::now() - start < limit) {
    if (::access(path.c_str(), F_OK) == 0) return true;
    ::usleep(10 * 1000);
  }
  return false;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string fresh_dir(const std::string& name) {
  const std::string dir = store_test::temp_path(name);
  ::mkdir(dir.c_str(), 0755);
  return dir;
}

TEST(GlooFaults, RanksInSeparateProcessesSum) {
  const std::string dir = fresh_dir("gloo_sum");
  Ranks ranks = start(3, {"sum", dir});
  for (pid_t pid : ranks.pids) EXPECT_EQ(finish(pid), 0);
  for (int r = 0; r < 3; ++r) {
    EXPECT_EQ(read_file(dir + "/sum" + std::to_string(r)), "6.000000") << "rank " << r;
  }
}

TEST(GlooFaults, AKilledPeerFailsTheOthersWaitWithinTheTimeout) {
  const std::string dir = fresh_dir("gloo_killed");
  const int timeout_ms = 5000;
  Ranks ranks = start(2, {"loop", dir, std::to_string(timeout_ms)});
  ASSERT_TRUE(wait_for_file(dir + "/ready0", std::chrono::seconds(20)));
  ASSERT_TRUE(wait_for_file(dir + "/ready1", std::chrono::seconds(20)));
  ::kill(ranks.pids[1], SIGKILL);  // in the middle of one of its allreduces
  EXPECT_EQ(finish(ranks.pids[1]), 128 + SIGKILL);
  EXPECT_EQ(finish(ranks.pids[0]), 0);
  const std::string report = read_file(dir + "/error0");
  const auto newline = report.find('\n');
  ASSERT_NE(newline, std::string::npos) << report;
  const long took_ms = std::stol(report.substr(0, newline));
  const std::string message = report.substr(newline + 1);
  EXPECT_LT(took_ms, timeout_ms + 2000) << message;
  EXPECT_EQ(message.rfind("Gloo failed: ", 0), 0u) << message;
  // Gloo names the connection it lost (the peer's address) or the read that failed.
  EXPECT_TRUE(message.find("127.0.0.1") != std::string::npos ||
              message.find("Connection") != std::string::npos ||
              message.find("Timed out") != std::string::npos)
      << message;
}

}  // namespace
