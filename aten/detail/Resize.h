#pragma once
// Resizing in place: new sizes (contiguous strides, or given ones), growing the storage when it
// is too small. What resize_ and out= kernels build on.

#include "aten/core/Tensor.h"

namespace at {
namespace detail {

// Gives `self` these sizes with contiguous strides (or `strides`), keeping its storage offset;
// grows a resizable storage when needed ("Trying to resize storage that is not resizable").
TORCH_API void resize_impl_(c10::TensorImpl* self, IntArrayRef sizes,
                            c10::optional<IntArrayRef> strides = c10::nullopt);

// libtorch's "numel: integer multiplication overflow" for sizes whose product does not fit an
// int64 (a negative size reads as a huge unsigned one and fails too), checked before anything
// changes (see Note [A refused resize_ or set_ changes nothing] in TensorConversions.cpp).
TORCH_API void check_numel_overflow(IntArrayRef sizes);

}  // namespace detail
}  // namespace at
