// softmax and log_softmax: the composite softmax.int / log_softmax.int (a dtype conversion, then
// _softmax / _log_softmax) and the CPU/Meta kernels with libtorch 1.13's checks
// (aten/src/ATen/native/SoftMax.cpp). The kernels are in cpu/SoftMaxKernel.cpp and
// cuda/SoftMaxKernel.cu.
//
// The result is contiguous, in self's dtype. float and double run in the kernel; BFloat16 runs
// in float and is rounded once at the end (libtorch's kernels also compute BFloat16 in float).
// Half (on the CPU) and the integer types are libtorch's "not implemented" errors (an integer
// tensor needs softmax's dtype argument).

#include "aten/native/SoftMax.h"
#include "aten/ATen.h"
#include "aten/generated/NativeFunctions.h"
#include "aten/native/SameDevice.h"
#include "c10/core/WrapDimMinimal.h"

namespace at {
namespace native {

DEFINE_DISPATCH(softmax_stub);
DEFINE_DISPATCH(softmax_backward_stub);

namespace {

// The dim a softmax runs along, wrapped; a 0-dim tensor is treated as one of size 1.
int64_t softmax_dim(const Tensor& self, int64_t dim) {
  const int64_t wrapped = c10::maybe_wrap_dim(dim, self.dim());
  const int64_t input_dim = self.dim() > 0 ? self.dim() : 1;
  TORCH_CHECK(wrapped >= 0 && wrapped < input_dim,
              "dim must be non-negative and less than input dimensions");
  return wrapped;
}

// The dtype check of libtorch's kernels. The CPU's name the last-dim kernel when dim is the
// last; CUDA's (PyTorch's "host_softmax") also take Half.
void check_softmax_dtype(const Tensor& t, int64_t dim, const char* op) {
  const ScalarType type = t.scalar_type();
  if (type == kFloat || type == kDouble || type == kBFloat16) return;
  if (t.is_cuda()) {
    TORCH_CHECK(type == kHalf, "\"host_", op, "\" not implemented for '", type, "'");
    return;
  }
  const bool lastdim = t.dim() <= 1 || dim == t.dim() - 1;
  TORCH_CHECK(false, "\"", op, lastdim ? "_lastdim_kernel_impl" : "_kernel_impl",
              "\" not implemented for '", type, "'");
}

// Note [Half and BFloat16 softmax compute in float]
// The kernels take float and double. Half and BFloat16 inputs are converted to float, run, and
// rounded once into the result, as libtorch's kernels accumulate them in float. On CUDA a Half
// input may ask for a float result (half_to_float, PyTorch's fused form); the CPU refuses it with
// libtorch's text.
Tensor softmax_forward(const Tensor& self, int64_t dim, bool half_to_float, bool log) {
  const int64_t wrapped = softmax_dim(self, dim);
  const char* op = log ? "log_softmax" : "softmax";
  if (half_to_float) {
    TORCH_CHECK(self.is_cuda() || self.is_meta(), op,
                " with half to float conversion is not supported on CPU");
    TORCH_CHECK(self.scalar_type() == kHalf, "conversion is supported for Half type only");
  }
  Tensor result = at::empty(self.sizes(), self.options()
                                              .dtype(half_to_float ? kFloat : self.scalar_type())
                                              .memory_format(MemoryFormat::Contiguous));
  if (self.numel() == 0) return result;
  check_softmax_dtype(self, wrapped, op);
  if (result.is_meta()) return result;
  const DeviceType device = self.device().type();
  const ScalarType type = self.scalar_type();
  if (type == kBFloat16 || type == kHalf) {
    const Tensor in = self.to(kFloat).contiguous();
    Tensor out = result.scalar_type() == kFloat ? result : at::empty(in.sizes(), in.options());
    softmax_stub(device, out, in, wrapped, log);
    return out.is_same(result) ? result : result.copy_(out);
  }
  softmax_stub(device, result, self.contiguous(), wrapped, log);
  return result;
}

Tensor softmax_backward(const Tensor& grad_output, const Tensor& output, int64_t dim,
                        ScalarType input_dtype, bool log) {
  // libtorch's CPU kernels compute in grad_output's dtype whatever input_dtype is; CUDA's give
  // a half_to_float forward's gradient (a float grad, a Half input) back in Half.
  const bool half_to_float = grad_output.is_cuda() && grad_output.scalar_type() != input_dtype;
  if (half_to_float) {
    TORCH_CHECK(grad_output.scalar_type() == kFloat && input_dtype == kHalf,
                "expected input and grad types to match, or input to be at::Half and grad to be "
                "at::Float");
  }
  check_same_device(log ? "_log_softmax_backward_data" : "_softmax_backward_data",
                    {{"grad_output", grad_output}, {"output", output}});
  const int64_t wrapped = softmax_dim(output, dim);
  // libtorch's checkSameSize text (its log_softmax backward does not check; the kernel here
  // needs the sizes equal either way).
  TORCH_CHECK(grad_output.sizes().equals(output.sizes()),
              "Expected tensor for argument #1 'grad' to have same size as tensor for argument "
              "#2 'output'; but ",
              grad_output.sizes(), " does not equal ", output.sizes(),
              " (while checking arguments for ", log ? "log_softmax_backward" : "softmax_backward",
              ")");
  Tensor grad_input =
      at::empty(output.sizes(), grad_output.options()
                                    .dtype(half_to_float ? kHalf : grad_output.scalar_type())
                                    .memory_format(MemoryFormat::Contiguous));
  if (output.numel() == 0) return grad_input;
  check_softmax_dtype(grad_output, wrapped, log ? "log_softmax_backward" : "softmax_backward");
  // The kernel reads output as grad's dtype: libtorch's data_ptr check.
  if (output.scalar_type() != grad_output.scalar_type()) {
    at::detail::throw_data_ptr_type_mismatch(grad_output.scalar_type(), output.scalar_type());
  }
  if (grad_input.is_meta()) return grad_input;
  // BFloat16 through float, as the forward.
  const ScalarType grad_type = grad_output.scalar_type();
  const ScalarType compute = grad_type == kBFloat16 || grad_type == kHalf ? kFloat : grad_type;
  const Tensor grad = grad_output.to(compute).contiguous();
  const Tensor out = output.to(compute).contiguous();
  const DeviceType device = grad_output.device().type();
  if (compute != grad_input.scalar_type()) {
    Tensor tmp = at::empty(output.sizes(), grad_input.options().dtype(compute));
    softmax_backward_stub(device, tmp, grad, out, wrapped, log);
    return grad_input.copy_(tmp);
  }
  softmax_backward_stub(device, grad_input, grad, out, wrapped, log);
  return grad_input;
}

}  // namespace

Tensor _softmax_kernel(const Tensor& self, int64_t dim, bool half_to_float) {
  return softmax_forward(self, dim, half_to_float, /*log=*/false);
}

Tensor _log_softmax_kernel(const Tensor& self, int64_t dim, bool half_to_float) {
  return softmax_forward(self, dim, half_to_float, /*log=*/true);
}

Tensor _softmax_backward_data_kernel(const Tensor& grad_output, const Tensor& output, int64_t dim,
                                     ScalarType input_dtype) {
  return softmax_backward(grad_output, output, dim, input_dtype, /*log=*/false);
}

Tensor _log_softmax_backward_data_kernel(const Tensor& grad_output, const Tensor& output,
                                         int64_t dim, ScalarType input_dtype) {
  return softmax_backward(grad_output, output, dim, input_dtype, /*log=*/true);
}

Tensor softmax(const Tensor& self, int64_t dim, c10::optional<ScalarType> dtype) {
  const Tensor converted = dtype.has_value() ? self.to(*dtype) : self;
  return at::_softmax(converted, dim, /*half_to_float=*/false);
}

Tensor log_softmax(const Tensor& self, int64_t dim, c10::optional<ScalarType> dtype) {
  const Tensor converted = dtype.has_value() ? self.to(*dtype) : self;
  return at::_log_softmax(converted, dim, /*half_to_float=*/false);
}

}  // namespace native
}  // namespace at
