#include "aten/autograd/FunctionsManual.h"

#include <algorithm>

#include "aten/ATen.h"
#include "c10/core/WrapDimMinimal.h"
#include "c10/util/WrappingArithmetic.h"
#include "c10/util/accumulate.h"

namespace torch {
namespace autograd {
namespace generated {
namespace details {

at::Tensor maybe_multiply(const at::Tensor& t, const c10::Scalar& s) {
  const bool is_one = s.isFloatingPoint() ? s.toDouble() == 1.0 : s.toLong() == 1;
  return is_one ? t : at::mul(t, s);
}

at::Tensor sum_to(const at::Tensor& grad, c10::IntArrayRef shape) {
  if (grad.sizes() == shape) return grad;
  const int64_t leading = grad.dim() - static_cast<int64_t>(shape.size());
  std::vector<int64_t> reduce_dims;
  for (int64_t i = 0; i < leading; ++i) reduce_dims.push_back(i);
  for (int64_t i = leading; i < grad.dim(); ++i) {
    if (shape[i - leading] == 1 && grad.size(i) != 1) reduce_dims.push_back(i);
  }
  at::Tensor result = grad;
  if (!reduce_dims.empty()) result = at::sum(result, reduce_dims, /*keepdim=*/true);
  return leading > 0 ? result.view(shape) : result;
}

at::Tensor restore_reduced_dims(const at::Tensor& t, c10::IntArrayRef sizes, c10::IntArrayRef dims,
                                bool keepdim) {
  if (keepdim || sizes.empty()) return t;
  const int64_t ndim = static_cast<int64_t>(sizes.size());
  if (dims.empty()) return t.view(std::vector<int64_t>(sizes.size(), 1));
  std::vector<int64_t> wrapped;
  for (int64_t d : dims) wrapped.push_back(c10::maybe_wrap_dim(d, ndim));
  std::sort(wrapped.begin(), wrapped.end());
  at::Tensor result = t;
  for (int64_t d : wrapped) result = result.unsqueeze(d);
  return result;
}

int64_t reduced_numel(c10::IntArrayRef sizes, c10::IntArrayRef dims) {
  if (dims.empty()) {
    return c10::multiply_integers(sizes);
  }
  int64_t n = 1;
  for (int64_t d : dims) {
    n = c10::wrapping_mul(n, sizes.empty() ? 1 : sizes[c10::maybe_wrap_dim(d, sizes.size())]);
  }
  return n;
}

at::Tensor sum_backward(const at::Tensor& grad, c10::IntArrayRef sizes, c10::IntArrayRef dims,
                        bool keepdim) {
  return restore_reduced_dims(grad, sizes, dims, keepdim).expand(sizes);
}

at::Tensor unsqueeze_to(const at::Tensor& grad, c10::IntArrayRef sizes) {
  at::Tensor result = grad;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] == 1) result = result.unsqueeze(static_cast<int64_t>(d));
  }
  return result;
}

at::Tensor unsqueeze_to(const at::Tensor& grad, int64_t dim, c10::IntArrayRef sizes) {
  dim = c10::maybe_wrap_dim(dim, static_cast<int64_t>(sizes.size()));
  // squeeze(dim) of a dim that is not 1 changed nothing.
  return (!sizes.empty() && sizes[dim] == 1) ? grad.unsqueeze(dim) : grad;
}

at::Tensor permute_backwards(const at::Tensor& grad, c10::IntArrayRef dims) {
  const int64_t ndim = static_cast<int64_t>(dims.size());
  std::vector<int64_t> inverse(dims.size());
  for (int64_t i = 0; i < ndim; ++i) inverse[c10::maybe_wrap_dim(dims[i], ndim)] = i;
  return grad.permute(inverse);
}

at::Tensor slice_backward(const at::Tensor& grad, c10::IntArrayRef input_sizes, int64_t dim,
                          c10::optional<int64_t> start, c10::optional<int64_t> end, int64_t step) {
  at::Tensor grad_input = at::zeros(input_sizes, grad.options());
  grad_input.slice(dim, start, end, step).copy_(grad);
  return grad_input;
}

at::Tensor select_backward(const at::Tensor& grad, c10::IntArrayRef input_sizes, int64_t dim,
                           int64_t index) {
  at::Tensor grad_input = at::zeros(input_sizes, grad.options());
  grad_input.select(dim, index).copy_(grad);
  return grad_input;
}

at::Tensor diagonal_backward(const at::Tensor& grad, c10::IntArrayRef input_sizes, int64_t offset,
                             int64_t dim1, int64_t dim2) {
  at::Tensor grad_input = at::zeros(input_sizes, grad.options());
  grad_input.diagonal(offset, dim1, dim2).copy_(grad);
  return grad_input;
}

at::Tensor unfold_backward(const at::Tensor& grad, c10::IntArrayRef input_sizes, int64_t dim,
                           int64_t size, int64_t step) {
  at::Tensor grad_input = at::zeros(input_sizes, grad.options());
  if (input_sizes.empty()) return grad_input.add_(grad.view({}));  // unfold of a 0-dim tensor
  dim = c10::maybe_wrap_dim(dim, static_cast<int64_t>(input_sizes.size()));
  // Window i of the output (its dim `dim`, index i) holds input elements [i*step, i*step+size)
  // along `dim`, moved to the last dim.
  for (int64_t i = 0; i < grad.size(dim); ++i) {
    grad_input.narrow(dim, i * step, size).add_(grad.select(dim, i).movedim(-1, dim));
  }
  return grad_input;
}

namespace {

// Calls fn(storage position, element index in row-major order) for every element.
template <typename F>
void for_each_position(c10::IntArrayRef sizes, c10::IntArrayRef strides, int64_t offset, F fn) {
  const int64_t numel = c10::multiply_integers(sizes);
  std::vector<int64_t> index(sizes.size(), 0);
  int64_t position = offset;
  for (int64_t linear = 0; linear < numel; ++linear) {
    fn(position, linear);
    for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
      if (++index[d] < sizes[d]) {
        position += strides[d];
        break;
      }
      position -= strides[d] * (sizes[d] - 1);
      index[d] = 0;
    }
  }
}

int64_t max_position(c10::IntArrayRef sizes, c10::IntArrayRef strides, int64_t offset) {
  int64_t position = offset;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] == 0) return offset - 1;  // no element
    position += strides[d] * (sizes[d] - 1);
  }
  return position;
}

}  // namespace

at::Tensor as_strided_backward(const at::Tensor& grad, const TensorGeometry& input,
                               c10::IntArrayRef sizes, c10::IntArrayRef strides,
                               int64_t storage_offset) {
  TORCH_CHECK(grad.is_cpu(), "as_strided_backward: only CPU tensors are supported");
  const int64_t extent = std::max(max_position(input.sizes, input.strides, input.storage_offset),
                                  max_position(sizes, strides, storage_offset)) +
                         1;
  std::vector<double> storage(static_cast<size_t>(std::max<int64_t>(extent, 0)), 0.0);
  std::vector<int32_t> uses(storage.size(), 0);

  const at::Tensor g = grad.to(at::kDouble).contiguous();
  const double* g_data = g.data_ptr<double>();
  for_each_position(sizes, strides, storage_offset,
                    [&](int64_t pos, int64_t i) { storage[pos] += g_data[i]; });
  for_each_position(input.sizes, input.strides, input.storage_offset,
                    [&](int64_t pos, int64_t) { ++uses[pos]; });

  at::Tensor result = at::empty(input.sizes, at::TensorOptions().dtype(at::kDouble));
  double* out = result.data_ptr<double>();
  for_each_position(input.sizes, input.strides, input.storage_offset,
                    [&](int64_t pos, int64_t i) { out[i] = storage[pos] / uses[pos]; });
  return result.to(grad.scalar_type());
}

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace torch
