#pragma once
// Shape arithmetic shared by the view kernels (TensorShape.cpp, TensorShapeSlicing.cpp): the
// helpers that make a view, and libtorch's infer_size / computeStride.
//
//   // A kernel that only computes geometry (REFERENCE.md section 2):
//   Tensor my_view(const Tensor& self) {
//     DimVector sizes = ..., strides = ...;
//     return native::as_strided_view(self, sizes, strides, self.storage_offset());
//   }
//
// Every view shares its base's Storage, dispatch keys, dtype and version counter, so
// `v.is_alias_of(self)` holds and an in-place write through either bumps both `_version()`s.

#include "aten/core/Tensor.h"
#include "c10/util/ArrayRef.h"
#include "c10/util/Optional.h"

namespace at {

// The sizes `shape` stands for once its single -1 (if any) is inferred from numel.
// "shape '[7]' is invalid for input of size 6" and "only one dimension can be inferred" are
// c10::Errors. libtorch 1.13 throws these two as std::runtime_error, alone among its shape
// errors; miniaten keeps the texts and makes them c10::Errors like every other bad input (the
// view fuzzer found the difference: a caller catching c10::Error missed them).
TORCH_API DimVector infer_size_dv(IntArrayRef shape, int64_t numel);

namespace detail {
// Strides that let `newshape` view a tensor of `oldshape`/`oldstride` without a copy, or nullopt
// when some new dim would span two non-contiguous chunks. See Note [View stride computation].
TORCH_API c10::optional<DimVector> computeStride(IntArrayRef oldshape, IntArrayRef oldstride,
                                                 IntArrayRef newshape);
}  // namespace detail

namespace native {

// A view of self with this geometry and no checks, for geometry derived from self's own
// (libtorch's alias_with_sizes_and_strides). See Note [Views that cannot leave their base].
TORCH_API Tensor make_view(const Tensor& self, IntArrayRef sizes, IntArrayRef strides,
                           int64_t storage_offset);
// make_view for self with dim `dim` given `size` and `stride` (slice, narrow): see
// TensorImpl::set_sizes_and_strides_sliced.
TORCH_API Tensor make_sliced_view(const Tensor& self, int64_t dim, int64_t size, int64_t stride,
                                  int64_t storage_offset);

// Note [Views that cannot leave their base]
// libtorch makes most views through as_strided, which re-checks the new geometry against the
// storage. A view whose elements are a subset of self's (permute, transpose, squeeze,
// unsqueeze, slice, select, diagonal, view, alias, and expand: a broadcast dim has stride 0 and
// a new leading dim of size 1 never steps) cannot fail those checks when self passed them, so
// it uses make_view: a view is nothing but a TensorImpl, and the checks were a tenth of its
// cost. Geometry from user numbers that as_strided rejects (expand to a negative size, unfold)
// keeps the checks and their errors.
//
// make_view after as_strided's checks: equal ranks, no negative strides, in bounds of the
// storage, offset >= 0. The kernels that go through self.as_strided(...) in libtorch use this,
// so they raise the same errors (unfold with a negative size, expand to a negative size).
TORCH_API Tensor as_strided_view(const Tensor& self, IntArrayRef sizes, IntArrayRef strides,
                                 int64_t storage_offset);

}  // namespace native
}  // namespace at
