#pragma once
// The slice of TorchScript's type system that IValue's object model needs: the leaf types by
// libtorch's names (IntType::get(), TensorType::get(), ...; each is miniaten's SchemaType of
// that kind), class types with named attributes, enum types, and the strong type pointer an
// Object keeps.
//
//   auto cls = c10::ClassType::create("foo.Bar", /*cu=*/{});
//   cls->addAttribute("weight", c10::TensorType::get());   // slot 0
//   auto obj = c10::ivalue::Object::create(c10::StrongTypePtr(nullptr, cls), 1);
//
// No modules or compilation: CompilationUnit is only the owner a type names. The methods a
// class has are custom classes' (torch::class_), each a boxed C++ function.

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "c10/util/Optional.h"
#include "dispatcher/IValue.h"
#include "dispatcher/SchemaType.h"

namespace torch {
namespace jit {
// What owns TorchScript classes and functions in libtorch; here an empty owner.
struct CompilationUnit {};

// A method of a custom class, as libtorch's BuiltinOpFunction: its body takes `self` and the
// arguments off the stack and pushes the return (nothing for a void method).
class Function {
 public:
  Function(std::string name, std::function<void(std::vector<c10::IValue>&)> body)
      : name_(std::move(name)), body_(std::move(body)) {}
  const std::string& name() const { return name_; }
  void run(std::vector<c10::IValue>& stack) const { body_(stack); }
  // Runs on `stack` (self first) and returns the result, None for a void method.
  c10::IValue operator()(std::vector<c10::IValue> stack) const;

 private:
  std::string name_;
  std::function<void(std::vector<c10::IValue>&)> body_;
};
}  // namespace jit
}  // namespace torch

namespace c10 {

using torch::jit::CompilationUnit;
class IValue;

#define C10_LEAF_TYPE(Name, kind)                                    \
  struct Name {                                                      \
    static TypePtr get() { return SchemaType::get(TypeKind::kind); } \
  };
C10_LEAF_TYPE(TensorType, Tensor)
C10_LEAF_TYPE(IntType, Int)
C10_LEAF_TYPE(FloatType, Float)
C10_LEAF_TYPE(ComplexType, Complex)
C10_LEAF_TYPE(BoolType, Bool)
C10_LEAF_TYPE(StringType, Str)
C10_LEAF_TYPE(DeviceObjType, Device)
C10_LEAF_TYPE(StreamObjType, Stream)
C10_LEAF_TYPE(StorageType, Storage)
C10_LEAF_TYPE(NoneType, NoneType)
C10_LEAF_TYPE(AnyType, Any)
#undef C10_LEAF_TYPE

// A TorchScript class: a qualified name and attributes, each a name, a type and a slot index.
struct C10_API ClassType {
  static std::shared_ptr<ClassType> create(c10::optional<std::string> qualified_name,
                                           std::weak_ptr<CompilationUnit> cu,
                                           bool is_module = false);

  // The qualified name ("foo.bar"); a class made without one has none.
  const c10::optional<std::string>& name() const { return name_; }
  std::string str() const { return name_.value_or("<anonymous class>"); }
  bool is_module() const { return is_module_; }
  std::shared_ptr<CompilationUnit> compilation_unit() const { return cu_.lock(); }

  // Appends an attribute and returns its slot.
  size_t addAttribute(const std::string& name, TypePtr type, bool is_parameter = false);
  size_t numAttributes() const { return attributes_.size(); }
  bool hasAttribute(const std::string& name) const { return findAttributeSlot(name).has_value(); }
  c10::optional<size_t> findAttributeSlot(const std::string& name) const;
  // Throws when the class has no such attribute.
  size_t getAttributeSlot(const std::string& name) const;
  const std::string& getAttributeName(size_t slot) const;
  const TypePtr& getAttribute(size_t slot) const;

  // Methods (custom classes only): the last one added under a name wins.
  void addMethod(std::shared_ptr<torch::jit::Function> method);
  torch::jit::Function* findMethod(const std::string& name) const;
  // Throws "Couldn't find method: 'name' on class: '...'".
  torch::jit::Function& getMethod(const std::string& name) const;
  std::vector<torch::jit::Function*> methods() const;

  // Use create(); public only so std::make_shared can reach it.
  ClassType(c10::optional<std::string> name, std::weak_ptr<CompilationUnit> cu, bool is_module)
      : name_(std::move(name)), cu_(std::move(cu)), is_module_(is_module) {}

 private:
  struct Attribute {
    std::string name;
    TypePtr type;
    bool is_parameter;
  };
  c10::optional<std::string> name_;
  std::weak_ptr<CompilationUnit> cu_;
  bool is_module_;
  std::vector<Attribute> attributes_;
  std::vector<std::shared_ptr<torch::jit::Function>> methods_;
};
using ClassTypePtr = std::shared_ptr<ClassType>;

// A TorchScript enum: a qualified name, the type of its values, and its (name, value) pairs.
struct C10_API EnumType {
  using EnumNameValue = std::pair<std::string, IValue>;

  static std::shared_ptr<EnumType> create(std::string qualified_name, TypePtr value_type,
                                          std::vector<EnumNameValue> enum_names_values,
                                          std::weak_ptr<CompilationUnit> cu);

  const std::string& qualifiedClassName() const { return name_; }
  const TypePtr& getValueType() const { return value_type_; }
  const std::vector<EnumNameValue>& enumNamesValues() const { return names_values_; }
  std::shared_ptr<CompilationUnit> compilation_unit() const { return cu_.lock(); }
  // "Enum<Color>", as libtorch's annotation_str writes it.
  std::string str() const { return "Enum<" + name_ + ">"; }

  // Use create(); public only so std::make_shared can reach it.
  EnumType(std::string name, TypePtr value_type, std::vector<EnumNameValue> names_values,
           std::weak_ptr<CompilationUnit> cu);

 private:
  std::string name_;
  TypePtr value_type_;
  std::vector<EnumNameValue> names_values_;
  std::weak_ptr<CompilationUnit> cu_;
};
using EnumTypePtr = std::shared_ptr<EnumType>;

// Same name and value type (libtorch compares enum types this way).
C10_API bool operator==(const EnumType& lhs, const EnumType& rhs);

// An Object's type, keeping its CompilationUnit alive.
struct StrongTypePtr {
  StrongTypePtr(std::shared_ptr<CompilationUnit> cu, ClassTypePtr type)
      : cu_(std::move(cu)), type_(std::move(type)) {}
  std::shared_ptr<CompilationUnit> cu_;
  ClassTypePtr type_;
};

}  // namespace c10
