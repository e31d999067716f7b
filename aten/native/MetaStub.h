#pragma once
// run_stub: how an operator body built on TensorIterator calls its DispatchStub, on every
// device including Meta:
//
//   auto iter = TensorIterator::binary_op(out, self, other);
//   run_stub(add_stub, iter, alpha);   // CPU/CUDA: add_stub(device, iter, alpha)
//                                      // Meta: the CPU kernel on iter.cpu_stand_in()
//
// Note [Meta asks the CPU kernel which dtypes it takes]
// A Meta kernel is the CPU body stopped after its TensorIterator is built (Note [Meta kernels
// stop before the stub] in BinaryOps.cpp): broadcasting, promotion, overlap and the output's
// strides are all decided by then. One check is not: which dtypes the kernel takes. That
// lives in the kernel's dispatch macro ("\"bitwise_and_cpu\" not implemented for 'Float'",
// "\"exp_vml_cpu\" not implemented for 'Half'"), so libtorch 1.13's Meta kernels answer with a
// geometry where its CPU kernels refuse. miniaten's Meta asks the CPU kernel itself: it runs
// it on a stand-in of the iterator with the same dtypes, strides and flags but one CPU element
// per operand (TensorIteratorBase::cpu_stand_in), so the kernel's own dispatch macro accepts
// or refuses with the CPU's words, and nothing that could disagree with it is written twice.
// The stand-in's inputs hold 1, a value no kernel refuses (no division by zero), since values
// are data that Meta does not have. The cost, a few hundred nanoseconds, is Meta's only.

#include <utility>

#include "aten/ATen.h"
#include "aten/native/TensorIterator.h"
#include "c10/core/DeviceType.h"

namespace at {
namespace native {

template <typename Stub, typename... Args>
void run_stub(Stub& stub, TensorIteratorBase& iter, Args&&... args) {
  if (iter.device_type() != c10::kMeta) {
    stub(iter.device_type(), iter, std::forward<Args>(args)...);
    return;
  }
  TensorIteratorBase stand_in = iter.cpu_stand_in();
  stub(c10::kCPU, stand_in, std::forward<Args>(args)...);
}

// For kernels that take tensors rather than an iterator: one CPU element of t's dtype (1), with
// t's number of dims, each of size 1.
inline Tensor cpu_stand_in(const Tensor& t) {
  return at::ones(std::vector<int64_t>(static_cast<size_t>(t.dim()), 1),
                  at::TensorOptions().dtype(t.scalar_type()));
}

}  // namespace native
}  // namespace at
