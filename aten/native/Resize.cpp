// resize_out: see Resize.h.

#include "aten/native/Resize.h"

#include "aten/detail/Resize.h"

namespace at {
namespace native {

void resize_out(const Tensor& out, IntArrayRef sizes, const Tensor& self, ScalarType dtype) {
  const caffe2::TypeMeta expected = caffe2::TypeMeta::fromScalarType(dtype);
  TORCH_CHECK(out.dtype() == expected, "Expected out tensor to have dtype ", expected, ", but got ",
              out.dtype(), " instead");
  TORCH_CHECK(out.device() == self.device(), "Expected out tensor to have device ", self.device(),
              ", but got ", out.device(), " instead");
  if (out.sizes().equals(sizes)) return;
  if (out.numel() != 0) {
    TORCH_WARN("An output with one or more elements was resized since it had shape ", out.sizes(),
               ", which does not match the required output shape ", sizes,
               ". This behavior is "
               "deprecated, and in a future PyTorch release outputs will not be resized unless "
               "they have zero elements. You can explicitly reuse an out tensor t by resizing "
               "it, inplace, to zero elements with t.resize_(0).");
  }
  at::detail::resize_impl_(out.unsafeGetTensorImpl(), sizes);
}

}  // namespace native
}  // namespace at
