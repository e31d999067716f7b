#pragma once
// The registry of custom classes (`__torch__.torch.classes.<ns>.<Name>`): the C++ classes
// torch::class_ binds (dispatcher/CustomClassBinding.h), which IValues hold and schemas name.
//
// Note [Custom classes must be registered]
// libtorch's schema parser looks every `__torch__.torch.classes.ns.Name` up in its class
// registry (filled by `torch::class_<T>("ns", "Name")`) and refuses a schema naming one that is
// not there: "Unknown custom class type ns.Name. Please ensure it is registered." A class is
// registered either bound to its C++ type (torch::class_, which also lets IValues hold it and
// lets m.def infer `__torch__.torch.classes.ns.Name` from `c10::intrusive_ptr<T>`), or by name
// alone (registerCustomClass), for a schema that only has to parse.
//
//   c10::registerCustomClass("__torch__.torch.classes.quantized.Conv2dPackedParamsBase");
//   c10::getCustomClass("__torch__.torch.classes.foo.Bar");   // nullptr: never registered
//   c10::getCustomClassType<c10::intrusive_ptr<MyStack>>();   // the ClassType torch::class_ made

#include <memory>
#include <string>
#include <typeinfo>

#include "c10/util/Macros.h"
#include "dispatcher/SchemaType.h"

namespace c10 {

struct ClassType;

// Registers the class name (idempotent) and returns its type.
C10_API TypePtr registerCustomClass(const std::string& qualified_name);
// The registered class's type, or nullptr.
C10_API TypePtr getCustomClass(const std::string& qualified_name);

// Binds `cpp_type` (typeid(c10::intrusive_ptr<T>)) to a new class of that name; a name bound
// twice is an error, as in libtorch.
C10_API std::shared_ptr<ClassType> registerCustomClassType(const std::string& qualified_name,
                                                           const std::type_info& cpp_type);
// The class bound to `cpp_type`; throws "Can't find class id in custom class type map for ..."
// when torch::class_ never bound it.
C10_API std::shared_ptr<ClassType> getCustomClassTypeImpl(const std::type_info& cpp_type);
// Its qualified name, "__torch__.torch.classes.ns.Name" (throws as getCustomClassTypeImpl).
C10_API std::string customClassName(const std::type_info& cpp_type);
// Whether torch::class_ bound `cpp_type`.
C10_API bool isCustomClassRegistered(const std::type_info& cpp_type);

// libtorch's spelling: T is the intrusive_ptr, c10::getCustomClassType<c10::intrusive_ptr<X>>().
template <class T>
std::shared_ptr<ClassType> getCustomClassType() {
  return getCustomClassTypeImpl(typeid(T));
}

}  // namespace c10
