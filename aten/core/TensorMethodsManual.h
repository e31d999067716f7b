#pragma once
// Tensor methods written by hand (those with a fast path before the dispatcher).

#include "aten/core/DeprecatedTypeProperties.h"
#include "aten/core/Tensor.h"
#include "aten/generated/Operators.h"

namespace at {

inline Tensor Tensor::__dispatch_contiguous(c10::MemoryFormat memory_format) const {
  return at::_ops::contiguous::call(*this, memory_format);
}

template <typename T>
T Tensor::item() const {
  return item().to<T>();
}

inline Tensor Tensor::operator-() const { return neg(); }
inline Tensor& Tensor::operator+=(const Tensor& other) { return add_(other); }
inline Tensor& Tensor::operator+=(const c10::Scalar& other) { return add_(other); }
inline Tensor& Tensor::operator-=(const Tensor& other) { return sub_(other); }
inline Tensor& Tensor::operator-=(const c10::Scalar& other) { return sub_(other); }
inline Tensor& Tensor::operator*=(const Tensor& other) { return mul_(other); }
inline Tensor& Tensor::operator*=(const c10::Scalar& other) { return mul_(other); }
inline Tensor& Tensor::operator/=(const Tensor& other) { return div_(other); }
inline Tensor& Tensor::operator/=(const c10::Scalar& other) { return div_(other); }

inline Tensor Tensor::operator~() const { return bitwise_not(); }
inline Tensor& Tensor::operator&=(const Tensor& other) { return bitwise_and_(other); }
inline Tensor& Tensor::operator|=(const Tensor& other) { return bitwise_or_(other); }
inline Tensor& Tensor::operator^=(const Tensor& other) { return bitwise_xor_(other); }

// See the declarations in Tensor.h (gh-40287); at::var(t, 0) and at::std(t, 0) likewise.
inline Tensor Tensor::var(int dim) const {
  return var(IntArrayRef{dim});
}
inline Tensor Tensor::std(int dim) const {
  return std(IntArrayRef{dim});
}
inline Tensor var(const Tensor& self, int dim) {
  return at::var(self, IntArrayRef{dim});
}
inline Tensor std(const Tensor& self, int dim) {
  return at::std(self, IntArrayRef{dim});
}

// See Note [Assigning to a temporary writes its elements].
inline Tensor& Tensor::operator=(const c10::Scalar& value) && { return fill_(value); }
inline Tensor& Tensor::operator=(const Tensor& rhs) && { return copy_(rhs); }
inline Tensor& Tensor::operator=(Tensor&& rhs) && { return copy_(rhs); }

inline DeprecatedTypeProperties& Tensor::type() const {
  return getDeprecatedTypeProperties(dispatchKeyToBackend(backendDispatchKey(device().type())),
                                     scalar_type());
}
inline Tensor Tensor::toType(c10::ScalarType t) const {
  return to(options().dtype(t), /*non_blocking=*/false, /*copy=*/false);
}
inline Tensor Tensor::toBackend(c10::Backend b) const {
  return to(options().device(backendToDeviceType(b)), /*non_blocking=*/false, /*copy=*/false);
}
inline Tensor Tensor::cpu() const {
  return to(options().device(c10::DeviceType::CPU), /*non_blocking=*/false, /*copy=*/false);
}
inline Tensor Tensor::cuda() const {
  return to(options().device(c10::DeviceType::CUDA), /*non_blocking=*/false, /*copy=*/false);
}

inline Tensor Tensor::operator[](int64_t index) const { return select(0, index); }

inline Tensor Tensor::operator[](const c10::Scalar& index) const {
  TORCH_CHECK_INDEX(index.isIntegral(false), "Can only index tensors with integral scalars");
  return (*this)[index.toLong()];
}

inline Tensor Tensor::operator[](const Tensor& index) const {
  TORCH_CHECK_INDEX(index.defined(), "Can only index with tensors that are defined");
  TORCH_CHECK_INDEX(index.dim() == 0, "Can only index with tensors that are scalars (zero-dim)");
  return (*this)[index.item()];
}

}  // namespace at
