// Losses: nll_loss (forward and backward kernels, the composite nll_loss / nll_loss_nd),
// cross_entropy_loss (composite: log_softmax then nll_loss_nd, or the class-probability and
// label-smoothing forms) and mse_loss, with libtorch 1.13's checks and texts
// (aten/src/ATen/native/LossNLL.cpp, Loss.cpp).
//
// Note [nll_loss of more than two dims]
// libtorch's nll_loss_nd sends 3-D and higher inputs (N, C, d1, ...) to nll_loss2d. miniaten has
// no nll_loss2d: the class dim is moved last and the rest flattened, so the same per-element
// losses and the same total weight go through nll_loss_forward (the values are libtorch's; the
// graph's node is NllLossBackward0 where libtorch's is NllLoss2DBackward0).

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <tuple>

#include "aten/ATen.h"
#include "aten/Dispatch.h"
#include "aten/core/Reduction.h"
#include "aten/generated/NativeFunctions.h"
#include "aten/native/BinaryCrossEntropy.h"
#include "aten/native/Loss.h"
#include "aten/native/NllRows.h"
#include "aten/native/SameDevice.h"
#include "aten/native/TensorIterator.h"
#include "aten/native/TypePromotion.h"
#include "c10/util/accumulate.h"

namespace at {
namespace native {

DEFINE_DISPATCH(nll_loss_forward_stub);
DEFINE_DISPATCH(nll_loss_backward_stub);

namespace {

const Tensor& undefined_if_none(const c10::optional<Tensor>& t) {
  static const Tensor undefined;
  return t.has_value() ? *t : undefined;
}

void check_nll_loss(const Tensor& self, const Tensor& target, const Tensor& weight) {
  TORCH_CHECK(self.dim() > 0 && self.dim() <= 2, "input tensor should be 1D or 2D");
  TORCH_CHECK(target.dim() <= 1, "0D or 1D target tensor expected, multi-target not supported");
  const bool no_batch_dim = self.dim() == 1 && target.dim() == 0;
  TORCH_CHECK(no_batch_dim || (self.size(0) == target.size(0)),
              "size mismatch (got input: ", self.sizes(), ", target: ", target.sizes(), ")");
  const int64_t n_classes = self.size(-1);
  TORCH_CHECK(!weight.defined() || (weight.dim() == 1 && weight.numel() == n_classes),
              "weight tensor should be defined either for all ", n_classes,
              " classes or no classes but got weight tensor of shape: ", weight.sizes());
}

void check_target_dtype(const Tensor& target) {
  TORCH_CHECK(target.scalar_type() == kLong, "expected scalar type Long but found ",
              target.scalar_type());
}

// An (N, C, d1, ...) input as rows of C class scores, one per (n, d1, ...): the class dim moved
// last, the rest flattened (their product, not -1, which an empty tensor would leave ambiguous).
Tensor class_rows(const Tensor& input) {
  const int64_t n = input.size(0) * c10::multiply_integers(input.sizes().slice(2));
  return input.movedim(1, -1).reshape({n, input.size(1)});
}

}  // namespace

std::tuple<Tensor, Tensor> nll_loss_forward(const Tensor& self, const Tensor& target,
                                            const c10::optional<Tensor>& weight_opt,
                                            int64_t reduction, int64_t ignore_index) {
  const Tensor& weight = undefined_if_none(weight_opt);
  check_same_device("nll_loss_forward", {{"self", self}, {"target", target}, {"weight", weight}});
  check_nll_loss(self, target, weight);
  const bool per_sample = reduction == Reduction::None && self.dim() == 2;
  Tensor output =
      per_sample ? at::empty({self.size(0)}, self.options()) : at::empty({}, self.options());
  Tensor total_weight = at::empty({}, self.options());
  check_target_dtype(target);
  if (target.numel() == 0) {
    // No samples: libtorch's empty mean is NaN, its sum and per-sample outputs 0.
    output.fill_(reduction == Reduction::Mean ? NAN : 0.0);
    total_weight.zero_();
    return std::make_tuple(output, total_weight);
  }
  if (self.is_cuda()) {
    nll_loss_forward_stub(kCUDA, output, total_weight, self, target, weight, reduction,
                          ignore_index);
    return std::make_tuple(output, total_weight);
  }
  AT_DISPATCH_FLOATING_TYPES_AND(kBFloat16, self.scalar_type(), "nll_loss_out_frame", [&] {
    if (self.is_meta()) return;  // past the dispatch's dtype check: the rest reads data
    const NllRows<scalar_t> r = nll_rows_of<scalar_t>(self, target, weight);
    if (reduction == Reduction::None) {
      scalar_t* out = output.data_ptr<scalar_t>();
      const int64_t out_stride = per_sample ? output.stride(0) : 0;
      for (int64_t i = 0; i < r.rows; ++i) {
        const int64_t c = r.class_of(i, ignore_index);
        out[i * out_stride] = c < 0 ? scalar_t(0) : -r.score(i, c) * r.weight_of(c);
      }
      total_weight.zero_();
      return;
    }
    // Accumulated in double: the sum over a batch is one value, the order of the adds only
    // touches its last bits.
    double loss = 0, weights = 0;
    for (int64_t i = 0; i < r.rows; ++i) {
      const int64_t c = r.class_of(i, ignore_index);
      if (c < 0) continue;
      const double w = static_cast<double>(r.weight_of(c));
      weights += w;
      loss -= static_cast<double>(r.score(i, c)) * w;
    }
    if (reduction == Reduction::Mean) loss /= weights;
    output.fill_(loss);
    total_weight.fill_(weights);
  });
  return std::make_tuple(output, total_weight);
}

Tensor nll_loss_backward(const Tensor& grad_output, const Tensor& self, const Tensor& target,
                         const c10::optional<Tensor>& weight_opt, int64_t reduction,
                         int64_t ignore_index, const Tensor& total_weight) {
  const Tensor& weight = undefined_if_none(weight_opt);
  check_same_device("nll_loss_backward", {{"grad_output", grad_output},
                                          {"self", self},
                                          {"target", target},
                                          {"weight", weight},
                                          {"total_weight", total_weight}});
  check_nll_loss(self, target, weight);
  TORCH_CHECK(total_weight.numel() == 1,
              "expected total_weight to be a single element tensor, got: ", total_weight.sizes(),
              " (", total_weight.numel(), " elements)");
  const bool per_sample = reduction == Reduction::None && self.dim() == 2;
  if (per_sample) {
    TORCH_CHECK(grad_output.dim() == 1 && grad_output.size(0) == self.size(0),
                "Expected a tensor of dimension 1 and tensor.size[0] == ", self.size(0),
                " but got: dimension ", grad_output.dim(),
                " and tensor.size[0] == ", grad_output.dim() > 0 ? grad_output.size(0) : 1);
  } else {
    TORCH_CHECK(grad_output.dim() <= 1 && grad_output.numel() == 1,
                "Expected a single element grad_output tensor, but got: ", grad_output.sizes());
  }
  Tensor grad_input = at::zeros(self.sizes(), self.options());
  check_target_dtype(target);
  if (target.numel() == 0) return grad_input;
  if (self.is_cuda()) {
    nll_loss_backward_stub(kCUDA, grad_input, grad_output, self, target, weight, reduction,
                           ignore_index, total_weight);
    return grad_input;
  }
  AT_DISPATCH_FLOATING_TYPES_AND(kBFloat16, self.scalar_type(), "nll_loss_backward_out_frame", [&] {
    if (self.is_meta()) return;  // past the dispatch's dtype check: the rest reads data
    const NllRows<scalar_t> r = nll_rows_of<scalar_t>(self, target, weight);
    const Tensor grad = grad_output.to(self.scalar_type());
    const scalar_t* g = grad.data_ptr<scalar_t>();
    const int64_t g_stride = per_sample ? grad.stride(0) : 0;
    scalar_t scale = scalar_t(1);
    if (reduction == Reduction::Mean) scale = scalar_t(1) / total_weight.item<scalar_t>();
    scalar_t* gi = grad_input.data_ptr<scalar_t>();
    const int64_t gi_row = self.dim() == 1 ? 0 : grad_input.stride(0);
    for (int64_t i = 0; i < r.rows; ++i) {
      const int64_t c = r.class_of(i, ignore_index);
      if (c < 0) continue;
      gi[i * gi_row + c] = -r.weight_of(c) * g[i * g_stride] * scale;
    }
  });
  return grad_input;
}

Tensor nll_loss(const Tensor& self, const Tensor& target, const c10::optional<Tensor>& weight,
                int64_t reduction, int64_t ignore_index) {
  return std::get<0>(at::nll_loss_forward(self, target, weight, reduction, ignore_index));
}

Tensor nll_loss_nd(const Tensor& self, const Tensor& target, const c10::optional<Tensor>& weight,
                   int64_t reduction, int64_t ignore_index) {
  TORCH_CHECK_VALUE(self.dim() >= 1, "Expected 1 or more dimensions (got ", self.dim(), ")");
  TORCH_CHECK_VALUE(self.dim() == 1 || target.dim() == 0 || self.size(0) == target.size(0),
                    "Expected input batch_size (", self.size(0), ") to match target batch_size (",
                    target.dim() == 0 ? 1 : target.size(0), ").");
  if (self.dim() <= 2) return at::nll_loss(self, target, weight, reduction, ignore_index);
  // Note [nll_loss of more than two dims]
  std::vector<int64_t> out_size(self.sizes().begin() + 2, self.sizes().end());
  out_size.insert(out_size.begin(), self.size(0));
  TORCH_CHECK(target.sizes().slice(1).equals(self.sizes().slice(2)), "Expected target size ",
              c10::IntArrayRef(out_size), ", got ", target.sizes());
  const Tensor rows = class_rows(self);
  const Tensor loss =
      at::nll_loss(rows, target.reshape({target.numel()}), weight, reduction, ignore_index);
  return reduction == Reduction::None ? loss.view(out_size) : loss;
}

namespace {

// The total weight nll_loss_nd divides by for the mean: the weights of the targets it counts.
Tensor nll_total_weight(const Tensor& input, const Tensor& target,
                        const c10::optional<Tensor>& weight, int64_t ignore_index) {
  const Tensor rows = input.dim() <= 2 ? input : class_rows(input);
  const Tensor targets = input.dim() <= 2 ? target : target.reshape({target.numel()});
  return std::get<1>(at::nll_loss_forward(rows, targets, weight, Reduction::Sum, ignore_index));
}

// weight viewed to broadcast along the class dim of an input of `dims` dims.
Tensor class_weight(const Tensor& weight, int64_t dims, int64_t class_dim) {
  if (dims <= 1) return weight;
  std::vector<int64_t> shape(static_cast<size_t>(dims), 1);
  shape[static_cast<size_t>(class_dim)] = weight.size(0);
  return weight.view(shape);
}

Tensor reduce_loss(const Tensor& loss, int64_t reduction, int64_t class_dim) {
  switch (reduction) {
    case Reduction::Sum:
      return loss.sum();
    case Reduction::None:
      return loss.sum(class_dim);
    default:
      TORCH_CHECK(false, "Invalid reduction type encountered in cross_entropy: ", reduction);
  }
}

// Targets given as class probabilities (same shape as the input).
Tensor cross_entropy_prob_target(const Tensor& self, const Tensor& target_, const Tensor& weight,
                                 int64_t reduction, double label_smoothing) {
  const int64_t class_dim = self.dim() == 1 ? 0 : 1;
  const int64_t n_classes = self.size(class_dim);
  TORCH_CHECK(!weight.defined() || (weight.dim() == 1 && weight.numel() == n_classes),
              "cross_entropy: weight tensor should be defined either for all ", n_classes,
              " classes or no classes but got weight tensor of shape: ", weight.sizes());
  const Tensor input = at::log_softmax(self, class_dim, self.scalar_type());
  Tensor target = target_;
  if (label_smoothing > 0.0) {
    TORCH_CHECK(label_smoothing <= 1.0,
                "label_smoothing must be between 0.0 and 1.0. Got: ", label_smoothing);
    target = target_ * (1 - label_smoothing) + (label_smoothing / n_classes);
  }
  Tensor product = input * target;
  if (weight.defined()) product = product * class_weight(weight, input.dim(), class_dim);
  if (reduction == Reduction::Mean) {
    if (input.numel() == 0) return -product.sum().fill_(NAN);
    return -product.sum() / (input.numel() / n_classes);
  }
  return -reduce_loss(product, reduction, class_dim);
}

Tensor cross_entropy_label_smoothing(const Tensor& self, const Tensor& target,
                                     const c10::optional<Tensor>& weight_opt, int64_t reduction,
                                     int64_t ignore_index, double label_smoothing) {
  const Tensor& weight = undefined_if_none(weight_opt);
  const int64_t class_dim = self.dim() == 1 ? 0 : 1;
  const Tensor input = at::log_softmax(self, class_dim, self.scalar_type());
  const Tensor nllloss = at::nll_loss_nd(input, target, weight_opt, reduction, ignore_index);
  const int64_t n_classes = input.size(class_dim);
  const Tensor ignore_mask = target == ignore_index;
  Tensor smooth_loss = weight.defined()
                           ? -(input * class_weight(weight, input.dim(), class_dim)).sum(class_dim)
                           : -input.sum(class_dim);
  smooth_loss = at::where(ignore_mask, at::zeros({}, smooth_loss.options()), smooth_loss);
  Tensor ret;
  switch (reduction) {
    case Reduction::Mean:
      if (weight.defined()) {
        // Normalized by the weights of the counted targets, as nll_loss_nd is: its total weight.
        ret =
            smooth_loss.sum() / nll_total_weight(input.detach(), target, weight_opt, ignore_index);
      } else {
        ret = smooth_loss.sum() / ignore_mask.logical_not().sum();
      }
      break;
    case Reduction::Sum:
      ret = smooth_loss.sum();
      break;
    case Reduction::None:
      ret = smooth_loss;
      break;
    default:
      TORCH_CHECK(false, "Invalid reduction type encountered in cross_entropy: ", reduction);
  }
  return (1 - label_smoothing) * nllloss + ret * (label_smoothing / n_classes);
}

}  // namespace

Tensor cross_entropy_loss(const Tensor& self, const Tensor& target,
                          const c10::optional<Tensor>& weight, int64_t reduction,
                          int64_t ignore_index, double label_smoothing) {
  if (self.sizes().equals(target.sizes())) {
    // Same shapes: the targets are class probabilities.
    TORCH_CHECK(at::isFloatingType(target.scalar_type()),
                "Expected floating point type for target with class probabilities, got ",
                target.scalar_type());
    TORCH_CHECK(ignore_index < 0, "ignore_index is not supported for floating point target");
    return cross_entropy_prob_target(self, target, undefined_if_none(weight), reduction,
                                     label_smoothing);
  }
  if (label_smoothing > 0.0) {
    TORCH_CHECK(label_smoothing <= 1.0,
                "label_smoothing must be between 0.0 and 1.0. Got: ", label_smoothing);
    return cross_entropy_label_smoothing(self, target, weight, reduction, ignore_index,
                                         label_smoothing);
  }
  const int64_t class_dim = self.dim() == 1 ? 0 : 1;
  return at::nll_loss_nd(at::log_softmax(self, class_dim, self.scalar_type()), target, weight,
                         reduction, ignore_index);
}

// ---- mse_loss
// ------------------------------------------------------------------------------------

namespace {

void check_mse_dtype(const Tensor& self, const Tensor& target) {
  const ScalarType type = at::result_type(self, target);
  TORCH_CHECK(type == kFloat || type == kDouble || type == kBFloat16 || type == kHalf, "\"mse_",
              self.is_cuda() ? "cuda" : "cpu", "\" not implemented for '", type, "'");
}

Tensor apply_loss_reduction(const Tensor& loss, int64_t reduction) {
  if (reduction == Reduction::Mean) return loss.mean();
  if (reduction == Reduction::Sum) return loss.sum();
  return loss;
}

}  // namespace

Tensor mse_loss(const Tensor& self, const Tensor& target, int64_t reduction) {
  check_mse_dtype(self, target);
  const Tensor diff = at::sub(self, target);
  if (diff.is_meta()) return apply_loss_reduction(diff, reduction);
  return apply_loss_reduction(diff * diff, reduction);
}

// 2 * (self - target) * grad_output, divided by the number of loss elements when the mean was
// taken. That number is the broadcast shape's: libtorch 1.13 divides by self's numel, which
// halves the gradient of a target broadcast against a larger self (target's gradient is this
// function with the two swapped); the loss itself is the mean over the broadcast shape.
Tensor mse_loss_backward(const Tensor& grad_output, const Tensor& self, const Tensor& target,
                         int64_t reduction) {
  check_mse_dtype(self, target);
  const int64_t n = c10::multiply_integers(infer_size_dimvector(self.sizes(), target.sizes()));
  const double norm = reduction == Reduction::Mean ? 2. / static_cast<double>(n) : 2.;
  return at::sub(self, target).mul_(norm).mul_(grad_output);
}

// ---- binary_cross_entropy
// --------------------------------------------------------------------------

DEFINE_DISPATCH(binary_cross_entropy_stub);
DEFINE_DISPATCH(binary_cross_entropy_backward_stub);

namespace {

// TensorIterator over (out, inputs...), all in out's dtype. Inputs are squeezed as libtorch's
// kernels squeeze them, so an input [N, 1] meets a target [N].
TensorIterator squeezed_iterator(const Tensor& out, std::initializer_list<Tensor> inputs) {
  TensorIteratorConfig config;
  config.add_output(at::squeeze(out));
  for (const Tensor& t : inputs) config.add_owned_input(at::squeeze(t));
  return config.build();
}

// The CPU's pass: `op` maps the inputs' values (as scalar_t) to the output's.
template <typename scalar_t, int kInputs, typename Op>
void cpu_elementwise(TensorIterator& iter, Op op) {
  iter.for_each([&](char** data, const int64_t* strides, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      auto at = [&](int k) { return *reinterpret_cast<const scalar_t*>(data[k] + i * strides[k]); };
      scalar_t* dst = reinterpret_cast<scalar_t*>(data[0] + i * strides[0]);
      if constexpr (kInputs == 2) {
        *dst = op(at(1), at(2));
      } else {
        *dst = op(at(1), at(2), at(3));
      }
    }
  });
}

constexpr const char* kInputRangeError = "all elements of input should be between 0 and 1";

}  // namespace

// L = -w (y log(x) + (1 - y) log(1 - x)), each log clamped at -100 (libtorch's
// binary_cross_entropy_out_cpu). Only the input is checked to lie in [0, 1]: on the CPU element by
// element, on a device by one reduction before the kernel (a kernel cannot raise).
Tensor binary_cross_entropy(const Tensor& self, const Tensor& target,
                            const c10::optional<Tensor>& weight, int64_t reduction) {
  check_same_device("binary_cross_entropy",
                    {{"self", self}, {"target", target}, {"weight", weight.value_or(Tensor())}});
  Tensor loss = at::empty_like(self);
  if (self.is_cuda()) {
    TORCH_CHECK(at::isFloatingType(self.scalar_type()),
                "\"binary_cross_entropy_out_cuda\" not implemented for '",
                c10::toString(self.scalar_type()), "'");
    auto iter = squeezed_iterator(loss, {self, target});  // its shape and dtype checks first
    TORCH_CHECK(self.ge(0).logical_and_(self.le(1)).all().item<bool>(), kInputRangeError);
    binary_cross_entropy_stub(self.device().type(), iter);
  } else {
    AT_DISPATCH_FLOATING_TYPES_AND(kBFloat16, loss.scalar_type(), "binary_cross_entropy", [&] {
      if (self.is_meta()) return;  // past the dispatch's dtype check: the rest reads data
      auto iter = squeezed_iterator(loss, {self, target});
      cpu_elementwise<scalar_t, 2>(iter, [](scalar_t x, scalar_t y) {
        TORCH_CHECK(x >= 0 && x <= 1, kInputRangeError);
        return binary_cross_entropy_element(x, y);
      });
    });
  }
  if (weight.has_value() && weight->defined()) loss.mul_(*weight);
  return apply_loss_reduction(loss, reduction);
}

// d L / d x = grad * w * (x - y) / max((1 - x) x, 1e-12), over numel for the mean.
Tensor binary_cross_entropy_backward(const Tensor& grad_output, const Tensor& self,
                                     const Tensor& target, const c10::optional<Tensor>& weight,
                                     int64_t reduction) {
  check_same_device("binary_cross_entropy_backward", {{"grad_output", grad_output},
                                                      {"self", self},
                                                      {"target", target},
                                                      {"weight", weight.value_or(Tensor())}});
  Tensor grad_input = at::empty_like(self);
  if (self.is_cuda()) {
    TORCH_CHECK(at::isFloatingType(self.scalar_type()),
                "\"binary_cross_entropy_backward_out_cuda\" not implemented for '",
                c10::toString(self.scalar_type()), "'");
    auto iter = squeezed_iterator(grad_input, {grad_output, self, target});
    binary_cross_entropy_backward_stub(self.device().type(), iter);
  } else {
    AT_DISPATCH_FLOATING_TYPES_AND(
        kBFloat16, grad_input.scalar_type(), "binary_cross_entropy_backward", [&] {
          if (self.is_meta()) return;  // past the dispatch's dtype check: the rest reads data
          auto iter = squeezed_iterator(grad_input, {grad_output, self, target});
          cpu_elementwise<scalar_t, 3>(iter, [](scalar_t g, scalar_t x, scalar_t y) {
            return binary_cross_entropy_grad_element(g, x, y);
          });
        });
  }
  if (weight.has_value() && weight->defined()) grad_input.mul_(*weight);
  if (reduction == Reduction::Mean) grad_input.div_(self.numel());
  return grad_input;
}

}  // namespace native
}  // namespace at
