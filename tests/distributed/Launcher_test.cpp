// miniaten_run (tools/run) as a user runs it, with run_child.cpp as the ranks: each rank's
// environment, a job that ends when a rank fails (the others stopped, SIGKILL after the grace
// for ranks that ignore SIGTERM), a signal to the launcher passed on, bad command lines, and
// ranks that meet through rendezvous_from_env. Every job here ends in seconds; a hung one is
// killed by the test after 20 s.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "distributed/c10d/Rendezvous.h"
#include "tests/TestUtils.h"
#include "tests/distributed/StoreTestUtils.h"

namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using test_util::error_of;

struct Job {
  int code = -1;  // as a shell reports it
  Clock::duration took{};
};

// Runs miniaten_run with `args`; `signal_after` > 0 sends it SIGTERM that many ms in.
Job launch(const std::vector<std::string>& args, int signal_after_ms = 0) {
  const auto start = Clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    std::vector<char*> argv = {const_cast<char*>(MINIATEN_RUN)};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(MINIATEN_RUN, argv.data());
    ::_exit(126);
  }
  Job job;
  bool signalled = false;
  int status = 0;
  while (true) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    const auto elapsed = Clock::now() - start;
    if (signal_after_ms > 0 && !signalled &&
        elapsed >= std::chrono::milliseconds(signal_after_ms)) {
      ::kill(pid, SIGTERM);
      signalled = true;
    }
    if (elapsed > 20s) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      ADD_FAILURE() << "the job did not end";
      return job;
    }
    ::usleep(10 * 1000);
  }
  job.took = Clock::now() - start;
  job.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return job;
}

std::string fresh_dir(const std::string& name) {
  const std::string dir = store_test::temp_path(name);
  ::mkdir(dir.c_str(), 0755);
  return dir;
}

std::map<std::string, std::string> read_env(const std::string& path) {
  std::map<std::string, std::string> env;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    const auto eq = line.find('=');
    if (eq != std::string::npos) env[line.substr(0, eq)] = line.substr(eq + 1);
  }
  return env;
}

TEST(Launcher, EachRankGetsItsEnvironment) {
  const std::string dir = fresh_dir("launcher_env");
  ::unsetenv("OMP_NUM_THREADS");
  const Job job = launch({"--nproc", "3", MINIATEN_RUN_CHILD, "env", dir});
  EXPECT_EQ(job.code, 0);
  std::string port;
  for (int r = 0; r < 3; ++r) {
    auto env = read_env(dir + "/rank" + std::to_string(r));
    EXPECT_EQ(env["RANK"], std::to_string(r));
    EXPECT_EQ(env["LOCAL_RANK"], std::to_string(r));
    EXPECT_EQ(env["WORLD_SIZE"], "3");
    EXPECT_EQ(env["LOCAL_WORLD_SIZE"], "3");
    EXPECT_EQ(env["MASTER_ADDR"], "127.0.0.1");
    EXPECT_EQ(env["OMP_NUM_THREADS"], "1");
    EXPECT_NE(env["MASTER_PORT"], "0");
    if (r == 0) port = env["MASTER_PORT"];
    EXPECT_EQ(env["MASTER_PORT"], port);
  }
  // A port given is the port used; a thread count already set is kept; "--" ends the options.
  ::setenv("OMP_NUM_THREADS", "3", 1);
  EXPECT_EQ(
      launch({"--nproc", "1", "--master-port", "29999", "--", MINIATEN_RUN_CHILD, "env", dir}).code,
      0);
  ::unsetenv("OMP_NUM_THREADS");
  auto env = read_env(dir + "/rank0");
  EXPECT_EQ(env["MASTER_PORT"], "29999");
  EXPECT_EQ(env["OMP_NUM_THREADS"], "3");
}

TEST(Launcher, AFailingRankEndsTheJobWithItsCode) {
  // The other two ranks would sleep a minute: they are stopped.
  const Job job = launch({"--nproc", "3", MINIATEN_RUN_CHILD, "fail", "1", "7"});
  EXPECT_EQ(job.code, 7);
  EXPECT_LT(job.took, 10s);
}

TEST(Launcher, RanksIgnoringSigtermAreKilledAfterTheGrace) {
  const Job job = launch({"--nproc", "2", "--grace", "1", MINIATEN_RUN_CHILD, "stubborn"});
  EXPECT_EQ(job.code, 1);
  EXPECT_GE(job.took, 1s);
  EXPECT_LT(job.took, 10s);
}

TEST(Launcher, ASignalToTheLauncherStopsTheRanks) {
  const Job job = launch({"--nproc", "2", MINIATEN_RUN_CHILD, "sleep"}, /*signal_after_ms=*/300);
  EXPECT_EQ(job.code, 128 + SIGTERM);
  EXPECT_LT(job.took, 10s);
}

TEST(Launcher, BadCommandLines) {
  EXPECT_EQ(launch({}).code, 2);
  EXPECT_EQ(launch({"--nproc", "0", MINIATEN_RUN_CHILD}).code, 2);
  EXPECT_EQ(launch({"--nproc", "two", MINIATEN_RUN_CHILD}).code, 2);
  EXPECT_EQ(launch({"--nproc", "2"}).code, 2);
  EXPECT_EQ(launch({"--nproc", "2", "--frobnicate", MINIATEN_RUN_CHILD}).code, 2);
  EXPECT_EQ(launch({"--nproc", "2", "--master-port", "70000", MINIATEN_RUN_CHILD}).code, 2);
  // A command that cannot be started: 127, as from a shell.
  EXPECT_EQ(launch({"--nproc", "2", "/nonexistent/program"}).code, 127);
}

TEST(Launcher, RanksMeetThroughTheEnvironment) {
  for (const char* n : {"1", "3"}) {
    const std::string dir = fresh_dir("launcher_rendezvous");
    const Job job = launch({"--nproc", n, MINIATEN_RUN_CHILD, "rendezvous", dir});
    EXPECT_EQ(job.code, 0) << n;
    std::ifstream ok(dir + "/ok");
    std::string world;
    ok >> world;
    EXPECT_EQ(world, n);
  }
}

// ---- rendezvous_from_env's own errors, in this process ---------------------------------------

TEST(Rendezvous, MissingOrBadVariablesAreValueErrors) {
  for (const char* name : {"RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT"}) ::unsetenv(name);
  EXPECT_EQ(error_of([] { c10d::rendezvous_from_env(100ms); }),
            "Error initializing torch.distributed using env:// rendezvous: environment variable "
            "RANK expected, but not set");
  ::setenv("RANK", "2", 1);
  ::setenv("WORLD_SIZE", "2", 1);
  ::setenv("MASTER_ADDR", "127.0.0.1", 1);
  ::setenv("MASTER_PORT", "29500", 1);
  EXPECT_EQ(error_of([] { c10d::rendezvous_from_env(100ms); }),
            "RANK must be in [0, WORLD_SIZE), got RANK 2 and WORLD_SIZE 2");
  ::setenv("WORLD_SIZE", "0", 1);
  EXPECT_EQ(error_of([] { c10d::rendezvous_from_env(100ms); }),
            "WORLD_SIZE must be at least 1, got 0");
  ::setenv("WORLD_SIZE", "x2", 1);
  EXPECT_EQ(error_of([] { c10d::rendezvous_from_env(100ms); }),
            "Error initializing torch.distributed using env:// rendezvous: environment variable "
            "WORLD_SIZE is not an integer: 'x2'");
  ::setenv("WORLD_SIZE", "2", 1);
  ::setenv("RANK", "1", 1);
  ::setenv("MASTER_PORT", "0", 1);
  EXPECT_EQ(error_of([] { c10d::rendezvous_from_env(100ms); }),
            "MASTER_PORT must be in [1, 65535], got 0");
  // A rank whose server never comes: the connect timeout.
  ::setenv("MASTER_PORT", "1", 1);
  const std::string timeout = error_of([] { c10d::rendezvous_from_env(200ms); });
  EXPECT_EQ(timeout.find("The client socket has timed out after"), 0u) << timeout;
  for (const char* name : {"RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT"}) ::unsetenv(name);
}

}  // namespace
