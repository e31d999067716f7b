// The torch:: frontend names (aten/Torch.h, what torch/torch.h gives through the compat headers):
// at:: names under torch::, factories that honour requires_grad, CUDA queries, Reduction,
// torch::pickle_save / pickle_load.
#include <gtest/gtest.h>

#include <string>
#include <type_traits>
#include <vector>

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

// torch/serialize.h's names, which torch/torch.h brings.
TEST(TorchApi, PickleSaveAndLoadAreTorchNames) {
  torch::Tensor t = torch::arange(6).view({2, 3}).t();
  torch::IValue back = torch::pickle_load(torch::pickle_save(torch::IValue(t)));
  EXPECT_EQ(back.toTensor().strides(), t.strides());
  EXPECT_TRUE(torch::equal(back.toTensor(), t));
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

// dtypes and sizes as libtorch 1.13 gives them (its torch::tensor, read off a test program).
TEST(TorchApi, TensorLiterals) {
  struct Case {
    torch::Tensor t;
    c10::ScalarType dtype;
    std::vector<int64_t> sizes;
  };
  const Case cases[] = {
      {torch::tensor({1, 2, 3}), torch::kLong, {3}},
      {torch::tensor({1.5, 2.}), torch::kFloat, {2}},
      {torch::tensor({1.5f}), torch::kFloat, {1}},
      {torch::tensor(3), torch::kLong, {}},
      {torch::tensor(2.5), torch::kFloat, {}},
      {torch::tensor(true), torch::kBool, {}},
      {torch::tensor(std::vector<int>{1, 2}), torch::kLong, {2}},
      {torch::tensor(std::vector<double>{1, 2}), torch::kFloat, {2}},
      {torch::tensor({{1, 2}, {3, 4}}), torch::kLong, {2, 2}},
      {torch::tensor({1, 2}, torch::kDouble), torch::kDouble, {2}},
      {torch::tensor({int16_t{1}}), torch::kShort, {1}},
      {torch::tensor({uint8_t{1}}), torch::kByte, {1}},
      {torch::tensor(std::vector<int64_t>{}), torch::kLong, {0}},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(c.t.scalar_type(), c.dtype);
    EXPECT_EQ(c.t.sizes(), c10::IntArrayRef(c.sizes));
    EXPECT_FALSE(c.t.requires_grad());
  }
  torch::Tensor m = torch::tensor({{1.5, 2.}, {3., 4.}}, torch::requires_grad());
  EXPECT_TRUE(m.is_leaf());
  EXPECT_TRUE(m.requires_grad());
  EXPECT_EQ(m.strides(), c10::IntArrayRef({2, 1}));
  EXPECT_EQ(m[1][0].item<float>(), 3.f);
  EXPECT_EQ(torch::tensor(2.5).item<float>(), 2.5f);
}

TEST(TorchApi, RaggedTensorLiteralIsLibtorchsError) {
  try {
    torch::tensor({{1, 2}, {3}});
    FAIL() << "expected an error";
  } catch (const c10::Error& e) {
    EXPECT_EQ(std::string(e.what_without_backtrace()),
              "Expected all sub-lists to have sizes: 2 (e.g. {1, 2}), but got sub-list {3} with "
              "sizes: 1");
  }
  try {
    torch::tensor({{1.5, 2.}, {3.}});
    FAIL() << "expected an error";
  } catch (const c10::Error& e) {
    EXPECT_EQ(std::string(e.what_without_backtrace()),
              "Expected all sub-lists to have sizes: 2 (e.g. {1.5, 2}), but got sub-list {3} with "
              "sizes: 1");
  }
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
