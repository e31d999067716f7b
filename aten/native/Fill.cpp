// fill_ and zero_: a simple strided loop over every element. (TensorIterator replaces this loop
// with its vectorized, parallel one when it lands.)

#include "aten/ATen.h"
#include "aten/Dispatch.h"
#include "aten/generated/NativeFunctions.h"

namespace at {
namespace native {

namespace {

// Calls f(element offset) for every element of a strided tensor, last dim fastest.
template <class F>
void for_each_offset(IntArrayRef sizes, IntArrayRef strides, F&& f) {
  const int64_t ndim = static_cast<int64_t>(sizes.size());
  for (int64_t s : sizes) {
    if (s == 0) return;
  }
  c10::DimVector index(sizes.size(), 0);
  int64_t offset = 0;
  while (true) {
    f(offset);
    int64_t d = ndim - 1;
    for (; d >= 0; --d) {
      if (++index[d] < sizes[d]) {
        offset += strides[d];
        break;
      }
      offset -= strides[d] * (sizes[d] - 1);
      index[d] = 0;
    }
    if (d < 0) return;
  }
}

}  // namespace

Tensor& fill_(Tensor& self, const Scalar& value) {
  AT_DISPATCH_ALL_MINIATEN_TYPES(self.scalar_type(), "fill_", [&] {
    const scalar_t v = value.to<scalar_t>();
    scalar_t* data = self.data_ptr<scalar_t>();
    if (self.is_contiguous()) {
      std::fill(data, data + self.numel(), v);
    } else {
      for_each_offset(self.sizes(), self.strides(), [&](int64_t off) { data[off] = v; });
    }
  });
  self.unsafeGetTensorImpl()->bump_version();
  return self;
}

Tensor& fill_(Tensor& self, const Tensor& value) {
  TORCH_CHECK(value.dim() == 0, "fill_ only supports 0-dimension value tensor but got tensor with ",
              value.dim(), " dimensions.");
  return native::fill_(self, value.item());
}

// A meta tensor has nothing to write, but the write still counts (as in libtorch, where the
// version bump happens above the kernel).
Tensor& fill_meta_(Tensor& self, const Scalar& value) {
  (void)value;
  self.unsafeGetTensorImpl()->bump_version();
  return self;
}

Tensor& fill_meta_(Tensor& self, const Tensor& value) {
  TORCH_CHECK(value.dim() == 0, "fill_ only supports 0-dimension value tensor but got tensor with ",
              value.dim(), " dimensions.");
  self.unsafeGetTensorImpl()->bump_version();
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

Scalar _local_scalar_dense_cpu(const Tensor& self) {
  Scalar r;
  AT_DISPATCH_ALL_MINIATEN_TYPES(self.scalar_type(), "_local_scalar_dense_cpu", [&] {
    r = Scalar(*self.data_ptr<scalar_t>());
  });
  return r;
}

}  // namespace native
}  // namespace at
