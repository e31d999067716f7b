// The dispatch trace with several threads: a DispatchTraceGuard traces the thread it lives on
// only, the listener receives the lines of every traced thread, each line whole and indented by
// its own thread's depth, and the listener may be replaced while others trace
// (dispatcher/DispatchTrace.h).

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "aten/ATen.h"
#include "dispatcher/DispatchTrace.h"
#include "dispatcher/TraceRecord.h"
#include "tests/concurrency/StressTestUtil.h"

namespace {

// The traced work of every test: two ops at depth 0 (and a reduction), each with its
// redispatches and TensorIterator lines below. The inputs' length names the thread in the lines.
// The results are read without calling operators, so only the work itself is traced.
bool work(const at::Tensor& a, const at::Tensor& b) {
  const at::Tensor sum = at::add(a, b);            // 1 + 2
  const at::Tensor total = at::mul(sum, b).sum();  // 3 * 2 per element
  const float* p = sum.data_ptr<float>();
  for (int64_t i = 0; i < sum.numel(); ++i) {
    if (p[i] != 3.f) return false;
  }
  return *total.data_ptr<float>() == 6.f * static_cast<float>(a.numel());
}

struct Inputs {
  at::Tensor a, b;
  explicit Inputs(int64_t n) : a(at::full({n}, 1.0)), b(at::full({n}, 2.0)) {}
};

// Every line a listener received, with the thread that logged it and a global order.
class ThreadTaggedLines {
 public:
  std::function<void(const std::string&)> listener() {
    return [this](const std::string& line) {
      std::lock_guard<std::mutex> lock(mu_);
      lines_.push_back({std::this_thread::get_id(), next_seq_++, line});
    };
  }
  struct Line {
    std::thread::id thread;
    int64_t seq;
    std::string text;
  };
  std::vector<Line> lines() const {
    std::lock_guard<std::mutex> lock(mu_);
    return lines_;
  }

  // Shared by several captures, so lines from two listeners can be put back in order.
  static std::atomic<int64_t> next_seq_;

 private:
  mutable std::mutex mu_;
  std::vector<Line> lines_;
};
std::atomic<int64_t> ThreadTaggedLines::next_seq_{0};

// The lines of one traced work(), on this thread with nothing else running.
std::vector<std::string> reference_lines(int64_t n) {
  Inputs in(n);
  ThreadTaggedLines captured;
  c10::DispatchTrace::set_listener(captured.listener());
  {
    c10::DispatchTraceGuard guard;
    EXPECT_TRUE(work(in.a, in.b));
  }
  c10::DispatchTrace::set_listener(nullptr);
  std::vector<std::string> texts;
  for (const auto& line : captured.lines()) texts.push_back(line.text);
  return texts;
}

// `times` copies of `once`, what `times` traced work() calls log.
std::vector<std::string> repeated(const std::vector<std::string>& once, int64_t times) {
  std::vector<std::string> all;
  for (int64_t i = 0; i < times; ++i) all.insert(all.end(), once.begin(), once.end());
  return all;
}

// Merges the captures, keeps thread `who`'s lines in the order they were logged.
std::vector<std::string> lines_of(std::thread::id who,
                                  const std::vector<const ThreadTaggedLines*>& captures) {
  std::vector<ThreadTaggedLines::Line> mine;
  for (const ThreadTaggedLines* c : captures) {
    for (auto& line : c->lines()) {
      if (line.thread == who) mine.push_back(line);
    }
  }
  std::sort(mine.begin(), mine.end(), [](const auto& x, const auto& y) { return x.seq < y.seq; });
  std::vector<std::string> texts;
  for (const auto& line : mine) texts.push_back(line.text);
  return texts;
}

class DispatchTraceThreads : public ::testing::Test {
 protected:
  void SetUp() override {
    if (c10::impl::g_dispatch_trace_env) GTEST_SKIP() << "MINIATEN_TRACE traces every thread";
  }
  void TearDown() override { c10::DispatchTrace::set_listener(nullptr); }
};

// One thread traces, one turns its guard on and off between calls, two never trace: the
// listener gets exactly the guarded calls' lines, each call's lines whole and in order.
TEST_F(DispatchTraceThreads, OnlyGuardedThreadsAreTraced) {
  const std::vector<std::string> ref7 = reference_lines(7), ref9 = reference_lines(9);
  ASSERT_GE(ref7.size(), 4u);
  ASSERT_EQ(ref7[0].rfind("aten::add.Tensor(Float[7], Float[7], 1)  ", 0), 0u) << ref7[0];
  ThreadTaggedLines captured;
  c10::DispatchTrace::set_listener(captured.listener());
  stress::Deadline deadline(std::chrono::milliseconds(400));
  std::vector<std::thread::id> ids(4);
  std::atomic<int64_t> traced_calls{0}, toggled_traced{0}, untraced_calls{0}, wrong{0};
  std::atomic<bool> tracer_done{false};
  stress::run_threads(4, [&](int t) {
    ids[static_cast<size_t>(t)] = std::this_thread::get_id();
    if (t == 0) {
      Inputs in(7);
      c10::DispatchTraceGuard guard;
      for (int round = 0; round < 100 && (round < 5 || !deadline.passed()); ++round) {
        if (!work(in.a, in.b)) wrong++;
        traced_calls++;
      }
      tracer_done = true;
    } else if (t == 1) {
      Inputs traced(9), untraced(11);
      for (int round = 0; round < 10 || !tracer_done.load(); ++round) {
        if (round % 2 == 0) {
          c10::DispatchTraceGuard guard;
          if (!work(traced.a, traced.b)) wrong++;
          toggled_traced++;
        } else if (!work(untraced.a, untraced.b)) {
          wrong++;
        }
      }
    } else {
      // Never traced, though the process-wide trace request count is nonzero while they run.
      Inputs in(5);
      for (int round = 0; round < 10 || !tracer_done.load(); ++round) {
        if (!work(in.a, in.b)) wrong++;
        if (!at::contiguous(in.a.view({1, 5}).t()).is_contiguous()) wrong++;
        untraced_calls++;
      }
    }
  });
  c10::DispatchTrace::set_listener(nullptr);
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(lines_of(ids[0], {&captured}), repeated(ref7, traced_calls.load()));
  EXPECT_EQ(lines_of(ids[1], {&captured}), repeated(ref9, toggled_traced.load()));
  for (size_t t : {2u, 3u}) EXPECT_TRUE(lines_of(ids[t], {&captured}).empty());
  size_t total = captured.lines().size();
  EXPECT_EQ(total, ref7.size() * traced_calls.load() + ref9.size() * toggled_traced.load())
      << "lines from no known thread";
  EXPECT_GT(untraced_calls.load(), 0);
  EXPECT_FALSE(c10::DispatchTrace::enabled());
}

// Two threads trace while a third swaps the listener back and forth: every line reaches exactly
// one of the two listeners, and together they hold each thread's lines in order.
TEST_F(DispatchTraceThreads, ListenerReplacedWhileOthersTrace) {
  const std::vector<std::string> ref6 = reference_lines(6), ref8 = reference_lines(8);
  ThreadTaggedLines first, second;
  c10::DispatchTrace::set_listener(first.listener());
  stress::Deadline deadline(std::chrono::milliseconds(400));
  std::vector<std::thread::id> ids(2);
  std::atomic<int64_t> calls[2] = {{0}, {0}};
  std::atomic<int> tracers_left{2}, swaps{0}, wrong{0};
  stress::run_threads(3, [&](int t) {
    if (t == 2) {
      // At least one swap even when the scheduler runs this thread only after the tracers end.
      int i = 0;
      do {
        c10::DispatchTrace::set_listener(i++ % 2 == 0 ? second.listener() : first.listener());
        swaps++;
        std::this_thread::sleep_for(std::chrono::microseconds(50));
      } while (tracers_left.load() > 0);
      return;
    }
    ids[static_cast<size_t>(t)] = std::this_thread::get_id();
    Inputs in(t == 0 ? 6 : 8);
    c10::DispatchTraceGuard guard;
    // A loaded 2-core machine may not schedule the swapper during a tracer's first hundred
    // rounds (13 ms), so the tracers go on until it has swapped a few times, or time is up.
    auto go_on = [&](int round) {
      if (round < 5) return true;
      if (deadline.passed()) return false;
      return round < 100 || swaps.load() < 4;
    };
    for (int round = 0; go_on(round); ++round) {
      if (!work(in.a, in.b)) wrong++;
      calls[t]++;
    }
    tracers_left--;
  });
  c10::DispatchTrace::set_listener(nullptr);
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_GT(swaps.load(), 0);
  EXPECT_EQ(lines_of(ids[0], {&first, &second}), repeated(ref6, calls[0].load()));
  EXPECT_EQ(lines_of(ids[1], {&first, &second}), repeated(ref8, calls[1].load()));
}

// The page's recorder with three threads at work: each thread's calls become roots of its own,
// whole, with the storages they share numbered once; a fourth thread takes the record while
// they run, and nothing is lost or kept twice between the takes.
TEST_F(DispatchTraceThreads, PageRecordsEveryThreadWhole) {
  const size_t calls_per_work = [] {
    Inputs in(6);
    c10::TraceRecorder::start();
    EXPECT_TRUE(work(in.a, in.b));
    return c10::TraceRecorder::stop().roots.size();
  }();
  ASSERT_GT(calls_per_work, 0u);
  constexpr int kWorkers = 3, kRounds = 20;
  std::vector<c10::TraceRecord> taken;
  std::atomic<int> workers_left{kWorkers}, wrong{0};
  std::vector<Inputs> inputs;  // made before the recording: only work() is recorded
  for (int t = 0; t < kWorkers; ++t) inputs.emplace_back(6);
  c10::TraceRecorder::start();
  stress::run_threads(kWorkers + 1, [&](int t) {
    if (t == kWorkers) {
      do {
        taken.push_back(c10::TraceRecorder::take());
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      } while (workers_left.load() > 0);
      return;
    }
    const Inputs& in = inputs[static_cast<size_t>(t)];
    for (int round = 0; round < kRounds; ++round) {
      if (!work(in.a, in.b)) wrong++;
    }
    workers_left--;
  });
  taken.push_back(c10::TraceRecorder::stop());
  EXPECT_EQ(wrong.load(), 0);
  std::map<int, size_t> roots_per_thread;
  size_t roots = 0;
  for (const c10::TraceRecord& record : taken) {
    EXPECT_EQ(record.dropped, 0u);
    for (const c10::TraceNode& root : record.roots) {
      roots_per_thread[root.thread]++;
      roots++;
      EXPECT_TRUE(root.op == "aten::add.Tensor" || root.op == "aten::mul.Tensor" ||
                  root.op == "aten::sum")
          << root.op;
      EXPECT_FALSE(root.children.empty()) << root.line;
      EXPECT_FALSE(root.raised);
    }
  }
  EXPECT_EQ(roots, kWorkers * kRounds * calls_per_work);
  EXPECT_EQ(roots_per_thread.size(), static_cast<size_t>(kWorkers));
  for (const auto& [thread, count] : roots_per_thread) {
    EXPECT_EQ(count, kRounds * calls_per_work) << "thread " << thread;
  }
  EXPECT_FALSE(c10::DispatchTrace::enabled());
}

}  // namespace
