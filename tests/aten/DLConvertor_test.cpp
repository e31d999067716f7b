// at::toDLPack / at::fromDLPack: the DLTensor's fields for every dtype and layout, memory shared
// both ways, the deleter called exactly once, and libtorch 1.13's errors.

#include "aten/DLConvertor.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "aten/ATen.h"
#include "tests/aten/DLPackTestUtils.h"
#include "tests/aten/ErrorCase.h"

namespace {

using test_util::ErrorCase;
using K = test_util::Kind;

std::vector<int64_t> shape_of(const DLTensor& dl) {
  return {dl.shape, dl.shape + dl.ndim};
}
std::vector<int64_t> strides_of(const DLTensor& dl) {
  return {dl.strides, dl.strides + dl.ndim};
}

// Releases a DLManagedTensor the test still owns, once.
struct Release {
  DLManagedTensor* m;
  ~Release() {
    if (m != nullptr) m->deleter(m);
  }
};

TEST(DLConvertor, DtypesAsLibtorchNamesThem) {
  struct Case {
    at::ScalarType type;
    uint8_t code;
    uint8_t bits;
  };
  const Case cases[] = {{at::kByte, kDLUInt, 8},
                        {at::kChar, kDLInt, 8},
                        {at::kShort, kDLInt, 16},
                        {at::kInt, kDLInt, 32},
                        {at::kLong, kDLInt, 64},
                        {at::kHalf, kDLFloat, 16},
                        {at::kFloat, kDLFloat, 32},
                        {at::kDouble, kDLFloat, 64},
                        {at::kBFloat16, kDLBfloat, 16},
                        {at::kComplexFloat, kDLComplex, 64},
                        {at::kComplexDouble, kDLComplex, 128}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c10::toString(c.type));
    at::Tensor t = at::zeros({2, 3}, c.type);
    DLDataType dtype = at::getDLDataType(t);
    EXPECT_EQ(dtype.code, c.code);
    EXPECT_EQ(dtype.bits, c.bits);
    EXPECT_EQ(dtype.lanes, 1);
    EXPECT_EQ(at::toScalarType(dtype), c.type);
    DLManagedTensor* m = at::toDLPack(t);
    Release release{m};
    EXPECT_EQ(m->dl_tensor.dtype.code, c.code);
    at::Tensor back = at::fromDLPack(m);
    release.m = nullptr;  // fromDLPack owns it now
    EXPECT_EQ(back.scalar_type(), c.type);
    EXPECT_TRUE(back.is_alias_of(t));
  }
}

// Each layout: data is the first element, byte_offset 0, strides of size-0/1 dims written as 1
// (Note [What DLPack carries]); coming back, the same storage at the same offset.
TEST(DLConvertor, LayoutsGoOutAsLibtorchWritesThemAndComeBackOnTheirStorage) {
  at::Tensor base = at::arange(120, at::kFloat).reshape({2, 3, 4, 5});
  struct Case {
    const char* name;
    at::Tensor t;
    std::vector<int64_t> dl_strides;
  };
  const std::vector<Case> cases = {
      {"contiguous", base, {60, 20, 5, 1}},
      {"transposed", base.transpose(0, 3), {1, 20, 5, 60}},
      {"sliced", base.slice(1, 1, 2).select(3, 2), {60, 1, 5}},  // size-1 dim's stride 20 -> 1
      {"channels_last", base.contiguous(at::MemoryFormat::ChannelsLast), {60, 1, 15, 3}},
      {"zero_size", at::empty({0, 3}), {1, 1}},
      {"zero_dim", at::scalar_tensor(2.5), {}},
      {"expanded", at::arange(3.).expand({4, 3}), {0, 1}}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    DLManagedTensor* m = at::toDLPack(c.t);
    Release release{m};
    const DLTensor& dl = m->dl_tensor;
    EXPECT_EQ(dl.data, c.t.data_ptr());
    EXPECT_EQ(dl.byte_offset, 0u);
    EXPECT_EQ(dl.device.device_type, kDLCPU);
    EXPECT_EQ(dl.device.device_id, 0);
    EXPECT_EQ(dl.ndim, c.t.dim());
    EXPECT_EQ(shape_of(dl), c.t.sizes().vec());
    EXPECT_EQ(strides_of(dl), c.dl_strides);

    at::Tensor back = at::fromDLPack(m);
    release.m = nullptr;
    EXPECT_TRUE(back.is_alias_of(c.t) || c.t.storage().nbytes() == 0);
    EXPECT_EQ(back.storage_offset(), c.t.storage_offset());
    EXPECT_EQ(back.sizes(), c.t.sizes());
    EXPECT_EQ(back.strides().vec(), c.dl_strides);
    EXPECT_EQ(back.data_ptr(), c.t.data_ptr());
    EXPECT_TRUE(at::equal(back, c.t));
  }
}

TEST(DLConvertor, TheManagedTensorKeepsTheMemoryUntilItsDeleter) {
  at::Tensor t = at::arange(6, at::kLong).reshape({2, 3}).t();
  DLManagedTensor* m = at::toDLPack(t);
  t.reset();  // the producer's tensor is gone; the DLManagedTensor still holds the storage
  const auto* data = static_cast<const int64_t*>(m->dl_tensor.data);
  EXPECT_EQ(data[0], 0);
  EXPECT_EQ(data[m->dl_tensor.strides[1]], 3);  // [0][1] of the transpose is 3
  m->deleter(m);
}

// A producer of our own making: counts its deleter's calls.
struct Foreign {
  std::vector<float> values;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
  int deleted = 0;
  DLManagedTensor managed{};

  Foreign(std::vector<float> v, std::vector<int64_t> sizes, std::vector<int64_t> strides_)
      : values(std::move(v)), shape(std::move(sizes)), strides(std::move(strides_)) {
    managed.manager_ctx = this;
    managed.deleter = [](DLManagedTensor* self) {
      ++static_cast<Foreign*>(self->manager_ctx)->deleted;
    };
    managed.dl_tensor.data = values.data();
    managed.dl_tensor.device = {kDLCPU, 0};
    managed.dl_tensor.ndim = static_cast<int32_t>(shape.size());
    managed.dl_tensor.dtype = {kDLFloat, 32, 1};
    managed.dl_tensor.shape = shape.data();
    managed.dl_tensor.strides = strides.empty() ? nullptr : strides.data();
    managed.dl_tensor.byte_offset = 0;
  }
};

TEST(DLConvertor, AForeignTensorIsSharedAndItsDeleterRunsOnceWhenTheLastViewDies) {
  Foreign f({0, 1, 2, 3, 4, 5}, {3, 2}, {1, 3});
  {
    at::Tensor t = at::fromDLPack(&f.managed);
    EXPECT_EQ(t.data_ptr(), f.values.data());
    EXPECT_EQ(t.sizes(), (std::vector<int64_t>{3, 2}));
    EXPECT_EQ(t.strides(), (std::vector<int64_t>{1, 3}));
    EXPECT_EQ(t.storage_offset(), 0);
    EXPECT_EQ(t[2][1].item<float>(), 5);
    at::Tensor view = t.select(1, 1);
    t.reset();
    EXPECT_EQ(f.deleted, 0);
    view.fill_(7);  // writes reach the producer's memory
    EXPECT_EQ(f.values[3], 7);
    EXPECT_EQ(f.deleted, 0);
  }
  EXPECT_EQ(f.deleted, 1);
}

TEST(DLConvertor, NullStridesAreRowMajorAndByteOffsetIsHonoured) {
  Foreign f({0, 1, 2, 3, 4, 5, 6, 7}, {2, 3}, {});
  f.managed.dl_tensor.byte_offset = 2 * sizeof(float);  // libtorch 1.13 would read from 0
  {
    at::Tensor t = at::fromDLPack(&f.managed);
    EXPECT_EQ(t.strides(), (std::vector<int64_t>{3, 1}));
    EXPECT_EQ(t.data_ptr(), f.values.data() + 2);
    EXPECT_TRUE(at::equal(t, at::arange(2, 8, at::kFloat).reshape({2, 3})));
  }
  EXPECT_EQ(f.deleted, 1);
}

TEST(DLConvertor, ARefusedTensorIsReleasedOnce) {
  Foreign bad_dtype({0, 1}, {2}, {});
  bad_dtype.managed.dl_tensor.dtype = {kDLUInt, 32, 1};
  EXPECT_THROW(at::fromDLPack(&bad_dtype.managed), c10::Error);
  EXPECT_EQ(bad_dtype.deleted, 1);

  Foreign no_data({0, 1}, {2}, {});
  no_data.managed.dl_tensor.data = nullptr;
  EXPECT_THROW(at::fromDLPack(&no_data.managed), c10::Error);
  EXPECT_EQ(no_data.deleted, 1);

  Foreign negative({0, 1}, {-2}, {});
  EXPECT_THROW(at::fromDLPack(&negative.managed), c10::Error);
  EXPECT_EQ(negative.deleted, 1);
}

DLDataType dt(uint8_t code, uint8_t bits, uint16_t lanes = 1) {
  return {code, bits, lanes};
}

void from_device(int type) {
  dlpack_test::OneFloat m(type);
  at::fromDLPack(&m.managed);
}

// Texts from libtorch 1.13 (a program calling each, see the test's history).
const std::vector<ErrorCase>& cases() {
  static const std::vector<ErrorCase> all = {
      {"bool", [] { at::toDLPack(at::ones({2}, at::kBool)); }, K::Error,
       "Bool type is not supported by dlpack"},
      {"meta", [] { at::toDLPack(at::empty({2}, at::device(c10::kMeta))); }, K::Error,
       "Cannot pack tensors on meta"},
      {"uint16", [] { at::toScalarType(dt(kDLUInt, 16)); }, K::Error, "Unsupported kUInt bits 16"},
      {"uint1", [] { at::toScalarType(dt(kDLUInt, 1)); }, K::Error, "Unsupported kUInt bits 1"},
      {"int7", [] { at::toScalarType(dt(kDLInt, 7)); }, K::Error, "Unsupported kInt bits 7"},
      {"float8", [] { at::toScalarType(dt(kDLFloat, 8)); }, K::Error, "Unsupported kFloat bits 8"},
      {"bfloat32", [] { at::toScalarType(dt(kDLBfloat, 32)); }, K::Error,
       "Unsupported kFloat bits 32"},
      {"lanes", [] { at::toScalarType(dt(kDLFloat, 32, 4)); }, K::Error,
       "ATen does not support lanes != 1"},
      {"opaque", [] { at::toScalarType(dt(kDLOpaqueHandle, 32)); }, K::Error, "Unsupported code 3"},
      {"vulkan", [] { from_device(kDLVulkan); }, K::Error, "Unsupported device_type: 7"},
      {"unknown_device", [] { from_device(99); }, K::Error, "Unsupported device_type: 99"}};
  return all;
}

class DLConvertorErrors : public ::testing::TestWithParam<ErrorCase> {};
TEST_P(DLConvertorErrors, ExactTextAndType) {
  test_util::expect_error_case(GetParam());
}
INSTANTIATE_TEST_SUITE_P(DLPack, DLConvertorErrors, ::testing::ValuesIn(cases()),
                         test_util::case_name<ErrorCase>);

}  // namespace
