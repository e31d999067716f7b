// The in-place views: transpose_, t_, squeeze_, unsqueeze_, as_strided_, swapdims_/swapaxes_
// (libtorch's TensorShape.cpp). Each gives self the geometry its out-of-place view would have;
// self's storage, dtype and data stay as they are.
//
//   at::Tensor t = at::rand({2, 3, 4, 5});
//   t.transpose_(1, 3);    // t itself is now [2, 5, 4, 3] with strides (60, 1, 5, 20)
//
// Note [In-place views take the view's geometry]
// The geometry comes from the out-of-place kernel itself (native::transpose and the others,
// called directly: no dispatch, no autograd), so the two can never disagree: the same wrapped
// dims, the same errors, the same stride for a new size-1 dim. The view is a TensorImpl that
// lives for one call; its sizes, strides and offset are copied into self's, which recomputes
// self's contiguity flags. as_strided_ checks the new geometry against self's storage first,
// with as_strided's errors, so a refused call leaves self unchanged.

#include "aten/ATen.h"
#include "aten/generated/NativeFunctions.h"
#include "aten/native/TensorShape.h"

namespace at {
namespace native {

namespace {

Tensor& take_geometry_of(Tensor& self, const Tensor& view) {
  self.unsafeGetTensorImpl()->set_sizes_and_strides(view.sizes(), view.strides(),
                                                    view.storage_offset());
  return self;
}

}  // namespace

Tensor& as_strided_(Tensor& self, IntArrayRef size, IntArrayRef stride,
                    c10::optional<int64_t> storage_offset) {
  return take_geometry_of(
      self, as_strided_view(self, size, stride, storage_offset.value_or(self.storage_offset())));
}

Tensor& transpose_(Tensor& self, int64_t dim0, int64_t dim1) {
  return take_geometry_of(self, native::transpose(self, dim0, dim1));
}

Tensor& t_(Tensor& self) {
  TORCH_CHECK(self.dim() <= 2, "t_() expects a tensor with <= 2 dimensions, but self is ",
              self.dim(), "D");
  return native::transpose_(self, 0, self.dim() < 2 ? 0 : 1);
}

Tensor& squeeze_(Tensor& self) {
  return take_geometry_of(self, native::squeeze(self));
}

Tensor& squeeze_(Tensor& self, int64_t dim) {
  return take_geometry_of(self, native::squeeze(self, dim));
}

Tensor& unsqueeze_(Tensor& self, int64_t dim) {
  return take_geometry_of(self, native::unsqueeze(self, dim));
}

// NumPy's names: composite, so autograd sees transpose and transpose_.
Tensor swapdims(const Tensor& self, int64_t dim0, int64_t dim1) {
  return self.transpose(dim0, dim1);
}

Tensor swapaxes(const Tensor& self, int64_t axis0, int64_t axis1) {
  return self.transpose(axis0, axis1);
}

Tensor& swapdims_(Tensor& self, int64_t dim0, int64_t dim1) {
  return self.transpose_(dim0, dim1);
}

Tensor& swapaxes_(Tensor& self, int64_t axis0, int64_t axis1) {
  return self.transpose_(axis0, axis1);
}

}  // namespace native
}  // namespace at
