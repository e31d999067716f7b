// parallel_reduce's strategies, observed from inside the loop: which thread touches which output
// element, and where the loop is asked to write. See Note [How reductions iterate and
// parallelise] in aten/native/TensorIteratorReduce.h.

#include <gtest/gtest.h>

#include <map>
#include <mutex>
#include <set>

#include "aten/ATen.h"
#include "aten/Parallel.h"
#include "aten/native/TensorIteratorReduce.h"

namespace {

using at::Tensor;

// Sums int64 input into int64 output and records, for every output address a loop block may
// write, the threads that wrote it.
struct RecordingSum {
  std::mutex mutex;
  std::map<const char*, std::set<int>> writers;

  void operator()(char** data, const int64_t* strides, int64_t size0, int64_t size1) {
    std::lock_guard<std::mutex> lock(mutex);
    for (int64_t j = 0; j < size1; ++j) {
      for (int64_t i = 0; i < size0; ++i) {
        char* out = data[0] + i * strides[0] + j * strides[2];
        const char* in = data[1] + i * strides[1] + j * strides[3];
        *reinterpret_cast<int64_t*>(out) += *reinterpret_cast<const int64_t*>(in);
        writers[out].insert(at::get_thread_num());
      }
    }
  }
};

class ParallelReduce : public ::testing::Test {
 protected:
  void SetUp() override { saved_ = at::get_num_threads(); }
  void TearDown() override { at::set_num_threads(saved_); }
  int saved_ = 1;
};

// [rows, cols] of 0, 1, 2, ... reduced over dim 0 into cols outputs (all of them when cols==1).
std::pair<Tensor, Tensor> reduce_rows(int64_t rows, int64_t cols, RecordingSum& recorder) {
  const Tensor input = at::arange(rows * cols).reshape({rows, cols});
  Tensor out = at::zeros({cols}, at::kLong);
  Tensor viewed = out.as_strided({1, cols}, {0, 1});
  auto iter = at::TensorIterator::reduce_op(viewed, input);
  at::native::parallel_reduce(iter, [&](char** data, const int64_t* strides, int64_t size0,
                                        int64_t size1) { recorder(data, strides, size0, size1); });
  return {input, out};
}

TEST_F(ParallelReduce, SmallInputsRunSerially) {
  at::set_num_threads(2);
  RecordingSum recorder;
  const auto result = reduce_rows(100, 64, recorder);
  EXPECT_EQ(result.second.sum().item().to<int64_t>(), 6400 * 6399 / 2);
  for (const auto& entry : recorder.writers) EXPECT_EQ(entry.second, std::set<int>({0}));
}

TEST_F(ParallelReduce, OneOutputElementUsesPerThreadSlots) {
  at::set_num_threads(2);
  RecordingSum recorder;
  const auto result = reduce_rows(100000, 1, recorder);
  EXPECT_EQ(result.second.item().to<int64_t>(), int64_t(100000) * 99999 / 2);
  // The output itself is written once, by the final pass on the calling thread; each worker
  // wrote only its own slot.
  const char* out = static_cast<const char*>(result.second.data_ptr());
  ASSERT_EQ(recorder.writers.count(out), 1u);
  EXPECT_EQ(recorder.writers[out], std::set<int>({0}));
  std::set<int> workers;
  for (const auto& entry : recorder.writers) {
    if (entry.first == out) continue;
    EXPECT_EQ(entry.second.size(), 1u) << "a slot written by two threads";
    workers.insert(*entry.second.begin());
  }
  EXPECT_EQ(workers, std::set<int>({0, 1}));
}

TEST_F(ParallelReduce, ManyOutputsAreSplitAlongAKeptDim) {
  at::set_num_threads(2);
  RecordingSum recorder;
  const auto result = reduce_rows(2000, 64, recorder);
  std::set<int> threads;
  for (const auto& entry : recorder.writers) {
    EXPECT_EQ(entry.second.size(), 1u) << "an output element written by two threads";
    threads.insert(entry.second.begin(), entry.second.end());
  }
  EXPECT_EQ(recorder.writers.size(), 64u);  // only the outputs: no slots
  EXPECT_EQ(threads, std::set<int>({0, 1}));
  const Tensor expected = result.first.sum(at::IntArrayRef{0});
  for (int64_t c = 0; c < 64; ++c) {
    EXPECT_EQ(result.second.select(0, c).item().to<int64_t>(),
              expected.select(0, c).item().to<int64_t>());
  }
}

// Note [A reduction's contiguous kept dim moves inward]: a [4, 5, 6, 7] float summed over
// dims 0 and 2 walks (dim 2, dim 3, dim 1, dim 0): the reduced dim with the smaller stride, the
// contiguous kept dim, then the rest by input stride.
TEST(ReduceIterator, TheContiguousKeptDimMovesInward) {
  const Tensor input = at::ones({4, 5, 6, 7});
  Tensor out = at::zeros({5, 7});
  Tensor viewed = out.as_strided({1, 5, 1, 7}, {0, 7, 0, 1});
  auto iter = at::TensorIterator::reduce_op(viewed, input);
  EXPECT_EQ(iter.shape().vec(), std::vector<int64_t>({6, 7, 5, 4}));
  EXPECT_EQ(iter.strides(1).vec(), std::vector<int64_t>({28, 4, 168, 840}));
  EXPECT_EQ(iter.strides(0).vec(), std::vector<int64_t>({0, 4, 28, 0}));
  EXPECT_TRUE(iter.is_dim_reduced(0));
  EXPECT_FALSE(iter.is_dim_reduced(1));
  // One reduced dim, or reduced dims that coalesce: the order is libtorch's, reduced first.
  Tensor out2 = at::zeros({5, 7});
  Tensor viewed2 = out2.as_strided({1, 5, 7}, {0, 7, 1});
  auto inner = at::TensorIterator::reduce_op(viewed2, at::ones({4, 5, 7}));
  EXPECT_EQ(inner.shape().vec(), std::vector<int64_t>({4, 35}));
}

}  // namespace
