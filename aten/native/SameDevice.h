#pragma once
// The device check PyTorch's generated CUDA wrappers run before a kernel that reads its tensors
// directly (mm, nll_loss, ...): every defined tensor argument on the device of the first.
// TensorIterator ops check devices themselves (TensorIteratorTypes.cpp); these kernels do not
// build one, and a CPU pointer handed to a GPU kernel would fault instead of failing cleanly.
//
//   check_same_device("mm", {{"self", self}, {"mat2", mat2}});
//   -> "Expected all tensors to be on the same device, but found at least two devices, cuda:0
//       and cpu! (when checking argument for argument mat2 in method wrapper_CUDA_mm)"
//
// Only a call with a CUDA tensor among its arguments is checked: the CPU kernels of these ops
// have no such check in libtorch (a Meta argument meets the Meta kernel's own rules).

#include <initializer_list>
#include <utility>

#include "aten/core/Tensor.h"
#include "c10/util/Exception.h"

namespace at {
namespace native {

using NamedTensorArg = std::pair<const char*, const Tensor&>;

inline void check_same_device(const char* op, std::initializer_list<NamedTensorArg> args) {
  bool any_cuda = false;
  for (const NamedTensorArg& a : args) any_cuda |= a.second.defined() && a.second.is_cuda();
  if (!any_cuda) return;
  const Tensor* first = nullptr;
  for (const NamedTensorArg& a : args) {
    if (!a.second.defined()) continue;
    if (first == nullptr) {
      first = &a.second;
      continue;
    }
    TORCH_CHECK(a.second.device() == first->device(),
                "Expected all tensors to be on the same device, but found at least two devices, ",
                first->device(), " and ", a.second.device(),
                "! (when checking argument for argument ", a.first, " in method wrapper_CUDA_", op,
                ")");
  }
}

}  // namespace native
}  // namespace at
