// The allocating factories (empty, empty_strided, empty_like and the *_like family with
// Preserve, zeros, ones, full) against libtorch 1.13: sizes, strides, values, error texts.
//
// Views are built by hand (a TensorImpl sharing the storage, then set_sizes_and_strides), the
// way libtorch's slice/permute/expand would leave them; the comment beside each names the
// libtorch call it stands for.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "FactoriesTestUtils.h"

namespace {

using namespace factories_test;

// ---- empty: every memory format, on CPU and Meta ------------------------------------------

struct EmptyCase {
  const char* name;
  std::vector<int64_t> sizes;
  c10::optional<MemoryFormat> format;
  std::vector<int64_t> strides;
  size_t nbytes;
};

const EmptyCase kEmptyCases[] = {
    {"Default", {2, 3, 4, 5}, c10::nullopt, {60, 20, 5, 1}, 480},
    {"Contiguous", {2, 3, 4, 5}, MemoryFormat::Contiguous, {60, 20, 5, 1}, 480},
    {"ChannelsLast", {2, 3, 4, 5}, MemoryFormat::ChannelsLast, {60, 1, 15, 3}, 480},
    {"ChannelsLast3d", {2, 3, 4, 5, 6}, MemoryFormat::ChannelsLast3d, {360, 1, 90, 18, 3}, 2880},
    {"ChannelsLastNoChannels", {2, 0, 4, 5}, MemoryFormat::ChannelsLast, {0, 1, 0, 0}, 0},
    {"ChannelsLast3dNoDepth", {2, 3, 0, 5, 6}, MemoryFormat::ChannelsLast3d, {0, 1, 90, 18, 3}, 0},
    {"ChannelsLastUnitDims", {3, 1, 1, 2}, MemoryFormat::ChannelsLast, {2, 1, 2, 1}, 24},
    {"ChannelsLastAllOnes", {1, 1, 1, 1}, MemoryFormat::ChannelsLast, {1, 1, 1, 1}, 4},
    {"ZeroDim", {}, c10::nullopt, {}, 4},
    {"NoElements", {0, 3}, c10::nullopt, {3, 1}, 0},
};

class EmptyTest : public ::testing::TestWithParam<std::tuple<EmptyCase, c10::DeviceType>> {};

TEST_P(EmptyTest, SizesStridesAndStorage) {
  const EmptyCase& c = std::get<0>(GetParam());
  const c10::DeviceType device = std::get<1>(GetParam());
  at::Tensor t = at::empty(c.sizes, at::device(device), c.format);
  EXPECT_EQ(t.sizes(), IntArrayRef(c.sizes));
  EXPECT_EQ(t.strides(), IntArrayRef(c.strides));
  EXPECT_EQ(t.storage_offset(), 0);
  EXPECT_EQ(t.storage().nbytes(), c.nbytes);
  EXPECT_EQ(t.scalar_type(), at::kFloat);
  EXPECT_EQ(t.device(), c10::Device(device));
  EXPECT_EQ(t.is_meta(), device == c10::kMeta);
  EXPECT_EQ(t._version(), 0);
  if (c.format.has_value()) {
    EXPECT_TRUE(t.is_contiguous(*c.format));
  }
}

INSTANTIATE_TEST_SUITE_P(Formats, EmptyTest,
                         ::testing::Combine(::testing::ValuesIn(kEmptyCases),
                                            ::testing::Values(c10::kCPU, c10::kMeta)),
                         [](const ::testing::TestParamInfo<EmptyTest::ParamType>& info) {
                           return std::string(std::get<0>(info.param).name) +
                                  (std::get<1>(info.param) == c10::kCPU ? "Cpu" : "Meta");
                         });

TEST(Empty, MemoryFormatNeedsTheMatchingRank) {
  EXPECT_ERROR_TEXT(at::empty({2, 3, 4}, {}, MemoryFormat::ChannelsLast),
                    "required rank 4 tensor to use channels_last format");
  EXPECT_ERROR_TEXT(at::empty({2, 3, 4, 5, 6}, {}, MemoryFormat::ChannelsLast),
                    "required rank 4 tensor to use channels_last format");
  EXPECT_ERROR_TEXT(at::empty({2, 3, 4, 5}, {}, MemoryFormat::ChannelsLast3d),
                    "required rank 5 tensor to use channels_last_3d format");
  EXPECT_ERROR_TEXT(at::empty({2, 3}, at::device(c10::kMeta), MemoryFormat::ChannelsLast),
                    "required rank 4 tensor to use channels_last format");
  EXPECT_ERROR_TEXT(at::empty({2, 3, 4, 5}, {}, MemoryFormat::Preserve),
                    "unsupported memory format Preserve");
}

TEST(Empty, NegativeSizes) {
  EXPECT_ERROR_TEXT(at::empty({-1, 2}),
                    "Trying to create tensor with negative dimension -1: [-1, 2]");
  EXPECT_ERROR_TEXT(at::empty({2, -3}, at::device(c10::kMeta)),
                    "Trying to create tensor with negative dimension -3: [2, -3]");
  EXPECT_ERROR_TEXT(at::zeros({-1}), "Trying to create tensor with negative dimension -1: [-1]");
}

TEST(Empty, TensorOptionsChecks) {
  EXPECT_ERROR_TEXT(
      at::empty({2}, at::TensorOptions().requires_grad(true)),
      "Operators taking TensorOptions cannot take a TensorOptions with options.requires_grad "
      "set as true. This isn't implemented yet.");
  const at::TensorOptions cl = at::TensorOptions().memory_format(MemoryFormat::ChannelsLast);
  EXPECT_ERROR_TEXT(
      at::empty({2, 3, 4, 5}, cl, MemoryFormat::ChannelsLast),
      "Cannot set memory_format both in TensorOptions and explicit argument; please delete "
      "the redundant setter.");
  // The options' format alone is honoured.
  EXPECT_EQ(at::empty({2, 3, 4, 5}, cl).strides(), IntArrayRef({60, 1, 15, 3}));
  at::Tensor h = at::empty({2, 3}, at::device(c10::kCPU).dtype(at::kHalf));
  EXPECT_EQ(h.scalar_type(), at::kHalf);
  EXPECT_EQ(h.storage().nbytes(), 12u);
  // The unpacked overload with every option left out.
  at::Tensor d =
      at::empty({2, 3}, c10::nullopt, c10::nullopt, c10::nullopt, c10::nullopt, c10::nullopt);
  EXPECT_EQ(d.strides(), IntArrayRef({3, 1}));
  EXPECT_EQ(d.scalar_type(), at::kFloat);
}

TEST(Empty, CudaInACpuOnlyBuild) {
  if (has_cuda_kernel("aten::empty", "memory_format")) GTEST_SKIP() << "CUDA kernels registered";
  const std::string msg = error_of([] { at::empty({2, 3}, at::device(c10::kCUDA)); });
  EXPECT_TRUE(starts_with(msg,
                          "Could not run 'aten::empty.memory_format' with arguments from the "
                          "'CUDA' backend."))
      << msg;
  // zeros is composite; the error comes from the empty it calls.
  const std::string zeros_msg = error_of([] { at::zeros({2}, at::device(c10::kCUDA)); });
  EXPECT_TRUE(starts_with(zeros_msg,
                          "Could not run 'aten::empty.memory_format' with arguments "
                          "from the 'CUDA' backend."))
      << zeros_msg;
}

TEST(Empty, MetaTensorsHaveGeometryButNoData) {
  at::Tensor m = at::empty({2, 3}, at::device(c10::kMeta).dtype(at::kHalf));
  EXPECT_TRUE(m.is_meta());
  EXPECT_FALSE(m.is_cpu());
  EXPECT_EQ(m.device(), c10::Device(c10::kMeta));
  EXPECT_TRUE(m.key_set().has(c10::DispatchKey::Meta));
  EXPECT_EQ(m.sizes(), IntArrayRef({2, 3}));
  EXPECT_EQ(m.strides(), IntArrayRef({3, 1}));
  EXPECT_EQ(m.storage().nbytes(), 12u);
  EXPECT_EQ(m.data_ptr(), nullptr);
  EXPECT_ERROR_TEXT(m.item(), "a Tensor with 6 elements cannot be converted to Scalar");
  const std::string msg = error_of([] { at::empty({1}, at::device(c10::kMeta)).item(); });
  EXPECT_TRUE(starts_with(msg,
                          "Could not run 'aten::_local_scalar_dense' with arguments from the "
                          "'Meta' backend."))
      << msg;
}

// ---- empty_strided ------------------------------------------------------------------------

TEST(EmptyStrided, KeepsTheGivenStrides) {
  at::Tensor t = at::empty_strided({2, 3}, {1, 2});
  EXPECT_EQ(t.sizes(), IntArrayRef({2, 3}));
  EXPECT_EQ(t.strides(), IntArrayRef({1, 2}));
  EXPECT_EQ(t.storage().nbytes(), 24u);
  EXPECT_EQ(t.scalar_type(), at::kFloat);
  EXPECT_TRUE(t.is_non_overlapping_and_dense());
  EXPECT_FALSE(t.is_contiguous());
  EXPECT_EQ(at::empty_strided({2, 3}, {1, 2}, at::kDouble).storage().nbytes(), 48u);
  // Overlapping strides only take what the last element reaches.
  at::Tensor e = at::empty_strided({2, 3}, {0, 1});
  EXPECT_EQ(e.strides(), IntArrayRef({0, 1}));
  EXPECT_EQ(e.storage().nbytes(), 12u);
  EXPECT_EQ(at::empty_strided({0, 3}, {3, 1}).storage().nbytes(), 0u);
  at::Tensor s = at::empty_strided({}, {});
  EXPECT_EQ(s.dim(), 0);
  EXPECT_EQ(s.storage().nbytes(), 4u);
  // A memory format in the options is ignored: empty_strided has no such argument.
  at::Tensor f = at::empty_strided({2, 3}, {3, 1},
                                   at::TensorOptions().memory_format(MemoryFormat::ChannelsLast));
  EXPECT_EQ(f.strides(), IntArrayRef({3, 1}));
}

TEST(EmptyStrided, Meta) {
  at::Tensor m = at::empty_strided({2, 3}, {1, 4}, at::device(c10::kMeta));
  EXPECT_TRUE(m.is_meta());
  EXPECT_EQ(m.strides(), IntArrayRef({1, 4}));
  EXPECT_EQ(m.storage().nbytes(), 40u);
  EXPECT_EQ(m.data_ptr(), nullptr);
}

TEST(EmptyStrided, Errors) {
  EXPECT_ERROR_TEXT(at::empty_strided({2, 3}, {1}),
                    "dimensionality of sizes (2) must match dimensionality of strides (1)");
  EXPECT_ERROR_TEXT(at::empty_strided({2, 3}, {1}, at::device(c10::kMeta)),
                    "dimensionality of sizes (2) must match dimensionality of strides (1)");
  EXPECT_ERROR_TEXT(at::empty_strided({-2, 3}, {3, 1}),
                    "Trying to create tensor with negative dimension -2: [-2, 3]");
  if (!has_cuda_kernel("aten::empty_strided", "")) {
    const std::string msg = error_of([] {
      at::empty_strided({2, 3}, {3, 1}, at::device(c10::kCUDA));
    });
    EXPECT_TRUE(starts_with(
        msg, "Could not run 'aten::empty_strided' with arguments from the 'CUDA' backend."))
        << msg;
  }
}

// ---- empty_like and friends with Preserve --------------------------------------------------

struct PreserveCase {
  const char* name;
  std::vector<int64_t> sizes;    // of the source view
  std::vector<int64_t> strides;  // of the source view
  std::vector<int64_t> expected_strides;
};

// See Note [empty_like and Preserve] in aten/native/TensorFactories.cpp.
const PreserveCase kPreserveCases[] = {
    {"Contiguous", {2, 3}, {3, 1}, {3, 1}},
    {"ChannelsLast", {2, 3, 4, 5}, {60, 1, 15, 3}, {60, 1, 15, 3}},
    {"ChannelsLast3d", {2, 3, 4, 5, 6}, {360, 1, 90, 18, 3}, {360, 1, 90, 18, 3}},
    // empty({2,3}).t(): dense, so its strides are copied.
    {"Transposed", {3, 2}, {1, 3}, {1, 3}},
    // empty({4,6,8}).slice(2,0,8,2).permute({2,0,1}): not dense, so dense strides in its order.
    {"SlicedPermuted", {4, 4, 6}, {2, 48, 8}, {1, 24, 4}},
    // empty({3}).expand({4,3}) and empty({3,1}).expand({3,4}): stride 0 keeps the default order.
    {"ExpandedRows", {4, 3}, {0, 1}, {3, 1}},
    {"ExpandedColumns", {3, 4}, {1, 0}, {4, 1}},
    // empty({2,3,4,5}, ChannelsLast).slice(3,0,5,2): stays channels-last although
    // suggest_memory_format() says Contiguous.
    {"ChannelsLastSliced", {2, 3, 4, 3}, {60, 1, 15, 6}, {36, 1, 9, 3}},
    {"ChannelsLastSlicedTwice", {2, 4, 3, 3}, {120, 1, 48, 8}, {36, 1, 12, 4}},
    // Shapes whose channels-last strides are also contiguous ones.
    {"AmbiguousOneChannel", {2, 1, 4, 4}, {16, 1, 4, 1}, {16, 1, 4, 1}},
    {"AmbiguousOnePixel", {2, 4, 1, 1}, {4, 1, 4, 4}, {4, 1, 4, 4}},
};

class EmptyLikePreserveTest : public ::testing::TestWithParam<PreserveCase> {
 protected:
  at::Tensor source() const {
    return make_view(at::empty({512}), GetParam().sizes, GetParam().strides);
  }
  void expect_geometry(const at::Tensor& result, const at::Tensor& src) const {
    EXPECT_EQ(result.sizes(), IntArrayRef(GetParam().sizes));
    EXPECT_EQ(result.strides(), IntArrayRef(GetParam().expected_strides));
    EXPECT_EQ(result.storage().nbytes(), static_cast<size_t>(src.numel()) * 4);
    EXPECT_TRUE(result.is_non_overlapping_and_dense());
    EXPECT_FALSE(result.is_alias_of(src));
    EXPECT_EQ(result.scalar_type(), at::kFloat);
  }
};

TEST_P(EmptyLikePreserveTest, EmptyLike) {
  const at::Tensor src = source();
  expect_geometry(at::empty_like(src), src);
  expect_geometry(at::empty_like(src, {}, MemoryFormat::Preserve), src);
}

TEST_P(EmptyLikePreserveTest, ZerosOnesFullLike) {
  const at::Tensor src = source();
  const size_t n = static_cast<size_t>(src.numel());
  at::Tensor z = at::zeros_like(src);
  expect_geometry(z, src);
  EXPECT_EQ(values(z), repeated(0, n));
  at::Tensor o = at::ones_like(src);
  expect_geometry(o, src);
  EXPECT_EQ(values(o), repeated(1, n));
  at::Tensor f = at::full_like(src, 2.5);
  expect_geometry(f, src);
  EXPECT_EQ(values(f), repeated(2.5, n));
}

TEST_P(EmptyLikePreserveTest, ExplicitContiguousRestrides) {
  const at::Tensor src = source();
  at::Tensor result = at::empty_like(src, {}, MemoryFormat::Contiguous);
  EXPECT_EQ(result.sizes(), src.sizes());
  EXPECT_TRUE(result.is_contiguous());
  EXPECT_EQ(result.strides(), at::empty(src.sizes()).strides());
}

INSTANTIATE_TEST_SUITE_P(Layouts, EmptyLikePreserveTest, ::testing::ValuesIn(kPreserveCases),
                         [](const ::testing::TestParamInfo<PreserveCase>& info) {
                           return std::string(info.param.name);
                         });

TEST(EmptyLike, ExplicitFormats) {
  at::Tensor cl = at::empty({2, 3, 4, 5}, {}, MemoryFormat::ChannelsLast);
  EXPECT_EQ(at::empty_like(cl, {}, MemoryFormat::Contiguous).strides(),
            IntArrayRef({60, 20, 5, 1}));
  at::Tensor sliced = make_view(cl, {2, 3, 4, 3}, {60, 1, 15, 6});
  EXPECT_EQ(at::empty_like(sliced, {}, MemoryFormat::Contiguous).strides(),
            IntArrayRef({36, 12, 3, 1}));
  // [2,1,4,4]: channels-last and contiguous at once.
  at::Tensor a = at::empty({2, 1, 4, 4}, {}, MemoryFormat::ChannelsLast);
  EXPECT_TRUE(a.is_contiguous());
  EXPECT_TRUE(a.is_contiguous(MemoryFormat::ChannelsLast));
  EXPECT_EQ(a.suggest_memory_format(), MemoryFormat::ChannelsLast);
  EXPECT_EQ(at::empty_like(a, {}, MemoryFormat::ChannelsLast).strides(),
            IntArrayRef({16, 1, 4, 1}));
  EXPECT_EQ(at::empty_like(a, {}, MemoryFormat::Contiguous).strides(), IntArrayRef({16, 16, 4, 1}));
  at::Tensor c = at::empty({2, 1, 4, 4});
  EXPECT_EQ(c.suggest_memory_format(), MemoryFormat::Contiguous);
  EXPECT_EQ(at::empty_like(c, {}, MemoryFormat::ChannelsLast).strides(),
            IntArrayRef({16, 1, 4, 1}));
  // [2,4,1,1].
  at::Tensor p = at::empty({2, 4, 1, 1}, {}, MemoryFormat::ChannelsLast);
  EXPECT_EQ(p.strides(), IntArrayRef({4, 1, 4, 4}));
  EXPECT_EQ(at::empty_like(p, {}, MemoryFormat::Contiguous).strides(), IntArrayRef({4, 1, 1, 1}));
  EXPECT_EQ(at::empty_like(at::empty({2, 4, 1, 1}), {}, MemoryFormat::ChannelsLast).strides(),
            IntArrayRef({4, 1, 4, 4}));
  // 5-d.
  at::Tensor c3 = at::empty({2, 3, 4, 5, 6}, {}, MemoryFormat::ChannelsLast3d);
  EXPECT_EQ(at::empty_like(c3, {}, MemoryFormat::Contiguous).strides(),
            IntArrayRef({360, 120, 30, 6, 1}));
  EXPECT_EQ(at::empty_like(at::empty({2, 3, 4, 5, 6}), {}, MemoryFormat::ChannelsLast3d).strides(),
            IntArrayRef({360, 1, 90, 18, 3}));
}

TEST(EmptyLike, Errors) {
  at::Tensor a = at::empty({2, 3});
  EXPECT_ERROR_TEXT(at::empty_like(a, {}, MemoryFormat::ChannelsLast),
                    "required rank 4 tensor to use channels_last format");
  EXPECT_ERROR_TEXT(at::empty_like(a, {}, MemoryFormat::ChannelsLast3d),
                    "required rank 5 tensor to use channels_last_3d format");
  EXPECT_ERROR_TEXT(
      at::empty_like(a, at::TensorOptions().memory_format(MemoryFormat::Contiguous),
                     MemoryFormat::Contiguous),
      "Cannot set memory_format both in TensorOptions and explicit argument; please delete "
      "the redundant setter.");
  EXPECT_ERROR_TEXT(
      at::empty_like(a, at::TensorOptions().requires_grad(true)),
      "Operators taking TensorOptions cannot take a TensorOptions with options.requires_grad "
      "set as true. This isn't implemented yet.");
  EXPECT_ERROR_TEXT(
      at::zeros_like(a, at::TensorOptions().requires_grad(true)),
      "Operators taking TensorOptions cannot take a TensorOptions with options.requires_grad "
      "set as true. This isn't implemented yet.");
  if (!has_cuda_kernel("aten::empty_strided", "")) {
    // A dense source goes through empty_strided, so that is the operator named.
    const std::string msg = error_of([&] { at::empty_like(a, at::device(c10::kCUDA)); });
    EXPECT_TRUE(starts_with(
        msg, "Could not run 'aten::empty_strided' with arguments from the 'CUDA' backend."))
        << msg;
  }
}

TEST(EmptyLike, DtypeAndDeviceOverrides) {
  at::Tensor a = at::empty({2, 3});
  at::Tensor cl = at::empty({2, 3, 4, 5}, {}, MemoryFormat::ChannelsLast);
  at::Tensor i = at::empty_like(cl, at::kInt);
  EXPECT_EQ(i.scalar_type(), at::kInt);
  EXPECT_EQ(i.strides(), IntArrayRef({60, 1, 15, 3}));
  at::Tensor h = at::empty_like(a, at::kHalf);
  EXPECT_EQ(h.scalar_type(), at::kHalf);
  EXPECT_EQ(h.storage().nbytes(), 12u);
  at::Tensor z = at::zeros_like(a, at::kLong);
  EXPECT_EQ(z.scalar_type(), at::kLong);
  EXPECT_EQ(values(z), repeated(0, 6));
  at::Tensor o = at::ones_like(a, at::kBool);
  EXPECT_EQ(o.scalar_type(), at::kBool);
  EXPECT_EQ(values(o), repeated(1, 6));
  at::Tensor f = at::full_like(a, 7, at::kInt);
  EXPECT_EQ(f.scalar_type(), at::kInt);
  EXPECT_EQ(values(f), repeated(7, 6));
  // The dtype comes from self, never from the fill value.
  at::Tensor ff = at::full_like(a, 2.5);
  EXPECT_EQ(ff.scalar_type(), at::kFloat);
  EXPECT_EQ(values(ff), repeated(2.5, 6));
  at::Tensor fi = at::full_like(at::empty({2}, at::kInt), 2.5);
  EXPECT_EQ(fi.scalar_type(), at::kInt);
  EXPECT_EQ(values(fi), repeated(2, 2));
  EXPECT_EQ(values(at::full_like(at::empty({2}, at::kByte), -1)), repeated(255, 2));
  EXPECT_ERROR_TEXT(at::full_like(at::empty({2}, at::kByte), 300),
                    "value cannot be converted to type uint8_t without overflow");

  at::Tensor m = at::empty_like(a, at::device(c10::kMeta));
  EXPECT_TRUE(m.is_meta());
  EXPECT_EQ(m.strides(), IntArrayRef({3, 1}));
  EXPECT_EQ(m.storage().nbytes(), 24u);
  EXPECT_TRUE(at::empty_like(m).is_meta());
  EXPECT_TRUE(at::zeros_like(m).is_meta());
  EXPECT_TRUE(at::ones_like(m).is_meta());
  at::Tensor back = at::empty_like(m, at::device(c10::kCPU));
  EXPECT_TRUE(back.is_cpu());
  EXPECT_EQ(back.strides(), IntArrayRef({3, 1}));
}

// ---- zeros / ones / full ------------------------------------------------------------------

TEST(Zeros, ValuesAndDtypes) {
  at::Tensor z = at::zeros({2, 3});
  EXPECT_EQ(z.scalar_type(), at::kFloat);
  EXPECT_EQ(z.strides(), IntArrayRef({3, 1}));
  EXPECT_EQ(values(z), repeated(0, 6));
  EXPECT_EQ(at::zeros({2, 3}, at::kInt).scalar_type(), at::kInt);
  at::Tensor o = at::ones({2, 3});
  EXPECT_EQ(o.scalar_type(), at::kFloat);
  EXPECT_EQ(values(o), repeated(1, 6));
  at::Tensor b = at::ones({2}, at::kBool);
  EXPECT_EQ(b.scalar_type(), at::kBool);
  EXPECT_EQ(values(b), repeated(1, 2));
  at::Tensor s = at::ones({});
  EXPECT_EQ(s.dim(), 0);
  EXPECT_EQ(values(s), repeated(1, 1));
  // zeros takes no memory format: one in the options is ignored, as is requires_grad.
  EXPECT_EQ(
      at::zeros({2, 3}, at::TensorOptions().memory_format(MemoryFormat::ChannelsLast)).strides(),
      IntArrayRef({3, 1}));
  EXPECT_EQ(at::zeros({2, 3}, at::TensorOptions().requires_grad(true)).sizes(),
            IntArrayRef({2, 3}));
  at::Tensor m = at::full({2, 3}, 1, at::device(c10::kMeta));
  EXPECT_TRUE(m.is_meta());
  EXPECT_EQ(m.scalar_type(), at::kLong);
  EXPECT_EQ(m.storage().nbytes(), 48u);
}

struct FullCase {
  const char* name;
  at::Scalar value;
  c10::optional<ScalarType> dtype;
  ScalarType expected_dtype;
  double expected_value;
};

const FullCase kFullCases[] = {
    {"IntIsLong", 3, c10::nullopt, at::kLong, 3},
    {"BigIntIsLong", int64_t(1) << 40, c10::nullopt, at::kLong, 1099511627776.0},
    {"BoolIsBool", true, c10::nullopt, at::kBool, 1},
    {"DoubleIsFloat", 2.5, c10::nullopt, at::kFloat, 2.5},
    {"DoubleAsDouble", 2.5, at::kDouble, at::kDouble, 2.5},
    {"IntAsFloat", 3, at::kFloat, at::kFloat, 3},
    {"DoubleAsIntTruncates", 2.7, at::kInt, at::kInt, 2},
    {"NegativeDoubleAsIntTruncates", -2.7, at::kInt, at::kInt, -2},
    {"MinusOneAsByteWraps", -1, at::kByte, at::kByte, 255},
    {"TwoAsBool", 2, at::kBool, at::kBool, 1},
    {"HalfAsBool", 0.5, at::kBool, at::kBool, 1},
    {"HalfMax", 65504., at::kHalf, at::kHalf, 65504},
    {"HalfInfinity", kInf, at::kHalf, at::kHalf, kInf},
    {"HugeDouble", 1e300, at::kDouble, at::kDouble, 1e300},
};

class FullTest : public ::testing::TestWithParam<FullCase> {};

TEST_P(FullTest, DtypeAndValues) {
  const FullCase& c = GetParam();
  at::Tensor t = at::full({2, 3}, c.value, at::TensorOptions().dtype(c.dtype));
  EXPECT_EQ(t.scalar_type(), c.expected_dtype);
  EXPECT_EQ(t.sizes(), IntArrayRef({2, 3}));
  EXPECT_EQ(t.strides(), IntArrayRef({3, 1}));
  EXPECT_EQ(values(t), repeated(c.expected_value, 6));
}

INSTANTIATE_TEST_SUITE_P(Values, FullTest, ::testing::ValuesIn(kFullCases),
                         [](const ::testing::TestParamInfo<FullCase>& info) {
                           return std::string(info.param.name);
                         });

TEST(Full, OverflowingValues) {
  auto full_error = [](const at::Scalar& v, c10::optional<ScalarType> dtype) {
    return error_of([&] { at::full({2}, v, at::TensorOptions().dtype(dtype)); });
  };
  EXPECT_EQ(full_error(300, at::kByte),
            "value cannot be converted to type uint8_t without overflow");
  EXPECT_EQ(full_error(128, at::kChar),
            "value cannot be converted to type int8_t without overflow");
  EXPECT_EQ(full_error(-129, at::kChar),
            "value cannot be converted to type int8_t without overflow");
  EXPECT_EQ(full_error(1e300, c10::nullopt),
            "value cannot be converted to type float without overflow");
  EXPECT_EQ(full_error(3.5e38, at::kFloat),
            "value cannot be converted to type float without overflow");
}

}  // namespace
