// fill_ and zero_ (a nullary TensorIterator loop, aten/native/cpu/FillKernel.cpp), and item().

#include "aten/ATen.h"
#include "aten/Dispatch.h"
#include "aten/generated/NativeFunctions.h"
#include "aten/native/Fill.h"

namespace at {
namespace native {

DEFINE_DISPATCH(fill_stub);

Tensor& fill_(Tensor& self, const Scalar& value) {
  // The value is converted (and range-checked) before any element is written.
  AT_DISPATCH_ALL_MINIATEN_TYPES_AND_COMPLEX(self.scalar_type(), "fill_",
                                             [&] { (void)value.to<scalar_t>(); });
  if (self.numel() > 0) {
    auto iter = TensorIteratorConfig()
                    .set_check_mem_overlap(false)  // writing one value many times is fine
                    .check_all_same_dtype(false)
                    .add_output(self)
                    .resize_outputs(false)
                    .build();
    fill_stub(iter.device_type(), iter, value);
  }
  return self;
}

Tensor& fill_(Tensor& self, const Tensor& value) {
  TORCH_CHECK(value.dim() == 0, "fill_ only supports 0-dimension value tensor but got tensor with ",
              value.dim(), " dimensions.");
  return native::fill_(self, value.item());
}

// A meta tensor has nothing to write; the write still counts, as versions are bumped above the
// kernel (Note [Who bumps the version counter] in codegen/Emit.cpp).
Tensor& fill_meta_(Tensor& self, const Scalar& value) {
  (void)value;
  return self;
}

Tensor& fill_meta_(Tensor& self, const Tensor& value) {
  TORCH_CHECK(value.dim() == 0, "fill_ only supports 0-dimension value tensor but got tensor with ",
              value.dim(), " dimensions.");
  // A meta value outranks a CPU self in dispatch and lands here, with no number to fill self
  // with; libtorch 1.13 returns self unfilled. Refused as copying out of a meta tensor is.
  TORCH_CHECK_NOT_IMPLEMENTED(self.is_meta(), "Cannot copy out of meta tensor; no data!");
  return self;
}

Tensor& zero_(Tensor& self) {
  return at::fill_(self, 0);
}

// ---- Reading one element back ---------------------------------------------------------------

Scalar item(const Tensor& self) {
  const int64_t numel = self.numel();
  TORCH_CHECK(numel == 1, "a Tensor with ", numel, " elements cannot be converted to Scalar");
  return at::_local_scalar_dense(self);
}

// The first element, as a Scalar. libtorch reads it unchecked, so a boxed or direct call on an
// empty tensor reads through a null pointer there (found by fuzz_boxed_call); here that is
// item()'s error.
Scalar _local_scalar_dense_cpu(const Tensor& self) {
  TORCH_CHECK(self.numel() > 0, "a Tensor with 0 elements cannot be converted to Scalar");
  Scalar r;
  AT_DISPATCH_ALL_MINIATEN_TYPES_AND_COMPLEX(self.scalar_type(), "_local_scalar_dense_cpu",
                                             [&] { r = Scalar(*self.data_ptr<scalar_t>()); });
  return r;
}

}  // namespace native
}  // namespace at
