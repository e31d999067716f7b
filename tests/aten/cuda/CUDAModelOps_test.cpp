// The operators a model's forward and backward need, on CUDA tensors (issue 16): the matrix
// products on cuBLAS, relu and clamp, softmax and log_softmax with their backward, nll_loss and
// cross_entropy, each compared with the same call on the CPU (sizes, strides, dtype, values to a
// tolerance where the order of sums differs, error texts), and a small MLP trained on the GPU
// beside the same MLP on the CPU. Skipped without a device.

#include <cmath>
#include <string>
#include <vector>

#include "CUDATestUtils.h"
#include "aten/cuda/CUDAGeneratorImpl.h"

#define EXPECT_THROW_MSG(expr, msg) \
  EXPECT_EQ(test_util::error_of([&] { (void)(expr); }), std::string(msg))

namespace {

using cuda_test::matches;
using cuda_test::same_layout_on_device;

at::Tensor randn(at::IntArrayRef sizes, at::ScalarType dtype = at::kFloat) {
  return at::randn(sizes, at::TensorOptions().dtype(at::kDouble)).to(dtype);
}

// The CPU's answer in `dtype` where the CPU has no kernel for it (Half): computed in float and
// rounded, as the GPU rounds once.
template <typename F>
at::Tensor cpu_in(at::ScalarType dtype, F op) {
  return dtype == at::kHalf ? op(at::kFloat).to(at::kHalf) : op(dtype);
}

double product_tolerance(at::ScalarType t) {
  if (t == at::kHalf) return 2e-3;
  if (t == at::kBFloat16) return 2e-2;
  if (t == at::kFloat) return 1e-5;
  return 1e-12;
}

// Operands for a product: contiguous, transposed (a.t() of a contiguous tensor), a slice with a
// step (copied before cuBLAS) and an expanded row (stride 0).
std::vector<std::pair<std::string, at::Tensor>> matrix_layouts(int64_t rows, int64_t cols,
                                                               at::ScalarType dtype) {
  return {
      {"contiguous", randn({rows, cols}, dtype)},
      {"transposed", randn({cols, rows}, dtype).t()},
      {"stepped", randn({rows, 2 * cols}, dtype).slice(1, 0, 2 * cols, 2)},
      {"expanded", randn({1, cols}, dtype).expand({rows, cols})},
  };
}

TEST(CUDAMatrixProducts, MmAndAddmmOverLayoutsAndDtypes) {
  SKIP_WITHOUT_CUDA();
  at::manual_seed(1);
  for (at::ScalarType dtype : {at::kFloat, at::kDouble, at::kHalf, at::kBFloat16}) {
    for (const auto& [a_name, a] : matrix_layouts(17, 33, dtype)) {
      for (const auto& [b_name, b] : matrix_layouts(33, 9, dtype)) {
        SCOPED_TRACE(std::string(c10::toString(dtype)) + " " + a_name + " @ " + b_name);
        const at::Tensor ga = same_layout_on_device(a), gb = same_layout_on_device(b);
        const at::Tensor mm =
            cpu_in(dtype, [&](at::ScalarType t) { return at::mm(a.to(t), b.to(t)); });
        EXPECT_TRUE(matches(mm, at::mm(ga, gb), product_tolerance(dtype)));
        const at::Tensor bias = randn({9}, dtype);
        const at::Tensor addmm = cpu_in(dtype, [&](at::ScalarType t) {
          return at::addmm(bias.to(t), a.to(t), b.to(t), 0.5, 2);
        });
        EXPECT_TRUE(
            matches(addmm, at::addmm(bias.cuda(), ga, gb, 0.5, 2), product_tolerance(dtype)));
      }
    }
  }
}

TEST(CUDAMatrixProducts, OutLayoutsInPlaceAndBetaAlphaEdges) {
  SKIP_WITHOUT_CUDA();
  at::manual_seed(2);
  const at::Tensor a = randn({6, 5}), b = randn({5, 4});
  const at::Tensor expected = at::mm(a, b);
  // A transposed out= is written through cuBLAS's column-major call; a stepped one through a
  // temporary copied in.
  at::Tensor out_t = at::empty({4, 6}, at::kCUDA).t();
  at::mm_out(out_t, a.cuda(), b.cuda());
  EXPECT_EQ(out_t.strides(), at::IntArrayRef({1, 6}));
  at::Tensor cpu_out_t = at::empty({4, 6}).t();
  EXPECT_TRUE(matches(at::mm_out(cpu_out_t, a, b), out_t, 1e-5));
  at::Tensor out_s = at::zeros({6, 8}, at::kCUDA).slice(1, 0, 8, 2);
  at::mm_out(out_s, a.cuda(), b.cuda());
  EXPECT_TRUE(at::allclose(out_s.cpu(), expected, 1e-5, 1e-6));

  // beta == 0 never reads self (NaN stays out); alpha == 0 never reads the product.
  const at::Tensor nan_self = at::full({6, 4}, NAN);
  EXPECT_TRUE(matches(at::addmm(nan_self, a, b, 0, 1),
                      at::addmm(nan_self.cuda(), a.cuda(), b.cuda(), 0, 1), 1e-5));
  const at::Tensor nan_a = at::full({6, 5}, NAN);
  const at::Tensor self = randn({6, 4});
  EXPECT_TRUE(matches(at::addmm(self, nan_a, b, 3, 0),
                      at::addmm(self.cuda(), nan_a.cuda(), b.cuda(), 3, 0), 1e-6));
  // k == 0: beta * self alone.
  EXPECT_TRUE(matches(
      at::addmm(self, at::empty({6, 0}), at::empty({0, 4}), 2, 1),
      at::addmm(self.cuda(), at::empty({6, 0}, at::kCUDA), at::empty({0, 4}, at::kCUDA), 2, 1),
      1e-6));

  at::Tensor in_place = self.cuda();
  in_place.addmm_(a.cuda(), b.cuda(), 0.25, -1);
  EXPECT_TRUE(matches(self.clone().addmm_(a, b, 0.25, -1), in_place, 1e-5));
}

TEST(CUDAMatrixProducts, BmmDotMvMatmulLinear) {
  SKIP_WITHOUT_CUDA();
  at::manual_seed(3);
  const at::Tensor b1 = randn({3, 4, 5}), b2 = randn({3, 6, 5}).transpose(1, 2);
  EXPECT_TRUE(matches(at::bmm(b1, b2), at::bmm(b1.cuda(), same_layout_on_device(b2)), 1e-5));
  const at::Tensor v = randn({10}).slice(0, 0, 10, 2), w = randn({5});
  EXPECT_TRUE(matches(at::dot(v, w), at::dot(same_layout_on_device(v), w.cuda()), 1e-5));
  const at::Tensor m = randn({5, 7}).t();
  EXPECT_TRUE(matches(at::mv(m, w), at::mv(same_layout_on_device(m), w.cuda()), 1e-5));
  const at::Tensor x = randn({2, 3, 7}), weight = randn({4, 7}), bias = randn({4});
  EXPECT_TRUE(matches(at::matmul(x, weight.t()), at::matmul(x.cuda(), weight.cuda().t()), 1e-5));
  EXPECT_TRUE(
      matches(at::linear(x, weight, bias), at::linear(x.cuda(), weight.cuda(), bias.cuda()), 1e-5));
}

TEST(CUDAMatrixProducts, Errors) {
  SKIP_WITHOUT_CUDA();
  const at::Tensor a = at::ones({2, 3}, at::kCUDA), b = at::ones({3, 2}, at::kCUDA);
  EXPECT_THROW_MSG(at::mm(a.to(at::kLong), b.to(at::kLong)),
                   "\"addmm_cuda\" not implemented for 'Long'");
  EXPECT_THROW_MSG(at::mm(a, at::ones({3, 2})),
                   "Expected all tensors to be on the same device, but found at least two "
                   "devices, cuda:0 and cpu! (when checking argument for argument mat2 in method "
                   "wrapper_CUDA_mm)");
  EXPECT_THROW_MSG(at::addmm(at::ones({2}), a, b),
                   "Expected all tensors to be on the same device, but found at least two "
                   "devices, cpu and cuda:0! (when checking argument for argument mat1 in method "
                   "wrapper_CUDA_addmm)");
  EXPECT_THROW_MSG(at::mm(a, a), "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)");
}

TEST(CUDAActivations, ReluClampAndThresholdBackwardOverLayouts) {
  SKIP_WITHOUT_CUDA();
  int seed = 10;
  for (const auto& c : elementwise_test::layout_cases()) {
    for (at::ScalarType dtype : {at::kFloat, at::kDouble, at::kInt, at::kLong, at::kBFloat16}) {
      SCOPED_TRACE(std::string(c.name) + " " + c10::toString(dtype));
      const at::Tensor like = c.a();
      const int64_t n = static_cast<int64_t>(like.storage().nbytes() / like.element_size());
      const at::Tensor base = elementwise_test::make_values(dtype, std::max<int64_t>(n, 1), ++seed);
      const at::Tensor x = base.as_strided(like.sizes(), like.strides(), like.storage_offset());
      const at::Tensor gx = same_layout_on_device(x);
      EXPECT_TRUE(matches(at::relu(x), at::relu(gx)));
      EXPECT_TRUE(matches(at::clamp(x, -1, 2), at::clamp(gx, -1, 2)));
      EXPECT_TRUE(matches(at::clamp_max(x, 1), at::clamp_max(gx, 1)));
      const at::Tensor grad =
          elementwise_test::make_values(dtype, x.numel(), ++seed).view(x.sizes());
      EXPECT_TRUE(
          matches(at::threshold_backward(grad, x, 0), at::threshold_backward(grad.cuda(), gx, 0)));
      at::Tensor in_place = gx.clone();
      at::relu_(in_place);
      EXPECT_TRUE(matches(at::relu(x.clone()), in_place));
    }
  }
  // NaN: relu keeps it, threshold_backward lets its gradient through.
  const at::Tensor x = at::tensor({-1.0f, NAN, 2.0f});
  EXPECT_TRUE(matches(at::relu(x), at::relu(x.cuda())));
  EXPECT_TRUE(matches(at::threshold_backward(at::ones({3}), x, 0),
                      at::threshold_backward(at::ones({3}, at::kCUDA), x.cuda(), 0)));
  EXPECT_THROW_MSG(at::relu(at::ones({2}, at::TensorOptions(at::kCUDA).dtype(at::kBool))),
                   "Boolean inputs not supported for relu");
}

TEST(CUDASoftMax, ForwardAndBackwardAlongEveryDim) {
  SKIP_WITHOUT_CUDA();
  at::manual_seed(4);
  // Rows of 10 (one warp), 3000 (a 512-thread block), the columns layout, the tiles layout
  // ([100, 7] with an idle tile column, [3, 50, 40] two tiles an outer index, [8, 300, 600]
  // over dim 1 4800 lines split 16 ways), and few long lines across the fast dim, which move it
  // last (Note [A few long lines across the fast dim]).
  const std::vector<std::vector<int64_t>> shapes = {
      {7, 10},   {3, 3000},   {4, 5, 6}, {10},        {},
      {3000, 4}, {2, 500, 3}, {100, 7},  {3, 50, 40}, {8, 300, 600}};
  for (const auto& shape : shapes) {
    for (at::ScalarType dtype : {at::kFloat, at::kDouble, at::kBFloat16, at::kHalf}) {
      const at::Tensor x = randn(shape, dtype);
      const int64_t dims = std::max<int64_t>(x.dim(), 1);
      for (int64_t dim = 0; dim < dims; ++dim) {
        for (bool log : {false, true}) {
          SCOPED_TRACE(std::string(c10::toString(dtype)) + " dim " + std::to_string(dim) +
                       (log ? " log_softmax" : " softmax"));
          const auto fwd = [&](const at::Tensor& t) {
            return log ? at::_log_softmax(t, dim, false) : at::_softmax(t, dim, false);
          };
          const at::Tensor y = cpu_in(dtype, [&](at::ScalarType t) { return fwd(x.to(t)); });
          const at::Tensor gy = fwd(x.cuda());
          const double tol = dtype == at::kDouble ? 1e-12 : product_tolerance(dtype);
          EXPECT_TRUE(matches(y, gy, tol));
          const at::Tensor g = randn(x.sizes(), dtype);
          const auto bwd = [&](const at::Tensor& grad, const at::Tensor& out) {
            return log ? at::_log_softmax_backward_data(grad, out, dim, grad.scalar_type())
                       : at::_softmax_backward_data(grad, out, dim, grad.scalar_type());
          };
          const at::Tensor gi =
              cpu_in(dtype, [&](at::ScalarType t) { return bwd(g.to(t), y.to(t)); });
          EXPECT_TRUE(matches(gi, bwd(g.cuda(), y.cuda()), tol * 10));
        }
      }
    }
  }
  // A transposed input: the result is contiguous, as on the CPU.
  const at::Tensor t = randn({6, 9}).t();
  EXPECT_TRUE(matches(at::softmax(t, 1), at::softmax(same_layout_on_device(t), 1), 1e-6));
}

TEST(CUDASoftMax, HalfToFloatAndErrors) {
  SKIP_WITHOUT_CUDA();
  const at::Tensor x = randn({5, 8}, at::kHalf);
  const at::Tensor y = at::_softmax(x.cuda(), 1, /*half_to_float=*/true);
  EXPECT_EQ(y.scalar_type(), at::kFloat);
  EXPECT_TRUE(matches(at::_softmax(x.to(at::kFloat), 1, false), y, 1e-6));
  const at::Tensor gi = at::_softmax_backward_data(at::ones({5, 8}, at::kCUDA), y, 1, at::kHalf);
  EXPECT_EQ(gi.scalar_type(), at::kHalf);
  EXPECT_THROW_MSG(at::_softmax(x, 1, true),
                   "softmax with half to float conversion is not supported on CPU");
  EXPECT_THROW_MSG(at::_softmax(x.cuda().to(at::kFloat), 1, true),
                   "conversion is supported for Half type only");
  EXPECT_THROW_MSG(
      at::_softmax(at::ones({2}, at::TensorOptions(at::kCUDA).dtype(at::kLong)), 0, false),
      "\"host_softmax\" not implemented for 'Long'");
  EXPECT_THROW_MSG(
      at::_softmax_backward_data(at::ones({2}, at::kCUDA), at::ones({2}), 0, at::kFloat),
      "Expected all tensors to be on the same device, but found at least two "
      "devices, cuda:0 and cpu! (when checking argument for argument output in "
      "method wrapper_CUDA__softmax_backward_data)");
}

TEST(CUDALoss, NllLossForwardAndBackwardInEveryForm) {
  SKIP_WITHOUT_CUDA();
  at::manual_seed(5);
  const at::Tensor scores = at::log_softmax(randn({9, 5}), 1);
  const at::Tensor target = at::tensor({0, 4, 2, -100, 1, 1, 3, 0, 2}, at::kLong);
  const at::Tensor weight = at::rand({5});
  for (int64_t reduction : {at::Reduction::None, at::Reduction::Sum, at::Reduction::Mean}) {
    for (bool weighted : {false, true}) {
      SCOPED_TRACE("reduction " + std::to_string(reduction) + (weighted ? " weighted" : ""));
      const c10::optional<at::Tensor> w =
          weighted ? c10::optional<at::Tensor>(weight) : c10::nullopt;
      const c10::optional<at::Tensor> gw =
          weighted ? c10::optional<at::Tensor>(weight.cuda()) : c10::nullopt;
      const auto cpu = at::nll_loss_forward(scores, target, w, reduction, -100);
      const auto gpu = at::nll_loss_forward(scores.cuda(), target.cuda(), gw, reduction, -100);
      EXPECT_TRUE(matches(std::get<0>(cpu), std::get<0>(gpu), 1e-6));
      EXPECT_TRUE(matches(std::get<1>(cpu), std::get<1>(gpu), 1e-6));
      const at::Tensor grad = reduction == at::Reduction::None ? randn({9}) : at::tensor(0.75f);
      EXPECT_TRUE(
          matches(at::nll_loss_backward(grad, scores, target, w, reduction, -100, std::get<1>(cpu)),
                  at::nll_loss_backward(grad.cuda(), scores.cuda(), target.cuda(), gw, reduction,
                                        -100, std::get<1>(gpu)),
                  1e-6));
    }
  }
  // One sample (1-D scores, 0-dim target), a strided score matrix, and no samples.
  const at::Tensor one = scores[2];
  EXPECT_TRUE(matches(at::nll_loss(one, at::scalar_tensor(3, at::kLong)),
                      at::nll_loss(one.cuda(), at::scalar_tensor(3, at::kLong).cuda()), 1e-6));
  const at::Tensor strided = at::log_softmax(randn({5, 9}), 0).t();
  EXPECT_TRUE(matches(at::nll_loss(strided, target.clamp_min(0)),
                      at::nll_loss(same_layout_on_device(strided), target.clamp_min(0).cuda()),
                      1e-6));
  EXPECT_TRUE(matches(at::nll_loss(at::empty({0, 5}), at::empty({0}, at::kLong)),
                      at::nll_loss(at::empty({0, 5}, at::kCUDA),
                                   at::empty({0}, at::TensorOptions(at::kCUDA).dtype(at::kLong)))));
  EXPECT_THROW_MSG(at::nll_loss(scores.cuda(), target),
                   "Expected all tensors to be on the same device, but found at least two "
                   "devices, cuda:0 and cpu! (when checking argument for argument target in "
                   "method wrapper_CUDA_nll_loss_forward)");
}

TEST(CUDALoss, CrossEntropyWithItsOptionsAndGradients) {
  SKIP_WITHOUT_CUDA();
  at::manual_seed(6);
  const at::Tensor logits = randn({8, 6}), target = at::randint(0, 6, {8}, at::kLong);
  const at::Tensor weight = at::rand({6});
  for (double smoothing : {0.0, 0.1}) {
    const at::Tensor x = logits.clone().requires_grad_();
    const at::Tensor gx = logits.cuda().requires_grad_();
    const at::Tensor loss =
        at::cross_entropy_loss(x, target, weight, at::Reduction::Mean, -100, smoothing);
    const at::Tensor gloss = at::cross_entropy_loss(gx, target.cuda(), weight.cuda(),
                                                    at::Reduction::Mean, -100, smoothing);
    EXPECT_TRUE(matches(loss.detach(), gloss.detach(), 1e-6));
    loss.backward();
    gloss.backward();
    EXPECT_TRUE(gx.grad().is_cuda());
    EXPECT_TRUE(matches(x.grad(), gx.grad(), 1e-6));
  }
}

TEST(CUDAIndexing, IndexSelectEmbeddingAndMaskedFill) {
  SKIP_WITHOUT_CUDA();
  at::manual_seed(7);
  const at::Tensor index = at::tensor({2, 0, 2, 4, 1}, at::kLong);
  for (at::ScalarType dtype :
       {at::kFloat, at::kDouble, at::kHalf, at::kByte, at::kBool, at::kLong}) {
    const at::Tensor x = randn({5, 6, 7}).mul(3).to(dtype);
    for (int64_t dim = 0; dim < 3; ++dim) {
      SCOPED_TRACE(std::string(c10::toString(dtype)) + " dim " + std::to_string(dim));
      const at::Tensor idx = index.clamp_max(x.size(dim) - 1);
      EXPECT_TRUE(
          matches(at::index_select(x, dim, idx), at::index_select(x.cuda(), dim, idx.cuda())));
      EXPECT_TRUE(matches(at::index_select(x, dim, idx.to(at::kInt)),
                          at::index_select(x.cuda(), dim, idx.to(at::kInt).cuda())));
    }
    // A transposed source and an empty index.
    const at::Tensor t = x.transpose(0, 2);
    EXPECT_TRUE(matches(at::index_select(t, 1, index),
                        at::index_select(same_layout_on_device(t), 1, index.cuda())));
    EXPECT_TRUE(
        matches(at::index_select(x, 1, at::empty({0}, at::kLong)),
                at::index_select(x.cuda(), 1,
                                 at::empty({0}, at::TensorOptions(at::kCUDA).dtype(at::kLong)))));
  }
  const at::Tensor weight = randn({10, 4});
  const at::Tensor ids = at::tensor({1, 9, 0, 1}, at::kLong).view({2, 2});
  EXPECT_TRUE(matches(at::embedding(weight, ids), at::embedding(weight.cuda(), ids.cuda())));
  EXPECT_THROW_MSG(at::index_select(weight.cuda(), 0, at::full({1}, 10, at::kLong).cuda()),
                   "index out of range in self");

  const at::Tensor mask = randn({6, 1}) > 0;
  const at::Tensor row_mask = randn({5, 1}) > 0;  // broadcast as a [1, 5] row
  for (at::ScalarType dtype : {at::kFloat, at::kHalf, at::kInt, at::kBool}) {
    SCOPED_TRACE(c10::toString(dtype));
    const at::Tensor x = randn({6, 5}).to(dtype);
    at::Tensor gx = x.cuda();
    gx.masked_fill_(mask.cuda(), 1);
    EXPECT_TRUE(matches(x.clone().masked_fill_(mask, 1), gx));
    EXPECT_TRUE(matches(at::masked_fill(x, row_mask.t(), at::scalar_tensor(0)),
                        at::masked_fill(x.cuda(), row_mask.t().cuda(), at::scalar_tensor(0))));
  }
  // A transposed self, filled through its strides.
  const at::Tensor x = randn({5, 6}).t();
  at::Tensor gx = same_layout_on_device(x);
  const at::Tensor fill_mask = randn({6, 5}) > 0;
  gx.masked_fill_(fill_mask.cuda(), -2.5);
  EXPECT_EQ(gx.strides(), x.strides());
  EXPECT_TRUE(matches(x.clone().masked_fill_(fill_mask, -2.5), gx));
  EXPECT_THROW_MSG(gx.masked_fill_(fill_mask, 1),
                   "expected self and mask to be on the same device, but got mask on cpu and self "
                   "on cuda:0");
}

// tril/triu and flip run on CUDA from other operators (a mask and masked_fill_; index_select).
TEST(CUDAIndexing, TrilTriuAndFlipOverLayouts) {
  SKIP_WITHOUT_CUDA();
  at::manual_seed(12);
  for (at::ScalarType dtype : {at::kFloat, at::kHalf, at::kLong, at::kBool}) {
    const at::Tensor x = randn({2, 5, 7}).mul(3).to(dtype);
    const at::Tensor t = x.transpose(1, 2);
    for (int64_t k : {-8, -2, 0, 1, 3, 9}) {
      SCOPED_TRACE(std::string(c10::toString(dtype)) + " k " + std::to_string(k));
      EXPECT_TRUE(matches(at::tril(x, k), at::tril(x.cuda(), k)));
      EXPECT_TRUE(matches(at::triu(t, k), at::triu(same_layout_on_device(t), k)));
      at::Tensor in_place = same_layout_on_device(t);
      in_place.tril_(k);
      EXPECT_TRUE(matches(t.clone().tril_(k), in_place));
    }
    for (const std::vector<int64_t>& dims :
         std::vector<std::vector<int64_t>>{{0}, {2}, {0, 1, 2}, {-1, 1}}) {
      EXPECT_TRUE(matches(at::flip(x, dims), at::flip(x.cuda(), dims)));
      EXPECT_TRUE(matches(at::flip(t, dims), at::flip(same_layout_on_device(t), dims)));
    }
  }
  EXPECT_TRUE(
      matches(at::flip(at::scalar_tensor(2.5), {}), at::flip(at::scalar_tensor(2.5).cuda(), {})));
}

// layer norm and mse_loss run on CUDA from other operators (Note [Layer norm on a device, from
// other operators]; mse_loss is built from sub, mul and the reductions on every device).
TEST(CUDANormalization, LayerNormForwardBackwardAndMseLoss) {
  SKIP_WITHOUT_CUDA();
  at::manual_seed(11);
  for (at::ScalarType dtype : {at::kFloat, at::kDouble, at::kBFloat16}) {
    for (bool affine : {false, true}) {
      SCOPED_TRACE(std::string(c10::toString(dtype)) + (affine ? " affine" : ""));
      const at::Tensor x = randn({4, 3, 16}, dtype);
      const c10::optional<at::Tensor> w =
          affine ? c10::optional<at::Tensor>(randn({3, 16}, dtype)) : c10::nullopt;
      const c10::optional<at::Tensor> b =
          affine ? c10::optional<at::Tensor>(randn({3, 16}, dtype)) : c10::nullopt;
      const c10::optional<at::Tensor> gw =
          affine ? c10::optional<at::Tensor>(w->cuda()) : c10::nullopt;
      const c10::optional<at::Tensor> gb =
          affine ? c10::optional<at::Tensor>(b->cuda()) : c10::nullopt;
      const double tol = dtype == at::kBFloat16 ? 1e-2 : (dtype == at::kFloat ? 1e-5 : 1e-12);
      const auto cpu = at::native_layer_norm(x, {3, 16}, w, b, 1e-5);
      const auto gpu = at::native_layer_norm(x.cuda(), {3, 16}, gw, gb, 1e-5);
      EXPECT_TRUE(matches(std::get<0>(cpu), std::get<0>(gpu), tol));
      // The stats: the input's dtype on the CPU, the op-math type (float) on CUDA, as PyTorch's.
      const at::ScalarType stat_type = dtype == at::kBFloat16 ? at::kFloat : dtype;
      EXPECT_EQ(std::get<1>(gpu).scalar_type(), stat_type);
      EXPECT_TRUE(matches(std::get<1>(cpu).to(stat_type), std::get<1>(gpu), tol));
      EXPECT_TRUE(matches(std::get<2>(cpu).to(stat_type), std::get<2>(gpu), tol));
      const at::Tensor dy = randn({4, 3, 16}, dtype);
      const auto cpu_b = at::native_layer_norm_backward(
          dy, x, {3, 16}, std::get<1>(cpu), std::get<2>(cpu), w, b, {true, affine, affine});
      const auto gpu_b =
          at::native_layer_norm_backward(dy.cuda(), x.cuda(), {3, 16}, std::get<1>(gpu),
                                         std::get<2>(gpu), gw, gb, {true, affine, affine});
      EXPECT_TRUE(matches(std::get<0>(cpu_b), std::get<0>(gpu_b), tol * 10));
      if (affine) {
        EXPECT_TRUE(matches(std::get<1>(cpu_b), std::get<1>(gpu_b), tol * 10));
        EXPECT_TRUE(matches(std::get<2>(cpu_b), std::get<2>(gpu_b), tol * 10));
      }
    }
  }
  // Through autograd, as a model calls it.
  const at::Tensor x = randn({5, 8}).requires_grad_();
  const at::Tensor gx = x.detach().cuda().requires_grad_();
  const at::Tensor w = randn({8}), b = randn({8});
  at::layer_norm(x, {8}, w, b).pow(2).sum().backward();
  at::layer_norm(gx, {8}, w.cuda(), b.cuda()).pow(2).sum().backward();
  EXPECT_TRUE(matches(x.grad(), gx.grad(), 1e-4));
  EXPECT_THROW_MSG(at::layer_norm(gx, {8}, w, b),
                   "Expected all tensors to be on the same device, but found at least two devices, "
                   "cuda:0 and cpu! (when checking argument for argument weight in method "
                   "wrapper_CUDA__native_layer_norm)");

  const at::Tensor p = randn({6, 4}), t = randn({4});
  for (int64_t reduction : {at::Reduction::None, at::Reduction::Sum, at::Reduction::Mean}) {
    EXPECT_TRUE(
        matches(at::mse_loss(p, t, reduction), at::mse_loss(p.cuda(), t.cuda(), reduction), 1e-6));
    const at::Tensor g = reduction == at::Reduction::None ? randn({6, 4}) : at::scalar_tensor(1.5);
    EXPECT_TRUE(matches(at::mse_loss_backward(g, p, t, reduction),
                        at::mse_loss_backward(g.cuda(), p.cuda(), t.cuda(), reduction), 1e-6));
  }
}

TEST(CUDARandom, SeededStreamsAndTheirDistributions) {
  SKIP_WITHOUT_CUDA();
  const auto on_gpu = at::TensorOptions(at::kCUDA);
  // at::manual_seed reseeds the device generator too: the same seed, the same tensor; the next
  // call, other numbers.
  at::manual_seed(5);
  const at::Tensor a = at::randn({1000}, on_gpu);
  const at::Tensor a2 = at::randn({1000}, on_gpu);
  at::manual_seed(5);
  EXPECT_TRUE(at::equal(at::randn({1000}, on_gpu).cpu(), a.cpu()));
  EXPECT_FALSE(at::equal(a2.cpu(), a.cpu()));
  // An explicit generator with the same seed draws the same numbers.
  at::Generator gen = at::cuda::detail::createCUDAGenerator(0);
  gen.set_current_seed(5);
  EXPECT_TRUE(at::equal(at::randn({1000}, gen, on_gpu).cpu(), a.cpu()));

  const at::Tensor u = at::rand({1 << 20}, on_gpu).cpu();
  EXPECT_GE(u.min().item<float>(), 0.f);
  EXPECT_LT(u.max().item<float>(), 1.f);
  EXPECT_NEAR(u.mean().item<double>(), 0.5, 5e-3);
  const at::Tensor n = at::randn({1 << 20}, on_gpu.dtype(at::kDouble)).cpu();
  EXPECT_NEAR(n.mean().item<double>(), 0.0, 5e-3);
  EXPECT_NEAR(n.std().item<double>(), 1.0, 5e-3);
  // Note [A uniform draw stays below `to`]: never `to` itself, in any dtype.
  for (at::ScalarType dtype : {at::kHalf, at::kBFloat16, at::kFloat}) {
    SCOPED_TRACE(c10::toString(dtype));
    const at::Tensor h =
        at::empty({1 << 18}, on_gpu.dtype(dtype)).uniform_(-2, 3).cpu().to(at::kFloat);
    EXPECT_GE(h.min().item<float>(), -2.f);
    EXPECT_LT(h.max().item<float>(), 3.f);
    EXPECT_LT(at::rand({1 << 18}, on_gpu.dtype(dtype)).max().item<float>(), 1.f);
  }
  const at::Tensor ints = at::randint(0, 10, {100000}, on_gpu.dtype(at::kLong)).cpu();
  EXPECT_EQ(ints.min().item<int64_t>(), 0);
  EXPECT_EQ(ints.max().item<int64_t>(), 9);
  const at::Tensor coin = at::empty({1 << 20}, on_gpu).bernoulli_(0.3).cpu();
  EXPECT_NEAR(coin.mean().item<double>(), 0.3, 5e-3);
  const at::Tensor p = at::tensor({0.f, 1.f, 0.f, 1.f}).cuda();
  EXPECT_TRUE(at::equal(at::bernoulli(p).cpu(), at::tensor({0.f, 1.f, 0.f, 1.f})));
  // A stepped slice is filled through a temporary: only its elements change.
  at::Tensor base = at::zeros({8, 10}, on_gpu);
  base.slice(1, 0, 10, 2).normal_();
  const at::Tensor host = base.cpu();
  EXPECT_TRUE(at::equal(host.slice(1, 1, 10, 2), at::zeros({8, 5})));
  EXPECT_FALSE(at::equal(host.slice(1, 0, 10, 2), at::zeros({8, 5})));
  // dropout in training: each element 0 or doubled.
  const at::Tensor x = at::ones({1000}, on_gpu);
  const at::Tensor d = at::dropout(x, 0.5, /*train=*/true).cpu();
  EXPECT_TRUE(at::equal(d.eq(0).logical_or(d.eq(2)), at::ones({1000}, at::kBool)));
  // The state is the seed and the offset.
  at::Generator g2 = at::cuda::detail::createCUDAGenerator(0);
  g2.set_current_seed(9);
  const at::Tensor state = g2.get_state();
  const at::Tensor first = at::rand({16}, g2, on_gpu).cpu();
  g2.set_state(state);
  EXPECT_TRUE(at::equal(at::rand({16}, g2, on_gpu).cpu(), first));
}

// examples/mlp's model and loop, on the GPU and on the CPU from the same initial values: the
// losses agree to float tolerance step by step, every parameter and gradient lives on the GPU,
// and the graph's nodes are the CPU's.
TEST(CUDAModel, AnMlpTrainsOnTheGpuAsOnTheCpu) {
  SKIP_WITHOUT_CUDA();
  at::manual_seed(0);
  const at::Tensor x = at::randn({256, 32});
  const at::Tensor y = at::argmax(at::mm(x, at::randn({32, 4})), 1);
  const at::Tensor w1 = at::randn({128, 32}) * (1.0 / std::sqrt(32.0));
  const at::Tensor w2 = at::randn({4, 128}) * (1.0 / std::sqrt(128.0));
  struct Model {
    std::vector<at::Tensor> params;
    Model(const at::Tensor& w1, const at::Tensor& w2, at::Device device) {
      for (const at::Tensor& p : {w1, at::zeros({128}), w2, at::zeros({4})}) {
        params.push_back(p.to(device).requires_grad_());
      }
    }
    at::Tensor loss(const at::Tensor& batch, const at::Tensor& labels) const {
      const at::Tensor hidden = at::relu(at::linear(batch, params[0], params[1]));
      return at::cross_entropy_loss(at::linear(hidden, params[2], params[3]), labels);
    }
    void step() {
      at::NoGradGuard no_grad;
      for (at::Tensor& p : params) {
        p.sub_(p.grad(), 0.1);
        p.mutable_grad().zero_();
      }
    }
  };
  Model cpu(w1, w2, at::kCPU), gpu(w1, w2, at::kCUDA);
  const at::Tensor gx = x.cuda(), gy = y.cuda();
  for (int step = 0; step < 20; ++step) {
    const int64_t start = (step * 64) % 256;
    const at::Tensor loss = cpu.loss(x.narrow(0, start, 64), y.narrow(0, start, 64));
    const at::Tensor gloss = gpu.loss(gx.narrow(0, start, 64), gy.narrow(0, start, 64));
    ASSERT_TRUE(gloss.is_cuda());
    if (step == 0) {
      EXPECT_EQ(gloss.grad_fn()->name(), loss.grad_fn()->name());
    }
    loss.backward();
    gloss.backward();
    for (size_t i = 0; i < gpu.params.size(); ++i) {
      ASSERT_TRUE(gpu.params[i].grad().is_cuda());
      EXPECT_TRUE(at::allclose(gpu.params[i].grad().cpu(), cpu.params[i].grad(), 1e-4, 1e-5))
          << "step " << step << " parameter " << i;
    }
    EXPECT_NEAR(gloss.item<double>(), loss.item<double>(), 1e-4) << "step " << step;
    cpu.step();
    gpu.step();
  }
  for (size_t i = 0; i < gpu.params.size(); ++i) {
    EXPECT_TRUE(at::allclose(gpu.params[i].cpu(), cpu.params[i].detach(), 1e-4, 1e-5));
  }
}

}  // namespace
