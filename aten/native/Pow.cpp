// pow: a tensor to a tensor's powers, to one Scalar power, and a Scalar to a tensor's powers.
// libtorch's aten/src/ATen/native/Pow.cpp.
//
// Note [pow's shortcuts]
// As libtorch 1.13: an exponent Scalar of 0 fills the output with 1 and of 1 copies the base,
// without the kernel; the kernel computes 0.5, -0.5 and -1 as sqrt, rsqrt and reciprocal, and 2,
// 3 and -2 as x*x, x*x*x and 1/(x*x) (PowKernel.cpp). An integer base to a negative integer
// Scalar power is refused ("Integers to negative integer powers are not allowed."); a negative
// integer exponent *tensor* is not (1 ** -n is 1, (-1) ** -n is ±1, anything else 0). A Scalar
// base of 1 gives ones without reading the exponents (so 1 ** NaN is 1, as std::pow).

#include "aten/native/Pow.h"
#include "aten/ATen.h"
#include "aten/generated/NativeFunctions.h"
#include "aten/native/BinaryOps.h"
#include "aten/native/MetaStub.h"
#include "aten/native/TypePromotion.h"

namespace at {
namespace native {

DEFINE_DISPATCH(pow_tensor_tensor_stub);
DEFINE_DISPATCH(pow_tensor_scalar_stub);

namespace {

TensorIterator run_pow(Tensor& out, const Tensor& base, const Tensor& exponent) {
  auto iter = TensorIterator::binary_op(out, base, exponent);
  run_stub(pow_tensor_tensor_stub, iter);
  return iter;
}

// base ** exponent into out (undefined: allocated), through the shortcuts of Note [pow's
// shortcuts]. The base is first converted to result_type(base, exponent).
TensorIterator run_pow_scalar(Tensor& out, const Tensor& base, const Scalar& exponent) {
  TORCH_CHECK(!(c10::isIntegralType(base.scalar_type(), /*includeBool=*/true) &&
                exponent.isIntegral(/*includeBool=*/true) && exponent.toLong() < 0),
              "Integers to negative integer powers are not allowed.");
  const c10::ScalarType common = at::result_type(base, exponent);
  const Tensor converted = base.scalar_type() == common ? base : base.to(common);
  auto iter = TensorIterator::unary_op(out, converted);
  if (exponent.equal(0.0) || exponent.equal(false)) {
    iter.output().fill_(1);
  } else if (exponent.equal(1.0) || exponent.equal(true)) {
    if (!iter.output().is_same(converted)) iter.output().copy_(converted);
  } else {
    run_stub(pow_tensor_scalar_stub, iter, exponent);
  }
  return iter;
}

}  // namespace

Tensor pow(const Tensor& self, const Tensor& exponent) {
  Tensor out;
  return run_pow(out, self, exponent).output();
}

Tensor& pow_(Tensor& self, const Tensor& exponent) {
  run_pow(self, self, exponent);
  return self;
}

Tensor& pow_out(const Tensor& self, const Tensor& exponent, Tensor& out) {
  run_pow(out, self, exponent);
  return out;
}

Tensor pow(const Tensor& self, const Scalar& exponent) {
  Tensor out;
  return run_pow_scalar(out, self, exponent).output();
}

Tensor& pow_(Tensor& self, const Scalar& exponent) {
  run_pow_scalar(self, self, exponent);
  return self;
}

Tensor& pow_out(const Tensor& self, const Scalar& exponent, Tensor& out) {
  run_pow_scalar(out, self, exponent);
  return out;
}

Tensor pow(const Scalar& self, const Tensor& exponent) {
  if (self.equal(1.0)) {
    return at::full(exponent.sizes(), 1, exponent.options().dtype(at::result_type(exponent, self)));
  }
  return at::pow(wrapped_scalar_for(exponent, self), exponent);
}

Tensor& pow_out(const Scalar& self, const Tensor& exponent, Tensor& out) {
  if (self.equal(1.0)) {
    out.resize_(exponent.sizes());
    return out.fill_(1);
  }
  return at::pow_out(out, wrapped_scalar_for(exponent, self), exponent);
}

}  // namespace native
}  // namespace at
