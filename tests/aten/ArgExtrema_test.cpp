// argmax, argmin, max.dim and min.dim (cpu/ExtremumRowsKernel.cpp behind extremum_rows_stub):
// the index and value of each row's first extreme, the first NaN winning, as an element-by-element
// scan gives them, on many rows and threads, and through every CPU capability's kernel with
// rows long enough for its chunks and for the pieces threads split one row into.

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "aten/ATen.h"
#include "aten/Parallel.h"
#include "aten/native/DispatchStub.h"
#include "aten/native/ReduceOps.h"
#include "tests/ThreadCountTest.h"

namespace {

using at::Tensor;

// The rule of Note [Argmax finds a chunk's extreme, then its place], element by element: the
// first NaN, else the first greatest (least) value.
int64_t scan_extreme(const Tensor& row, bool is_max) {
  const Tensor d = row.to(at::kDouble).contiguous();
  const double* p = d.data_ptr<double>();
  int64_t best = 0;
  for (int64_t i = 1; i < d.numel() && !std::isnan(p[best]); ++i) {
    if (std::isnan(p[i]) || (is_max ? p[i] > p[best] : p[i] < p[best])) best = i;
  }
  return best;
}

using ArgExtrema = test_util::ThreadCountTest;

// argmax / argmin / max.dim split rows across threads: each row is one thread's, so the
// indices are those of one thread, and of a plain scan (first greatest; first NaN).
TEST_F(ArgExtrema, ManyRowsOnTwoThreads) {
  Tensor x = at::randint(0, 20, {3000, 50}).to(at::kFloat);  // many ties
  x.select(0, 7).select(0, 30).fill_(NAN);
  x.select(0, 7).select(0, 40).fill_(NAN);
  x.select(0, 2999).select(0, 0).fill_(NAN);
  at::set_num_threads(1);
  const Tensor serial_max = x.argmax(1), serial_min = x.argmin(1);
  at::set_num_threads(2);
  const Tensor parallel_max = x.argmax(1), parallel_min = x.argmin(1);
  const auto max_dim = x.max(1);
  EXPECT_TRUE(at::equal(serial_max, parallel_max));
  EXPECT_TRUE(at::equal(serial_min, parallel_min));
  EXPECT_TRUE(at::equal(std::get<1>(max_dim), parallel_max));
  for (int64_t r = 0; r < 3000; ++r) {
    ASSERT_EQ(parallel_max[r].item<int64_t>(), scan_extreme(x[r], true)) << "row " << r;
    ASSERT_EQ(parallel_min[r].item<int64_t>(), scan_extreme(x[r], false)) << "row " << r;
  }
  EXPECT_EQ(parallel_max[7].item<int64_t>(), 30);
  EXPECT_EQ(parallel_min[2999].item<int64_t>(), 0);
  EXPECT_TRUE(std::isnan(std::get<0>(max_dim)[7].item<float>()));
}

// Rows long enough for the chunks (512 elements) and, on one row, for the pieces two threads
// split it into: every CPU capability's kernel gives the scan's index and value, for float and
// double (vector search), the integers (vector folds, scalar search) and Half (scalar rule).
// Ties across chunks and pieces, ascending rows (every chunk beats the best), NaN in the first
// chunk, a later chunk, the tail or the second piece, and -0.0 beside 0.0.
TEST_F(ArgExtrema, InChunksAndPiecesOnEveryCapabilityMatchTheScan) {
  using at::native::CPUCapability;
  const int detected = static_cast<int>(at::native::detail::detect_cpu_capability());
  struct Row {
    std::string what;
    Tensor values;  // double, one row
  };
  std::vector<Row> rows;
  for (const int64_t n : {511, 512, 1000, 4096, 5003, 200000}) {
    rows.push_back({"ties " + std::to_string(n), at::randint(-40, 40, {n}, at::kDouble)});
    rows.push_back({"ascending " + std::to_string(n), at::arange(n, at::kDouble)});
    rows.push_back({"descending " + std::to_string(n), -at::arange(n, at::kDouble)});
    for (const int64_t at_ : {int64_t(3), n / 2 + 1, n - 2}) {
      Tensor v = at::randint(-40, 40, {n}, at::kDouble);
      v[at_] = NAN;
      if (at_ + 1 < n) v[n - 1] = NAN;
      rows.push_back({"NaN at " + std::to_string(at_) + " of " + std::to_string(n), v});
    }
  }
  Tensor zeros = at::zeros({3000}, at::kDouble);
  zeros[1500] = -0.0;
  zeros[0] = -1.0;
  rows.push_back({"signed zeros", zeros});
  for (CPUCapability c : {CPUCapability::DEFAULT, CPUCapability::AVX2, CPUCapability::AVX512}) {
    if (static_cast<int>(c) > detected) continue;
    const auto kernel = at::native::extremum_rows_stub.cpu_kernel_for(c);
    ASSERT_NE(kernel, nullptr);
    for (const int threads : {1, 2}) {
      at::set_num_threads(threads);
      for (const at::ScalarType type :
           {at::kFloat, at::kDouble, at::kInt, at::kLong, at::kChar, at::kHalf}) {
        for (const Row& row : rows) {
          const bool floating = at::isFloatingType(type);
          if (!floating && (row.values.isnan().any().item<bool>() || row.values.numel() > 4096)) {
            continue;  // no NaN in integers; ascending rows would wrap in Char
          }
          const Tensor x = row.values.to(type).view({1, -1});
          for (const bool is_max : {true, false}) {
            SCOPED_TRACE(std::string(cpu_capability_name(c)) + " " + c10::toString(type) + " " +
                         row.what + (is_max ? " max" : " min") + " threads " +
                         std::to_string(threads));
            Tensor values = at::empty({1}, x.options()), indices = at::empty({1}, at::kLong);
            kernel(x, values, indices, is_max);
            const int64_t want = scan_extreme(x, is_max);
            EXPECT_EQ(indices.item<int64_t>(), want);
            EXPECT_TRUE(at::equal(values, x.select(1, want).view({1})) ||
                        (floating && std::isnan(values.item<double>()) &&
                         std::isnan(x[0][want].item<double>())));
            if (type == at::kDouble && row.what == "signed zeros" && is_max) {
              EXPECT_EQ(want, 1);  // the first zero, whatever its sign
            }
          }
        }
      }
      // Many rows at once: each row its own answer.
      const Tensor many = at::randint(-40, 40, {70, 1500}, at::kFloat);
      many[5][1400] = NAN;
      Tensor indices = at::empty({70}, at::kLong);
      kernel(many, Tensor(), indices, true);
      for (int64_t r = 0; r < 70; ++r) {
        ASSERT_EQ(indices[r].item<int64_t>(), scan_extreme(many[r], true)) << "row " << r;
      }
    }
  }
  // Through the operators: argmax() of a whole tensor is one long row.
  const Tensor big = at::randn({300, 700});
  big[200][5] = 100.0f;
  big[250][6] = 100.0f;
  at::set_num_threads(2);
  EXPECT_EQ(big.argmax().item<int64_t>(), 200 * 700 + 5);
  EXPECT_EQ(std::get<1>(big.view({-1}).max(0)).item<int64_t>(), 200 * 700 + 5);
}

}  // namespace
