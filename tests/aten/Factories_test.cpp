// The factories (empty, empty_strided, empty_like, zeros, ones, full, arange, *_like,
// scalar_tensor, at::tensor) and fill_ / zero_ / item, against libtorch 1.13. Every expected
// size, stride, value and error text below was printed by libtorch 1.13 running the same call.
//
// Views are built by hand (a TensorImpl sharing the storage, then set_sizes_and_strides), the
// way libtorch's slice/permute/expand would leave them; the comment beside each names the
// libtorch call it stands for.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "aten/ATen.h"
#include "aten/Dispatch.h"
#include "tests/TestUtils.h"

namespace {

using at::MemoryFormat;
using c10::IntArrayRef;
using c10::ScalarType;

using test_util::error_of;

// Expects `statement` to throw exactly `text`.
#define EXPECT_ERROR_TEXT(statement, text) EXPECT_EQ(error_of([&] { statement; }), text)

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

// A strided view of base's storage, as a view op would make it.
at::Tensor make_view(const at::Tensor& base, IntArrayRef sizes, IntArrayRef strides,
                     int64_t storage_offset = 0) {
  auto impl = c10::make_intrusive<c10::TensorImpl>(c10::Storage(base.storage()), base.key_set(),
                                                   base.dtype());
  impl->set_sizes_and_strides(sizes, strides, storage_offset);
  return at::Tensor(std::move(impl));
}

// The elements in logical (row-major) order, read through the strides.
std::vector<double> values(const at::Tensor& t) {
  std::vector<double> out;
  AT_DISPATCH_ALL_MINIATEN_TYPES(t.scalar_type(), "values", [&] {
    const scalar_t* data = t.data_ptr<scalar_t>();
    for (int64_t i = 0; i < t.numel(); ++i) {
      int64_t offset = 0;
      int64_t rest = i;
      for (int64_t d = t.dim() - 1; d >= 0; --d) {
        offset += (rest % t.size(d)) * t.stride(d);
        rest /= t.size(d);
      }
      out.push_back(static_cast<double>(data[offset]));
    }
  });
  return out;
}

std::vector<double> repeated(double v, size_t n) {
  return std::vector<double>(n, v);
}

// NaN compares equal to NaN.
void expect_same_values(const std::vector<double>& actual, const std::vector<double>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    if (std::isnan(expected[i])) {
      EXPECT_TRUE(std::isnan(actual[i])) << "element " << i;
    } else {
      EXPECT_EQ(actual[i], expected[i]) << "element " << i;
    }
  }
}

bool has_cuda_kernel(const char* name, const char* overload) {
  return c10::Dispatcher::singleton()
      .findSchemaOrThrow(name, overload)
      .hasKernelForDispatchKey(c10::DispatchKey::CUDA);
}

struct CapturedWarnings : c10::WarningHandler {
  void process(const c10::SourceLocation&, const std::string& msg, bool) override {
    messages.push_back(msg);
  }
  std::vector<std::string> messages;
};

const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

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

// ---- arange -------------------------------------------------------------------------------

TEST(Arange, OverloadsAndDtypeRules) {
  at::Tensor a = at::arange(5);
  EXPECT_EQ(a.scalar_type(), at::kLong);
  EXPECT_EQ(a.sizes(), IntArrayRef({5}));
  EXPECT_EQ(values(a), std::vector<double>({0, 1, 2, 3, 4}));
  EXPECT_EQ(at::arange(5.).scalar_type(), at::kFloat);
  EXPECT_EQ(at::arange(5, at::kDouble).scalar_type(), at::kDouble);
  at::Tensor b = at::arange(1, 4);
  EXPECT_EQ(b.scalar_type(), at::kLong);
  EXPECT_EQ(values(b), std::vector<double>({1, 2, 3}));
  at::Tensor c = at::arange(1, 4.);
  EXPECT_EQ(c.scalar_type(), at::kFloat);
  EXPECT_EQ(values(c), std::vector<double>({1, 2, 3}));
  // A bool bound counts as an integer.
  at::Tensor t = at::arange(true);
  EXPECT_EQ(t.scalar_type(), at::kLong);
  EXPECT_EQ(values(t), std::vector<double>({0}));
  at::Tensor e = at::arange(0, 0);
  EXPECT_EQ(e.sizes(), IntArrayRef({0}));
  EXPECT_EQ(e.strides(), IntArrayRef({1}));
  at::Tensor m = at::arange(5, at::device(c10::kMeta));
  EXPECT_TRUE(m.is_meta());
  EXPECT_EQ(m.scalar_type(), at::kLong);
  EXPECT_EQ(m.sizes(), IntArrayRef({5}));
  EXPECT_EQ(m.storage().nbytes(), 40u);
}

struct ArangeCase {
  const char* name;
  at::Scalar start, end, step;
  c10::optional<ScalarType> dtype;
  ScalarType expected_dtype;
  std::vector<double> expected;
};

const ArangeCase kArangeCases[] = {
    {"IntStep3", 0, 10, 3, c10::nullopt, at::kLong, {0, 3, 6, 9}},
    {"IntStep4", 0, 10, 4, c10::nullopt, at::kLong, {0, 4, 8}},
    {"IntStep4AsInt", 0, 10, 4, at::kInt, at::kInt, {0, 4, 8}},
    {"IntStep4AsFloat", 0, 10, 4, at::kFloat, at::kFloat, {0, 4, 8}},
    {"NegativeStep3", 10, 0, -3, c10::nullopt, at::kLong, {10, 7, 4, 1}},
    {"NegativeStep4", 10, 0, -4, c10::nullopt, at::kLong, {10, 6, 2}},
    {"FloatTenths",
     0,
     1,
     0.1,
     c10::nullopt,
     at::kFloat,
     {0, 0.10000000149011612, 0.20000000298023224, 0.30000001192092896, 0.40000000596046448, 0.5,
      0.60000002384185791, 0.69999998807907104, 0.80000001192092896, 0.89999997615814209}},
    {"FloatThirds",
     -1.0,
     1.0,
     0.3,
     c10::nullopt,
     at::kFloat,
     {-1, -0.69999998807907104, -0.40000000596046448, -0.10000000149011612, 0.20000000298023224,
      0.5, 0.80000001192092896}},
    {"DoubleTenths",
     0,
     1,
     0.1,
     at::kDouble,
     at::kDouble,
     {0, 0.10000000000000001, 0.20000000000000001, 0.30000000000000004, 0.40000000000000002, 0.5,
      0.60000000000000009, 0.70000000000000007, 0.80000000000000004, 0.90000000000000002}},
    // Each element rounded once, as fma(step, i, start): -0.10000000000000003, not ...09.
    {"DoubleThirds",
     -1.0,
     1.0,
     0.3,
     at::kDouble,
     at::kDouble,
     {-1, -0.69999999999999996, -0.40000000000000002, -0.10000000000000003, 0.19999999999999996,
      0.49999999999999994, 0.79999999999999993}},
    {"HalfTenths",
     0,
     1,
     0.1,
     at::kHalf,
     at::kHalf,
     {0, 0.0999755859375, 0.199951171875, 0.300048828125, 0.39990234375, 0.5, 0.60009765625,
      0.7001953125, 0.7998046875, 0.89990234375}},
    {"BFloat16Tenths",
     0,
     1,
     0.1,
     at::kBFloat16,
     at::kBFloat16,
     {0, 0.10009765625, 0.2001953125, 0.30078125, 0.400390625, 0.5, 0.6015625, 0.69921875,
      0.80078125, 0.8984375}},
    // An integer dtype converts the step first: Int sizes the range with the double step (4
    // elements) but steps by int(1.5) == 1; Long does both with int64 (5 elements).
    {"FractionalStepAsInt", 0, 5, 1.5, at::kInt, at::kInt, {0, 1, 2, 3}},
    {"FractionalStepAsLong", 0, 5, 1.5, at::kLong, at::kLong, {0, 1, 2, 3, 4}},
    {"ByteWraps", 250, 260, 1, at::kByte, at::kByte, {250, 251, 252, 253, 254, 255, 0, 1, 2, 3}},
};

class ArangeTest : public ::testing::TestWithParam<ArangeCase> {};

TEST_P(ArangeTest, SizeDtypeAndValues) {
  const ArangeCase& c = GetParam();
  at::Tensor t = at::arange(c.start, c.end, c.step, at::TensorOptions().dtype(c.dtype));
  EXPECT_EQ(t.scalar_type(), c.expected_dtype);
  EXPECT_EQ(t.sizes(), IntArrayRef({static_cast<int64_t>(c.expected.size())}));
  EXPECT_EQ(t.strides(), IntArrayRef({1}));
  EXPECT_EQ(values(t), c.expected);
}

INSTANTIATE_TEST_SUITE_P(Ranges, ArangeTest, ::testing::ValuesIn(kArangeCases),
                         [](const ::testing::TestParamInfo<ArangeCase>& info) {
                           return std::string(info.param.name);
                         });

TEST(Arange, LongFloatRangesAgreeToTheUlp) {
  // libtorch's vectorized loop adds k*step to a float base every 8 elements, so some elements
  // differ from float(start + i*step) in the last bit (element 9 is 0.90000003576278687 in
  // libtorch, not 0.89999997615814209); miniaten computes every element as the latter.
  const std::vector<double> libtorch = {
      0,   0.10000000149011612, 0.20000000298023224, 0.30000001192092896, 0.40000000596046448,
      0.5, 0.60000002384185791, 0.69999998807907104, 0.80000001192092896, 0.90000003576278687,
      1,   1.1000000238418579,  1.2000000476837158,  1.2999999523162842,  1.3999999761581421,
      1.5, 1.6000000238418579,  1.7000000476837158,  1.7999999523162842,  1.8999999761581421,
      2,   2.0999999046325684,  2.2000000476837158,  2.2999999523162842,  2.4000000953674316};
  const std::vector<double> actual = values(at::arange(0, 2.5, 0.1));
  ASSERT_EQ(actual.size(), libtorch.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    EXPECT_FLOAT_EQ(static_cast<float>(actual[i]), static_cast<float>(libtorch[i])) << i;
  }
}

TEST(Arange, Errors) {
  EXPECT_ERROR_TEXT(at::arange(0, 5, 0), "step must be nonzero");
  EXPECT_ERROR_TEXT(at::arange(0., 5., 0.), "step must be nonzero");
  // A Long range converts the step to int64 first, so 0.5 becomes 0.
  EXPECT_ERROR_TEXT(at::arange(0, 5, 0.5, at::kLong), "step must be nonzero");
  EXPECT_ERROR_TEXT(at::arange(5, 0, 1),
                    "upper bound and larger bound inconsistent with step sign");
  EXPECT_ERROR_TEXT(at::arange(0, 5, -1),
                    "upper bound and larger bound inconsistent with step sign");
  EXPECT_ERROR_TEXT(at::arange(-3, at::kByte),
                    "upper bound and larger bound inconsistent with step sign");
  EXPECT_ERROR_TEXT(at::arange(0., kInf), "unsupported range: 0 -> inf");
  EXPECT_ERROR_TEXT(at::arange(3, at::kBool), "\"arange_cpu\" not implemented for 'Bool'");
}

TEST(ArangeOut, ResizesAWrongSizedOutWithAWarning) {
  CapturedWarnings warnings;
  c10::WarningUtils::WarningHandlerGuard guard(&warnings);
  at::Tensor out = at::empty({3});
  at::Tensor& result = at::arange_out(out, 0, 5, 1);
  EXPECT_TRUE(result.is_same(out));
  EXPECT_EQ(out.sizes(), IntArrayRef({5}));
  EXPECT_EQ(out.scalar_type(), at::kFloat);
  EXPECT_EQ(values(out), std::vector<double>({0, 1, 2, 3, 4}));
  EXPECT_EQ(out._version(), 1);
  ASSERT_EQ(warnings.messages.size(), 1u);
  EXPECT_EQ(warnings.messages[0],
            "The number of elements in the out tensor of shape [3] is 3 which does not match the "
            "computed number of elements 5. Note that this may occur as a result of rounding "
            "error. The out tensor will be resized to a tensor of shape (5,).");

  // A 2-d out with the wrong count also becomes 1-d.
  at::Tensor grid = at::empty({2, 2}, at::kLong);
  at::arange_out(grid, 0, 6, 1);
  EXPECT_EQ(grid.sizes(), IntArrayRef({6}));
  EXPECT_EQ(values(grid), std::vector<double>({0, 1, 2, 3, 4, 5}));
  ASSERT_EQ(warnings.messages.size(), 2u);
  EXPECT_EQ(warnings.messages[1],
            "The number of elements in the out tensor of shape [2, 2] is 4 which does not match "
            "the computed number of elements 6. Note that this may occur as a result of rounding "
            "error. The out tensor will be resized to a tensor of shape (6,).");

  // Shrinking keeps the storage.
  at::Tensor big = at::empty({20});
  at::arange_out(big, 0, 5, 1);
  EXPECT_EQ(big.sizes(), IntArrayRef({5}));
  EXPECT_EQ(big.storage().nbytes(), 80u);
  EXPECT_EQ(warnings.messages.size(), 3u);

  // Meta outs are resized too.
  at::Tensor meta = at::empty({3}, at::device(c10::kMeta));
  at::arange_out(meta, 0, 5, 1);
  EXPECT_EQ(meta.sizes(), IntArrayRef({5}));
  EXPECT_EQ(meta.storage().nbytes(), 20u);
  EXPECT_EQ(meta._version(), 1);
  EXPECT_EQ(warnings.messages.size(), 4u);
}

TEST(ArangeOut, NoWarningForAnEmptyOrRightSizedOut) {
  CapturedWarnings warnings;
  c10::WarningUtils::WarningHandlerGuard guard(&warnings);
  at::Tensor empty = at::empty({0}, at::kInt);
  at::arange_out(empty, 0, 5, 1);
  EXPECT_EQ(empty.sizes(), IntArrayRef({5}));
  EXPECT_EQ(values(empty), std::vector<double>({0, 1, 2, 3, 4}));

  at::Tensor exact = at::empty({5}, at::kLong);
  const void* data = exact.data_ptr();
  at::arange_out(exact, 0, 5, 1);
  EXPECT_EQ(exact.data_ptr(), data);

  // The right number of elements in another shape: the shape stays, filled in row-major order.
  at::Tensor grid = at::zeros({2, 3}, at::kLong);
  at::arange_out(grid, 0, 6, 1);
  EXPECT_EQ(grid.sizes(), IntArrayRef({2, 3}));
  EXPECT_EQ(values(grid), std::vector<double>({0, 1, 2, 3, 4, 5}));
  EXPECT_TRUE(warnings.messages.empty());
}

TEST(ArangeOut, NonContiguousOut) {
  // Every other element of a buffer.
  at::Tensor buffer = at::zeros({10}, at::kLong);
  at::Tensor strided = make_view(buffer, {5}, {2});
  at::arange_out(strided, 0, 5, 1);
  EXPECT_EQ(values(buffer), std::vector<double>({0, 0, 1, 0, 2, 0, 3, 0, 4, 0}));
  // A transposed out: element (i, j) gets its row-major index.
  at::Tensor base = at::zeros({2, 3}, at::kLong);
  at::Tensor transposed = make_view(base, {3, 2}, {1, 3});
  at::arange_out(transposed, 0, 6, 1);
  EXPECT_EQ(values(transposed), std::vector<double>({0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(values(base), std::vector<double>({0, 2, 4, 1, 3, 5}));
}

// ---- scalar_tensor and at::tensor ---------------------------------------------------------

TEST(ScalarTensor, DefaultsToFloatWhateverTheScalar) {
  for (const at::Scalar& s : {at::Scalar(3), at::Scalar(2.5), at::Scalar(true)}) {
    at::Tensor t = at::scalar_tensor(s);
    EXPECT_EQ(t.dim(), 0);
    EXPECT_EQ(t.strides(), IntArrayRef({}));
    EXPECT_EQ(t.scalar_type(), at::kFloat);
    EXPECT_EQ(values(t), repeated(s.toDouble(), 1));
  }
  at::Tensor l = at::scalar_tensor(3, at::kLong);
  EXPECT_EQ(l.scalar_type(), at::kLong);
  EXPECT_EQ(values(l), repeated(3, 1));
  at::Tensor i = at::scalar_tensor(2.5, at::kInt);
  EXPECT_EQ(values(i), repeated(2, 1));
  EXPECT_ERROR_TEXT(at::scalar_tensor(300, at::kByte),
                    "value cannot be converted to type uint8_t without overflow");
  at::Tensor m = at::scalar_tensor(1, at::device(c10::kMeta));
  EXPECT_TRUE(m.is_meta());
  EXPECT_EQ(m.dim(), 0);
  EXPECT_EQ(m.scalar_type(), at::kFloat);
}

TEST(TensorFromValues, DtypeFollowsTheCppType) {
  at::Tensor i = at::tensor({1, 2, 3});
  EXPECT_EQ(i.scalar_type(), at::kInt);
  EXPECT_EQ(i.sizes(), IntArrayRef({3}));
  EXPECT_EQ(values(i), std::vector<double>({1, 2, 3}));
  at::Tensor d = at::tensor({1.5, 2.5});
  EXPECT_EQ(d.scalar_type(), at::kDouble);
  EXPECT_EQ(values(d), std::vector<double>({1.5, 2.5}));
  EXPECT_EQ(at::tensor({1.5f}).scalar_type(), at::kFloat);
  EXPECT_EQ(at::tensor({uint8_t(1)}).scalar_type(), at::kByte);
  EXPECT_EQ(at::tensor({int8_t(1)}).scalar_type(), at::kChar);
  EXPECT_EQ(at::tensor({int16_t(1)}).scalar_type(), at::kShort);
  at::Tensor v = at::tensor(std::vector<int64_t>{4, 5});
  EXPECT_EQ(v.scalar_type(), at::kLong);
  EXPECT_EQ(values(v), std::vector<double>({4, 5}));
  // A single value is a 1-element 1-d tensor, not a 0-dim one.
  at::Tensor one = at::tensor(int64_t(4));
  EXPECT_EQ(one.scalar_type(), at::kLong);
  EXPECT_EQ(one.sizes(), IntArrayRef({1}));
  EXPECT_EQ(at::tensor(7).scalar_type(), at::kInt);
  at::Tensor none = at::tensor(std::vector<double>{});
  EXPECT_EQ(none.sizes(), IntArrayRef({0}));
  EXPECT_EQ(none.strides(), IntArrayRef({1}));
  EXPECT_EQ(none.scalar_type(), at::kDouble);
  EXPECT_EQ(i._version(), 0);
}

TEST(TensorFromValues, WithOptions) {
  at::Tensor f = at::tensor({1, 2, 3}, at::kFloat);
  EXPECT_EQ(f.scalar_type(), at::kFloat);
  EXPECT_EQ(values(f), std::vector<double>({1, 2, 3}));
  // static_cast semantics: truncation toward zero, modular wrap into uint8.
  EXPECT_EQ(values(at::tensor({1.5, 2.7, -1.5}, at::kInt)), std::vector<double>({1, 2, -1}));
  EXPECT_EQ(values(at::tensor({300, -1}, at::kByte)), std::vector<double>({44, 255}));
  // Options that name no dtype mean Float.
  EXPECT_EQ(at::tensor({1, 2}, at::TensorOptions()).scalar_type(), at::kFloat);
  at::Tensor m = at::tensor({1, 2}, at::device(c10::kMeta));
  EXPECT_TRUE(m.is_meta());
  EXPECT_EQ(m.scalar_type(), at::kFloat);
  EXPECT_EQ(m.sizes(), IntArrayRef({2}));
  EXPECT_ERROR_TEXT(
      at::tensor({1, 2}, at::TensorOptions().requires_grad(true)),
      "Operators taking TensorOptions cannot take a TensorOptions with options.requires_grad "
      "set as true. This isn't implemented yet.");
}

TEST(TensorFromValues, BoolHalfBFloat16AreAMiniatenExtension) {
  // libtorch 1.13 declares these overloads but its tensor_cpu does not dispatch on the types:
  // "\"tensor_cpu\" not implemented for 'Bool'" (and 'Half', 'BFloat16'). miniaten builds them.
  at::Tensor b = at::tensor({true, false});
  EXPECT_EQ(b.scalar_type(), at::kBool);
  EXPECT_EQ(values(b), std::vector<double>({1, 0}));
  EXPECT_EQ(values(at::tensor({0.0, 0.5, 2.0}, at::kBool)), std::vector<double>({0, 1, 1}));
  at::Tensor h = at::tensor({c10::Half(1.5f)});
  EXPECT_EQ(h.scalar_type(), at::kHalf);
  EXPECT_EQ(values(h), std::vector<double>({1.5}));
  EXPECT_EQ(values(at::tensor({1.1, 2.2}, at::kHalf)),
            std::vector<double>({1.099609375, 2.19921875}));
  EXPECT_EQ(at::tensor({c10::BFloat16(1.5f)}).scalar_type(), at::kBFloat16);
}

// ---- fill_ and zero_ ----------------------------------------------------------------------

TEST(Fill, NonContiguousViewReturnsSelfAndBumpsTheVersion) {
  at::Tensor base = at::zeros({3, 4});
  at::Tensor view = make_view(base, {2, 2}, {4, 2}, /*storage_offset=*/1);
  EXPECT_EQ(view._version(), 0);
  const at::Tensor& result = view.fill_(5);
  EXPECT_TRUE(result.is_same(view));
  EXPECT_EQ(view._version(), 1);
  EXPECT_EQ(values(base), std::vector<double>({0, 5, 0, 5, 0, 5, 0, 5, 0, 0, 0, 0}));
  at::Tensor& same = at::fill_(view, 6);
  EXPECT_TRUE(same.is_same(view));
  EXPECT_EQ(view._version(), 2);
  EXPECT_EQ(values(view), repeated(6, 4));
}

struct FillCase {
  const char* name;
  ScalarType dtype;
  at::Scalar value;
  double expected;            // when it fits
  const char* overflow_type;  // when it does not: the type named in the error
};

const FillCase kFillCases[] = {
    {"ByteMinusOneWraps", at::kByte, -1, 255, nullptr},
    {"Byte255", at::kByte, 255, 255, nullptr},
    {"Byte256", at::kByte, 256, 0, "uint8_t"},
    {"Byte300", at::kByte, 300, 0, "uint8_t"},
    {"ByteMinus256", at::kByte, -256, 0, "uint8_t"},
    {"Byte300Point5", at::kByte, 300.5, 0, "uint8_t"},
    {"ByteMinus1Point5", at::kByte, -1.5, 0, "uint8_t"},
    {"Char200", at::kChar, 200, 0, "int8_t"},
    {"CharMinus129", at::kChar, -129, 0, "int8_t"},
    {"CharMinus128", at::kChar, -128, -128, nullptr},
    {"Short40000", at::kShort, 40000, 0, "int16_t"},
    {"ShortMin", at::kShort, -32768, -32768, nullptr},
    {"Int2Point9Truncates", at::kInt, 2.9, 2, nullptr},
    {"IntTrue", at::kInt, true, 1, nullptr},
    {"Long9Point2e18", at::kLong, 9.2e18, 9.2e18, nullptr},
    {"Long1e19", at::kLong, 1e19, 0, "int64_t"},
    {"BoolTwo", at::kBool, 2, 1, nullptr},
    {"BoolMinusOne", at::kBool, -1, 1, nullptr},
    {"BoolHalf", at::kBool, 0.5, 1, nullptr},
    {"Half65504", at::kHalf, 65504, 65504, nullptr},
    {"HalfInfinity", at::kHalf, kInf, kInf, nullptr},
    {"HalfNaN", at::kHalf, kNaN, kNaN, nullptr},
    {"FloatBigInt", at::kFloat, int64_t(1) << 62, 4.6116860184273879e+18, nullptr},
    {"Float1e300", at::kFloat, 1e300, 0, "float"},
    {"Double1e300", at::kDouble, 1e300, 1e300, nullptr},
};

class FillTest : public ::testing::TestWithParam<FillCase> {};

TEST_P(FillTest, ValueOrOverflowError) {
  const FillCase& c = GetParam();
  at::Tensor t = at::zeros({2}, c.dtype);
  EXPECT_EQ(t._version(), 1);
  if (c.overflow_type == nullptr) {
    EXPECT_TRUE(t.fill_(c.value).is_same(t));
    expect_same_values(values(t), repeated(c.expected, 2));
    EXPECT_EQ(t._version(), 2);
  } else {
    EXPECT_EQ(
        error_of([&] { t.fill_(c.value); }),
        std::string("value cannot be converted to type ") + c.overflow_type + " without overflow");
    EXPECT_EQ(values(t), repeated(0, 2));
    EXPECT_EQ(t._version(), 1);  // a failed fill_ is not a write
  }
}

INSTANTIATE_TEST_SUITE_P(Values, FillTest, ::testing::ValuesIn(kFillCases),
                         [](const ::testing::TestParamInfo<FillCase>& info) {
                           return std::string(info.param.name);
                         });

// libtorch names these types "int", "at::Half" and "at::BFloat16", and checks integer sources
// against Half's range too. Both live in c10::Scalar::to (c10/core/Scalar.h); enable this test
// when it matches.
TEST(Fill, OverflowTypeNamesAsLibtorch) {
  auto fill_error = [](ScalarType dtype, const at::Scalar& v) {
    return error_of([&] { at::zeros({2}, dtype).fill_(v); });
  };
  EXPECT_EQ(fill_error(at::kInt, int64_t(1) << 40),
            "value cannot be converted to type int without overflow");
  EXPECT_EQ(fill_error(at::kInt, 1e10), "value cannot be converted to type int without overflow");
  EXPECT_EQ(fill_error(at::kInt, kNaN), "value cannot be converted to type int without overflow");
  EXPECT_EQ(fill_error(at::kHalf, 70000),
            "value cannot be converted to type at::Half without overflow");
  EXPECT_EQ(fill_error(at::kHalf, 65520.),
            "value cannot be converted to type at::Half without overflow");
  EXPECT_EQ(fill_error(at::kHalf, 1e300),
            "value cannot be converted to type at::Half without overflow");
  EXPECT_EQ(fill_error(at::kBFloat16, 3.5e38),
            "value cannot be converted to type at::BFloat16 without overflow");
}

TEST(Fill, WithAZeroDimTensor) {
  at::Tensor t = at::zeros({2, 3});
  at::Tensor v = at::full({}, 2.5, at::kDouble);
  EXPECT_TRUE(t.fill_(v).is_same(t));
  EXPECT_EQ(values(t), repeated(2.5, 6));
  EXPECT_EQ(t._version(), 2);
  EXPECT_EQ(v._version(), 1);  // the value is only read
  // The value converts as a Scalar would: truncated, and checked for overflow.
  at::Tensor i = at::zeros({2}, at::kInt);
  at::fill_(i, at::scalar_tensor(2.7));
  EXPECT_EQ(values(i), repeated(2, 2));
  at::fill_(i, at::scalar_tensor(300., at::kDouble));
  EXPECT_EQ(values(i), repeated(300, 2));
  at::Tensor b = at::zeros({2}, at::kByte);
  EXPECT_ERROR_TEXT(b.fill_(at::scalar_tensor(300, at::kLong)),
                    "value cannot be converted to type uint8_t without overflow");
  b.fill_(at::scalar_tensor(-1, at::kLong));
  EXPECT_EQ(values(b), repeated(255, 2));
  b.fill_(at::ones({}, at::kBool));
  EXPECT_EQ(values(b), repeated(1, 2));
  EXPECT_EQ(b._version(), 3);
  // A tensor filled from itself.
  at::Tensor self = at::full({}, 4.);
  EXPECT_TRUE(self.fill_(self).is_same(self));
  EXPECT_EQ(values(self), repeated(4, 1));
}

TEST(Fill, OnlyZeroDimValueTensors) {
  at::Tensor t = at::zeros({2}, at::kByte);
  EXPECT_ERROR_TEXT(
      t.fill_(at::ones({1})),
      "fill_ only supports 0-dimension value tensor but got tensor with 1 dimensions.");
  EXPECT_ERROR_TEXT(
      t.fill_(at::ones({2, 3})),
      "fill_ only supports 0-dimension value tensor but got tensor with 2 dimensions.");
  at::Tensor m = at::empty({2, 3}, at::device(c10::kMeta));
  EXPECT_ERROR_TEXT(
      m.fill_(at::ones({2})),
      "fill_ only supports 0-dimension value tensor but got tensor with 1 dimensions.");
  EXPECT_EQ(values(t), repeated(0, 2));
}

TEST(Fill, MetaTensorsCountWritesButHoldNothing) {
  at::Tensor m = at::empty({2, 3}, at::device(c10::kMeta));
  EXPECT_TRUE(m.fill_(1).is_same(m));
  EXPECT_EQ(m._version(), 1);
  EXPECT_TRUE(m.zero_().is_same(m));
  EXPECT_EQ(m._version(), 2);
  EXPECT_TRUE(m.fill_(at::scalar_tensor(1)).is_same(m));
  EXPECT_EQ(m.data_ptr(), nullptr);
}

TEST(Zero, NonContiguousViewReturnsSelf) {
  at::Tensor base = at::ones({3, 4});
  at::Tensor view = make_view(base, {3, 2}, {4, 2});
  const at::Tensor& result = view.zero_();
  EXPECT_TRUE(result.is_same(view));
  EXPECT_EQ(view._version(), 1);
  EXPECT_EQ(values(base), std::vector<double>({0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1}));
  EXPECT_TRUE(at::zero_(base).is_same(base));
  EXPECT_EQ(base._version(), 2);
  EXPECT_EQ(values(base), repeated(0, 12));
}

TEST(Versions, OfFreshTensors) {
  // What libtorch reports for a tensor straight out of each factory: the composites that fill
  // through an in-place op count that write.
  EXPECT_EQ(at::empty({2})._version(), 0);
  EXPECT_EQ(at::empty_strided({2}, {1})._version(), 0);
  EXPECT_EQ(at::empty_like(at::ones({2}))._version(), 0);
  EXPECT_EQ(at::tensor({1, 2})._version(), 0);
  EXPECT_EQ(at::zeros({2})._version(), 1);
  EXPECT_EQ(at::ones({2})._version(), 1);
  EXPECT_EQ(at::full({2}, 1)._version(), 1);
  EXPECT_EQ(at::arange(3)._version(), 1);
  EXPECT_EQ(at::zeros({2}, at::device(c10::kMeta))._version(), 1);
}

// ---- item and _local_scalar_dense ---------------------------------------------------------

TEST(Item, NeedsExactlyOneElement) {
  EXPECT_ERROR_TEXT(at::ones({2, 3}).item(),
                    "a Tensor with 6 elements cannot be converted to Scalar");
  EXPECT_ERROR_TEXT(at::ones({0}).item(), "a Tensor with 0 elements cannot be converted to Scalar");
  // Any shape with one element will do, and a view reads at its offset.
  EXPECT_EQ(at::full({1, 1, 1}, -5, at::kChar).item().toLong(), -5);
  at::Tensor base = at::zeros({2, 3});
  base.data_ptr<float>()[4] = 9;
  EXPECT_EQ(make_view(base, {1}, {1}, 4).item().toDouble(), 9);
  // _local_scalar_dense does not check: it reads the first element.
  EXPECT_EQ(at::_local_scalar_dense(at::arange(1, 4)).toLong(), 1);
}

struct ItemCase {
  ScalarType dtype;
  at::Scalar fill;
  ScalarType scalar_type;  // of the Scalar item() returns
  double value;
};

const ItemCase kItemCases[] = {
    {at::kByte, 200, at::kLong, 200},
    {at::kChar, -5, at::kLong, -5},
    {at::kShort, 3, at::kLong, 3},
    {at::kInt, 3, at::kLong, 3},
    {at::kLong, int64_t(1) << 40, at::kLong, 1099511627776.0},
    {at::kHalf, 1.1, at::kDouble, 1.099609375},
    {at::kBFloat16, 1.1, at::kDouble, 1.1015625},
    {at::kFloat, 1.1, at::kDouble, 1.1000000238418579},
    {at::kDouble, 1.1, at::kDouble, 1.1000000000000001},
    {at::kBool, true, at::kBool, 1},
};

class ItemTest : public ::testing::TestWithParam<ItemCase> {};

TEST_P(ItemTest, ScalarKindAndValue) {
  const ItemCase& c = GetParam();
  at::Tensor t = at::full({1, 1}, c.fill, c.dtype);
  const at::Scalar s = t.item();
  EXPECT_EQ(s.type(), c.scalar_type);
  EXPECT_EQ(s.isFloatingPoint(), c.scalar_type == at::kDouble);
  EXPECT_EQ(s.isIntegral(/*includeBool=*/false), c.scalar_type == at::kLong);
  EXPECT_EQ(s.isBoolean(), c.scalar_type == at::kBool);
  EXPECT_EQ(s.toDouble(), c.value);
  const at::Scalar dense = at::_local_scalar_dense(t);
  EXPECT_EQ(dense.type(), c.scalar_type);
  EXPECT_EQ(dense.toDouble(), c.value);
}

INSTANTIATE_TEST_SUITE_P(Dtypes, ItemTest, ::testing::ValuesIn(kItemCases),
                         [](const ::testing::TestParamInfo<ItemCase>& info) {
                           return std::string(c10::toString(info.param.dtype));
                         });

}  // namespace
