#pragma once
// fill_'s kernel, one per CPU capability (aten/native/cpu/FillKernel.cpp).

#include "aten/native/DispatchStub.h"
#include "aten/native/TensorIterator.h"

namespace at {
namespace native {

using fill_fn = void (*)(TensorIteratorBase& iter, const c10::Scalar& value);
DECLARE_DISPATCH(fill_fn, fill_stub);

}  // namespace native
}  // namespace at
