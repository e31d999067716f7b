// at::parallel_for / parallel_reduce: every index exactly once, the chunking rule of
// Note [How parallel_for splits a range], serial nesting, exception propagation, thread count.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <numeric>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include "aten/Parallel.h"
#include "tests/ThreadCountTest.h"

namespace {

using ParallelTest = test_util::ThreadCountTest;

struct Chunk {
  int64_t begin, end;
  int thread;
};

// Runs parallel_for and returns its chunks sorted by begin, checking each index is visited once.
std::vector<Chunk> run_and_check_coverage(int64_t begin, int64_t end, int64_t grain) {
  std::vector<std::atomic<int>> hits(static_cast<size_t>(end - begin));
  std::mutex mu;
  std::vector<Chunk> chunks;
  at::parallel_for(begin, end, grain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) hits[static_cast<size_t>(i - begin)]++;
    std::lock_guard<std::mutex> lock(mu);
    chunks.push_back({b, e, at::get_thread_num()});
  });
  for (size_t i = 0; i < hits.size(); ++i) {
    EXPECT_EQ(hits[i].load(), 1) << "index " << begin + static_cast<int64_t>(i);
  }
  std::sort(chunks.begin(), chunks.end(),
            [](const Chunk& a, const Chunk& b) { return a.begin < b.begin; });
  return chunks;
}

class ParallelForCoverage : public ParallelTest,
                            public ::testing::WithParamInterface<std::pair<int64_t, int>> {};

TEST_P(ParallelForCoverage, EveryIndexExactlyOnceAndChunksFollowTheRule) {
  const int64_t grain = 1000;
  const int64_t n = GetParam().first;
  const int threads = GetParam().second;
  at::set_num_threads(threads);
  const int64_t begin = 7;  // a range not starting at 0
  auto chunks = run_and_check_coverage(begin, begin + n, grain);

  const int64_t expected_chunks =
      (n <= grain || threads == 1) ? 1 : std::min<int64_t>(threads, at::divup(n, grain));
  ASSERT_EQ(static_cast<int64_t>(chunks.size()), expected_chunks);
  // Contiguous, equal chunks of ceil(n / chunks) (the last one may be shorter).
  const int64_t chunk_size = at::divup(n, expected_chunks);
  for (size_t c = 0; c < chunks.size(); ++c) {
    EXPECT_EQ(chunks[c].begin, begin + static_cast<int64_t>(c) * chunk_size);
    EXPECT_EQ(chunks[c].end, std::min(begin + n, chunks[c].begin + chunk_size));
    if (expected_chunks > 1) {
      EXPECT_EQ(chunks[c].thread, static_cast<int>(c)) << "chunk c runs on thread c";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AroundTheGrain, ParallelForCoverage,
                         ::testing::Values(std::make_pair(int64_t{1}, 4),
                                           std::make_pair(int64_t{999}, 4),
                                           std::make_pair(int64_t{1000}, 4),    // == grain: serial
                                           std::make_pair(int64_t{1001}, 4),    // 2 chunks
                                           std::make_pair(int64_t{2500}, 4),    // 3 chunks
                                           std::make_pair(int64_t{100003}, 4),  // thread-bound
                                           std::make_pair(int64_t{100003}, 3),
                                           std::make_pair(int64_t{100003}, 1)));

TEST_F(ParallelTest, EmptyAndReversedRangesNeverCallF) {
  int calls = 0;
  at::parallel_for(5, 5, 1, [&](int64_t, int64_t) { ++calls; });
  at::parallel_for(9, 3, 1, [&](int64_t, int64_t) { ++calls; });
  EXPECT_EQ(calls, 0);
}

TEST_F(ParallelTest, GrainSizeZeroGivesOneChunkPerThread) {
  at::set_num_threads(4);
  auto chunks = run_and_check_coverage(0, 10, 0);
  EXPECT_EQ(chunks.size(), 4u);  // chunks of 3, 3, 3, 1
  EXPECT_EQ(chunks.back().end - chunks.back().begin, 1);
}

TEST_F(ParallelTest, NestedCallsRunSerially) {
  at::set_num_threads(4);
  EXPECT_FALSE(at::in_parallel_region());
  std::atomic<int> outer_chunks{0};
  std::atomic<int> inner_calls{0};
  std::atomic<int> inner_saw_region{0};
  at::parallel_for(0, 4, 1, [&](int64_t, int64_t) {
    outer_chunks++;
    EXPECT_TRUE(at::in_parallel_region());
    const int me = at::get_thread_num();
    at::parallel_for(0, 1000, 1, [&](int64_t b, int64_t e) {
      // One call for the whole range, on the outer chunk's own thread.
      EXPECT_EQ(b, 0);
      EXPECT_EQ(e, 1000);
      EXPECT_EQ(at::get_thread_num(), me);
      inner_calls++;
      inner_saw_region += at::in_parallel_region();
    });
  });
  EXPECT_EQ(outer_chunks.load(), 4);
  EXPECT_EQ(inner_calls.load(), 4);
  EXPECT_EQ(inner_saw_region.load(), 4);
  EXPECT_FALSE(at::in_parallel_region());
  EXPECT_EQ(at::get_thread_num(), 0);
}

TEST_F(ParallelTest, ExceptionInAWorkerIsRethrownInTheCaller) {
  at::set_num_threads(4);
  std::atomic<int> chunks_run{0};
  try {
    at::parallel_for(0, 4000, 1000, [&](int64_t b, int64_t) {
      chunks_run++;
      if (b == 2000) throw std::runtime_error("chunk 2 failed");
    });
    FAIL() << "expected an exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "chunk 2 failed");
  }
  EXPECT_EQ(chunks_run.load(), 4) << "the other chunks still ran";

  // c10::Error keeps its type; the serial path throws straight through.
  EXPECT_THROW(at::parallel_for(0, 4000, 1000, [](int64_t, int64_t) { TORCH_CHECK(false, "x"); }),
               c10::Error);
  EXPECT_THROW(at::parallel_for(0, 10, 1000, [](int64_t, int64_t) { TORCH_CHECK(false, "x"); }),
               c10::Error);
}

TEST_F(ParallelTest, SetNumThreads) {
  at::set_num_threads(3);
  EXPECT_EQ(at::get_num_threads(), 3);
  // Applies to parallel_for calls made from other threads too.
  int seen_elsewhere = 0;
  std::thread([&] { seen_elsewhere = at::get_num_threads(); }).join();
  EXPECT_EQ(seen_elsewhere, 3);
  auto chunks = run_and_check_coverage(0, 1 << 20, 1);
  EXPECT_EQ(chunks.size(), 3u);

  at::set_num_threads(1);
  EXPECT_EQ(run_and_check_coverage(0, 1 << 20, 1).size(), 1u);
}

TEST_F(ParallelTest, SetNumThreadsRejectsNonPositive) {
  try {
    at::set_num_threads(0);
    FAIL() << "expected c10::Error";
  } catch (const c10::Error& e) {
    EXPECT_NE(std::string(e.what()).find("Expected positive number of threads"), std::string::npos);
  }
  EXPECT_THROW(at::set_num_threads(-2), c10::Error);
  EXPECT_EQ(at::get_num_threads(), saved_) << "a rejected value changes nothing";
}

TEST_F(ParallelTest, DefaultIsAtLeastOneThread) {
  EXPECT_GE(at::get_num_threads(), 1);
}

TEST_F(ParallelTest, ParallelReduceSumsEveryElementOnce) {
  at::set_num_threads(4);
  std::vector<int64_t> data(100000);
  std::iota(data.begin(), data.end(), 1);
  const int64_t expected = 100000LL * 100001LL / 2;
  for (int64_t grain : {int64_t{1}, int64_t{777}, int64_t{100000}, int64_t{1000000}}) {
    const int64_t sum = at::parallel_reduce(
        int64_t{0}, static_cast<int64_t>(data.size()), grain, int64_t{0},
        [&](int64_t b, int64_t e, int64_t acc) {
          for (int64_t i = b; i < e; ++i) acc += data[static_cast<size_t>(i)];
          return acc;
        },
        std::plus<int64_t>());
    EXPECT_EQ(sum, expected) << "grain " << grain;
  }
  EXPECT_EQ(at::parallel_reduce(
                3, 3, 1, int64_t{42}, [](int64_t, int64_t, int64_t a) { return a; },
                std::plus<int64_t>()),
            42)
      << "empty range gives the identity";
}

TEST_F(ParallelTest, ParallelReducePropagatesExceptions) {
  at::set_num_threads(4);
  EXPECT_THROW(at::parallel_reduce(
                   0, 10000, 100, 0,
                   [](int64_t b, int64_t, int acc) {
                     if (b > 0) throw std::logic_error("bad");
                     return acc;
                   },
                   std::plus<int>()),
               std::logic_error);
}

}  // namespace
