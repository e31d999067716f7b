// layer_norm, native_layer_norm and native_layer_norm_backward, with libtorch 1.13's checks and
// texts (layer_norm.cpp, cpu/layer_norm_kernel.cpp).
//
// Note [Layer norm as rows]
// The last normalized_shape.size() dims are one row of N elements; the dims before them are M
// rows. Each row is normalized by its own mean and rstd = 1 / sqrt(var + eps) (the biased
// variance), then scaled by weight and shifted by bias elementwise along the row. mean and rstd
// come back shaped as the input with the normalized dims kept as size 1. The backward of row r,
// with g = dY * weight and xhat = (X - mean) * rstd:
//   dX = rstd * (g - mean(g) - xhat * mean(g * xhat)),
//   dweight = sum over rows of dY * xhat,   dbias = sum over rows of dY.
// Sums run in the op-math type (float for Half and BFloat16, as libtorch).
//
// Note [Layer norm on a device, from other operators]
// On a CUDA tensor the same formulas run as a handful of the device's own operators on the
// [M, N] rows in the op-math type (mean and sum over dim 1 or 0, the elementwise arithmetic),
// each rounded to the input's dtype once at the end, as the CPU loops round. It launches several
// kernels where one fused kernel would do; what it computes is the CPU's, term for term
// (1 / sqrt, not rsqrt, for rstd).

#include <array>
#include <cmath>
#include <sstream>
#include <tuple>
#include <vector>

#include "aten/ATen.h"
#include "aten/Dispatch.h"
#include "aten/OpMathType.h"
#include "aten/Parallel.h"
#include "aten/generated/NativeFunctions.h"
#include "aten/native/SameDevice.h"

namespace at {
namespace native {

namespace {

struct Rows {
  int64_t M = 1, N = 1;
};

// libtorch's _check_layer_norm_inputs.
Rows check_layer_norm_inputs(const Tensor& input, IntArrayRef normalized_shape,
                             const Tensor& weight, const Tensor& bias) {
  const auto normalized_ndim = static_cast<int64_t>(normalized_shape.size());
  TORCH_CHECK(normalized_ndim >= 1,
              "Expected normalized_shape to be at least 1-dimensional, i.e., containing at "
              "least one element, but got normalized_shape = ",
              normalized_shape);
  TORCH_CHECK(!weight.defined() || weight.sizes().equals(normalized_shape),
              "Expected weight to be of same shape as normalized_shape, but got weight of shape ",
              weight.sizes(), " and normalized_shape = ", normalized_shape);
  TORCH_CHECK(!bias.defined() || bias.sizes().equals(normalized_shape),
              "Expected bias to be of same shape as normalized_shape, but got bias of shape ",
              bias.sizes(), " and normalized_shape = ", normalized_shape);
  const IntArrayRef shape = input.sizes();
  const int64_t ndim = input.dim();
  if (ndim < normalized_ndim || !shape.slice(ndim - normalized_ndim).equals(normalized_shape)) {
    std::ostringstream ss;
    ss << "Given normalized_shape=" << normalized_shape << ", expected input with shape [*";
    for (int64_t size : normalized_shape) ss << ", " << size;
    ss << "], but got input of size" << shape;
    TORCH_CHECK(false, ss.str());
  }
  Rows r;
  const int64_t axis = ndim - normalized_ndim;
  for (int64_t d = 0; d < axis; ++d) r.M *= shape[d];
  for (int64_t d = axis; d < ndim; ++d) r.N *= shape[d];
  return r;
}

// The stats' shape: the input's, with the normalized dims as 1.
std::vector<int64_t> stat_shape(const Tensor& input, IntArrayRef normalized_shape) {
  std::vector<int64_t> shape = input.sizes().vec();
  const size_t axis = shape.size() - normalized_shape.size();
  for (size_t d = axis; d < shape.size(); ++d) shape[d] = 1;
  return shape;
}

}  // namespace

namespace {

// Note [Layer norm on a device, from other operators]
ScalarType layer_norm_opmath(const Tensor& X) {
  const ScalarType t = X.scalar_type();
  TORCH_CHECK(t == kFloat || t == kDouble || t == kHalf || t == kBFloat16,
              "\"LayerNormKernelImpl\" not implemented for '", t, "'");
  return t == kHalf || t == kBFloat16 ? kFloat : t;
}

void layer_norm_on_device(const Tensor& X, const Tensor& gamma, const Tensor& beta, const Rows& r,
                          double eps, const Tensor& Y, const Tensor& mean, const Tensor& rstd) {
  const ScalarType acc = layer_norm_opmath(X);
  // The CPU kernel reads weight and bias as the input's dtype (its data_ptr check).
  for (const Tensor* t : {&gamma, &beta}) {
    if (t->defined() && t->scalar_type() != X.scalar_type()) {
      at::detail::throw_data_ptr_type_mismatch(X.scalar_type(), t->scalar_type());
    }
  }
  const Tensor x = X.reshape({r.M, r.N}).to(acc);
  const Tensor m = x.mean({1}, /*keepdim=*/true);
  const Tensor d = x - m;
  const Tensor inv = (d * d).mean({1}, /*keepdim=*/true).add(eps).sqrt().reciprocal();
  Tensor y = d * inv;
  if (gamma.defined()) y = y * gamma.reshape({r.N}).to(acc);
  if (beta.defined()) y = y + beta.reshape({r.N}).to(acc);
  Y.copy_(y.view(X.sizes()));
  mean.copy_(m.view({r.M}));
  rstd.copy_(inv.view({r.M}));
}

void layer_norm_backward_on_device(const Tensor& dY, const Tensor& X, const Tensor& mean,
                                   const Tensor& rstd, const Tensor& gamma, const Rows& r,
                                   const Tensor& dX, const Tensor& dgamma, const Tensor& dbeta) {
  const ScalarType acc = layer_norm_opmath(X);
  const Tensor x = X.reshape({r.M, r.N}).to(acc);
  const Tensor dy = dY.reshape({r.M, r.N}).to(acc);
  const Tensor rs = rstd.reshape({r.M, 1}).to(acc);
  const Tensor xhat = (x - mean.reshape({r.M, 1}).to(acc)) * rs;
  if (dX.defined()) {
    const Tensor g = gamma.defined() ? dy * gamma.reshape({r.N}).to(acc) : dy;
    const Tensor mean_g = g.mean({1}, /*keepdim=*/true);
    const Tensor mean_g_xhat = (g * xhat).mean({1}, /*keepdim=*/true);
    dX.copy_((rs * (g - mean_g - xhat * mean_g_xhat)).view(X.sizes()));
  }
  if (dgamma.defined()) dgamma.copy_((dy * xhat).sum({0}).view(dgamma.sizes()));
  if (dbeta.defined()) dbeta.copy_(dy.sum({0}).view(dbeta.sizes()));
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor> native_layer_norm(const Tensor& input,
                                                     IntArrayRef normalized_shape,
                                                     const c10::optional<Tensor>& weight_opt,
                                                     const c10::optional<Tensor>& bias_opt,
                                                     double eps) {
  const Tensor weight = weight_opt.value_or(Tensor());
  const Tensor bias = bias_opt.value_or(Tensor());
  check_same_device("_native_layer_norm", {{"input", input}, {"weight", weight}, {"bias", bias}});
  const Rows r = check_layer_norm_inputs(input, normalized_shape, weight, bias);
  const Tensor X = input.contiguous();
  Tensor Y = at::empty_like(X, MemoryFormat::Contiguous);
  // On CUDA the stats are in the op-math type (float for Half and BFloat16), as PyTorch's CUDA
  // layer norm returns them; the CPU's are in the input's dtype, as libtorch's CPU kernel.
  const TensorOptions stat_options =
      X.is_cuda() ? X.options().dtype(layer_norm_opmath(X)) : X.options();
  Tensor mean = at::empty({r.M}, stat_options);
  Tensor rstd = at::empty({r.M}, stat_options);
  const std::vector<int64_t> stats = stat_shape(input, normalized_shape);
  if (r.M == 0 || r.N == 0) {
    if (r.M > 0) {  // rows of no elements: NaN mean and rstd, as libtorch
      mean.fill_(NAN);
      rstd.fill_(NAN);
    }
    return std::make_tuple(Y, mean.view(stats), rstd.view(stats));
  }
  const Tensor gamma = weight.defined() ? weight.contiguous() : weight;
  const Tensor beta = bias.defined() ? bias.contiguous() : bias;
  if (X.is_cuda()) {
    layer_norm_on_device(X, gamma, beta, r, eps, Y, mean, rstd);
    return std::make_tuple(Y, mean.view(stats), rstd.view(stats));
  }
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, X.scalar_type(), "layer_norm_cpu", [&] {
    if (X.is_meta()) return;  // past the dispatch's dtype check: the rest reads data
    using acc_t = at::opmath_type<scalar_t>;
    const scalar_t* x = X.data_ptr<scalar_t>();
    scalar_t* y = Y.data_ptr<scalar_t>();
    scalar_t* mean_data = mean.data_ptr<scalar_t>();
    scalar_t* rstd_data = rstd.data_ptr<scalar_t>();
    const scalar_t* g = gamma.defined() ? gamma.data_ptr<scalar_t>() : nullptr;
    const scalar_t* b = beta.defined() ? beta.data_ptr<scalar_t>() : nullptr;
    const int64_t N = r.N;
    at::parallel_for(0, r.M, 1, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        const scalar_t* row = x + i * N;
        acc_t sum = 0;
        for (int64_t j = 0; j < N; ++j) sum += static_cast<acc_t>(row[j]);
        const acc_t m = sum / static_cast<acc_t>(N);
        acc_t sq = 0;
        for (int64_t j = 0; j < N; ++j) {
          const acc_t d = static_cast<acc_t>(row[j]) - m;
          sq += d * d;
        }
        const acc_t inv =
            acc_t(1) / std::sqrt(sq / static_cast<acc_t>(N) + static_cast<acc_t>(eps));
        scalar_t* out = y + i * N;
        for (int64_t j = 0; j < N; ++j) {
          acc_t v = (static_cast<acc_t>(row[j]) - m) * inv;
          if (g != nullptr) v *= static_cast<acc_t>(g[j]);
          if (b != nullptr) v += static_cast<acc_t>(b[j]);
          out[j] = static_cast<scalar_t>(v);
        }
        mean_data[i] = static_cast<scalar_t>(m);
        rstd_data[i] = static_cast<scalar_t>(inv);
      }
    });
  });
  return std::make_tuple(Y, mean.view(stats), rstd.view(stats));
}

// Note [Layer norm as rows] gives the formulas; output_mask picks which of dX, dweight, dbias
// to compute (the others come back undefined).
std::tuple<Tensor, Tensor, Tensor> native_layer_norm_backward(
    const Tensor& grad_out, const Tensor& input, IntArrayRef normalized_shape, const Tensor& mean,
    const Tensor& rstd, const c10::optional<Tensor>& weight_opt,
    const c10::optional<Tensor>& bias_opt, std::array<bool, 3> output_mask) {
  const Tensor weight = weight_opt.value_or(Tensor());
  const Tensor bias = bias_opt.value_or(Tensor());
  const Rows r = check_layer_norm_inputs(input, normalized_shape, weight, bias);
  // What the forward made, as the loops below read it.
  TORCH_CHECK(
      grad_out.sizes().equals(input.sizes()) && grad_out.scalar_type() == input.scalar_type(),
      "native_layer_norm_backward(): grad_out must have input's sizes and dtype, got ",
      grad_out.sizes(), " and ", input.sizes());
  // The forward's stats: the input's dtype, or on CUDA the op-math type (native_layer_norm).
  const ScalarType stat_type = input.is_cuda() ? layer_norm_opmath(input) : input.scalar_type();
  TORCH_CHECK(mean.numel() == r.M && rstd.numel() == r.M && mean.scalar_type() == stat_type &&
                  rstd.scalar_type() == stat_type,
              "native_layer_norm_backward(): mean and rstd must hold one value of input's dtype "
              "per normalized row (",
              r.M, "), got ", mean.numel(), " and ", rstd.numel());
  const Tensor X = input.contiguous();
  const Tensor dY = grad_out.contiguous();
  Tensor dX, dgamma, dbeta;
  if (output_mask[0]) dX = at::empty_like(X, MemoryFormat::Contiguous);
  if (output_mask[1]) {
    dgamma = weight.defined() ? at::zeros_like(weight, MemoryFormat::Contiguous)
                              : at::zeros(normalized_shape, X.options());
  }
  if (output_mask[2]) {
    dbeta = bias.defined() ? at::zeros_like(bias, MemoryFormat::Contiguous)
                           : at::zeros(normalized_shape, X.options());
  }
  if (r.M == 0 || r.N == 0) return std::make_tuple(dX, dgamma, dbeta);
  const Tensor mean_c = mean.contiguous(), rstd_c = rstd.contiguous();
  const Tensor gamma = weight.defined() ? weight.contiguous() : weight;
  if (X.is_cuda()) {
    layer_norm_backward_on_device(dY, X, mean_c, rstd_c, gamma, r, dX, dgamma, dbeta);
    return std::make_tuple(dX, dgamma, dbeta);
  }
  AT_DISPATCH_FLOATING_TYPES_AND2(
      kHalf, kBFloat16, X.scalar_type(), "layer_norm_backward_cpu", [&] {
        if (X.is_meta()) return;  // past the dispatch's dtype check: the rest reads data
        using acc_t = at::opmath_type<scalar_t>;
        const int64_t M = r.M, N = r.N;
        const scalar_t* x = X.data_ptr<scalar_t>();
        const scalar_t* dy = dY.data_ptr<scalar_t>();
        const scalar_t* mu = mean_c.data_ptr<scalar_t>();
        const scalar_t* rs = rstd_c.data_ptr<scalar_t>();
        const scalar_t* g = gamma.defined() ? gamma.data_ptr<scalar_t>() : nullptr;
        auto xhat = [&](int64_t i, int64_t j) {
          return (static_cast<acc_t>(x[i * N + j]) - static_cast<acc_t>(mu[i])) *
                 static_cast<acc_t>(rs[i]);
        };
        if (dX.defined()) {
          scalar_t* dx = dX.data_ptr<scalar_t>();
          at::parallel_for(0, M, 1, [&](int64_t begin, int64_t end) {
            for (int64_t i = begin; i < end; ++i) {
              acc_t sum_g = 0, sum_g_xhat = 0;
              for (int64_t j = 0; j < N; ++j) {
                const acc_t gj = static_cast<acc_t>(dy[i * N + j]) *
                                 (g != nullptr ? static_cast<acc_t>(g[j]) : acc_t(1));
                sum_g += gj;
                sum_g_xhat += gj * xhat(i, j);
              }
              const acc_t mean_g = sum_g / static_cast<acc_t>(N);
              const acc_t mean_g_xhat = sum_g_xhat / static_cast<acc_t>(N);
              for (int64_t j = 0; j < N; ++j) {
                const acc_t gj = static_cast<acc_t>(dy[i * N + j]) *
                                 (g != nullptr ? static_cast<acc_t>(g[j]) : acc_t(1));
                dx[i * N + j] = static_cast<scalar_t>(static_cast<acc_t>(rs[i]) *
                                                      (gj - mean_g - xhat(i, j) * mean_g_xhat));
              }
            }
          });
        }
        if (dgamma.defined() || dbeta.defined()) {
          std::vector<acc_t> dg(static_cast<size_t>(N), 0), db(static_cast<size_t>(N), 0);
          for (int64_t i = 0; i < M; ++i) {
            for (int64_t j = 0; j < N; ++j) {
              const acc_t d = static_cast<acc_t>(dy[i * N + j]);
              dg[static_cast<size_t>(j)] += d * xhat(i, j);
              db[static_cast<size_t>(j)] += d;
            }
          }
          if (dgamma.defined()) {
            scalar_t* out = dgamma.data_ptr<scalar_t>();
            for (int64_t j = 0; j < N; ++j)
              out[j] = static_cast<scalar_t>(dg[static_cast<size_t>(j)]);
          }
          if (dbeta.defined()) {
            scalar_t* out = dbeta.data_ptr<scalar_t>();
            for (int64_t j = 0; j < N; ++j)
              out[j] = static_cast<scalar_t>(db[static_cast<size_t>(j)]);
          }
        }
      });
  return std::make_tuple(dX, dgamma, dbeta);
}

Tensor layer_norm(const Tensor& input, IntArrayRef normalized_shape,
                  const c10::optional<Tensor>& weight, const c10::optional<Tensor>& bias,
                  double eps, bool cudnn_enable) {
  (void)cudnn_enable;  // deprecated in libtorch too
  return std::get<0>(at::native_layer_norm(input, normalized_shape, weight, bias, eps));
}

}  // namespace native
}  // namespace at
