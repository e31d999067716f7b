#pragma once
// torch::CustomClassHolder: the base of the C++ objects TorchScript and IValues hold by
// intrusive_ptr (libtorch's ATen/core/ivalue.h; torch/custom_class.h brings it). c10d's stores,
// process groups and Work derive from it. Only the base so far: binding a class with
// torch::class_ and holding one in an IValue are still to come (Note [Custom classes must be
// registered] in CustomClass.h).

#include "c10/util/intrusive_ptr.h"

namespace torch {

struct CustomClassHolder : public c10::intrusive_ptr_target {};

}  // namespace torch
