// at::parallel_for and parallel_reduce called from several user threads at once, nested inside
// each other, while another thread changes the thread count, and underneath TensorIterator
// kernels: every call must keep the rules of Note [How parallel_for splits a range] for itself
// (each index once, equal chunks, chunk c on thread c, nested calls serial on the chunk's
// thread), whatever the other threads do. Under ThreadSanitizer the chunks run on std::threads
// (Note [parallel_for under ThreadSanitizer]); otherwise every user thread gets its own OpenMP
// team.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "aten/ATen.h"
#include "aten/Parallel.h"
#include "tests/ThreadCountTest.h"
#include "tests/concurrency/StressTestUtil.h"

namespace {

using ParallelForThreads = test_util::ThreadCountTest;

struct Chunk {
  int64_t begin, end;
  int thread;
  bool in_region;  // what in_parallel_region() said inside the chunk
};

// One parallel_for over [0, n) that writes out[i] = i * 3 + tag, with a nested parallel_for and
// a nested parallel_reduce in every chunk. Returns what went wrong, or "", and the chunks run.
std::string run_nested(int64_t n, int64_t grain, int64_t tag, std::vector<Chunk>* chunks) {
  std::vector<int64_t> out(static_cast<size_t>(n), -1);
  std::mutex mu;
  std::string wrong;
  auto fail = [&](const std::string& what) {
    std::lock_guard<std::mutex> lock(mu);
    if (wrong.empty()) wrong = what;
  };
  at::parallel_for(0, n, grain, [&](int64_t b, int64_t e) {
    const int me = at::get_thread_num();
    const std::thread::id my_thread = std::this_thread::get_id();
    const bool in_region = at::in_parallel_region();
    {
      std::lock_guard<std::mutex> lock(mu);
      chunks->push_back({b, e, me, in_region});
    }
    // Inside a chunk of a split call a nested call runs whole, on the chunk's thread (Note [How
    // parallel_for splits a range]); the grain of 1 would split it anywhere else. A call that
    // ran serially (one thread at the time) opened no region: its nested calls are top-level
    // calls and may split.
    std::atomic<int> inner_calls{0};
    at::parallel_for(b, e, 1, [&](int64_t ib, int64_t ie) {
      inner_calls++;
      if (in_region && (ib != b || ie != e)) fail("nested parallel_for split the chunk");
      if (in_region && (at::get_thread_num() != me || std::this_thread::get_id() != my_thread)) {
        fail("nested parallel_for left the chunk's thread");
      }
      for (int64_t i = ib; i < ie; ++i) out[static_cast<size_t>(i)] = i * 3 + tag;
    });
    if (in_region && inner_calls.load() != 1) {
      fail("nested parallel_for ran " + std::to_string(inner_calls.load()) + " times");
    }
    const int64_t chunk_sum = at::parallel_reduce(
        b, e, 1, int64_t{0},
        [&](int64_t rb, int64_t re, int64_t acc) {
          for (int64_t i = rb; i < re; ++i) acc += out[static_cast<size_t>(i)];
          return acc;
        },
        std::plus<int64_t>());
    const int64_t expected = 3 * (e * (e - 1) / 2 - b * (b - 1) / 2) + (e - b) * tag;
    if (chunk_sum != expected) fail("nested parallel_reduce");
  });
  if (at::in_parallel_region() || at::get_thread_num() != 0) fail("the caller is left in a region");
  for (int64_t i = 0; i < n; ++i) {
    if (out[static_cast<size_t>(i)] != i * 3 + tag) return "out[" + std::to_string(i) + "]";
  }
  return wrong;
}

// The chunks of one call follow the splitting rule for some thread count in [1, max_threads].
std::string check_chunks(std::vector<Chunk> chunks, int64_t n, int64_t grain, int max_threads) {
  std::sort(chunks.begin(), chunks.end(),
            [](const Chunk& a, const Chunk& b) { return a.begin < b.begin; });
  if (chunks.empty()) return "no chunk";
  const int64_t chunk_size = chunks[0].end - chunks[0].begin;
  const int64_t num_chunks = static_cast<int64_t>(chunks.size());
  if (num_chunks > std::min<int64_t>(max_threads, at::divup(n, grain))) return "too many chunks";
  if (chunk_size != at::divup(n, at::divup(n, chunk_size))) return "unequal chunks";
  for (size_t c = 0; c < chunks.size(); ++c) {
    const int64_t begin = static_cast<int64_t>(c) * chunk_size;
    if (chunks[c].begin != begin || chunks[c].end != std::min(n, begin + chunk_size)) {
      return "chunk " + std::to_string(c) + " is [" + std::to_string(chunks[c].begin) + ", " +
             std::to_string(chunks[c].end) + ")";
    }
    if (num_chunks > 1 && chunks[c].thread != static_cast<int>(c)) return "chunk on wrong thread";
    // A split call's chunks run in a parallel region; a serial call's one chunk does not.
    if (chunks[c].in_region != (num_chunks > 1)) return "in_parallel_region() in a chunk";
  }
  if (chunks.back().end != n) return "the range is not covered";
  return "";
}

TEST_F(ParallelForThreads, NestedLoopsInsideUserThreads) {
  at::set_num_threads(3);
  stress::Deadline deadline(std::chrono::milliseconds(500));
  stress::Outcomes wrong;
  std::atomic<int64_t> calls{0};
  stress::run_threads(3, [&](int t) {
    for (int round = 0; round < 60 && (round < 3 || !deadline.passed()); ++round) {
      const int64_t n = 3000 + 97 * round + t;
      std::vector<Chunk> chunks;
      std::string what = run_nested(n, 1000, t, &chunks);
      if (what.empty()) what = check_chunks(chunks, n, 1000, 3);
      // The thread count did not change: exactly min(3, ceil(n / 1000)) chunks.
      if (what.empty() && chunks.size() != 3) what = "chunk count";
      if (!what.empty()) wrong.add(what);
      calls++;
    }
  });
  EXPECT_EQ(wrong.total(), 0) << wrong.summary();
  EXPECT_GE(calls.load(), 9);
}

TEST_F(ParallelForThreads, ThreadCountChangesWhileLoopsRun) {
  at::set_num_threads(4);
  stress::Deadline deadline(std::chrono::milliseconds(500));
  std::atomic<int> loopers_left{2};
  stress::Outcomes wrong;
  std::atomic<int64_t> reduces{0};
  stress::run_threads(3, [&](int t) {
    if (t == 2) {
      // Applies to every later parallel_for, from any thread (Parallel.h).
      for (int i = 0; loopers_left.load() > 0; ++i) {
        at::set_num_threads(1 + i % 4);
        std::this_thread::sleep_for(std::chrono::microseconds(100));
      }
      return;
    }
    for (int round = 0; round < 60 && (round < 3 || !deadline.passed()); ++round) {
      const int64_t n = 4000 + 13 * round;
      std::vector<Chunk> chunks;
      std::string what = run_nested(n, 500, 7 * t, &chunks);
      if (what.empty()) what = check_chunks(chunks, n, 500, 4);
      // parallel_reduce sizes its per-thread results once per call.
      const int64_t sum = at::parallel_reduce(
          int64_t{0}, n, 100, int64_t{0},
          [](int64_t b, int64_t e, int64_t acc) {
            for (int64_t i = b; i < e; ++i) acc += i;
            return acc;
          },
          std::plus<int64_t>());
      if (what.empty() && sum != n * (n - 1) / 2) what = "parallel_reduce";
      if (!what.empty()) wrong.add(what);
      reduces++;
    }
    loopers_left--;
  });
  EXPECT_EQ(wrong.total(), 0) << wrong.summary();
  EXPECT_GE(reduces.load(), 6);
}

// TensorIterator kernels split big tensors with parallel_for (GRAIN_SIZE elements a chunk).
TEST_F(ParallelForThreads, KernelsOnBigTensorsFromUserThreads) {
  at::set_num_threads(3);
  const int64_t n = 3 * at::internal::GRAIN_SIZE + 5;
  const at::Tensor a = at::arange(n, at::kFloat);
  stress::Deadline deadline(std::chrono::milliseconds(500));
  stress::Outcomes wrong;
  stress::run_threads(3, [&](int t) {
    for (int round = 0; round < 20 && (round < 2 || !deadline.passed()); ++round) {
      const double k = t + round;
      at::Tensor r = at::add(a, at::full({n}, k), 2);  // a + 2k, in parallel chunks
      const float* p = r.data_ptr<float>();
      for (int64_t i = 0; i < n; ++i) {
        if (p[i] != static_cast<float>(i) + 2 * static_cast<float>(k)) {
          wrong.add("add[" + std::to_string(i) + "]");
          break;
        }
      }
      // A reduction (parallel over the input) of values exact in double.
      const double s = at::sum(at::arange(n, at::kDouble)).item<double>();
      if (s != static_cast<double>(n) * (n - 1) / 2) wrong.add("sum");
    }
  });
  EXPECT_EQ(wrong.total(), 0) << wrong.summary();
}

}  // namespace
