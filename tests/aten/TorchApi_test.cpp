// The torch:: frontend names (aten/Torch.h, what torch/torch.h gives through the compat headers):
// at:: names under torch::, factories that honour requires_grad, CUDA queries, Reduction.
#include <gtest/gtest.h>

#include <type_traits>

#include "aten/Torch.h"
#include "aten/core/Reduction.h"
#include "aten/cuda/CUDAQueries.h"
#include "c10/core/UndefinedTensorImpl.h"

namespace {

TEST(TorchApi, AtNamesAreTorchNames) {
  static_assert(std::is_same<torch::Tensor, at::Tensor>::value, "");
  static_assert(std::is_same<torch::jit::Stack, std::vector<c10::IValue>>::value, "");
  EXPECT_EQ(torch::kFloat, at::kFloat);
  torch::Tensor t = torch::add(torch::ones({2}), torch::ones({2}));
  EXPECT_EQ(t[0].item<float>(), 2.f);
}

TEST(TorchApi, FactoriesHonourRequiresGrad) {
  auto opts = torch::TensorOptions().dtype(torch::kDouble).requires_grad(true);
  for (const torch::Tensor& t :
       {torch::arange(1, 4, opts), torch::arange(0, 6, 2, opts),
        torch::empty_strided({2, 2}, {1, 2}, opts), torch::scalar_tensor(3, opts),
        torch::full_like(torch::zeros({2}), 5, opts)}) {
    EXPECT_TRUE(t.requires_grad());
    EXPECT_TRUE(t.is_leaf());
    EXPECT_EQ(t.scalar_type(), torch::kDouble);
  }
  EXPECT_EQ(torch::arange(0, 6, 2).sizes(), c10::IntArrayRef({3}));
  EXPECT_FALSE(torch::arange(1, 4).requires_grad());
  EXPECT_EQ(torch::empty_strided({2, 3}, {1, 2}).strides(), c10::IntArrayRef({1, 2}));
}

TEST(TorchApi, GradThroughTorchNames) {
  torch::Tensor x = torch::full_like(torch::zeros({3}), 2, torch::requires_grad());
  torch::Tensor y = (x * x).sum();
  auto g = torch::autograd::grad({y}, {x});
  EXPECT_EQ(g[0][1].item<float>(), 4.f);
  torch::NoGradGuard no_grad;
  EXPECT_FALSE((x * 2).requires_grad());
}

TEST(TorchApi, CudaQueries) {
#ifdef MINIATEN_HAVE_CUDA
  EXPECT_EQ(torch::cuda::is_available(), torch::cuda::device_count() > 0);
#else
  EXPECT_FALSE(torch::cuda::is_available());
  EXPECT_EQ(torch::cuda::device_count(), 0u);
#endif
}

TEST(TorchApi, ReductionValuesAreLibtorchs) {
  EXPECT_EQ(at::Reduction::None, 0);
  EXPECT_EQ(at::Reduction::Mean, 1);
  EXPECT_EQ(at::Reduction::Sum, 2);
  EXPECT_EQ(at::Reduction::END, 3);
}

TEST(TorchApi, UndefinedTensorImplSingletonIsTheUndefinedTensorsImpl) {
  at::Tensor undefined;
  EXPECT_EQ(undefined.unsafeGetTensorImpl(), c10::UndefinedTensorImpl::singleton());
  EXPECT_NE(torch::ones({1}).unsafeGetTensorImpl(), c10::UndefinedTensorImpl::singleton());
}

}  // namespace
