#pragma once
// The helpers behind the backward formulas of Functions.h (libtorch's FunctionsManual.h):
// reductions of broadcast gradients and the scatter-backs of the view operations.
//
//   sum_to(at::ones({4, 2, 3}), {2, 1});   // sums dim 0 (leading) and dim 2 (size 1): [2, 1]

#include <vector>

#include "aten/core/Tensor.h"
#include "c10/util/ArrayRef.h"
#include "c10/util/Optional.h"

namespace torch {
namespace autograd {

// A tensor's geometry without its data (libtorch's at::TensorGeometry).
struct TORCH_API TensorGeometry {
  TensorGeometry() = default;
  explicit TensorGeometry(const at::TensorBase& t)
      : sizes(t.sizes().vec()), strides(t.strides().vec()), storage_offset(t.storage_offset()) {}
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;
  int64_t storage_offset = 0;
};

namespace generated {
namespace details {

// t * s, or t itself when s is 1 (the alpha and beta of add, sub and addmm).
TORCH_API at::Tensor maybe_multiply(const at::Tensor& t, const c10::Scalar& s);
// Sums `grad` down to `shape`, which it was broadcast from: the leading dims it gained, and the
// dims where `shape` has size 1 (libtorch's at::sum_to). Returns grad itself when no sum is
// needed.
TORCH_API at::Tensor sum_to(const at::Tensor& grad, c10::IntArrayRef shape);
// t (a reduction's output, or its gradient) with the reduced dims put back as size 1, as keepdim
// would have left them; `sizes` is the input's, dims [] means every dim.
TORCH_API at::Tensor restore_reduced_dims(const at::Tensor& t, c10::IntArrayRef sizes,
                                          c10::IntArrayRef dims, bool keepdim);
// The product of the sizes of the reduced dims ([] means every dim; a 0-dim input has one
// element): mean's and var's divisor.
TORCH_API int64_t reduced_numel(c10::IntArrayRef sizes, c10::IntArrayRef dims);
// The gradient of sum(dim, keepdim): grad with the reduced dims put back, expanded to `sizes`.
TORCH_API at::Tensor sum_backward(const at::Tensor& grad, c10::IntArrayRef sizes,
                                  c10::IntArrayRef dims, bool keepdim);
// grad with a size-1 dim put back wherever `sizes` has one (squeeze's backward).
TORCH_API at::Tensor unsqueeze_to(const at::Tensor& grad, c10::IntArrayRef sizes);
TORCH_API at::Tensor unsqueeze_to(const at::Tensor& grad, int64_t dim, c10::IntArrayRef sizes);
TORCH_API at::Tensor permute_backwards(const at::Tensor& grad, c10::IntArrayRef dims);

// Zeros of the input's sizes with the slice/select/diagonal taken by the forward set to grad.
TORCH_API at::Tensor slice_backward(const at::Tensor& grad, c10::IntArrayRef input_sizes,
                                    int64_t dim, c10::optional<int64_t> start,
                                    c10::optional<int64_t> end, int64_t step);
TORCH_API at::Tensor select_backward(const at::Tensor& grad, c10::IntArrayRef input_sizes,
                                     int64_t dim, int64_t index);
TORCH_API at::Tensor diagonal_backward(const at::Tensor& grad, c10::IntArrayRef input_sizes,
                                       int64_t offset, int64_t dim1, int64_t dim2);
// Windows may overlap (step < size): each input element sums the gradients of all its copies.
TORCH_API at::Tensor unfold_backward(const at::Tensor& grad, c10::IntArrayRef input_sizes,
                                     int64_t dim, int64_t size, int64_t step);
// The general case: grad scattered (summed) onto the storage positions the output read, then
// gathered with the input's geometry; a position the input reads more than once (an expanded
// input) gets an equal share at each. CPU only.
TORCH_API at::Tensor as_strided_backward(const at::Tensor& grad, const TensorGeometry& input,
                                         c10::IntArrayRef sizes, c10::IntArrayRef strides,
                                         int64_t storage_offset);

}  // namespace details
}  // namespace generated
}  // namespace autograd
}  // namespace torch
