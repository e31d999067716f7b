// at::has* and at::globalContext(): what this build offers (Note [What the has* queries
// answer]), and the deprecated type objects at::CPU(kFloat) / Tensor::type().
#include <gtest/gtest.h>

#include <sstream>

#include "aten/ATen.h"
#include "aten/cuda/CUDAQueries.h"
#include "tests/TestUtils.h"

namespace {

using test_util::error_of;

TEST(Context, HasQueries) {
  EXPECT_EQ(at::hasCUDA(), torch::cuda::is_available());
#ifndef MINIATEN_HAVE_CUDA
  EXPECT_FALSE(at::hasCUDA());
  EXPECT_EQ(at::getNumGPUs(), 0u);
#endif
  EXPECT_TRUE(at::hasOpenMP());
  EXPECT_FALSE(at::hasMKL());
  EXPECT_FALSE(at::hasLAPACK());
  EXPECT_FALSE(at::hasMKLDNN());
  EXPECT_FALSE(at::hasMAGMA());
  EXPECT_FALSE(at::hasHIP());
  EXPECT_FALSE(at::hasMPS());
  EXPECT_FALSE(at::hasXLA());
  EXPECT_FALSE(at::hasIPU());
  EXPECT_FALSE(at::hasORT());
  EXPECT_FALSE(at::globalContext().hasLazy());
  EXPECT_FALSE(at::globalContext().hasCuDNN());
  EXPECT_EQ(&at::globalContext(), &at::globalContext());
}

TEST(DeprecatedTypeProperties, CPUFloat) {
  at::DeprecatedTypeProperties& t = at::CPU(at::kFloat);
  EXPECT_EQ(t.toString(), "CPUFloatType");
  EXPECT_EQ(t.scalarType(), at::kFloat);
  EXPECT_EQ(t.backend(), at::Backend::CPU);
  EXPECT_EQ(t.typeMeta(), caffe2::TypeMeta::Make<float>());
  EXPECT_EQ(t.device_type(), at::kCPU);
  EXPECT_FALSE(t.is_cuda());
  EXPECT_FALSE(t.is_sparse());
  std::ostringstream printed;
  printed << t;
  EXPECT_EQ(printed.str(), "CPUFloatType");
  // One object per pair.
  EXPECT_EQ(&t, &at::CPU(at::kFloat));
  EXPECT_TRUE(t == at::CPU(at::kFloat));
  EXPECT_TRUE(t != at::CPU(at::kDouble));
  EXPECT_EQ(&t.toScalarType(at::kLong), &at::CPU(at::kLong));
  EXPECT_EQ(t.cuda().toString(), "CUDAFloatType");
  EXPECT_EQ(t.id(), 6);  // Backend::CPU * 19 + Float
}

TEST(DeprecatedTypeProperties, OptionsAndFactories) {
  at::DeprecatedTypeProperties& t = at::CPU(at::kFloat);
  const at::TensorOptions o = t.options();
  EXPECT_EQ(o.dtype(), caffe2::TypeMeta::Make<float>());
  EXPECT_EQ(o.device(), at::Device(at::kCPU));
  EXPECT_EQ(o.layout(), at::kStrided);
  EXPECT_EQ(t.options(at::Device(at::kCPU)).device(), at::Device(at::kCPU));
  EXPECT_EQ(at::CUDA(at::kFloat).options().device(), at::Device(at::kCUDA));
  EXPECT_EQ(at::ones({2}, t).scalar_type(), at::kFloat);  // converts to TensorOptions
  at::Tensor c = t.copy(at::ones({2}, at::kInt));
  EXPECT_EQ(c.scalar_type(), at::kFloat);
  EXPECT_TRUE(c.equal(at::ones({2})));
}

TEST(DeprecatedTypeProperties, Names) {
  EXPECT_EQ(at::CUDA(at::kHalf).toString(), "CUDAHalfType");
  EXPECT_TRUE(at::CUDA(at::kHalf).is_cuda());
  EXPECT_EQ(at::CPU(at::kBool).toString(), "CPUBoolType");
  EXPECT_EQ(at::CPU(at::kBFloat16).toString(), "CPUBFloat16Type");
  EXPECT_EQ(at::getDeprecatedTypeProperties(at::Backend::SparseCPU, at::kFloat).toString(),
            "SparseCPUFloatType");
  EXPECT_EQ(at::getDeprecatedTypeProperties(at::Backend::Meta, at::kFloat).toString(),
            "MetaFloatType");
  EXPECT_EQ(at::getDeprecatedTypeProperties(at::Backend::Undefined, at::kFloat).toString(),
            "UndefinedType");
  EXPECT_EQ(at::getDeprecatedTypeProperties(at::Backend::CPU, at::ScalarType::Undefined)
                .toString(),
            "UndefinedType");
}

TEST(DeprecatedTypeProperties, TensorType) {
  at::Tensor l = at::ones({2}, at::kLong);
  EXPECT_EQ(l.type().toString(), "CPULongType");
  EXPECT_TRUE(l.type() == at::CPU(at::kLong));
  EXPECT_EQ(l.type().backend(), at::Backend::CPU);
  EXPECT_EQ(at::empty({2}, at::TensorOptions().device(at::kMeta)).type().toString(),
            "MetaFloatType");
  EXPECT_EQ(l.toType(at::kDouble).scalar_type(), at::kDouble);
  EXPECT_TRUE(l.toType(at::kLong).is_same(l));
  EXPECT_TRUE(l.toBackend(at::Backend::CPU).is_same(l));
}

}  // namespace
