// addcmul, addcdiv and lerp: pointwise ops of three tensors (libtorch's PointwiseOps.cpp and
// Lerp.cpp). Argument checks and the TensorIterator here, kernels in cpu/PointwiseOpsKernel.cpp.
//
//   at::addcmul(self, t1, t2, /*value=*/0.5)   // self + 0.5 * t1 * t2, all three broadcast
//   at::addcdiv(self, t1, t2)                  // self + t1 / t2; integer t1 and t2 refused
//   at::lerp(start, end, 0.25)                 // start + 0.25 * (end - start)
//
// addcmul and addcdiv promote their three tensors to a common dtype as a binary op does (a
// 0-dim tensor is a wrapped number); lerp takes them as they are and requires one dtype. The
// functional, in-place and out= forms share one body each, as in BinaryOps.cpp.

#include "aten/native/PointwiseOps.h"

#include "aten/ATen.h"
#include "aten/generated/NativeFunctions.h"
#include "aten/native/MetaStub.h"

namespace at {
namespace native {

DEFINE_DISPATCH(addcmul_stub);
DEFINE_DISPATCH(addcdiv_stub);
DEFINE_DISPATCH(lerp_scalar_stub);
DEFINE_DISPATCH(lerp_tensor_stub);

namespace {

// libtorch's build_ternary_op: the common dtype of the three, which the output must hold.
TensorIterator ternary_op(Tensor& out, const Tensor& self, const Tensor& t1, const Tensor& t2) {
  return TensorIteratorConfig()
      .set_check_mem_overlap(true)
      .add_output(out)
      .add_input(self)
      .add_input(t1)
      .add_input(t2)
      .allow_cpu_scalars(true)
      .promote_inputs_to_common_dtype(true)
      .cast_common_dtype_to_outputs(true)
      .enforce_safe_casting_to_output(true)
      .build();
}

template <typename Stub>
TensorIterator run_addc(Stub& stub, Tensor& out, const Tensor& self, const Tensor& t1,
                        const Tensor& t2, const Scalar& value) {
  auto iter = ternary_op(out, self, t1, t2);
  run_stub(stub, iter, value);
  return iter;
}

void check_addcdiv(const Tensor& t1, const Tensor& t2) {
  TORCH_CHECK(
      !(c10::isIntegralType(t1.scalar_type(), true) && c10::isIntegralType(t2.scalar_type(), true)),
      "Integer division with addcdiv is no longer supported, and in a future  release addcdiv "
      "will perform a true division of tensor1 and tensor2. The historic addcdiv behavior can be "
      "implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for "
      "integer inputs and as (input + value * tensor1 / tensor2) for float inputs. The future "
      "addcdiv behavior is just the latter implementation: (input + value * tensor1 / tensor2), "
      "for all dtypes.");
}

void check_lerp_dtypes(const Tensor& self, const Tensor& end, const Tensor* weight) {
  TORCH_CHECK(self.dtype() == end.dtype(), "expected dtype ", self.dtype(),
              " for `end` but got dtype ", end.dtype());
  if (weight != nullptr) {
    TORCH_CHECK(self.dtype() == weight->dtype(), "expected dtype ", self.dtype(),
                " for `weight` but got dtype ", weight->dtype());
  }
}

TensorIterator run_lerp(Tensor& out, const Tensor& self, const Tensor& end, const Scalar& weight) {
  check_lerp_dtypes(self, end, nullptr);
  auto iter = TensorIteratorConfig()
                  .set_check_mem_overlap(true)
                  .add_output(out)
                  .add_input(self)
                  .add_input(end)
                  .build();
  run_stub(lerp_scalar_stub, iter, weight);
  return iter;
}

TensorIterator run_lerp(Tensor& out, const Tensor& self, const Tensor& end, const Tensor& weight) {
  check_lerp_dtypes(self, end, &weight);
  auto iter = TensorIteratorConfig()
                  .set_check_mem_overlap(true)
                  .add_output(out)
                  .add_input(self)
                  .add_input(end)
                  .add_input(weight)
                  .build();
  run_stub(lerp_tensor_stub, iter);
  return iter;
}

}  // namespace

// ---- addcmul, addcdiv -----------------------------------------------------------------------

Tensor addcmul(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2,
               const Scalar& value) {
  Tensor out;
  return run_addc(addcmul_stub, out, self, tensor1, tensor2, value).output();
}

Tensor& addcmul_(Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value) {
  run_addc(addcmul_stub, self, self, tensor1, tensor2, value);
  return self;
}

Tensor& addcmul_out(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2,
                    const Scalar& value, Tensor& out) {
  run_addc(addcmul_stub, out, self, tensor1, tensor2, value);
  return out;
}

Tensor addcdiv(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2,
               const Scalar& value) {
  check_addcdiv(tensor1, tensor2);
  Tensor out;
  return run_addc(addcdiv_stub, out, self, tensor1, tensor2, value).output();
}

Tensor& addcdiv_(Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value) {
  check_addcdiv(tensor1, tensor2);
  run_addc(addcdiv_stub, self, self, tensor1, tensor2, value);
  return self;
}

Tensor& addcdiv_out(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2,
                    const Scalar& value, Tensor& out) {
  check_addcdiv(tensor1, tensor2);
  run_addc(addcdiv_stub, out, self, tensor1, tensor2, value);
  return out;
}

// ---- lerp -----------------------------------------------------------------------------------

Tensor lerp(const Tensor& self, const Tensor& end, const Scalar& weight) {
  Tensor out;
  return run_lerp(out, self, end, weight).output();
}

Tensor& lerp_(Tensor& self, const Tensor& end, const Scalar& weight) {
  run_lerp(self, self, end, weight);
  return self;
}

Tensor& lerp_out(const Tensor& self, const Tensor& end, const Scalar& weight, Tensor& out) {
  run_lerp(out, self, end, weight);
  return out;
}

Tensor lerp(const Tensor& self, const Tensor& end, const Tensor& weight) {
  Tensor out;
  return run_lerp(out, self, end, weight).output();
}

Tensor& lerp_(Tensor& self, const Tensor& end, const Tensor& weight) {
  run_lerp(self, self, end, weight);
  return self;
}

Tensor& lerp_out(const Tensor& self, const Tensor& end, const Tensor& weight, Tensor& out) {
  run_lerp(out, self, end, weight);
  return out;
}

}  // namespace native
}  // namespace at
