#pragma once
// The registry of custom classes (`__torch__.torch.classes.<ns>.<Name>`) that schemas may name.
//
// Note [Custom classes must be registered]
// libtorch's schema parser looks every `__torch__.torch.classes.ns.Name` up in its class
// registry (filled by `torch::class_<T>("ns", "Name")`) and refuses a schema naming one that is
// not there: "Unknown custom class type ns.Name. Please ensure it is registered." miniaten has no
// torch::class_ binding of C++ classes yet, so its registry holds names only: a library that
// passes such objects as IValue Objects registers the name first, as it would register the
// class with libtorch, and its schemas then parse.
//
//   c10::registerCustomClass("__torch__.torch.classes.quantized.Conv2dPackedParamsBase");
//   c10::getCustomClass("__torch__.torch.classes.foo.Bar");   // nullptr: never registered

#include <string>

#include "c10/util/Macros.h"
#include "dispatcher/SchemaType.h"

namespace c10 {

// Registers the class name (idempotent) and returns its type.
C10_API TypePtr registerCustomClass(const std::string& qualified_name);
// The registered class's type, or nullptr.
C10_API TypePtr getCustomClass(const std::string& qualified_name);

}  // namespace c10
