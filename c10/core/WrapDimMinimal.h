#pragma once
// maybe_wrap_dim: turns a possibly negative dim into [0, dim_post_expr), with libtorch's errors.

#include <cstdint>

#include "c10/util/Exception.h"

namespace c10 {
namespace detail {
[[noreturn]] C10_API void throw_dim_out_of_range(int64_t dim, int64_t dim_post_expr,
                                                bool wrap_scalar);
}  // namespace detail

inline int64_t maybe_wrap_dim(int64_t dim, int64_t dim_post_expr, bool wrap_scalar = true) {
  // Fast path: already in range.
  if (C10_LIKELY(dim_post_expr > 0 && dim >= -dim_post_expr && dim < dim_post_expr)) {
    return dim < 0 ? dim + dim_post_expr : dim;
  }
  if (dim_post_expr <= 0 && wrap_scalar && (dim == 0 || dim == -1)) return 0;
  detail::throw_dim_out_of_range(dim, dim_post_expr, wrap_scalar);
}

}  // namespace c10

namespace at {
using c10::maybe_wrap_dim;
}  // namespace at
