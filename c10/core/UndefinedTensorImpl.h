#pragma once
// libtorch's c10::UndefinedTensorImpl::singleton(): the TensorImpl an undefined tensor points to.
//
//   at::Tensor t;                                                     // undefined
//   t.unsafeGetTensorImpl() == c10::UndefinedTensorImpl::singleton()  // true, as in libtorch
//
// Note [The undefined tensor holds no TensorImpl]
// libtorch gives every undefined Tensor one shared TensorImpl (so that its intrusive_ptr never
// holds null). miniaten's undefined Tensor holds a null intrusive_ptr instead; the checks that
// would have read the singleton's sizes test defined() (TensorBase::impl) and throw libtorch's
// errors. The singleton is therefore nullptr here: comparing a TensorImpl* with it answers the
// same question as in libtorch, "is this tensor undefined?". Nothing may be called on it.

#include "c10/core/TensorImpl.h"

namespace c10 {

struct UndefinedTensorImpl final {
  UndefinedTensorImpl() = delete;
  static constexpr TensorImpl* singleton() noexcept { return nullptr; }
};

}  // namespace c10
