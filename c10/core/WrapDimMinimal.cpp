#include "c10/core/WrapDimMinimal.h"

namespace c10 {
namespace detail {

void throw_dim_out_of_range(int64_t dim, int64_t dim_post_expr, bool wrap_scalar) {
  if (dim_post_expr <= 0) {
    TORCH_CHECK_INDEX(wrap_scalar, "Dimension specified as ", dim,
                      " but tensor has no dimensions");
    dim_post_expr = 1;  // a scalar wraps like a 1-d tensor: [-1, 0]
  }
  const int64_t min = -dim_post_expr;
  const int64_t max = dim_post_expr - 1;
  TORCH_CHECK_INDEX(false, "Dimension out of range (expected to be in range of [", min, ", ", max,
                    "], but got ", dim, ")");
}

}  // namespace detail
}  // namespace c10
