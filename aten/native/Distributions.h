#pragma once
// The kernels of uniform_, normal_, random_ and bernoulli_, one per CPU capability
// (aten/native/cpu/DistributionKernels.cpp). Each takes the caller's generator (or nullopt for
// the default one), locks it for the whole fill, and draws in libtorch's order.

#include "aten/core/Generator.h"
#include "aten/native/DispatchStub.h"
#include "aten/native/TensorIterator.h"

namespace at {
namespace native {

using uniform_fn = void (*)(TensorIteratorBase& iter, double from, double to,
                            c10::optional<Generator> gen);
using normal_fn = void (*)(const TensorBase& self, double mean, double std,
                           c10::optional<Generator> gen);
DECLARE_DISPATCH(uniform_fn, uniform_stub);
DECLARE_DISPATCH(normal_fn, normal_stub);

// random_: integers in [base, base + range), or, with range 0, the whole 64-bit range.
using random_from_to_fn = void (*)(TensorIteratorBase& iter, uint64_t range, int64_t base,
                                   c10::optional<Generator> gen);
// bernoulli_: 1 with probability p (a number, or a tensor already broadcast to self's shape).
using bernoulli_scalar_fn = void (*)(const Tensor& self, double p, c10::optional<Generator> gen);
using bernoulli_tensor_fn = void (*)(const Tensor& self, const Tensor& p,
                                     c10::optional<Generator> gen);
DECLARE_DISPATCH(random_from_to_fn, random_from_to_stub);
DECLARE_DISPATCH(bernoulli_scalar_fn, bernoulli_scalar_stub);
DECLARE_DISPATCH(bernoulli_tensor_fn, bernoulli_tensor_stub);

}  // namespace native
}  // namespace at
