#include "dispatcher/SchemaType.h"

#include <array>

#include "c10/util/Exception.h"

namespace c10 {

namespace {

constexpr size_t kNumLeafKinds = static_cast<size_t>(TypeKind::NoneType) + 1;

bool is_leaf(TypeKind kind) {
  return static_cast<size_t>(kind) < kNumLeafKinds;
}

// Leaf spellings, in TypeKind order.
constexpr std::array<const char*, kNumLeafKinds> kLeafNames = {
    "Tensor",    "int",          "SymInt",      "float",    "complex",      "bool",
    "str",       "Scalar",       "ScalarType",  "Layout",   "MemoryFormat", "Device",
    "Generator", "Storage",      "Stream",      "QScheme",  "Quantizer",    "Capsule",
    "Any",       "AnyClassType", "AnyEnumType", "NoneType",
};

TypePtr make(TypeKind kind, std::vector<TypePtr> contained, std::string name = {}) {
  for (const auto& t : contained) {
    TORCH_INTERNAL_ASSERT(t != nullptr, "a schema type's element type is null");
  }
  return std::make_shared<const SchemaType>(kind, std::move(contained), std::move(name));
}

}  // namespace

SchemaType::SchemaType(TypeKind kind, std::vector<TypePtr> contained, std::string name)
    : kind_(kind), contained_(std::move(contained)), name_(std::move(name)) {}

TypePtr SchemaType::get(TypeKind kind) {
  static const std::array<TypePtr, kNumLeafKinds> leaves = [] {
    std::array<TypePtr, kNumLeafKinds> result;
    for (size_t i = 0; i < kNumLeafKinds; ++i) result[i] = make(static_cast<TypeKind>(i), {});
    return result;
  }();
  TORCH_CHECK(is_leaf(kind),
              "SchemaType::get() takes a leaf kind; build containers, type "
              "variables and classes with their own factories");
  return leaves[static_cast<size_t>(kind)];
}

TypePtr SchemaType::var(std::string name) {
  return make(TypeKind::Var, {}, std::move(name));
}
TypePtr SchemaType::custom_class(std::string qualified_name) {
  return make(TypeKind::CustomClass, {}, std::move(qualified_name));
}
TypePtr SchemaType::list(TypePtr element) {
  return make(TypeKind::List, {std::move(element)});
}
TypePtr SchemaType::optional(TypePtr element) {
  return make(TypeKind::Optional, {std::move(element)});
}
TypePtr SchemaType::tuple(std::vector<TypePtr> elements) {
  return make(TypeKind::Tuple, std::move(elements));
}
TypePtr SchemaType::future(TypePtr element) {
  return make(TypeKind::Future, {std::move(element)});
}
TypePtr SchemaType::rref(TypePtr element) {
  return make(TypeKind::RRef, {std::move(element)});
}
TypePtr SchemaType::dict(TypePtr key, TypePtr value) {
  return make(TypeKind::Dict, {std::move(key), std::move(value)});
}

const TypePtr& SchemaType::getElementType() const {
  TORCH_CHECK(contained_.size() == 1 && kind_ != TypeKind::Tuple, "type ", str(),
              " has no single element type");
  return contained_[0];
}

std::string SchemaType::str() const {
  if (is_leaf(kind_)) return kLeafNames[static_cast<size_t>(kind_)];
  switch (kind_) {
    case TypeKind::Var:
    case TypeKind::CustomClass:
      return name_;
    case TypeKind::List:
      return contained_[0]->str() + "[]";
    case TypeKind::Optional:
      return contained_[0]->str() + "?";
    case TypeKind::Future:
      return "Future(" + contained_[0]->str() + ")";
    case TypeKind::RRef:
      return "RRef(" + contained_[0]->str() + ")";
    case TypeKind::Dict:
      return "Dict(" + contained_[0]->str() + ", " + contained_[1]->str() + ")";
    case TypeKind::Tuple: {
      std::string out = "(";
      for (size_t i = 0; i < contained_.size(); ++i) {
        if (i > 0) out += ", ";
        out += contained_[i]->str();
      }
      return out + ")";
    }
    default:
      TORCH_INTERNAL_ASSERT(false, "unhandled TypeKind ", static_cast<int>(kind_));
  }
}

bool SchemaType::isOptionalTensor() const {
  return kind_ == TypeKind::Optional && contained_[0]->isTensor();
}
bool SchemaType::isTensorList() const {
  return kind_ == TypeKind::List && contained_[0]->isTensor();
}
bool SchemaType::isOptionalTensorList() const {
  return kind_ == TypeKind::List && contained_[0]->isOptionalTensor();
}
bool SchemaType::isIntLike() const {
  switch (kind_) {
    case TypeKind::Int:
    case TypeKind::SymInt:
    case TypeKind::ScalarType:
    case TypeKind::Layout:
    case TypeKind::MemoryFormat:
      return true;
    default:
      return false;
  }
}

bool operator==(const SchemaType& lhs, const SchemaType& rhs) {
  if (&lhs == &rhs) return true;
  if (lhs.kind() != rhs.kind() || lhs.name() != rhs.name()) return false;
  const auto& a = lhs.containedTypes();
  const auto& b = rhs.containedTypes();
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (*a[i] != *b[i]) return false;
  }
  return true;
}

}  // namespace c10
