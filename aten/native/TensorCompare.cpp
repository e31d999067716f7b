// isclose, allclose, is_same_size: comparisons that answer "close enough" or "same shape".
// libtorch's aten/src/ATen/native/TensorCompare.cpp.
//
// Note [isclose in other operators]
// isclose(a, b) is |a - b| <= atol + rtol * |b|, elementwise, plus exact equality (so equal
// infinities are close), plus NaN == NaN when equal_nan. As in libtorch: both tensors must have
// one dtype ("Double did not match Float"); with rtol == atol == 0 it is equality alone; an
// integral or bool `other` is converted to the default float dtype first (a bool `self` too), so
// that a uint8 difference cannot wrap. libtorch's isfinite(actual_error) is
// `actual_error != inf` here: the error is a float >= 0 or NaN, and NaN already fails the `<=`.

#include <limits>

#include "aten/ATen.h"
#include "aten/generated/NativeFunctions.h"

namespace at {
namespace native {

Tensor isclose(const Tensor& self, const Tensor& other, double rtol, double atol, bool equal_nan) {
  TORCH_CHECK(self.scalar_type() == other.scalar_type(), self.scalar_type(), " did not match ",
              other.scalar_type());
  TORCH_CHECK(rtol >= 0, "rtol must be greater than or equal to zero, but got ", rtol);
  TORCH_CHECK(atol >= 0, "atol must be greater than or equal to zero, but got ", atol);

  Tensor close = self == other;
  if (equal_nan &&
      (c10::isFloatingType(self.scalar_type()) || c10::isComplexType(self.scalar_type()))) {
    close.bitwise_or_((self != self).bitwise_and_(other != other));
  }
  if (rtol == 0 && atol == 0) return close;

  // See Note [isclose in other operators]; miniaten's default float dtype is Float.
  const c10::ScalarType default_dtype = c10::ScalarType::Float;
  const Tensor cast_self =
      self.scalar_type() == c10::ScalarType::Bool ? self.to(default_dtype) : self;
  const Tensor cast_other = c10::isIntegralType(self.scalar_type(), /*includeBool=*/true)
                                ? other.to(default_dtype)
                                : other;
  const Tensor allowed_error = atol + (rtol * cast_other).abs();
  const Tensor actual_error = (cast_self - cast_other).abs();
  close.bitwise_or_((actual_error <= allowed_error)
                        .bitwise_and_(actual_error != std::numeric_limits<double>::infinity()));
  return close;
}

// Every element close. Counted with sum so that it runs on any device.
bool allclose(const Tensor& self, const Tensor& other, double rtol, double atol, bool equal_nan) {
  const Tensor close = at::isclose(self, other, rtol, atol, equal_nan);
  return close.sum().item<int64_t>() == close.numel();
}

bool is_same_size(const Tensor& self, const Tensor& other) {
  return self.sizes().equals(other.sizes());
}

}  // namespace native
}  // namespace at
