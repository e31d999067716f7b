// copy_: every dtype pair against c10::convert, broadcasting, early exits, overlap errors, and
// which loop ran (memcpy, row copies, blocked transpose, strided, convert) with values checked.

#include <gtest/gtest.h>

#include <cstring>

#include "aten/ATen.h"
#include "aten/Dispatch.h"
#include "aten/native/Copy.h"

namespace {

const at::ScalarType kAllTypes[] = {at::kByte,  at::kChar,   at::kShort, at::kInt,
                                    at::kLong,  at::kHalf,   at::kFloat, at::kDouble,
                                    at::kBool,  at::kBFloat16};

// Values that exercise truncation toward zero, negatives into unsigned, rounding, Half's
// subnormals and overflow, and the int32 and int64 range edges (Note [Out-of-range
// floating-point to integer conversions]); repeated past any vector's lanes so that the vector
// conversions (aten/cpu/vec/VecConvert.h) and their tails both run.
// clang-format off
const double kSource[] = {0.0,           1.0,          -1.0,         2.5,           -2.75,
                          100.0,         0.1,          3.999,        -0.5,          255.0,
                          65504.0,       -0.0,         1e-6,         70000.0,       NAN,
                          -INFINITY,     1.0 / 3,      2147483648.0, -2147483648.0, 2147483520.0,
                          -2147483904.0, 3e9,          -3e9,         9.3e18,        -9.3e18,
                          1e19,          INFINITY,     -1e-300,      4294967296.0 + 7};
// clang-format on
constexpr int64_t kSourceSize = sizeof(kSource) / sizeof(kSource[0]);

class CopyDtypes
    : public ::testing::TestWithParam<std::tuple<at::ScalarType, at::ScalarType>> {};

TEST_P(CopyDtypes, ConvertsLikeCConvert) {
  // Not a structured binding: lambdas below capture these, which C++17 clang refuses.
  const at::ScalarType src_type = std::get<0>(GetParam());
  const at::ScalarType dst_type = std::get<1>(GetParam());
  const int64_t n = 5 * kSourceSize;
  // The source dtype's own values, built element by element with the reference conversion.
  at::Tensor src = at::empty({n}, src_type);
  for (int64_t i = 0; i < n; ++i) {
    c10::cast_and_store(src_type, static_cast<char*>(src.data_ptr()) + i * src.element_size(),
                        kSource[i % kSourceSize]);
  }
  at::Tensor dst = at::empty({n}, dst_type);
  dst.copy_(src);
  EXPECT_STREQ(at::native::last_copy_loop(), src_type == dst_type ? "memcpy" : "convert");
  for (int64_t i = 0; i < n; ++i) {
    const char* s = static_cast<const char*>(src.data_ptr()) + i * src.element_size();
    alignas(16) char expected[16];  // room for any dtype, complex<double> included
    AT_DISPATCH_ALL_MINIATEN_TYPES(src_type, "ref", [&] {
      const scalar_t v = *reinterpret_cast<const scalar_t*>(s);
      c10::cast_and_store(dst_type, expected, v);
    });
    EXPECT_EQ(std::memcmp(expected, static_cast<const char*>(dst.data_ptr()) + i * dst.element_size(),
                          dst.element_size()),
              0)
        << c10::toString(src_type) << " -> " << c10::toString(dst_type) << " element " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(AllPairs, CopyDtypes,
                         ::testing::Combine(::testing::ValuesIn(kAllTypes),
                                            ::testing::ValuesIn(kAllTypes)));

TEST(Copy, LibtorchConversionRules) {
  at::Tensor f = at::tensor({2.7f, -2.7f, 0.5f, 0.f});
  at::Tensor i = at::empty({4}, at::kInt);
  i.copy_(f);
  EXPECT_EQ(std::vector<int>(i.data_ptr<int>(), i.data_ptr<int>() + 4),
            (std::vector<int>{2, -2, 0, 0}));  // truncation toward zero
  at::Tensor b = at::empty({4}, at::kBool);
  b.copy_(f);
  EXPECT_EQ(std::vector<bool>(b.data_ptr<bool>(), b.data_ptr<bool>() + 4),
            (std::vector<bool>{true, true, true, false}));  // x != 0
  at::Tensor h = at::empty({1}, at::kHalf);
  h.copy_(at::tensor({1.0f + 1.0f / 2048}));  // a tie: rounds to even (1.0)
  EXPECT_EQ(static_cast<float>(h.data_ptr<c10::Half>()[0]), 1.0f);
}

// Note [Half conversions in the vector copies]: F16C's conversions give c10's bits, NaN
// payloads included (narrowing makes every NaN 0x7E00 with its sign; widening keeps the payload
// and quiets), in the vector body and in the tail alike.
TEST(Copy, HalfNaNPayloadsAndEdges) {
  const uint32_t float_bits[] = {0x7F800001u, 0xFF800001u, 0x7FC00001u, 0x7FBFFFFFu, 0xFFFFFFFFu,
                                 0x7F801000u, 0x477FEFFFu, 0x477FF000u, 0x33000000u, 0x33000001u,
                                 0x387FC000u, 0x80000001u, 0x3F800FFFu, 0x3F801000u, 0x3F803000u};
  const uint16_t half_bits[] = {0x7C01u, 0xFC01u, 0x7D55u, 0x7E00u, 0xFFFFu, 0x7C00u, 0x0001u,
                                0x83FFu, 0x0400u, 0x7BFFu, 0x8000u, 0x3C00u, 0x7DFFu};
  constexpr int64_t kF = sizeof(float_bits) / sizeof(float_bits[0]);
  constexpr int64_t kH = sizeof(half_bits) / sizeof(half_bits[0]);
  const int64_t n = 7 * kF;  // past any vector's lanes, with a tail
  at::Tensor f = at::empty({n}, at::kFloat);
  for (int64_t i = 0; i < n; ++i) {
    std::memcpy(f.data_ptr<float>() + i, &float_bits[i % kF], sizeof(float));
  }
  at::Tensor h = at::empty({n}, at::kHalf);
  h.copy_(f);
  for (int64_t i = 0; i < n; ++i) {
    float v;
    std::memcpy(&v, &float_bits[i % kF], sizeof(float));
    EXPECT_EQ(h.data_ptr<c10::Half>()[i].x, c10::detail::fp16_ieee_from_fp32_value(v))
        << "float bits " << std::hex << float_bits[i % kF] << " element " << std::dec << i;
  }
  // Half arithmetic rounds through the same conversions.
  const at::Tensor sum = at::add(h, h);
  for (int64_t i = 0; i < n; ++i) {
    const c10::Half x = h.data_ptr<c10::Half>()[i];
    const c10::Half want = x + x;
    EXPECT_EQ(sum.data_ptr<c10::Half>()[i].x, want.x) << "element " << i;
  }
  const int64_t m = 7 * kH;
  at::Tensor hs = at::empty({m}, at::kHalf);
  for (int64_t i = 0; i < m; ++i) hs.data_ptr<c10::Half>()[i].x = half_bits[i % kH];
  at::Tensor wide = at::empty({m}, at::kFloat);
  wide.copy_(hs);
  for (int64_t i = 0; i < m; ++i) {
    const float want = c10::detail::fp16_ieee_to_fp32_value(half_bits[i % kH]);
    uint32_t got_bits, want_bits;
    std::memcpy(&got_bits, wide.data_ptr<float>() + i, 4);
    std::memcpy(&want_bits, &want, 4);
    EXPECT_EQ(got_bits, want_bits) << "half bits " << std::hex << half_bits[i % kH];
  }
}

TEST(Copy, BroadcastsSourceToSelf) {
  at::Tensor row = at::arange(4, at::kFloat);
  at::Tensor dst = at::zeros({3, 4});
  dst.copy_(row);
  for (int64_t r = 0; r < 3; ++r) {
    for (int64_t c = 0; c < 4; ++c) EXPECT_EQ(dst.data_ptr<float>()[r * 4 + c], c);
  }
  EXPECT_THROW(row.copy_(dst), c10::Error);  // self may not be broadcast
}

TEST(Copy, EarlyExitsAndVersions) {
  at::Tensor a = at::ones({4});
  const auto v0 = a._version();
  // The kernel skips the copy from the same tensor, or an identical view of the same memory, but
  // the write still counts: libtorch bumps the version above the kernel, whatever it did.
  EXPECT_TRUE(a.copy_(a).is_same(a));
  EXPECT_EQ(a._version(), v0 + 1);
  at::Tensor same_view = a.view({4});
  a.copy_(same_view);
  EXPECT_EQ(a._version(), v0 + 2);
  a.copy_(at::zeros({4}));
  EXPECT_EQ(a._version(), v0 + 3);
}

TEST(Copy, OverlapErrors) {
  at::Tensor expanded = at::zeros({1, 4}).expand({3, 4});
  try {
    expanded.copy_(at::ones({3, 4}));
    FAIL();
  } catch (const c10::Error& e) {
    EXPECT_STREQ(e.what_without_backtrace(),
                 "unsupported operation: more than one element of the written-to tensor refers to "
                 "a single memory location. Please clone() the tensor before performing the "
                 "operation.");
  }
  at::Tensor base = at::arange(10, at::kFloat);
  try {
    base.narrow(0, 0, 5).copy_(base.narrow(0, 2, 5));
    FAIL();
  } catch (const c10::Error& e) {
    EXPECT_STREQ(e.what_without_backtrace(),
                 "unsupported operation: some elements of the input tensor and the written-to "
                 "tensor refer to a single memory location. Please clone() the tensor before "
                 "performing the operation.");
  }
}

// Reference: element (i0, i1, ...) of a tensor through its strides.
void expect_same_values(const at::Tensor& a, const at::Tensor& b) {
  ASSERT_EQ(a.sizes(), b.sizes());
  at::Tensor fa = a.to(at::kDouble).contiguous();
  at::Tensor fb = b.to(at::kDouble).contiguous();
  for (int64_t i = 0; i < fa.numel(); ++i) {
    ASSERT_EQ(fa.data_ptr<double>()[i], fb.data_ptr<double>()[i]) << "element " << i;
  }
}

struct LoopCase {
  std::vector<int64_t> sizes;
  std::vector<int64_t> perm;  // the source is a permuted view of a contiguous tensor
  at::ScalarType dtype;
  const char* loop;
  // Blocks shorter than 16 but at least one register tile transpose where the copy kernel has
  // register tiles, and take the basic loop in the DEFAULT kernel (Note [Which copy loop runs]).
  const char* loop_without_register_tiles = nullptr;
};

class CopyLoops : public ::testing::TestWithParam<LoopCase> {};

TEST_P(CopyLoops, PicksTheLoopAndCopiesCorrectly) {
  const LoopCase& c = GetParam();
  std::vector<int64_t> base_sizes(c.sizes.size());
  for (size_t i = 0; i < c.perm.size(); ++i) base_sizes[c.perm[i]] = c.sizes[i];
  int64_t n = 1;
  for (int64_t s : c.sizes) n *= s;
  at::Tensor base = at::arange(n, at::kDouble).to(c.dtype).view(base_sizes);
  at::Tensor src = base.permute(c.perm);
  at::Tensor dst = at::empty(c.sizes, c.dtype);
  dst.copy_(src);
  const bool default_kernel =
      at::native::get_cpu_capability() == at::native::CPUCapability::DEFAULT;
  EXPECT_STREQ(at::native::last_copy_loop(), default_kernel && c.loop_without_register_tiles
                                                 ? c.loop_without_register_tiles
                                                 : c.loop);
  // Compare element by element through strides (a naive loop).
  std::vector<int64_t> idx(c.sizes.size(), 0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t so = 0, dof = 0;
    for (size_t d = 0; d < idx.size(); ++d) {
      so += idx[d] * src.stride(d);
      dof += idx[d] * dst.stride(d);
    }
    const double expected = c10::fetch_and_cast<double>(
        c.dtype, static_cast<const char*>(src.data_ptr()) + so * src.element_size());
    const double got = c10::fetch_and_cast<double>(
        c.dtype, static_cast<const char*>(dst.data_ptr()) + dof * dst.element_size());
    ASSERT_EQ(got, expected) << "element " << k;
    for (int64_t d = static_cast<int64_t>(idx.size()) - 1; d >= 0; --d) {
      if (++idx[d] < c.sizes[d]) break;
      idx[d] = 0;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Layouts, CopyLoops,
    ::testing::Values(LoopCase{{37, 53}, {0, 1}, at::kFloat, "memcpy"},
                      LoopCase{{37, 53}, {1, 0}, at::kFloat, "blocked transpose"},
                      LoopCase{{130, 70}, {1, 0}, at::kDouble, "blocked transpose"},
                      LoopCase{{130, 70}, {1, 0}, at::kHalf, "blocked transpose"},
                      LoopCase{{300, 129}, {1, 0}, at::kByte, "blocked transpose"},
                      LoopCase{{4, 6}, {1, 0}, at::kFloat, "basic"},
                      LoopCase{{37, 7}, {1, 0}, at::kFloat, "basic"},
                      LoopCase{{37, 12}, {1, 0}, at::kFloat, "blocked transpose", "basic"},
                      LoopCase{{3, 5}, {1, 0}, at::kDouble, "basic"},
                      LoopCase{{4, 5}, {1, 0}, at::kDouble, "blocked transpose", "basic"},
                      // NCHW -> NHWC and back, through channels-last-shaped permutes.
                      LoopCase{{2, 20, 6, 7}, {0, 3, 1, 2}, at::kFloat, "blocked transpose"},
                      LoopCase{{2, 9, 6, 7}, {0, 3, 1, 2}, at::kFloat, "blocked transpose", "basic"},
                      LoopCase{{2, 3, 20, 18}, {0, 2, 3, 1}, at::kFloat, "blocked transpose"},
                      LoopCase{{2, 3, 6, 7}, {0, 3, 1, 2}, at::kFloat, "basic"},
                      LoopCase{{8, 8}, {1, 0}, at::kFloat, "blocked transpose", "basic"},
                      LoopCase{{20, 8, 9}, {2, 0, 1}, at::kLong, "blocked transpose"}));

TEST(Copy, ChannelsLastRoundTrip) {
  at::Tensor nchw = at::arange(2 * 16 * 9 * 9, at::kFloat).view({2, 16, 9, 9});
  at::Tensor nhwc = at::empty({2, 16, 9, 9}, at::MemoryFormat::ChannelsLast);
  nhwc.copy_(nchw);
  EXPECT_STREQ(at::native::last_copy_loop(), "blocked transpose");
  expect_same_values(nhwc, nchw);
  at::Tensor back = at::empty({2, 16, 9, 9});
  back.copy_(nhwc);
  expect_same_values(back, nchw);
}

TEST(Copy, ParallelAndSerialAgree) {
  at::Tensor src = at::arange(300 * 400, at::kFloat).view({300, 400}).t();
  at::set_num_threads(1);
  at::Tensor serial = at::empty({400, 300});
  serial.copy_(src);
  at::set_num_threads(2);
  at::Tensor parallel = at::empty({400, 300});
  parallel.copy_(src);
  EXPECT_EQ(std::memcmp(serial.data_ptr(), parallel.data_ptr(), serial.nbytes()), 0);
  expect_same_values(parallel, src);
}

}  // namespace
