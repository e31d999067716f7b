#pragma once
// The kernels of uniform_ and normal_, one per CPU capability
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

}  // namespace native
}  // namespace at
