#pragma once
// torch::CustomClassHolder: the base of the C++ objects TorchScript and IValues hold by
// intrusive_ptr (libtorch's ATen/core/ivalue.h). torch::class_ (dispatcher/CustomClassBinding.h)
// binds a class derived from it; c10d's stores, process groups and Work are such classes.

#include "c10/util/intrusive_ptr.h"

namespace torch {

struct CustomClassHolder : public c10::intrusive_ptr_target {};

}  // namespace torch
