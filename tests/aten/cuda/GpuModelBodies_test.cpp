// The GPU argmax, index_select, random numbers, cumsum's plan and nll_loss without a GPU: each
// kernel's per-thread (per-lane) body, the same host-device functions the CUDA kernels run
// (ExtremumRowsBody.h, RowGatherBody.h, PhiloxBody.h, NllLossBody.h), executed here for every
// thread of the launch, with the block's or warp's combining done as the kernel does it, and
// compared with the CPU kernels (GPU.md, "Make the GPU logic testable without a GPU"). What only
// a GPU checks: the shuffles and shared memory themselves, the launches and the speed
// (tests/aten/cuda/CUDAModelOps_test.cpp, CUDAReduceOps_test.cpp). The softmax's bodies are
// GpuSoftmaxBodies_test.cpp's.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "TestUtils.h"
#include "aten/ATen.h"
#include "aten/core/PhiloxRNGEngine.h"
#include "aten/native/cuda/ExtremumRowsBody.h"
#include "aten/native/cuda/NllLossBody.h"
#include "aten/native/cuda/PhiloxBody.h"
#include "aten/native/cuda/RowGatherBody.h"
#include "aten/native/cuda/WarpRows.h"

namespace {

namespace gpu = at::native::gpu;

// ---- argmax / argmin ------------------------------------------------------------------------

// The butterfly of shuffles over a warp's 32 candidates, lane by lane: every lane's answer.
template <typename A, bool kMax>
gpu::ExtremumCandidate<A> butterfly(std::vector<gpu::ExtremumCandidate<A>> lanes, int64_t n) {
  for (int offset = 16; offset > 0; offset >>= 1) {
    std::vector<gpu::ExtremumCandidate<A>> next = lanes;
    for (int lane = 0; lane < gpu::kExtremumWarp; ++lane) {
      next[lane] = gpu::extremum_combine<A, kMax>(lanes[lane], lanes[lane ^ offset], n);
    }
    lanes = next;
  }
  for (const auto& c : lanes) EXPECT_EQ(c.index, lanes[0].index) << "lanes disagree";
  return lanes[0];
}

// One warp's answer for elements [begin, end) of a row: every lane's scan, then the butterfly.
template <typename T, bool kMax>
gpu::ExtremumCandidate<gpu::extremum_acc_t<T>> warp_extremum(const T* row, int64_t begin,
                                                             int64_t end, int64_t n) {
  using A = gpu::extremum_acc_t<T>;
  std::vector<gpu::ExtremumCandidate<A>> lanes;
  for (int lane = 0; lane < gpu::kExtremumWarp; ++lane) {
    lanes.push_back(gpu::extremum_lane_scan<T, kMax>(row, begin, end, n, lane));
  }
  return butterfly<A, kMax>(lanes, n);
}

template <typename T, bool kMax>
int64_t warp_extremum(const T* row, int64_t n) {
  return warp_extremum<T, kMax>(row, 0, n, n).index;
}

// The two kernels of a split row (Note [Few long rows: chunks, then their candidates]): a warp
// per chunk, then a block whose threads walk the candidates, whose warps butterfly, and whose
// warp 0 butterflies the warps' answers.
template <typename T, bool kMax>
int64_t chunked_extremum(const T* row, int64_t n, int64_t chunk_len) {
  using A = gpu::extremum_acc_t<T>;
  const int64_t chunks = (n + chunk_len - 1) / chunk_len;
  std::vector<int64_t> indices;
  std::vector<A> values;
  for (int64_t c = 0; c < chunks; ++c) {
    const auto best =
        warp_extremum<T, kMax>(row, c * chunk_len, std::min(n, (c + 1) * chunk_len), n);
    indices.push_back(best.index);
    values.push_back(best.value);
  }
  const int threads = gpu::extremum_candidate_threads(chunks);
  std::vector<gpu::ExtremumCandidate<A>> warps;
  for (int w = 0; w < threads / gpu::kExtremumWarp; ++w) {
    std::vector<gpu::ExtremumCandidate<A>> lanes;
    for (int lane = 0; lane < gpu::kExtremumWarp; ++lane) {
      lanes.push_back(gpu::extremum_candidates_scan<A, kMax>(
          indices.data(), values.data(), chunks, n, w * gpu::kExtremumWarp + lane, threads));
    }
    warps.push_back(butterfly<A, kMax>(lanes, n));
  }
  // Warp 0 takes one warp's answer a lane; lanes without a warp hold no element.
  warps.resize(gpu::kExtremumWarp, gpu::ExtremumCandidate<A>{n, A(0)});
  return butterfly<A, kMax>(warps, n).index;
}

template <typename T>
void check_extremum_bodies(at::ScalarType dtype) {
  for (int64_t n : {1, 2, 31, 32, 33, 63, 64, 65, 100, 1000}) {
    for (int trial = 0; trial < 4; ++trial) {
      at::Tensor x = at::randint(-3, 4, {8, n}, at::TensorOptions().dtype(at::kDouble));
      if (c10::isFloatingType(dtype)) {
        // NaNs in some rows (one, two, or at the end), an infinity in another.
        if (n > 2) x[1][n / 2].fill_(NAN);
        if (n > 3) {
          x[2][n - 1].fill_(NAN);
          x[2][1].fill_(NAN);
        }
        x[3][0].fill_(trial % 2 ? INFINITY : -INFINITY);
      }
      x = dtype == at::kBool ? x.gt(0) : x.to(dtype);
      const at::Tensor xc = x.contiguous();
      SCOPED_TRACE(std::string(c10::toString(dtype)) + " n " + std::to_string(n));
      const at::Tensor max_index = std::get<1>(at::max(xc, 1));
      const at::Tensor min_index = std::get<1>(at::min(xc, 1));
      for (int64_t r = 0; r < 8; ++r) {
        const T* row = xc.data_ptr<T>() + r * n;
        EXPECT_EQ((warp_extremum<T, true>(row, n)), max_index[r].item<int64_t>()) << "row " << r;
        EXPECT_EQ((warp_extremum<T, false>(row, n)), min_index[r].item<int64_t>()) << "row " << r;
        // The same row split into chunks of 32 and of 64 elements: a warp per chunk, then the
        // candidates' block.
        for (int64_t chunk_len : {32, 64}) {
          if (chunk_len >= n) continue;
          EXPECT_EQ((chunked_extremum<T, true>(row, n, chunk_len)), max_index[r].item<int64_t>())
              << "row " << r << " chunks of " << chunk_len;
          EXPECT_EQ((chunked_extremum<T, false>(row, n, chunk_len)), min_index[r].item<int64_t>())
              << "row " << r << " chunks of " << chunk_len;
        }
      }
    }
  }
}

TEST(GpuExtremumBodies, TheWarpsAnswerIsTheCpusFirstExtremum) {
  at::manual_seed(1);
  check_extremum_bodies<float>(at::kFloat);
  check_extremum_bodies<double>(at::kDouble);
  check_extremum_bodies<c10::Half>(at::kHalf);
  check_extremum_bodies<int8_t>(at::kChar);
  check_extremum_bodies<uint8_t>(at::kByte);
  check_extremum_bodies<int64_t>(at::kLong);
  check_extremum_bodies<bool>(at::kBool);
}

TEST(GpuExtremumBodies, ALongRowsChunksAreMoreThanTheCandidatesThreads) {
  // 70000 elements in chunks of 32: 2188 candidates, so each thread walks two or three. The
  // first maximum sits in a late chunk with ties after it, the first minimum in the first chunk
  // with a tie later; then NaNs, the first of which wins both.
  at::manual_seed(3);
  at::Tensor x = at::randn({70000});
  x[65000].fill_(100.f);
  x[65001].fill_(100.f);
  x[69999].fill_(100.f);
  x[5].fill_(-100.f);
  x[40000].fill_(-100.f);
  const float* row = x.data_ptr<float>();
  EXPECT_EQ((chunked_extremum<float, true>(row, 70000, 32)), 65000);
  EXPECT_EQ((chunked_extremum<float, false>(row, 70000, 32)), 5);
  x[50000].fill_(NAN);
  x[60000].fill_(NAN);
  EXPECT_EQ((chunked_extremum<float, true>(row, 70000, 32)), 50000);
  EXPECT_EQ((chunked_extremum<float, false>(row, 70000, 32)), 50000);
}

TEST(GpuExtremumBodies, EveryChunkCanHoldTheAnswer) {
  // A lone maximum (and minimum) in each chunk in turn, at every lane offset: 40 chunks, then
  // 2100 (so candidates' threads walk more than one, and the answer sits past thread 1023).
  for (int64_t chunks : {40, 2100}) {
    const int64_t n = chunks * 32;
    std::vector<float> row(static_cast<size_t>(n), 0.f);
    for (int64_t c = 0; c < chunks; c += (chunks > 100 ? 7 : 1)) {
      const int64_t at = c * 32 + (c % 32);
      row[static_cast<size_t>(at)] = 1.f;
      EXPECT_EQ((chunked_extremum<float, true>(row.data(), n, 32)), at) << "chunk " << c;
      row[static_cast<size_t>(at)] = -1.f;
      EXPECT_EQ((chunked_extremum<float, false>(row.data(), n, 32)), at) << "chunk " << c;
      row[static_cast<size_t>(at)] = 0.f;
    }
  }
}

TEST(GpuExtremumBodies, FewLongRowsAreSplitManyRowsAreNot) {
  // One row of 64M: chunks sized to about kExtremumTargetWarps warps.
  gpu::ExtremumSplit s = gpu::extremum_split(1, int64_t(1) << 26);
  EXPECT_EQ(s.chunks, gpu::kExtremumTargetWarps);
  EXPECT_EQ(s.chunk_len, 4096);
  // Short rows, or enough of them to fill the GPU: a warp per row.
  s = gpu::extremum_split(1, 1000);
  EXPECT_EQ(s.chunks, 1);
  EXPECT_EQ(s.chunk_len, 1000);
  s = gpu::extremum_split(gpu::kExtremumTargetWarps / 4, 1 << 20);
  EXPECT_EQ(s.chunks, 1);
  s = gpu::extremum_split(gpu::kExtremumTargetWarps / 4 - 1, 1 << 20);
  EXPECT_EQ(s.chunks, 5);  // ceil(16384 / 4095) warps a row
  // In between: at least kExtremumMinChunk a chunk, lengths a multiple of 32 covering the row.
  for (int64_t rows : {1, 3, 100, 4000}) {
    for (int64_t n : {2049, 10000, 1234567}) {
      s = gpu::extremum_split(rows, n);
      EXPECT_EQ(s.chunk_len % 32 == 0 || s.chunks == 1, true) << rows << " x " << n;
      EXPECT_GE(s.chunks * s.chunk_len, n);
      EXPECT_LT((s.chunks - 1) * s.chunk_len, n);
      EXPECT_LE(rows * s.chunks, 2 * gpu::kExtremumTargetWarps);
      // The candidates' block: a warp per 32 candidates, at most kCandidateThreads.
      const int threads = gpu::extremum_candidate_threads(s.chunks);
      EXPECT_EQ(threads % 32, 0);
      EXPECT_LE(threads, gpu::kCandidateThreads);
      EXPECT_TRUE(threads == gpu::kCandidateThreads || threads >= s.chunks);
      if (s.chunks > 1) {
        EXPECT_GE(s.chunk_len, gpu::kExtremumMinChunk / 2) << rows << " x " << n;
      }
    }
  }
}

// Note [How the GPU cumsum walks a line]: a warp per row only when the rows fill the GPU, however
// many elements; the keyed scan counts them in 32 bits up to INT32_MAX (IntDivider<uint32_t>'s
// range) and in 64 bits beyond.
TEST(GpuScanPlan, AWarpPerRowOnlyForManyRows) {
  EXPECT_TRUE(gpu::scan_uses_warp_rows(gpu::kFillRows));
  EXPECT_FALSE(gpu::scan_uses_warp_rows(gpu::kFillRows - 1));
  EXPECT_FALSE(gpu::scan_uses_warp_rows(1));
  EXPECT_TRUE(gpu::scan_counts_in_32_bits(INT32_MAX));
  EXPECT_FALSE(gpu::scan_counts_in_32_bits(int64_t(INT32_MAX) + 1));
  EXPECT_FALSE(gpu::scan_counts_in_32_bits(int64_t(3) << 31));
}

TEST(GpuExtremumBodies, TheCombiningRuleIsAssociativeAndCommutative) {
  // Every triple of candidates from a small set with ties, NaNs and an empty lane (index n).
  using C = gpu::ExtremumCandidate<float>;
  const int64_t n = 10;
  const std::vector<C> set = {{0, 1.f}, {3, 1.f},  {4, 2.f}, {5, NAN},
                              {7, NAN}, {9, -1.f}, {n, 0.f}};
  const auto same = [](const C& a, const C& b) { return a.index == b.index; };
  for (const C& a : set) {
    for (const C& b : set) {
      EXPECT_TRUE(same(gpu::extremum_combine<float, true>(a, b, n),
                       gpu::extremum_combine<float, true>(b, a, n)));
      for (const C& c : set) {
        const C left =
            gpu::extremum_combine<float, true>(gpu::extremum_combine<float, true>(a, b, n), c, n);
        const C right =
            gpu::extremum_combine<float, true>(a, gpu::extremum_combine<float, true>(b, c, n), n);
        EXPECT_TRUE(same(left, right)) << a.index << " " << b.index << " " << c.index;
      }
    }
  }
}

// ---- index_select ---------------------------------------------------------------------------

TEST(GpuRowGatherBodies, EveryChunkComesFromTheCpusSourceRow) {
  const at::Tensor index = at::tensor({3, 0, 3, 1}, at::kLong);
  for (at::ScalarType dtype : {at::kFloat, at::kDouble, at::kHalf, at::kByte}) {
    for (int64_t inner : {1, 3, 4, 8}) {
      const at::Tensor x = at::randn({2, 5, inner}).mul(10).to(dtype);
      const at::Tensor expected = at::index_select(x, 1, index);
      at::Tensor out = at::empty_like(expected);
      at::native::RowGather rows;
      rows.out = static_cast<char*>(out.data_ptr());
      rows.in = static_cast<const char*>(x.data_ptr());
      rows.index = index.data_ptr<int64_t>();
      rows.n = 4;
      rows.outer = 2;
      rows.size = 5;
      rows.run = inner * x.element_size();
      rows.grain = 1;
      const int width = gpu::row_gather_width(rows);
      EXPECT_EQ(rows.run % width, 0);
      const int64_t chunks = rows.outer * rows.n * (rows.run / width);
      for (int64_t c = 0; c < chunks; ++c) {
        std::memcpy(rows.out + c * width, rows.in + gpu::row_gather_source_offset(rows, width, c),
                    static_cast<size_t>(width));
      }
      EXPECT_TRUE(at::equal(out, expected)) << c10::toString(dtype) << " inner " << inner;
    }
  }
  // The width follows the row length and both addresses.
  at::native::RowGather rows{};
  rows.run = 24;
  rows.out = reinterpret_cast<char*>(uintptr_t{64});
  rows.in = reinterpret_cast<const char*>(uintptr_t{128});
  EXPECT_EQ(gpu::row_gather_width(rows), 8);
  rows.in = reinterpret_cast<const char*>(uintptr_t{130});
  EXPECT_EQ(gpu::row_gather_width(rows), 2);
}

// ---- random numbers ---------------------------------------------------------------------------

TEST(GpuPhiloxBody, KnownAnswersAndTheCpuEngine) {
  // Random123's known-answer vectors for philox4x32-10.
  const gpu::PhiloxBlock zero = gpu::philox4x32_10(0, 0, 0, 0, 0, 0);
  EXPECT_EQ(zero.x[0], 0x6627e8d5u);
  EXPECT_EQ(zero.x[1], 0xe169c58du);
  EXPECT_EQ(zero.x[2], 0xbc57ac4cu);
  EXPECT_EQ(zero.x[3], 0x9b00dbd8u);
  const gpu::PhiloxBlock ones = gpu::philox4x32_10(~0u, ~0u, ~0u, ~0u, ~0u, ~0u);
  EXPECT_EQ(ones.x[0], 0x408f276du);
  EXPECT_EQ(ones.x[1], 0x41c83b0eu);
  EXPECT_EQ(ones.x[2], 0xa20bc7c6u);
  EXPECT_EQ(ones.x[3], 0x6d5451fdu);
  // Element i of the call with offset k is at::philox_engine(seed, subsequence k, offset i)'s
  // block: the same function as the CPU engine, counted differently.
  for (uint64_t seed : {uint64_t{0}, uint64_t{67280421310721}, ~uint64_t{0}}) {
    for (uint64_t offset : {uint64_t{0}, uint64_t{5}, uint64_t{1} << 40}) {
      for (uint64_t i : {uint64_t{0}, uint64_t{1}, uint64_t{1000003}, (uint64_t{1} << 33) + 7}) {
        at::Philox4_32 engine(seed, offset, i);
        const gpu::PhiloxBlock b = gpu::element_block(seed, offset, i);
        for (int w = 0; w < 4; ++w)
          EXPECT_EQ(b.x[w], engine()) << seed << " " << offset << " " << i;
      }
    }
  }
}

TEST(GpuPhiloxBody, ValuesFromTheBitsHaveTheirDistributions) {
  EXPECT_EQ(gpu::uniform_double(0, 0), 0.0);
  EXPECT_LT(gpu::uniform_double(~0u, ~0u), 1.0);
  EXPECT_EQ(gpu::uniform_double_open_zero(0, 0), 1.0);
  EXPECT_GT(gpu::uniform_double_open_zero(~0u, ~0u), 0.0);
  EXPECT_LT(gpu::uniform_float(~0u), 1.0f);
  // With a type's mantissa digits the largest draw is exact in that type, below 1.
  EXPECT_EQ(gpu::uniform_digits(~0u, ~0u, 11), 1.0 - 0x1p-11);
  EXPECT_LT(static_cast<float>(c10::Half(static_cast<float>(gpu::uniform_digits(~0u, ~0u, 11)))),
            1.f);
  EXPECT_LT(static_cast<float>(c10::BFloat16(static_cast<float>(gpu::uniform_digits(~0u, ~0u, 8)))),
            1.f);
  EXPECT_EQ(gpu::uniform_digits(~0u, ~0u, 53), gpu::uniform_double(~0u, ~0u));
  EXPECT_EQ(gpu::random_in_range(gpu::PhiloxBlock{{0, 7, 0, 0}}, 5, -3), -3 + 7 % 5);
  EXPECT_EQ(gpu::random_in_range(gpu::PhiloxBlock{{0x80000000u, 1, 0, 0}}, 0, 0),
            static_cast<int64_t>(0x8000000000000001ull));
  // A million elements' draws: uniform mean and variance, normal mean and variance, and each
  // of 10 bins of the uniform within 1% of a tenth.
  const int n = 1000000;
  double su = 0, suu = 0, sn = 0, snn = 0;
  std::vector<int> bins(10, 0);
  for (int i = 0; i < n; ++i) {
    const gpu::PhiloxBlock b = gpu::element_block(42, 3, static_cast<uint64_t>(i));
    const double u = gpu::uniform_double(b.x[0], b.x[1]);
    const double z = gpu::standard_normal(b);
    su += u;
    suu += u * u;
    sn += z;
    snn += z * z;
    ++bins[static_cast<size_t>(u * 10)];
  }
  EXPECT_NEAR(su / n, 0.5, 2e-3);
  EXPECT_NEAR(suu / n - (su / n) * (su / n), 1.0 / 12, 2e-3);
  EXPECT_NEAR(sn / n, 0.0, 5e-3);
  EXPECT_NEAR(snn / n, 1.0, 5e-3);
  for (int c : bins) EXPECT_NEAR(c, n / 10, n / 1000);
}

// ---- nll_loss -------------------------------------------------------------------------------

gpu::NllRows<float> nll_rows(const at::Tensor& self, const at::Tensor& target,
                             const at::Tensor& weight) {
  return at::native::nll_rows_of<float>(self, target, weight);
}

TEST(GpuNllLossBodies, EveryThreadsShareGivesTheCpuLoss) {
  at::manual_seed(2);
  // A transposed score matrix, an ignored sample, weights with a stride.
  const at::Tensor self = at::log_softmax(at::randn({5, 1200}), 0).t();
  at::Tensor target = at::randint(0, 5, {1200}, at::TensorOptions().dtype(at::kLong));
  target[17].fill_(-100);
  const at::Tensor weight = at::rand({10}).slice(0, 0, 10, 2);
  for (bool weighted : {false, true}) {
    SCOPED_TRACE(weighted ? "weighted" : "unweighted");
    const at::Tensor w = weighted ? weight : at::Tensor();
    const c10::optional<at::Tensor> wopt =
        weighted ? c10::optional<at::Tensor>(weight) : c10::nullopt;
    const gpu::NllRows<float> r = nll_rows(self, target, w);
    // Per sample, as nll_per_sample's threads.
    const at::Tensor none =
        std::get<0>(at::nll_loss_forward(self, target, wopt, at::Reduction::None, -100));
    for (int64_t i = 0; i < r.rows; ++i) {
      EXPECT_EQ(gpu::nll_sample_loss(r, i, -100), none[i].item<float>()) << i;
    }
    // The sum as nll_reduce's 1024 threads form it.
    gpu::NllPartial total;
    for (int t = 0; t < gpu::kNllReduceThreads; ++t) {
      const gpu::NllPartial p = gpu::nll_thread_partial(r, -100, t, gpu::kNllReduceThreads);
      total.loss += p.loss;
      total.weight += p.weight;
    }
    const auto mean = at::nll_loss_forward(self, target, wopt, at::Reduction::Mean, -100);
    EXPECT_NEAR(total.loss / total.weight, std::get<0>(mean).item<double>(), 1e-6);
    EXPECT_NEAR(total.weight, std::get<1>(mean).item<double>(), 1e-4);
    // The gradient, sample by sample, into zeros.
    const at::Tensor expected = at::nll_loss_backward(at::tensor(0.5f), self, target, wopt,
                                                      at::Reduction::Mean, -100, std::get<1>(mean));
    at::Tensor gi = at::zeros(self.sizes());
    const at::Tensor grad = at::tensor(0.5f);
    const float scale = 1.f / std::get<1>(mean).item<float>();
    for (int64_t i = 0; i < r.rows; ++i) {
      gpu::nll_sample_backward(gi.data_ptr<float>(), gi.stride(0), grad.data_ptr<float>(), 0, scale,
                               r, i, -100);
    }
    EXPECT_TRUE(at::allclose(gi, expected, 1e-6, 1e-7));
  }
}

TEST(GpuNllLossBodies, ABadTargetIsTheCpusErrorOnTheHost) {
  const at::Tensor self = at::zeros({2, 3});
  const at::Tensor target = at::tensor({1, 7}, at::kLong);
  const gpu::NllRows<float> r = nll_rows(self, target, at::Tensor());
  EXPECT_EQ(test_util::error_of([&] { (void)gpu::nll_sample_loss(r, 1, -100); }),
            "Target 7 is out of bounds.");
}

}  // namespace
