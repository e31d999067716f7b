// The reductions beyond sum and mean on CUDA tensors (issue 16): the folds (amax, amin, max(),
// min(), prod, any, all), the index reductions (argmax, argmin, max.dim, min.dim), cumsum, and
// var / std / norm / logsumexp, which are built from other operators and so run on CUDA once
// those do. Each is compared with the same call on the CPU: sizes, strides, dtype, values
// (indices exactly: the first extremum, NaN first), error texts. Skipped without a device.

#include <cmath>
#include <string>
#include <vector>

#include "CUDATestUtils.h"
#include "aten/native/cuda/WarpRows.h"

#define EXPECT_THROW_MSG(expr, msg) \
  EXPECT_EQ(test_util::error_of([&] { (void)(expr); }), std::string(msg))

namespace {

using cuda_test::matches;
using cuda_test::same_layout_on_device;

// Values with ties and, for floating dtypes, a few NaNs and infinities, in `dtype`.
at::Tensor values_with_ties(at::IntArrayRef sizes, at::ScalarType dtype, bool specials) {
  at::Tensor t = at::randint(-4, 5, sizes, at::TensorOptions().dtype(at::kDouble));
  if (specials && c10::isFloatingType(dtype)) {
    const at::Tensor flat = t.view({-1});
    for (int64_t i = 7; i < flat.numel(); i += 29) flat[i].fill_((i % 3 == 0) ? NAN : INFINITY);
  }
  return dtype == at::kBool ? t.gt(0) : t.to(dtype);
}

const std::vector<std::vector<int64_t>> kShapes = {{5}, {3, 33}, {4, 1000}, {2, 3, 70}, {1, 1}};

TEST(CUDAFolds, AmaxAminProdAnyAllMatchTheCpu) {
  SKIP_WITHOUT_CUDA();
  at::manual_seed(7);
  for (const auto& shape : kShapes) {
    for (at::ScalarType dtype : {at::kFloat, at::kDouble, at::kHalf, at::kBFloat16, at::kInt,
                                 at::kLong, at::kByte, at::kChar, at::kBool}) {
      const at::Tensor x = values_with_ties(shape, dtype, /*specials=*/true);
      const at::Tensor g = x.cuda();
      for (int64_t dim = -1; dim < x.dim(); ++dim) {
        for (bool keepdim : {false, true}) {
          SCOPED_TRACE(std::string(c10::toString(dtype)) + " dim " + std::to_string(dim) +
                       (keepdim ? " keepdim" : ""));
          const std::vector<int64_t> dims =
              dim < 0 ? std::vector<int64_t>{} : std::vector<int64_t>{dim};
          EXPECT_TRUE(matches(at::amax(x, dims, keepdim), at::amax(g, dims, keepdim)));
          EXPECT_TRUE(matches(at::amin(x, dims, keepdim), at::amin(g, dims, keepdim)));
          if (dim >= 0) {
            EXPECT_TRUE(matches(at::any(x, dim, keepdim), at::any(g, dim, keepdim)));
            EXPECT_TRUE(matches(at::all(x, dim, keepdim), at::all(g, dim, keepdim)));
            if (dtype != at::kHalf && dtype != at::kBFloat16) {
              // Products of ties and small integers: exact in every dtype but the floats'
              // rounding, which the order of the products changes (Half and BFloat16 round at
              // every step on the CPU, once on the GPU).
              const double tol = c10::isFloatingType(dtype) ? 1e-2 : 0;
              EXPECT_TRUE(matches(at::prod(x, dim, keepdim), at::prod(g, dim, keepdim), tol));
            }
          }
        }
      }
      EXPECT_TRUE(matches(at::max(x), at::max(g)));
      EXPECT_TRUE(matches(at::min(x), at::min(g)));
      EXPECT_TRUE(matches(at::any(x), at::any(g)));
      EXPECT_TRUE(matches(at::all(x), at::all(g)));
    }
  }
  // A strided input, out=, prod's integer promotion and dtype=Bool.
  const at::Tensor t = at::randn({6, 40}).t();
  EXPECT_TRUE(matches(at::amax(t, {0}), at::amax(same_layout_on_device(t), {0})));
  at::Tensor out = at::empty({40}, at::kCUDA);
  at::amax_out(out, same_layout_on_device(t), {0});
  EXPECT_TRUE(matches(at::amax(t, {0}), out));
  const at::Tensor ints = at::randint(1, 4, {3, 9}, at::TensorOptions().dtype(at::kInt));
  EXPECT_TRUE(matches(at::prod(ints, 1), at::prod(ints.cuda(), 1)));
  EXPECT_TRUE(
      matches(at::prod(ints, 1, false, at::kBool), at::prod(ints.cuda(), 1, false, at::kBool)));
}

TEST(CUDAFolds, LargeReductionsSplitAcrossBlocks) {
  SKIP_WITHOUT_CUDA();
  // Few outputs, long reductions: the plan splits each across blocks, then a second pass.
  const at::Tensor x = at::randn({3, 1 << 20});
  EXPECT_TRUE(matches(at::amax(x, {1}), at::amax(x.cuda(), {1})));
  EXPECT_TRUE(matches(at::amin(x), at::amin(x.cuda())));
  at::Tensor with_nan = x.clone();
  with_nan[1][777777].fill_(NAN);
  EXPECT_TRUE(matches(at::amax(with_nan, {1}), at::amax(with_nan.cuda(), {1})));
  EXPECT_TRUE(std::isnan(at::max(with_nan.cuda()).item<float>()));
  EXPECT_TRUE(matches(at::any(x > 4.5), at::any(x.cuda() > 4.5)));
  EXPECT_TRUE(matches(at::all(x > -10), at::all(x.cuda() > -10)));
}

TEST(CUDAFolds, Errors) {
  SKIP_WITHOUT_CUDA();
  const at::Tensor empty = at::empty({0, 3}, at::kCUDA);
  EXPECT_THROW_MSG(at::max(empty),
                   "max(): Expected reduction dim to be specified for input.numel() == 0. "
                   "Specify the reduction dim with the 'dim' argument.");
  EXPECT_THROW_MSG(at::amax(empty, {0}), "amax(): Expected reduction dim 0 to have non-zero size.");
  EXPECT_TRUE(matches(at::amax(at::empty({0, 3}), {1}), at::amax(empty, {1})));
}

TEST(CUDAIndexReductions, FirstExtremumAndNaNAsOnTheCpu) {
  SKIP_WITHOUT_CUDA();
  at::manual_seed(8);
  for (const auto& shape : kShapes) {
    for (at::ScalarType dtype : {at::kFloat, at::kDouble, at::kHalf, at::kBFloat16, at::kInt,
                                 at::kLong, at::kChar, at::kByte, at::kBool}) {
      const at::Tensor x = values_with_ties(shape, dtype, /*specials=*/true);
      const at::Tensor g = x.cuda();
      for (int64_t dim = 0; dim < x.dim(); ++dim) {
        for (bool keepdim : {false, true}) {
          SCOPED_TRACE(std::string(c10::toString(dtype)) + " dim " + std::to_string(dim));
          const auto cpu_max = at::max(x, dim, keepdim);
          const auto gpu_max = at::max(g, dim, keepdim);
          EXPECT_TRUE(matches(std::get<0>(cpu_max), std::get<0>(gpu_max)));
          EXPECT_TRUE(matches(std::get<1>(cpu_max), std::get<1>(gpu_max)));
          const auto cpu_min = at::min(x, dim, keepdim);
          const auto gpu_min = at::min(g, dim, keepdim);
          EXPECT_TRUE(matches(std::get<0>(cpu_min), std::get<0>(gpu_min)));
          EXPECT_TRUE(matches(std::get<1>(cpu_min), std::get<1>(gpu_min)));
          if (dtype != at::kBool) {
            EXPECT_TRUE(matches(at::argmax(x, dim, keepdim), at::argmax(g, dim, keepdim)));
            EXPECT_TRUE(matches(at::argmin(x, dim, keepdim), at::argmin(g, dim, keepdim)));
          }
        }
      }
      if (dtype != at::kBool) {
        EXPECT_TRUE(matches(at::argmax(x), at::argmax(g)));
        EXPECT_TRUE(matches(at::argmin(x, c10::nullopt, true), at::argmin(g, c10::nullopt, true)));
      }
    }
  }
  // A transposed input reduced along its strided dim.
  const at::Tensor t = at::randn({50, 7}).t();
  EXPECT_TRUE(matches(at::argmax(t, 1), at::argmax(same_layout_on_device(t), 1)));
  EXPECT_THROW_MSG(at::argmax(at::ones({2, 2}, at::TensorOptions(at::kCUDA).dtype(at::kBool)), 1),
                   "\"argmax_cuda\" not implemented for 'Bool'");
}

// Rows too long for a warp each (Note [Few long rows: chunks, then their candidates]): the
// first extremum when it lies in a late chunk, ties across chunks, NaNs, and a whole tensor.
TEST(CUDAIndexReductions, FewLongRowsAreSplitIntoChunks) {
  SKIP_WITHOUT_CUDA();
  at::manual_seed(11);
  for (at::ScalarType dtype : {at::kFloat, at::kHalf, at::kDouble, at::kChar, at::kLong}) {
    SCOPED_TRACE(c10::toString(dtype));
    at::Tensor x = at::randint(-50, 50, {3, 300000}, at::TensorOptions().dtype(at::kDouble));
    x[0][250001].fill_(120);  // row 0: the maximum late, a tie of it after
    x[0][299999].fill_(120);
    x[1][7].fill_(-120);  // row 1: the minimum early, ties of it in later chunks
    x[1][150000].fill_(-120);
    x[1][299000].fill_(-120);
    if (c10::isFloatingType(dtype)) {
      x[2][100000].fill_(NAN);  // row 2: the first NaN wins both
      x[2][200000].fill_(NAN);
    }
    x = x.to(dtype);
    const at::Tensor g = x.cuda();
    for (bool keepdim : {false, true}) {
      const auto cpu_max = at::max(x, 1, keepdim);
      const auto gpu_max = at::max(g, 1, keepdim);
      EXPECT_TRUE(matches(std::get<0>(cpu_max), std::get<0>(gpu_max)));
      EXPECT_TRUE(matches(std::get<1>(cpu_max), std::get<1>(gpu_max)));
      const auto cpu_min = at::min(x, 1, keepdim);
      const auto gpu_min = at::min(g, 1, keepdim);
      EXPECT_TRUE(matches(std::get<0>(cpu_min), std::get<0>(gpu_min)));
      EXPECT_TRUE(matches(std::get<1>(cpu_min), std::get<1>(gpu_min)));
    }
    EXPECT_TRUE(matches(at::argmax(x), at::argmax(g)));  // one row of 900000
    EXPECT_TRUE(matches(at::argmin(x), at::argmin(g)));
  }
  // 64M floats as one row, the maximum near the end.
  at::Tensor big = at::zeros({int64_t(1) << 26}, at::kCUDA);
  big[(int64_t(1) << 26) - 3].fill_(1.f);
  EXPECT_EQ(at::argmax(big).item<int64_t>(), (int64_t(1) << 26) - 3);
}

TEST(CUDAScan, CumsumAlongEveryDimAndLayout) {
  SKIP_WITHOUT_CUDA();
  at::manual_seed(9);
  for (at::ScalarType dtype : {at::kFloat, at::kDouble, at::kInt, at::kLong, at::kBFloat16}) {
    const at::Tensor x = at::randn({3, 70, 5}).mul(4).to(dtype);
    for (int64_t dim = 0; dim < 3; ++dim) {
      SCOPED_TRACE(std::string(c10::toString(dtype)) + " dim " + std::to_string(dim));
      const double tol = dtype == at::kBFloat16 ? 1e-2 : (dtype == at::kFloat ? 1e-6 : 0);
      EXPECT_TRUE(matches(at::cumsum(x, dim), at::cumsum(x.cuda(), dim), tol));
      const at::Tensor t = x.transpose(0, 2);
      EXPECT_TRUE(matches(at::cumsum(t, dim), at::cumsum(same_layout_on_device(t), dim), tol));
    }
  }
  // Half (the CPU has no kernel: its float answer, rounded), Bool as Long, dtype=, a long row,
  // and an out= with strides of its own.
  const at::Tensor h = at::randn({4, 100}).to(at::kHalf);
  EXPECT_TRUE(
      matches(at::cumsum(h.to(at::kFloat), 1).to(at::kHalf), at::cumsum(h.cuda(), 1), 2e-3));
  const at::Tensor b = at::randn({5, 9}) > 0;
  EXPECT_TRUE(matches(at::cumsum(b, 1), at::cumsum(b.cuda(), 1)));
  EXPECT_TRUE(matches(at::cumsum(b, 0, at::kFloat), at::cumsum(b.cuda(), 0, at::kFloat)));
  const at::Tensor row = at::randn({100000}, at::TensorOptions().dtype(at::kDouble));
  // A 100000-term running sum: rounding grows with the terms, not with the sum (which passes
  // near 0), so the tolerance is absolute.
  EXPECT_TRUE(matches(at::cumsum(row, 0), at::cumsum(row.cuda(), 0), 1e-10));
  at::Tensor out = at::empty({9, 5}, at::kCUDA).t();
  const at::Tensor x = at::randn({5, 9});
  at::cumsum_out(out, x.cuda(), 1);
  EXPECT_EQ(out.strides(), at::IntArrayRef({1, 5}));
  EXPECT_TRUE(at::allclose(out.cpu(), at::cumsum(x, 1), 1e-5, 1e-6));
}

// The two scans of Note [How the GPU cumsum walks a line]: a warp per row for many rows, the
// keyed scan for few (one row of millions, a few long rows, many short rows below the line).
TEST(CUDAScan, EachScanAndTheLineBetweenThem) {
  SKIP_WITHOUT_CUDA();
  at::manual_seed(10);
  const std::vector<std::vector<int64_t>> shapes = {{at::native::gpu::kFillRows, 5},
                                                    {at::native::gpu::kFillRows - 1, 5},
                                                    {20000, 3},
                                                    {3, 1000003},
                                                    {1, 4000000},
                                                    {7}};
  for (const auto& shape : shapes) {
    SCOPED_TRACE(at::IntArrayRef(shape));
    // Integers: any order of the sums is exact.
    const at::Tensor i = at::randint(-1000, 1000, shape, at::TensorOptions().dtype(at::kLong));
    EXPECT_TRUE(matches(at::cumsum(i, -1), at::cumsum(i.cuda(), -1)));
    const at::Tensor i8 = i.to(at::kChar);  // wraps, as on the CPU
    EXPECT_TRUE(matches(at::cumsum(i8, -1, at::kChar), at::cumsum(i8.cuda(), -1, at::kChar)));
    // Floats accumulate in double on both sides; the orders differ by the last bits at most.
    const at::Tensor f = at::randn(shape);
    EXPECT_TRUE(matches(at::cumsum(f, -1), at::cumsum(f.cuda(), -1), 1e-6));
  }
}

// More than 2^31 - 1 elements in few rows is still one keyed scan, counting in 64 bits (a warp a
// row would scan a 1-D tensor on one warp). Int8 ones wrap as on the CPU, and floats accumulate in
// double, so every element is exact on both sides. About 20 GB of device memory; skipped where
// there is less.
TEST(CUDAScan, MoreThanTwoToTheThirtyOneElementsInFewRows) {
  SKIP_WITHOUT_CUDA();
  size_t free_bytes = 0, total = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_bytes, &total), cudaSuccess);
  if (free_bytes < (size_t{20} << 30)) GTEST_SKIP() << "needs 20 GB of free device memory";
  const int64_t n = (int64_t{1} << 30) + 7;  // two rows: 2^31 + 14 elements
  ASSERT_FALSE(at::native::gpu::scan_counts_in_32_bits(2 * n));
  const at::Tensor ones8 = at::ones({2, n}, at::TensorOptions(at::kCUDA).dtype(at::kChar));
  const at::Tensor sums8 = at::cumsum(ones8, 1, at::kChar);
  const at::Tensor row8 = at::cumsum(at::ones({n}, at::kChar), 0, at::kChar);
  // Each row restarts: its first elements, those around 2^30 and its last are the CPU row's.
  for (int64_t r = 0; r < 2; ++r) {
    for (int64_t start : {int64_t{0}, (int64_t{1} << 30) - 300, n - 300}) {
      SCOPED_TRACE("row " + std::to_string(r) + " from " + std::to_string(start));
      EXPECT_TRUE(at::equal(sums8[r].narrow(0, start, 300).cpu(), row8.narrow(0, start, 300)));
    }
  }
  const int64_t m = (int64_t{1} << 31) + 5;  // one float row
  const at::Tensor sums = at::cumsum(at::ones({m}, at::TensorOptions(at::kCUDA)), 0);
  const at::Tensor tail = sums.narrow(0, m - 4, 4).cpu();
  // Sums past 2^24 round to floats as the CPU's double sums do: each is float(i + 1).
  for (int64_t k = 0; k < 4; ++k) {
    EXPECT_EQ(tail[k].item<float>(), static_cast<float>(static_cast<double>(m - 4 + k + 1)));
  }
}

// var, std, norm and logsumexp are built from other operators (ReduceOpsStats.cpp): they run on
// CUDA because those do, and give the CPU's answer.
TEST(CUDAComposedReductions, VarStdNormLogsumexpAreComposite) {
  SKIP_WITHOUT_CUDA();
  const at::Tensor x = at::randn({6, 50});
  const at::Tensor g = x.cuda();
  EXPECT_TRUE(matches(at::var(x, {1}, 1, true), at::var(g, {1}, 1, true), 1e-5));
  EXPECT_TRUE(matches(at::std(x, {0}, 0, false), at::std(g, {0}, 0, false), 1e-5));
  EXPECT_TRUE(matches(at::var(x), at::var(g), 1e-5));
  for (double p : {0.0, 1.0, 2.0, 3.5, double(INFINITY), -double(INFINITY)}) {
    SCOPED_TRACE("p " + std::to_string(p));
    EXPECT_TRUE(matches(at::norm(x, p, {1}, false), at::norm(g, p, {1}, false), 1e-5));
  }
  EXPECT_TRUE(matches(at::logsumexp(x, {1}, false), at::logsumexp(g, {1}, false), 1e-5));
  at::Tensor with_inf = x.clone();
  with_inf[2].fill_(-INFINITY);
  EXPECT_TRUE(
      matches(at::logsumexp(with_inf, {1}, true), at::logsumexp(with_inf.cuda(), {1}, true), 1e-5));
}

}  // namespace
