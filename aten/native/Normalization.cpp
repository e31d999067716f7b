// Normalization layers: batch_norm.
//
// Note [batch_norm is composite]
// libtorch runs batch_norm -> _batch_norm_impl_index -> native_batch_norm, a CPU/CUDA kernel
// with its own backward. miniaten's batch_norm is CompositeImplicitAutograd over the
// elementwise and reduction operators (mean, sub, mul, sqrt, ...): it runs on every backend
// those run on, autograd differentiates it through them, and a mode or wrapper key sees the
// one batch_norm call (PyTorch's backend_fallback_test counts them). What it gives up is
// speed: several passes over the input instead of one fused kernel.

#include "aten/ATen.h"
#include "aten/Dispatch.h"
#include "aten/autograd/GradMode.h"
#include "aten/generated/NativeFunctions.h"

namespace at {
namespace native {

namespace {

void check_channel_tensor(const c10::optional<Tensor>& t, const char* name, int64_t channels) {
  if (!t.has_value() || !t->defined()) return;
  TORCH_CHECK(t->numel() == channels, name, " should contain ", channels, " elements not ",
              t->numel());
}

// [1, C, 1, ...]: a per-channel vector broadcast against an input of `dim` dims.
Tensor as_channel_view(const Tensor& t, int64_t dim) {
  std::vector<int64_t> shape(static_cast<size_t>(dim), 1);
  shape[1] = t.numel();
  return t.reshape(shape);
}

}  // namespace

// CompositeImplicitAutograd. See Note [batch_norm is composite].
Tensor batch_norm(const Tensor& input, const c10::optional<Tensor>& weight,
                  const c10::optional<Tensor>& bias, const c10::optional<Tensor>& running_mean,
                  const c10::optional<Tensor>& running_var, bool training, double momentum,
                  double eps, bool cudnn_enabled) {
  (void)cudnn_enabled;
  TORCH_CHECK(input.dim() >= 2, "batch_norm: expected an input with at least 2 dims (N, C, ...),",
              " but got ", input.dim());
  const int64_t channels = input.size(1);
  check_channel_tensor(running_mean, "running_mean", channels);
  check_channel_tensor(running_var, "running_var", channels);
  check_channel_tensor(weight, "weight", channels);
  check_channel_tensor(bias, "bias", channels);
  // libtorch's CPU kernel dispatches on the floating types only.
  const c10::ScalarType st = input.scalar_type();
  if (c10::isComplexType(st) || c10::isIntegralType(st, /*includeBool=*/true)) {
    at::detail::dispatch_not_implemented("batch_norm", st);
  }
  const bool has_running_mean = running_mean.has_value() && running_mean->defined();
  const bool has_running_var = running_var.has_value() && running_var->defined();

  std::vector<int64_t> reduce_dims;  // every dim but the channels
  for (int64_t d = 0; d < input.dim(); ++d) {
    if (d != 1) reduce_dims.push_back(d);
  }
  Tensor mean;
  Tensor var;
  if (training) {
    mean = input.mean(reduce_dims, /*keepdim=*/true);
    const Tensor centered = input - mean;
    var = (centered * centered).mean(reduce_dims, /*keepdim=*/true);  // biased, as libtorch
    if (has_running_mean || has_running_var) {
      // The running statistics use the unbiased variance; they are buffers, not part of the
      // graph (libtorch updates them inside its kernel).
      at::NoGradGuard no_grad;
      // No channels: nothing to update, and no elements per channel to count.
      const int64_t n = channels == 0 ? 0 : input.numel() / channels;
      if (has_running_mean) {
        running_mean->mul_(1 - momentum).add_(mean.reshape({channels}) * momentum);
      }
      if (has_running_var) {
        // One value per channel has no unbiased variance: n / (n - 1) is infinite and the
        // running variance becomes NaN, as libtorch 1.13's kernel makes it (var_sum / 0).
        // torch::nn::functional::batch_norm refuses such an input before it gets here.
        const double unbias = static_cast<double>(n) / static_cast<double>(n - 1);
        running_var->mul_(1 - momentum).add_(var.reshape({channels}) * (momentum * unbias));
      }
    }
  } else {
    TORCH_CHECK(has_running_mean, "running_mean must be defined in evaluation mode");
    TORCH_CHECK(has_running_var, "running_var must be defined in evaluation mode");
    mean = as_channel_view(*running_mean, input.dim());
    var = as_channel_view(*running_var, input.dim());
  }
  Tensor out = (input - mean) / (var + eps).sqrt();
  if (weight.has_value() && weight->defined()) out = out * as_channel_view(*weight, input.dim());
  if (bias.has_value() && bias->defined()) out = out + as_channel_view(*bias, input.dim());
  return out;
}

}  // namespace native
}  // namespace at
