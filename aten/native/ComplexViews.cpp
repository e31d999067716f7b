#include "aten/native/ComplexViews.h"

#include "aten/ATen.h"
#include "aten/autograd/GradMode.h"
#include "aten/generated/NativeFunctions.h"
#include "c10/core/TensorImpl.h"
#include "c10/util/SmallVector.h"
#include "c10/util/WrappingArithmetic.h"

namespace at {
namespace native {

namespace {
// A view of self's storage with another dtype. A view: writes through it bump self's version.
Tensor view_with_dtype(const Tensor& self, c10::ScalarType dtype, IntArrayRef sizes,
                       IntArrayRef strides, int64_t storage_offset) {
  const TensorImpl* base = self.unsafeGetTensorImpl();
  auto impl = c10::make_intrusive<TensorImpl>(c10::Storage(base->storage()), base->key_set(),
                                              caffe2::TypeMeta::fromScalarType(dtype));
  impl->set_sizes_and_strides(sizes, strides, storage_offset);
  impl->set_version_counter(base->version_counter());
  return Tensor(std::move(impl));
}
}  // namespace

Tensor view_as_real_unchecked(const Tensor& self) {
  TORCH_INTERNAL_ASSERT(self.is_complex(), "view_as_real_unchecked of ", self.scalar_type());
  c10::SmallVector<int64_t, 6> sizes(self.sizes().begin(), self.sizes().end());
  c10::SmallVector<int64_t, 6> strides;
  // Wrapping: an empty tensor's strides may be anything (Note [Geometry that wraps as
  // libtorch's does]).
  for (const int64_t s : self.strides()) strides.push_back(c10::wrapping_mul(2, s));
  sizes.push_back(2);
  strides.push_back(1);
  return view_with_dtype(self, c10::toRealValueType(self.scalar_type()), sizes, strides,
                         c10::wrapping_mul(2, self.storage_offset()));
}

Tensor view_as_real(const Tensor& self) {
  TORCH_CHECK(self.is_complex(), "view_as_real is only supported for complex tensors");
  return view_as_real_unchecked(self);
}

// libtorch's checks, in its order. Half would make ComplexHalf, which miniaten lacks (see
// Note [Why ComplexHalf is a gap] in c10/core/ScalarType.h).
Tensor view_as_complex(const Tensor& self) {
  const c10::ScalarType st = self.scalar_type();
  TORCH_CHECK(st == kFloat || st == kDouble || st == kHalf,
              "view_as_complex is only supported for half, float and double tensors, but got a "
              "tensor of scalar type: ",
              st);
  TORCH_CHECK_NOT_IMPLEMENTED(st != kHalf,
                              "view_as_complex of a Half tensor: miniaten has no ComplexHalf");
  // See Note [No complex autograd] in aten/autograd/AutogradMeta.cpp: the complex view would
  // silently leave the graph.
  TORCH_CHECK_NOT_IMPLEMENTED(!self.requires_grad() || !GradMode::is_enabled(),
                              "miniaten: autograd does not support complex tensors yet (got a ",
                              c10::toComplexType(st), " tensor that requires grad)");
  TORCH_CHECK(self.dim() != 0, "Input tensor must have one or more dimensions");
  const IntArrayRef sizes = self.sizes();
  const IntArrayRef strides = self.strides();
  TORCH_CHECK(sizes.back() == 2, "Tensor must have a last dimension of size 2");
  TORCH_CHECK(strides.back() == 1, "Tensor must have a last dimension with stride 1");
  c10::SmallVector<int64_t, 6> new_strides;
  for (size_t d = 0; d + 1 < strides.size(); ++d) {
    TORCH_CHECK(strides[d] % 2 == 0,
                "Tensor must have a stride divisible by 2 for all but last dimension");
    new_strides.push_back(strides[d] / 2);
  }
  TORCH_CHECK(self.storage_offset() % 2 == 0, "Tensor must have a storage_offset divisible by 2");
  return view_with_dtype(self, c10::toComplexType(st), sizes.slice(0, sizes.size() - 1),
                         new_strides, self.storage_offset() / 2);
}

// A real tensor is its own real part (the same tensor); its imaginary part does not exist.
Tensor real(const Tensor& self) {
  if (!self.is_complex()) return self;
  return at::view_as_real(self).select(-1, 0);
}

Tensor imag(const Tensor& self) {
  TORCH_CHECK(self.is_complex(), "imag is not implemented for tensors with non-complex dtypes.");
  return at::view_as_real(self).select(-1, 1);
}

}  // namespace native
}  // namespace at
