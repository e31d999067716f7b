// IValue's value equality (equals, ==), and the key hashing and equality of dicts.
// See Note [Container equality].
#include "dispatcher/IValue.h"

namespace c10 {

// Note [Container equality]
// Containers compare their elements with _fastEqualsForContainer: identity first, then ==. As
// in Python (and libtorch), [t] == [t] is True for a multi-element tensor t, while
// [t] == [t.clone()] throws, because == of two such tensors is ambiguous.

namespace {

size_t list_size(const IValue& v) {
  switch (v.tag()) {
    case IValue::Tag::IntList:
      return v.toIntListRef().size();
    case IValue::Tag::DoubleList:
      return v.toDoubleListRef().size();
    case IValue::Tag::BoolList:
      return v.toBoolListRef().size();
    case IValue::Tag::ComplexDoubleList:
      return v.toComplexDoubleList().size();
    case IValue::Tag::TensorList:
      return v.toTensorList().size();
    case IValue::Tag::OptionalTensorList:
      return v.toOptionalTensorList().size();
    default:
      return v.toListRef().size();
  }
}

IValue list_element(const IValue& v, size_t i) {
  switch (v.tag()) {
    case IValue::Tag::IntList:
      return v.toIntListRef()[i];
    case IValue::Tag::DoubleList:
      return v.toDoubleListRef()[i];
    case IValue::Tag::BoolList:
      return static_cast<bool>(v.toBoolListRef()[i]);
    case IValue::Tag::ComplexDoubleList:
      return v.toComplexDoubleList().get(i);
    case IValue::Tag::TensorList:
      return v.toTensorList()[i];
    case IValue::Tag::OptionalTensorList:
      return v.toOptionalTensorList()[i];
    default:
      return v.toListRef()[i];
  }
}

// Lists of different kinds are different, even empty ones ([] of int != [] of float), as in
// libtorch, where the element type is compared first.
bool lists_equal(const IValue& lhs, const IValue& rhs) {
  if (lhs.tag() != rhs.tag()) return false;
  switch (lhs.tag()) {
    case IValue::Tag::IntList:
      return lhs.toIntListRef() == rhs.toIntListRef();
    case IValue::Tag::DoubleList:
      return lhs.toDoubleListRef() == rhs.toDoubleListRef();
    case IValue::Tag::BoolList:
      return lhs.toBoolListRef() == rhs.toBoolListRef();
    case IValue::Tag::GenericList: {
      const TypePtr a = lhs.toList().elementType();
      const TypePtr b = rhs.toList().elementType();
      if (a && b && *a != *b) return false;
      break;
    }
    default:
      break;
  }
  const size_t n = list_size(lhs);
  if (n != list_size(rhs)) return false;
  for (size_t i = 0; i < n; ++i) {
    if (!_fastEqualsForContainer(list_element(lhs, i), list_element(rhs, i))) return false;
  }
  return true;
}

bool same_object(const IValue& lhs, const IValue& rhs) {
  return lhs.tag() == rhs.tag() && lhs.internalToPointer() == rhs.internalToPointer();
}

}  // namespace

IValue IValue::equals(const IValue& rhs) const {
  const IValue& lhs = *this;
  switch (lhs.tag_) {
    case Tag::None:
      return rhs.isNone();
    case Tag::Tensor:
      if (!rhs.isTensor()) return false;
#ifdef MINIATEN_CODEGEN_BOOTSTRAP
      // The code generator has no operators; it compares tensors by identity.
      return lhs.toTensor().is_same(rhs.toTensor());
#else
      return detail::ivalue_tensor_eq(lhs.toTensor(), rhs.toTensor());
#endif
    case Tag::Storage:
      return rhs.isStorage() && lhs.payload_.u.as_intrusive_ptr == rhs.payload_.u.as_intrusive_ptr;
    case Tag::Double:
      return rhs.isDouble() && lhs.toDouble() == rhs.toDouble();
    case Tag::ComplexDouble:
      return rhs.isComplexDouble() && lhs.toComplexDouble() == rhs.toComplexDouble();
    case Tag::Int:
      return rhs.isInt() && lhs.toInt() == rhs.toInt();
    case Tag::Bool:
      return rhs.isBool() && lhs.toBool() == rhs.toBool();
    case Tag::String:
      return rhs.isString() && lhs.toStringRef() == rhs.toStringRef();
    case Tag::Device:
      return rhs.isDevice() && lhs.toDevice() == rhs.toDevice();
    case Tag::Stream:
      return rhs.isStream() && lhs.toStream() == rhs.toStream();
    case Tag::IntList:
    case Tag::DoubleList:
    case Tag::BoolList:
    case Tag::ComplexDoubleList:
    case Tag::TensorList:
    case Tag::OptionalTensorList:
    case Tag::GenericList:
      return rhs.isList() && lists_equal(lhs, rhs);
    case Tag::Tuple:
      return rhs.isTuple() && lhs.toTupleRef() == rhs.toTupleRef();
    case Tag::GenericDict:
      return rhs.isGenericDict() && lhs.toGenericDict() == rhs.toGenericDict();
    case Tag::Enum:
      return rhs.isEnum() && lhs.toEnumHolder()->is(*rhs.toEnumHolder());
    case Tag::Future:
    case Tag::Object:
    case Tag::Blob:
    case Tag::Generator:
    case Tag::Capsule:
      return same_object(lhs, rhs);
  }
  return false;
}

bool operator==(const IValue& lhs, const IValue& rhs) {
  IValue eq = lhs.equals(rhs);
  if (eq.isBool()) return eq.toBool();
    // Python calls bool() on a tensor result: it must hold exactly one value.
#ifdef MINIATEN_CODEGEN_BOOTSTRAP
  TORCH_INTERNAL_ASSERT(false, "the code generator compares no tensors");
#else
  return detail::ivalue_tensor_is_nonzero(eq.toTensor());
#endif
}

bool _fastEqualsForContainer(const IValue& lhs, const IValue& rhs) {
  return lhs.is(rhs) || lhs == rhs;
}

namespace ivalue {

bool operator==(const Tuple& lhs, const Tuple& rhs) {
  const auto& a = lhs.elements();
  const auto& b = rhs.elements();
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!_fastEqualsForContainer(a[i], b[i])) return false;
  }
  return true;
}

}  // namespace ivalue

namespace detail {

size_t DictKeyHash::operator()(const IValue& key) const {
  if (key.isInt()) return std::hash<int64_t>()(key.toInt());
  if (key.isString()) return std::hash<std::string>()(key.toStringRef());
  if (key.isDouble()) return std::hash<double>()(key.toDouble());
  if (key.isComplexDouble()) {
    const auto z = key.toComplexDouble();
    size_t seed = std::hash<double>()(z.real());
    return seed ^ (std::hash<double>()(z.imag()) + 0x9e3779b9 + (seed << 6) + (seed >> 2));
  }
  if (key.isBool()) return std::hash<bool>()(key.toBool());
  if (key.isTensor()) return std::hash<const void*>()(key.toTensor().unsafeGetTensorImpl());
  if (key.isDevice()) return std::hash<Device>()(key.toDevice());
  TORCH_CHECK(false, "Can't hash IValues with tag '", key.tagKind(), "'");
}

bool DictKeyEqualTo::operator()(const IValue& lhs, const IValue& rhs) const {
  if (lhs.isTensor() && rhs.isTensor()) return lhs.is(rhs);
  return _fastEqualsForContainer(lhs, rhs);
}

bool operator==(const DictImpl& lhs, const DictImpl& rhs) {
  const bool same_types = (lhs.keyType == rhs.keyType ||
                           (lhs.keyType && rhs.keyType && *lhs.keyType == *rhs.keyType)) &&
                          (lhs.valueType == rhs.valueType ||
                           (lhs.valueType && rhs.valueType && *lhs.valueType == *rhs.valueType));
  if (!same_types || lhs.entries.size() != rhs.entries.size()) return false;
  for (const auto& entry : lhs.entries) {
    auto it = rhs.index.find(entry.first);
    if (it == rhs.index.end()) return false;
    if (!_fastEqualsForContainer(it->second->second, entry.second)) return false;
  }
  return true;
}

}  // namespace detail
}  // namespace c10
