#include "aten/native/ComplexViews.h"

#include "c10/core/TensorImpl.h"
#include "c10/util/SmallVector.h"

namespace at {
namespace native {

Tensor view_as_real_unchecked(const Tensor& self) {
  TORCH_INTERNAL_ASSERT(self.is_complex(), "view_as_real_unchecked of ", self.scalar_type());
  const TensorImpl* base = self.unsafeGetTensorImpl();
  auto impl = c10::make_intrusive<TensorImpl>(
      c10::Storage(base->storage()), base->key_set(),
      caffe2::TypeMeta::fromScalarType(c10::toRealValueType(self.scalar_type())));
  c10::SmallVector<int64_t, 6> sizes(self.sizes().begin(), self.sizes().end());
  c10::SmallVector<int64_t, 6> strides;
  for (const int64_t s : self.strides()) strides.push_back(2 * s);
  sizes.push_back(2);
  strides.push_back(1);
  impl->set_sizes_and_strides(sizes, strides, 2 * self.storage_offset());
  // A view: writes through it bump self's version. See Note [Version counter].
  impl->set_version_counter(base->version_counter());
  return Tensor(std::move(impl));
}

}  // namespace native
}  // namespace at
