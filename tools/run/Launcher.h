#pragma once
// The job miniaten_run (main.cpp) runs: N ranks of one command, their environment, and how the
// job ends. Apart from main() so that its pieces read on their own.

#include <string>
#include <vector>

namespace miniaten_run {

struct Options {
  int nproc = 0;
  int master_port = 0;    // 0: a free port, picked by binding port 0
  int grace_seconds = 5;  // how long failed jobs' other ranks get after SIGTERM
  std::vector<std::string> command;
};

// A whole positive decimal number that fits an int.
bool parse_count(const char* text, int* out);

// Runs the job; returns what miniaten_run exits with. See Note [How miniaten_run ends a job].
int run(const Options& options);

}  // namespace miniaten_run
