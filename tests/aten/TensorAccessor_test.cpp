// Tensor::accessor / packed_accessor32 / packed_accessor64: typed views of a tensor's elements
// through its own strides, with libtorch 1.13's checks and texts.
#include <gtest/gtest.h>

#include <type_traits>

#include "aten/ATen.h"
#include "tests/TestUtils.h"

namespace {

using test_util::error_of;

TEST(TensorAccessor, ReadsAndWritesThroughTheStrides) {
  at::Tensor t = at::zeros({2, 3, 4});
  auto a = t.accessor<float, 3>();
  EXPECT_EQ(a.size(0), 2);
  EXPECT_EQ(a.size(2), 4);
  EXPECT_EQ(a.stride(0), 12);
  EXPECT_EQ(a.stride(1), 4);
  EXPECT_EQ(a.sizes(), c10::IntArrayRef({2, 3, 4}));
  EXPECT_EQ(a.strides(), c10::IntArrayRef({12, 4, 1}));
  a[1][2][3] = 7;
  EXPECT_EQ(t[1][2][3].item<float>(), 7);
  EXPECT_EQ(a[1].data() - a.data(), 12);
  EXPECT_EQ(a[1].size(0), 3);
  static_assert(std::is_same<decltype(a[1][2][3]), float&>::value, "one dim left is a T&");

  // A transposed view: the accessor follows its strides.
  auto tr = t.transpose(0, 2);
  auto ta = tr.accessor<float, 3>();
  EXPECT_EQ(ta[3][2][1], 7);
}

TEST(TensorAccessor, PackedAccessorsCopyTheGeometry) {
  at::Tensor t = at::arange(24, at::kLong).view({2, 3, 4});
  auto p64 = t.packed_accessor64<int64_t, 3>();
  auto p32 = t.packed_accessor32<int64_t, 3>();
  static_assert(std::is_same<decltype(p32), at::PackedTensorAccessor32<int64_t, 3>>::value, "");
  EXPECT_EQ(p64[1][2][3], 23);
  EXPECT_EQ(p32[1][0][1], 13);
  EXPECT_EQ(p64.size(2), 4);
  EXPECT_EQ(p32.stride(0), 12);
  // libtorch's sizes: a pointer and N sizes and strides of index_t.
  EXPECT_EQ(sizeof(p32), 32u);
  EXPECT_EQ(sizeof(p64), 56u);
  // Still valid after the tensor's geometry changes: the packed form owns its copy.
  t.unsafeGetTensorImpl()->set_sizes_contiguous({24});
  EXPECT_EQ(p64[1][2][3], 23);
  auto r = t.packed_accessor64<int64_t, 1, at::RestrictPtrTraits>();
  EXPECT_EQ(r[5], 5);
}

TEST(TensorAccessor, Errors) {
  at::Tensor t = at::zeros({2, 3, 4});
  EXPECT_EQ(error_of([&] { t.accessor<float, 2>(); }),
            "TensorAccessor expected 2 dims but tensor has 3");
  EXPECT_EQ(error_of([&] { t.accessor<double, 3>(); }),
            "expected scalar type Double but found Float");
  EXPECT_EQ(error_of([&] { t.accessor<int64_t, 3>(); }),
            "expected scalar type Long but found Float");
  EXPECT_EQ(error_of([&] { t.packed_accessor32<float, 2>(); }),
            "TensorAccessor expected 2 dims but tensor has 3");
  EXPECT_EQ(error_of([&] { t.packed_accessor64<double, 3>(); }),
            "expected scalar type Double but found Float");
  // The dims are checked before the dtype.
  EXPECT_EQ(error_of([&] { t.accessor<double, 1>(); }),
            "TensorAccessor expected 1 dims but tensor has 3");
}

}  // namespace
