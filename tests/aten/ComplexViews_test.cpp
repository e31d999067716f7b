// view_as_real, view_as_complex, real, imag and conj_physical: geometry, aliasing, version
// counters and libtorch 1.13's error texts (read off libtorch programs doing the same).

#include <gtest/gtest.h>

#include <vector>

#include "ElementwiseTestUtils.h"
#include "aten/ATen.h"
#include "aten/Torch.h"

namespace {

using at::Tensor;
using test_util::error_of;
using cd = c10::complex<double>;
using cf = c10::complex<float>;

std::vector<int64_t> vec(c10::IntArrayRef r) {
  return r.vec();
}

TEST(ComplexViews, ViewAsRealGeometry) {
  const Tensor c = at::tensor({cf(1, 2), cf(3, 4)});
  const Tensor r = at::view_as_real(c);
  EXPECT_EQ(r.scalar_type(), at::kFloat);
  EXPECT_EQ(vec(r.sizes()), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(vec(r.strides()), (std::vector<int64_t>{2, 1}));
  EXPECT_TRUE(r.is_alias_of(c));
  EXPECT_EQ(r.data_ptr(), c.data_ptr());
  EXPECT_EQ(std::vector<float>(r.data_ptr<float>(), r.data_ptr<float>() + 4),
            (std::vector<float>{1, 2, 3, 4}));
  // Expanded and sliced inputs: strides and offsets double, a trailing (2, 1).
  const Tensor e = at::view_as_real(c.view({2, 1}).expand({2, 3}));
  EXPECT_EQ(vec(e.sizes()), (std::vector<int64_t>{2, 3, 2}));
  EXPECT_EQ(vec(e.strides()), (std::vector<int64_t>{2, 0, 1}));
  EXPECT_EQ(at::view_as_real(c.slice(0, 1)).storage_offset(), 2);
  EXPECT_EQ(vec(at::view_as_real(c[0]).sizes()), (std::vector<int64_t>{2}));
  EXPECT_EQ(at::view_as_real(at::ones({2}, at::kComplexDouble)).scalar_type(), at::kDouble);
  EXPECT_EQ(error_of([] { at::view_as_real(at::ones({2})); }),
            "view_as_real is only supported for complex tensors");
}

TEST(ComplexViews, RealAndImagAreViews) {
  Tensor c = at::tensor({cf(1, 2), cf(3, 4)});
  Tensor re = at::real(c);
  EXPECT_EQ(re.scalar_type(), at::kFloat);
  EXPECT_EQ(vec(re.strides()), (std::vector<int64_t>{2}));
  EXPECT_EQ(re.storage_offset(), 0);
  re.fill_(7);
  EXPECT_EQ(c[0].item<cf>(), cf(7, 2));
  EXPECT_EQ(c._version(), 1);  // the write through the view counts for c
  const Tensor im = at::imag(c);
  EXPECT_EQ(vec(im.strides()), (std::vector<int64_t>{2}));
  EXPECT_EQ(im.storage_offset(), 1);
  EXPECT_TRUE(im.is_alias_of(c));
  EXPECT_EQ(im[1].item<float>(), 4.f);
  // A real tensor is its own real part; it has no imaginary part.
  const Tensor f = at::ones({2});
  EXPECT_TRUE(at::real(f).is_same(f));
  EXPECT_EQ(error_of([&] { at::imag(f); }),
            "imag is not implemented for tensors with non-complex dtypes.");
}

TEST(ComplexViews, ViewAsComplex) {
  Tensor parts = at::tensor({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}).view({3, 2});
  const Tensor c = at::view_as_complex(parts);
  EXPECT_EQ(c.scalar_type(), at::kComplexFloat);
  EXPECT_EQ(vec(c.sizes()), (std::vector<int64_t>{3}));
  EXPECT_EQ(vec(c.strides()), (std::vector<int64_t>{1}));
  EXPECT_TRUE(c.is_alias_of(parts));
  EXPECT_EQ(c[2].item<cf>(), cf(5, 6));
  EXPECT_EQ(at::view_as_complex(parts.slice(0, 1)).storage_offset(), 1);
  EXPECT_EQ(vec(at::view_as_complex(at::ones({4, 2}).slice(0, 0, 4, 2)).strides()),
            (std::vector<int64_t>{2}));
  EXPECT_EQ(at::view_as_complex(at::ones({1, 2}, at::kDouble)).scalar_type(), at::kComplexDouble);
  // Round trip.
  EXPECT_TRUE(at::equal(at::view_as_real(c), parts));
}

TEST(ComplexViews, ViewAsComplexErrors) {
  EXPECT_EQ(error_of([] { at::view_as_complex(at::ones({2}, at::kLong)); }),
            "view_as_complex is only supported for half, float and double tensors, but got a "
            "tensor of scalar type: Long");
  EXPECT_EQ(error_of([] { at::view_as_complex(at::ones({3})); }),
            "Tensor must have a last dimension of size 2");
  EXPECT_EQ(error_of([] {
              at::view_as_complex(at::ones({2, 3}).t());
            }),
            "Tensor must have a last dimension with stride 1");
  EXPECT_EQ(error_of([] { at::view_as_complex(at::ones({})); }),
            "Input tensor must have one or more dimensions");
  EXPECT_EQ(error_of([] {
              at::view_as_complex(at::ones({5}).slice(0, 1, 5).view({2, 2}));
            }),
            "Tensor must have a storage_offset divisible by 2");
  EXPECT_EQ(error_of([] {
              at::view_as_complex(at::ones({3, 5}).slice(1, 0, 2));
            }),
            "Tensor must have a stride divisible by 2 for all but last dimension");
  EXPECT_EQ(error_of([] {
              at::view_as_complex(at::ones({2, 3}).t());
            }),
            "Tensor must have a last dimension with stride 1");
  // libtorch makes a ComplexHalf view; miniaten has none.
  EXPECT_EQ(error_of([] {
              at::view_as_complex(at::ones({2, 2}, at::kHalf));
            }),
            "view_as_complex of a Half tensor: miniaten has no ComplexHalf");
  // See Note [No complex autograd].
  const Tensor x = torch::ones({2, 2}, torch::requires_grad());
  EXPECT_EQ(error_of([&] { at::view_as_complex(x); }),
            "miniaten: autograd does not support complex tensors yet (got a ComplexFloat tensor "
            "that requires grad)");
  torch::NoGradGuard no_grad;
  EXPECT_EQ(at::view_as_complex(x).scalar_type(), at::kComplexFloat);
}

TEST(ComplexViews, ConjPhysical) {
  const Tensor c = at::tensor({cf(1, 2), cf(-0.5f, 3), cf(0, -1)});
  const Tensor k = at::conj_physical(c);
  EXPECT_FALSE(k.is_alias_of(c));
  EXPECT_EQ(k[0].item<cf>(), cf(1, -2));
  EXPECT_EQ(k[1].item<cf>(), cf(-0.5f, -3));
  EXPECT_EQ(k[2].item<cf>(), cf(0, 1));
  EXPECT_EQ(c.conj_physical()[0].item<cf>(), cf(1, -2));
  Tensor d = at::tensor({cd(1, 2)});
  d.conj_physical_();
  EXPECT_EQ(d[0].item<cd>(), cd(1, -2));
  // A real tensor is its own conjugate, returned as it is.
  const Tensor f = at::ones({2});
  EXPECT_TRUE(at::conj_physical(f).is_same(f));
}

}  // namespace
