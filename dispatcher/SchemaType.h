#pragma once
// SchemaType: the type of one schema argument or return, as a small immutable tree.
//
//   TypePtr t = SchemaType::list(SchemaType::optional(SchemaType::get(TypeKind::Tensor)));
//   t->str();                     // "Tensor?[]"
//   t->isOptionalTensorList();    // true: the dispatcher reads tensors out of it
//
// Nodes are shared and never change, so a TypePtr can be copied freely between schemas; the leaf
// kinds (Tensor, int, ...) are one process-wide instance each.
//
// See Note [Schema types are the real types] for how this differs from libtorch's jit types.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace c10 {

// Note [Schema types are the real types]
// libtorch gives each argument a "fake" type (ScalarType, Layout and MemoryFormat are int, as
// the JIT sees them) and a "real" one (used for printing). miniaten keeps only the real type;
// code that wants the JIT view asks isIntLike(). Two of libtorch's spellings have no kind of their
// own because libtorch drops them at parse time: `Dimname` is parsed as `str` and
// `ConstQuantizerPtr` as `int`, so a schema written with them prints `str` / `int`.
enum class TypeKind : uint8_t {
  // Leaves, one shared instance each (SchemaType::get).
  Tensor,
  Int,
  SymInt,
  Float,
  Complex,
  Bool,
  Str,
  Scalar,
  ScalarType,
  Layout,
  MemoryFormat,
  Device,
  Generator,
  Storage,
  Stream,
  QScheme,
  Quantizer,
  Capsule,
  Any,
  AnyClassType,
  AnyEnumType,
  NoneType,
  // Named leaves: a type variable (`t`, `tVal`) and a custom class
  // (`__torch__.torch.classes.ns.Name`).
  Var,
  CustomClass,
  // Containers.
  List,
  Optional,
  Tuple,
  Future,
  RRef,
  Dict,
};

class SchemaType;
using TypePtr = std::shared_ptr<const SchemaType>;

class SchemaType {
 public:
  // The shared instance of a leaf kind; TORCH_CHECKs that `kind` is one.
  static TypePtr get(TypeKind kind);
  static TypePtr var(std::string name);
  static TypePtr custom_class(std::string qualified_name);
  static TypePtr list(TypePtr element);
  static TypePtr optional(TypePtr element);
  static TypePtr tuple(std::vector<TypePtr> elements);
  static TypePtr future(TypePtr element);
  static TypePtr rref(TypePtr element);
  static TypePtr dict(TypePtr key, TypePtr value);

  TypeKind kind() const { return kind_; }
  // Element types: one for List/Optional/Future/RRef, key then value for Dict, all for Tuple.
  const std::vector<TypePtr>& containedTypes() const { return contained_; }
  // The single element of List/Optional/Future/RRef.
  const TypePtr& getElementType() const;
  // The variable's or class's name; empty for other kinds.
  const std::string& name() const { return name_; }

  // As libtorch prints it in a schema: "int", "Tensor?[]", "Dict(str, t)", "(int, str)".
  std::string str() const;

  bool isTensor() const { return kind_ == TypeKind::Tensor; }
  bool isOptionalTensor() const;      // Tensor?
  bool isTensorList() const;          // Tensor[]
  bool isOptionalTensorList() const;  // Tensor?[]
  bool isList() const { return kind_ == TypeKind::List; }
  bool isOptional() const { return kind_ == TypeKind::Optional; }
  // int, SymInt and the enums libtorch passes as int (ScalarType, Layout, MemoryFormat).
  bool isIntLike() const;

  // Use the factories above; public only so std::make_shared can reach it.
  SchemaType(TypeKind kind, std::vector<TypePtr> contained, std::string name);

 private:
  TypeKind kind_;
  std::vector<TypePtr> contained_;
  std::string name_;
};

// Structural equality: same kind, same name, equal contained types.
bool operator==(const SchemaType& lhs, const SchemaType& rhs);
inline bool operator!=(const SchemaType& lhs, const SchemaType& rhs) {
  return !(lhs == rhs);
}

}  // namespace c10
