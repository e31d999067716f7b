// The GPU loops without a GPU: IntDivider and OffsetCalculator against plain arithmetic and the
// CPU iterator's own walk, and the elementwise, index and transpose bodies run on the host
// (HostLauncher.h) over every layout case, compared value for value with the CPU kernels, with
// the loop each case takes. The same code runs in the CUDA kernels; only the launch differs.

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "../ElementwiseTestUtils.h"
#include "HostLauncher.h"
#include "aten/ATen.h"
#include "aten/Dispatch.h"
#include "aten/native/cuda/IntegerDivider.h"
#include "aten/native/cuda/OffsetCalculator.h"

namespace {

using at::cuda::detail::IntDivider;
using elementwise_test::same_tensor;
using test_util::gpu_kernel_on_host;

// ---- IntDivider ------------------------------------------------------------------------------

TEST(IntDivider, MatchesDivisionForEveryKindOfDivisor) {
  const uint32_t divisors[] = {1,
                               2,
                               3,
                               5,
                               7,
                               10,
                               16,
                               31,
                               32,
                               33,
                               100,
                               127,
                               128,
                               1000,
                               65535,
                               65536,
                               65537,
                               1234567,
                               1u << 20,
                               (1u << 20) + 1,
                               (1u << 30) - 1,
                               1u << 30,
                               (1u << 30) + 1,
                               2147483646u,
                               2147483647u};
  std::mt19937 rng(7);
  for (const uint32_t d : divisors) {
    const IntDivider<uint32_t> div(d);
    std::vector<uint32_t> ns = {0, 1, d - 1, d, d + 1, 2 * d - 1, 2147483647u, 2147483646u};
    for (uint32_t k = 0; k < 2000; ++k) ns.push_back(k);
    for (int k = 0; k < 20000; ++k) ns.push_back(rng() & 0x7fffffffu);
    for (const uint32_t n : ns) {
      if (n > 2147483647u) continue;  // the 32-bit split keeps every index below 2^31
      const auto dm = div.divmod(n);
      ASSERT_EQ(dm.div, n / d) << n << " / " << d;
      ASSERT_EQ(dm.mod, n % d) << n << " % " << d;
      ASSERT_EQ(div.div(n), n / d);
      ASSERT_EQ(div.mod(n), n % d);
    }
  }
}

TEST(IntDivider, SixtyFourBitMatchesDivisionForEveryKindOfDivisor) {
  const uint64_t kMax = static_cast<uint64_t>(INT64_MAX);
  std::vector<uint64_t> divisors = {1,
                                    2,
                                    3,
                                    7,
                                    1000,
                                    65537,
                                    (uint64_t{1} << 31) - 1,
                                    uint64_t{1} << 31,
                                    (uint64_t{1} << 32) - 1,
                                    uint64_t{1} << 32,
                                    (uint64_t{1} << 32) + 1,
                                    1000000007,
                                    6700417ull * 641,
                                    (uint64_t{1} << 62) - 1,
                                    (uint64_t{1} << 62) + 1,
                                    kMax - 1,
                                    kMax};
  std::mt19937_64 rng(11);
  for (int k = 0; k < 40; ++k) divisors.push_back((rng() >> (1 + k % 60)) | 1);
  for (const uint64_t d : divisors) {
    const IntDivider<uint64_t> div(d);
    std::vector<uint64_t> ns = {0, 1, d - 1, d, kMax, kMax - 1, kMax - d + 1};
    if (d <= kMax / 2) ns.insert(ns.end(), {d + 1, 2 * d - 1, 2 * d});
    for (int k = 0; k < 5000; ++k) ns.push_back(rng() >> 1);
    for (int k = 0; k < 5000; ++k) ns.push_back(rng() >> (1 + k % 63));
    for (const uint64_t n : ns) {
      const auto dm = div.divmod(n);
      ASSERT_EQ(dm.div, n / d) << n << " / " << d;
      ASSERT_EQ(dm.mod, n % d) << n << " % " << d;
      ASSERT_EQ(div.div(n), n / d);
    }
  }
}

TEST(IntDivider, DefaultIsDivisionByOne) {
  const IntDivider<uint32_t> one;
  EXPECT_EQ(one.div(12345), 12345u);
  EXPECT_EQ(one.mod(12345), 0u);
  const IntDivider<int64_t> wide(int64_t{1} << 33);
  EXPECT_EQ(wide.div((int64_t{5} << 33) + 3), 5);
  EXPECT_EQ(wide.mod((int64_t{5} << 33) + 3), 3);
}

// ---- OffsetCalculator against the CPU iterator's walk ----------------------------------------

at::TensorIterator copy_iterator(const at::Tensor& dst, const at::Tensor& src) {
  return at::TensorIteratorConfig()
      .add_output(dst)
      .add_input(src)
      .resize_outputs(false)
      .check_all_same_dtype(false)
      .check_all_same_device(false)
      .build();
}

TEST(OffsetCalculator, GivesTheOffsetsTheCpuIteratorWalks) {
  for (const auto& c : elementwise_test::layout_cases()) {
    const at::Tensor a = c.a();
    const at::Tensor b = c.b();
    at::Tensor out = at::empty_strided(c.sizes, c.binary, at::kFloat);
    auto iter = at::TensorIterator::binary_op(out, a, b);
    // The CPU walk, in linear-index order: each element's byte offsets from the base pointers.
    std::vector<std::array<int64_t, 3>> walked;
    char* base[3] = {static_cast<char*>(iter.data_ptr(0)), static_cast<char*>(iter.data_ptr(1)),
                     static_cast<char*>(iter.data_ptr(2))};
    iter.serial_for_each(
        [&](char** data, const int64_t* strides, int64_t size0, int64_t size1) {
          for (int64_t j = 0; j < size1; ++j) {
            for (int64_t i = 0; i < size0; ++i) {
              std::array<int64_t, 3> o{};
              for (int k = 0; k < 3; ++k) {
                o[k] = data[k] + i * strides[k] + j * strides[3 + k] - base[k];
              }
              walked.push_back(o);
            }
          }
        },
        {0, iter.numel()});
    const auto calc = at::cuda::detail::make_offset_calculator<3>(iter);
    ASSERT_EQ(static_cast<int64_t>(walked.size()), iter.numel()) << c.name;
    for (int64_t i = 0; i < iter.numel(); ++i) {
      const auto o = calc.get(static_cast<uint32_t>(i));
      for (int k = 0; k < 3; ++k) {
        ASSERT_EQ(static_cast<int64_t>(o[k]), walked[i][k])
            << c.name << " element " << i << " operand " << k;
      }
    }
  }
}

TEST(OffsetCalculator, RefusesMoreDimsThanItHolds) {
  const int64_t sizes[26] = {};
  const int64_t* strides[1] = {sizes};
  EXPECT_EQ(test_util::error_of([&] { at::cuda::detail::OffsetCalculator<1>(26, sizes, strides); }),
            "tensor has too many (>25) dims");
}

// ---- The elementwise loop on the host --------------------------------------------------------

// A binary op through the GPU body over every layout case: the same values as the CPU add, and
// the loop Note [Which GPU loop runs] promises.
TEST(GpuElementwise, BinaryOverEveryLayoutMatchesTheCpu) {
  for (const auto& c : elementwise_test::layout_cases()) {
    const at::Tensor a = c.a();
    const at::Tensor b = c.b();
    at::Tensor out = at::empty_strided(c.sizes, c.binary, at::kFloat);
    auto iter = at::TensorIterator::binary_op(out, a, b);
    gpu_kernel_on_host(iter, [](float x, float y) { return x + 2 * y; });
    EXPECT_TRUE(same_tensor(out, at::add(a, b, 2))) << c.name;
    EXPECT_STREQ(at::native::last_gpu_loop(), iter.is_contiguous() ? "vectorized" : "strided")
        << c.name;
  }
}

TEST(GpuElementwise, VectorizedBodyCoversEveryTail) {
  // Full blocks take vectors; the partial last block goes element by element.
  for (const int64_t n : {1, 3, 127, 128, 1023, 1024, 1025, 4096 + 17, 3 * 1024 * 7 + 5}) {
    const at::Tensor in = at::arange(n, at::kFloat);
    at::Tensor out = at::full({n}, -1.f);
    auto iter = at::TensorIterator::unary_op(out, in);
    gpu_kernel_on_host(iter, [](float x) { return x * 3 + 1; });
    EXPECT_STREQ(at::native::last_gpu_loop(), "vectorized");
    EXPECT_TRUE(same_tensor(out, in * 3 + 1)) << n;
  }
}

TEST(GpuElementwise, MisalignedContiguousOperandsTakeTheStridedLoop) {
  // One float past a 16-byte boundary: float4 loads would fault on a GPU.
  const at::Tensor base = at::arange(1001, at::kFloat);
  const at::Tensor in = base.narrow(0, 1, 1000);
  at::Tensor out = at::empty({1000});
  auto iter = at::TensorIterator::unary_op(out, in);
  ASSERT_TRUE(iter.is_contiguous());
  gpu_kernel_on_host(iter, [](float x) { return -x; });
  EXPECT_STREQ(at::native::last_gpu_loop(), "strided");
  EXPECT_TRUE(same_tensor(out, -in));
}

TEST(GpuElementwise, TernaryFunctor) {
  const at::Tensor a = at::arange(60, at::kDouble).view({3, 4, 5});
  const at::Tensor b = at::arange(20, at::kDouble).view({4, 5}).t().contiguous().t();
  const at::Tensor c = at::arange(5, at::kDouble);
  at::Tensor out = at::empty({3, 4, 5}, at::kDouble);
  auto iter =
      at::TensorIteratorConfig().add_output(out).add_input(a).add_input(b).add_input(c).build();
  gpu_kernel_on_host(iter, [](double x, double y, double z) { return x * y - z; });
  EXPECT_TRUE(same_tensor(out, a * b - c));
}

// Note [A CPU scalar rides along as a kernel argument]: a 0-dim CPU operand is read on the host
// and bound into the functor; the loop runs over the other operands only (so a contiguous
// tensor and a scalar take the vectorized loop).
TEST(GpuElementwise, CpuScalarOperandsBecomeKernelArguments) {
  using test_util::gpu_kernel_with_scalars_on_host;
  const at::Tensor a = at::arange(1037, at::kFloat);
  const at::Tensor s = at::scalar_tensor(2.5, at::kDouble);  // converted to the functor's float
  const auto sub = [](float x, float y) { return x - y; };
  for (int order = 0; order < 2; ++order) {
    at::Tensor out = at::empty({1037});
    auto iter = at::TensorIteratorConfig()
                    .check_all_same_dtype(false)
                    .add_output(out)
                    .add_input(order == 0 ? a : s)
                    .add_input(order == 0 ? s : a)
                    .build();
    ASSERT_TRUE(iter.is_cpu_scalar(order == 0 ? 2 : 1));
    gpu_kernel_with_scalars_on_host(iter, sub);
    EXPECT_STREQ(at::native::last_gpu_loop(), "vectorized");
    EXPECT_TRUE(same_tensor(out, order == 0 ? a - 2.5f : 2.5f - a)) << order;
  }
  // A strided tensor beside the scalar: the strided loop over the two remaining operands.
  const at::Tensor t = at::arange(24, at::kFloat).view({4, 6}).t();
  at::Tensor out_t = at::empty({6, 4});
  auto iter_t = at::TensorIteratorConfig()
                    .check_all_same_dtype(false)
                    .add_output(out_t)
                    .add_input(t)
                    .add_input(s)
                    .build();
  gpu_kernel_with_scalars_on_host(iter_t, sub);
  EXPECT_STREQ(at::native::last_gpu_loop(), "strided");
  EXPECT_TRUE(same_tensor(out_t, t - 2.5f));
  // Both inputs scalars (a 0-dim output): f(a, b) computed once, on the host.
  at::Tensor out4 = at::empty({});
  auto iter2 = at::TensorIteratorConfig()
                   .check_all_same_dtype(false)
                   .add_output(out4)
                   .add_input(at::scalar_tensor(7.0))
                   .add_input(s)
                   .build();
  gpu_kernel_with_scalars_on_host(iter2, sub);
  EXPECT_TRUE(same_tensor(out4, at::full({}, 4.5f)));
}

TEST(GpuElementwise, NullaryFillOfEveryLayout) {
  for (const auto& c : elementwise_test::layout_cases()) {
    at::Tensor out = at::empty_strided(c.sizes, c.binary, at::kInt);
    auto iter = at::TensorIteratorConfig()
                    .set_check_mem_overlap(false)
                    .check_all_same_dtype(false)
                    .add_output(out)
                    .resize_outputs(false)
                    .build();
    gpu_kernel_on_host(iter, []() { return 7; });
    EXPECT_TRUE(same_tensor(out, at::full(c.sizes, 7, at::kInt))) << c.name;
  }
}

// Copies between every pair of dtypes: the identity functor of the destination type reads the
// source through dynamic casting, exactly as the CPU copy converts.
TEST(GpuElementwise, CastingCopyOfEveryDtypePair) {
  const at::ScalarType types[] = {at::kByte, at::kChar,     at::kShort,        at::kInt,
                                  at::kLong, at::kHalf,     at::kFloat,        at::kDouble,
                                  at::kBool, at::kBFloat16, at::kComplexFloat, at::kComplexDouble};
  const at::Tensor values =
      at::tensor({0.0, 1.0, -1.0, 2.5, -2.75, 100.0, 0.1, 3.999, -0.5, 255.0});
  for (const at::ScalarType from : types) {
    // A transposed source, so that the strided loop's offsets are exercised as well.
    at::Tensor rows = at::empty({3, 10}, at::kDouble);
    rows.copy_(values);  // three copies of the values
    const at::Tensor src = rows.to(from).t();
    for (const at::ScalarType to : types) {
      at::Tensor dst = at::empty({10, 3}, to);
      auto iter = copy_iterator(dst, src);
      AT_DISPATCH_ALL_MINIATEN_TYPES_AND_COMPLEX(
          to, "copy", [&] { gpu_kernel_on_host(iter, [](scalar_t x) { return x; }); });
      EXPECT_STREQ(at::native::last_gpu_loop(), from == to ? "strided" : "strided cast");
      at::Tensor expected = at::empty({10, 3}, to);
      {
        elementwise_test::CapturedWarnings sink;  // complex -> real warns, once per process
        c10::WarningUtils::WarningHandlerGuard quiet(&sink);
        expected.copy_(src);
      }
      EXPECT_TRUE(at::equal(dst, expected)) << c10::toString(from) << " -> " << c10::toString(to);
    }
  }
}

// The same over contiguous sources long enough for whole blocks and a tail: conversions take
// the vectorized cast loop, same-dtype copies the vectorized one (a 16-byte element, whose
// vector would be one element, the strided one).
TEST(GpuElementwise, VectorizedCastOfEveryDtypePair) {
  const at::ScalarType types[] = {at::kByte, at::kChar,     at::kShort,        at::kInt,
                                  at::kLong, at::kHalf,     at::kFloat,        at::kDouble,
                                  at::kBool, at::kBFloat16, at::kComplexFloat, at::kComplexDouble};
  const int64_t n = 3 * 1024 + 37;
  const at::Tensor values = (at::arange(n, at::kDouble) - 1000) * 0.37;
  elementwise_test::CapturedWarnings sink;
  c10::WarningUtils::WarningHandlerGuard quiet(&sink);
  for (const at::ScalarType from : types) {
    const at::Tensor src = values.to(from);
    for (const at::ScalarType to : types) {
      if ((from != to) && c10::isFloatingType(from) && !c10::isFloatingType(to) &&
          to != at::kBool && !c10::isComplexType(to)) {
        continue;  // out-of-range float -> integer conversions are undefined; CastingCopy covers
      }
      at::Tensor dst = at::empty({n}, to);
      auto iter = copy_iterator(dst, src);
      AT_DISPATCH_ALL_MINIATEN_TYPES_AND_COMPLEX(
          to, "copy", [&] { gpu_kernel_on_host(iter, [](scalar_t x) { return x; }); });
      const char* expected_loop = from != to                 ? "vectorized cast"
                                  : to == at::kComplexDouble ? "strided"
                                                             : "vectorized";
      EXPECT_STREQ(at::native::last_gpu_loop(), expected_loop)
          << c10::toString(from) << " -> " << c10::toString(to);
      EXPECT_TRUE(at::equal(dst, src.to(to))) << c10::toString(from) << " -> " << c10::toString(to);
    }
  }
}

TEST(GpuElementwise, IndexLoop) {
  at::Tensor out = at::empty({3000}, at::kLong);
  auto iter = at::TensorIteratorConfig()
                  .check_all_same_dtype(false)
                  .add_output(out)
                  .resize_outputs(false)
                  .build();
  test_util::gpu_kernel_with_index_on_host(iter, [](int64_t i) { return 5 - 3 * i; });
  EXPECT_STREQ(at::native::last_gpu_loop(), "index");
  EXPECT_TRUE(at::equal(out, at::arange(5, 5 - 3 * 3000, -3)));
}

// ---- The tiled transpose on the host ---------------------------------------------------------

struct TransposeCase {
  const char* name;
  std::function<at::Tensor()> src;
  at::MemoryFormat format;
};

// Every tile shape the kernel may be built with (the copy uses CopyTransposeBody's).
template <int bytes>
void transpose_on_host(at::TensorIteratorBase& iter, int variant) {
  using T = typename at::native::gpu::Carrier<bytes>::type;
  using at::native::gpu::make_transpose_body;
  using at::native::gpu::TransposeBody;
  switch (variant) {
    case 0:
      return test_util::HostLauncher::launch_transpose(
          make_transpose_body<at::native::gpu::CopyTransposeBody<T>>(iter));
    case 1:
      return test_util::HostLauncher::launch_transpose(
          make_transpose_body<TransposeBody<T, 32, 4>>(iter));
    case 2:
      return test_util::HostLauncher::launch_transpose(
          make_transpose_body<TransposeBody<T, 64, 8>>(iter));
    case 3:
      return test_util::HostLauncher::launch_transpose(
          make_transpose_body<TransposeBody<T, 64, 32>>(iter));
  }
}

TEST(GpuTranspose, TilesGiveTheCpuCopyForEveryElementSize) {
  const std::vector<TransposeCase> cases = {
      {"2d_full_tiles",
       [] {
         return at::arange(64 * 96).view({64, 96}).t();
       },
       at::MemoryFormat::Contiguous},
      {"2d_partial_tiles",
       [] {
         return at::arange(33 * 70).view({33, 70}).t();
       },
       at::MemoryFormat::Contiguous},
      {"2d_minimum_side",
       [] {
         return at::arange(16 * 17).view({16, 17}).t();
       },
       at::MemoryFormat::Contiguous},
      {"nchw_to_nhwc",
       [] {
         return at::arange(2 * 20 * 6 * 5).view({2, 20, 6, 5});
       },
       at::MemoryFormat::ChannelsLast},
      {"nhwc_to_nchw",
       [] {
         return at::arange(3 * 40 * 7 * 3)
             .view({3, 40, 7, 3})
             .contiguous(at::MemoryFormat::ChannelsLast);
       },
       at::MemoryFormat::Contiguous},
      {"batched_permute",
       [] {
         return at::arange(4 * 50 * 40).view({4, 50, 40}).transpose(1, 2);
       },
       at::MemoryFormat::Contiguous},
  };
  const at::ScalarType types[] = {at::kByte, at::kHalf, at::kFloat, at::kDouble,
                                  at::kComplexDouble};
  for (const auto& c : cases) {
    for (const at::ScalarType t : types) {
      for (int variant = 0; variant < 4; ++variant) {
        if (t == at::kComplexDouble && variant >= 2) continue;  // 64 x 64 x 16 bytes: too big
        const at::Tensor src = c.src().to(t);
        at::Tensor dst = at::empty_like(src, src.options(), c.format);
        dst.fill_(0);
        auto iter = copy_iterator(dst, src);
        ASSERT_TRUE(at::native::gpu::is_transpose_copy(iter)) << c.name;
        switch (iter.element_size(0)) {
          case 1:
            transpose_on_host<1>(iter, variant);
            break;
          case 2:
            transpose_on_host<2>(iter, variant);
            break;
          case 4:
            transpose_on_host<4>(iter, variant);
            break;
          case 8:
            transpose_on_host<8>(iter, variant);
            break;
          case 16:
            transpose_on_host<16>(iter, variant);
            break;
        }
        EXPECT_TRUE(at::equal(dst, src))
            << c.name << " " << c10::toString(t) << " variant " << variant;
        EXPECT_TRUE(dst.is_contiguous(c.format)) << c.name;
      }
    }
  }
}

TEST(GpuTranspose, OnlyCopiesThatAreTransposesQualify) {
  const at::Tensor x = at::arange(64 * 64, at::kFloat).view({64, 64});
  at::Tensor dst = at::empty({64, 64});
  EXPECT_FALSE(at::native::gpu::is_transpose_copy(copy_iterator(dst, x)));     // same layout
  EXPECT_TRUE(at::native::gpu::is_transpose_copy(copy_iterator(dst, x.t())));  // transpose
  at::Tensor narrow_dst = at::empty({64, 8});
  EXPECT_FALSE(at::native::gpu::is_transpose_copy(copy_iterator(narrow_dst, x.t().narrow(1, 0, 8))))
      << "a side shorter than a tile's minimum takes the elementwise loop";
  at::Tensor d = at::empty({64, 64}, at::kDouble);
  EXPECT_FALSE(at::native::gpu::is_transpose_copy(copy_iterator(d, x.t())))
      << "a dtype change takes the casting loop";
}

}  // namespace
