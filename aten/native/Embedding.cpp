// embedding and its backward, with libtorch 1.13's checks and texts (Embedding.cpp). The forward
// is index_select of weight's rows; the backward adds each gradient row into the row it was
// picked from (index_add_), scaled by 0 for padding_idx and by 1 / count with
// scale_grad_by_freq.

#include <vector>

#include "aten/ATen.h"
#include "aten/generated/NativeFunctions.h"

namespace at {
namespace native {

namespace {

// libtorch's checkScalarTypes(name, {indices, "indices", position}, {kLong, kInt}).
void check_indices(const Tensor& indices, const char* name, int position) {
  TORCH_CHECK(indices.scalar_type() == kLong || indices.scalar_type() == kInt,
              "Expected tensor for argument #", position,
              " 'indices' to have one of the following scalar types: Long, Int; but got ",
              indices.toString(), " instead (while checking arguments for ", name, ")");
}

}  // namespace

Tensor embedding(const Tensor& weight, const Tensor& indices, int64_t padding_idx,
                 bool scale_grad_by_freq, bool sparse) {
  (void)padding_idx, (void)scale_grad_by_freq, (void)sparse;  // read by the backward only
  TORCH_CHECK(weight.dim() == 2, "'weight' must be 2-D");
  check_indices(indices, "embedding", 1);
  if (indices.dim() == 1) return weight.index_select(0, indices);
  std::vector<int64_t> size = indices.sizes().vec();
  size.push_back(weight.size(1));
  return weight.index_select(0, indices.reshape(-1)).view(size);
}

Tensor embedding_dense_backward(const Tensor& grad_output, const Tensor& indices,
                                int64_t num_weights, int64_t padding_idx, bool scale_grad_by_freq) {
  check_indices(indices, "embedding_backward", 2);
  const int64_t dim = grad_output.size(-1);
  const Tensor flat = indices.reshape(-1).to(kLong);
  Tensor rows = grad_output.reshape({flat.numel(), dim});
  if (padding_idx >= 0 || scale_grad_by_freq) {
    // One factor per picked row: 0 for the padding row, 1 / (times its row was picked).
    Tensor scale = flat.ne(padding_idx).to(grad_output.scalar_type());
    if (scale_grad_by_freq) {
      const Tensor counts = at::zeros({num_weights}, flat.options())
                                .index_add_(0, flat, at::ones_like(flat))
                                .index_select(0, flat);
      scale = scale.div(counts.to(grad_output.scalar_type()));
    }
    rows = rows.mul(scale.unsqueeze(1));
  }
  return at::zeros({num_weights, dim}, grad_output.options()).index_add_(0, flat, rows);
}

}  // namespace native
}  // namespace at
