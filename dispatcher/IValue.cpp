#include "dispatcher/IValue.h"

#include <functional>

namespace c10 {

IValue::IValue(const Scalar& s) : IValue() {
  if (s.isFloatingPoint()) {
    *this = IValue(s.toDouble());
  } else if (s.isComplex()) {
    *this = IValue(s.toComplexDouble());
  } else if (s.isBoolean()) {
    *this = IValue(s.toBool());
  } else {
    *this = IValue(s.toLong());
  }
}

Scalar IValue::toScalar() const {
  if (isDouble()) return toDouble();
  if (isComplexDouble()) return toComplexDouble();
  if (isInt()) return toInt();
  if (isBool()) return toBool();
  TORCH_CHECK(false, "IValue is not a Scalar");
}

const char* IValue::tag_name(Tag tag) {
  switch (tag) {
#define MINIATEN_TAG_NAME(name) \
  case Tag::name:               \
    return #name;
    MINIATEN_TAG_NAME(None)
    MINIATEN_TAG_NAME(Tensor)
    MINIATEN_TAG_NAME(Double)
    MINIATEN_TAG_NAME(Int)
    MINIATEN_TAG_NAME(Bool)
    MINIATEN_TAG_NAME(Device)
    MINIATEN_TAG_NAME(Stream)
    MINIATEN_TAG_NAME(ComplexDouble)
    MINIATEN_TAG_NAME(Storage)
    MINIATEN_TAG_NAME(String)
    MINIATEN_TAG_NAME(IntList)
    MINIATEN_TAG_NAME(DoubleList)
    MINIATEN_TAG_NAME(BoolList)
    MINIATEN_TAG_NAME(ComplexDoubleList)
    MINIATEN_TAG_NAME(TensorList)
    MINIATEN_TAG_NAME(OptionalTensorList)
    MINIATEN_TAG_NAME(GenericList)
    MINIATEN_TAG_NAME(Tuple)
    MINIATEN_TAG_NAME(GenericDict)
    MINIATEN_TAG_NAME(Future)
    MINIATEN_TAG_NAME(Object)
    MINIATEN_TAG_NAME(Enum)
    MINIATEN_TAG_NAME(Blob)
    MINIATEN_TAG_NAME(Generator)
    MINIATEN_TAG_NAME(Capsule)
#undef MINIATEN_TAG_NAME
  }
  return "InvalidTag";
}

std::string IValue::tagKind() const {
  // libtorch keeps every list in one GenericList tag; report it the same way.
  return isList() ? "GenericList" : tag_name(tag_);
}

void IValue::report_type_error(const char* expected) const {
  TORCH_CHECK(false, "Expected ", expected, " but got ", tagKind());
}

// Note [An enum from an IValue is checked]
// An enum travels as an Int, so a boxed caller can pass any number where a dtype, layout or
// memory format belongs. libtorch casts it unchecked, and a number naming no ScalarType reaches
// TypeMeta::itemsize() (noexcept) and ends the process (found by fuzz_boxed_call:
// cumsum(t, 0, dtype=8)). Here the number must name an enumerator miniaten has, or the call
// is a c10::Error.
ScalarType IValue::toScalarType() const {
  const int64_t v = toInt();
  bool known = v == static_cast<int64_t>(ScalarType::Undefined);
#define MINIATEN_IS_SCALAR_TYPE(_, name) known |= v == static_cast<int64_t>(ScalarType::name);
  C10_FORALL_SCALAR_TYPES(MINIATEN_IS_SCALAR_TYPE)
#undef MINIATEN_IS_SCALAR_TYPE
  TORCH_CHECK(known, "Expected a ScalarType but got the integer ", v, ", which names none");
  return static_cast<ScalarType>(v);
}

Layout IValue::toLayout() const {
  const int64_t v = toInt();
  TORCH_CHECK(v >= 0 && v < static_cast<int64_t>(Layout::NumOptions),
              "Expected a Layout but got the integer ", v, ", which names none");
  return static_cast<Layout>(v);
}

MemoryFormat IValue::toMemoryFormat() const {
  const int64_t v = toInt();
  TORCH_CHECK(v >= 0 && v < static_cast<int64_t>(MemoryFormat::NumOptions),
              "Expected a MemoryFormat but got the integer ", v, ", which names none");
  return static_cast<MemoryFormat>(v);
}

// ---- identity ---------------------------------------------------------------------------

bool IValue::is(const IValue& rhs) const {
  const bool undefined_lhs = isNone() || (isTensor() && !payload_.as_tensor.defined());
  const bool undefined_rhs = rhs.isNone() || (rhs.isTensor() && !rhs.payload_.as_tensor.defined());
  // An undefined tensor is None, as in libtorch.
  if (undefined_lhs || undefined_rhs) return undefined_lhs && undefined_rhs;
  if (isTensor()) return rhs.isTensor() && payload_.as_tensor.is_same(rhs.payload_.as_tensor);
  if (is_heap(tag_)) {
    return tag_ == rhs.tag_ && payload_.u.as_intrusive_ptr == rhs.payload_.u.as_intrusive_ptr;
  }
  return *this == rhs;
}

bool IValue::isAliasOf(const IValue& rhs) const {
  if (tag_ != rhs.tag_) return false;
  if (isTensor()) {
    const at::Tensor& a = payload_.as_tensor;
    const at::Tensor& b = rhs.payload_.as_tensor;
    // Tensors without storage (undefined ones) compare by TensorImpl.
    if (!a.has_storage() || !b.has_storage()) {
      return a.defined() && a.unsafeGetTensorImpl() == b.unsafeGetTensorImpl();
    }
    return a.is_alias_of(b);
  }
  return is_heap(tag_) && payload_.u.as_intrusive_ptr == rhs.payload_.u.as_intrusive_ptr;
}

bool IValue::isPtrType() const {
  if (isTensor()) return payload_.as_tensor.defined();
  // An empty Storage holds no object (libtorch's legacy rule, kept for WeakIValue).
  if (isStorage()) return payload_.u.as_intrusive_ptr != nullptr;
  return is_heap(tag_);
}

const void* IValue::internalToPointer() const {
  TORCH_INTERNAL_ASSERT(isPtrType(), "Can only call internalToPointer() for pointer types");
  if (isTensor()) return payload_.as_tensor.unsafeGetTensorImpl();
  return payload_.u.as_intrusive_ptr;
}

size_t IValue::use_count() const noexcept {
  if (isTensor()) return payload_.as_tensor.use_count();
  if (!isPtrType()) return 1;
  return intrusive_ptr<intrusive_ptr_target>::reclaim_copy(payload_.u.as_intrusive_ptr)
             .use_count() -
         1;
}

// ---- hashing ----------------------------------------------------------------------------

namespace {

// libtorch's undefined tensor is a singleton TensorImpl, so it hashes as that object's address
// (not 0, which is None's hash); miniaten's is null, and hashes as this object's address.
const char kUndefinedTensorIdentity = 0;

// A type as Python annotates it ("List[int]", "Dict[str, Tensor]"): how libtorch names an
// unhashable value's type.
std::string annotation(const SchemaType& t) {
  auto joined = [&](const char* name) {
    std::string s = std::string(name) + "[";
    const auto& contained = t.containedTypes();
    for (size_t i = 0; i < contained.size(); ++i) s += (i ? ", " : "") + annotation(*contained[i]);
    return s + "]";
  };
  switch (t.kind()) {
    case TypeKind::List:
      return joined("List");
    case TypeKind::Optional:
      return joined("Optional");
    case TypeKind::Tuple:
      return joined("Tuple");
    case TypeKind::Dict:
      return joined("Dict");
    case TypeKind::Future:
      return joined("Future");
    case TypeKind::CustomClass:
      return t.name();
    case TypeKind::Device:
      return "Device";
    case TypeKind::Stream:
      return "Stream";
    default:
      return t.str();  // int, float, complex, bool, str, Tensor, Storage, NoneType, Any
  }
}

size_t hash_combine(size_t seed, size_t value) {
  return seed ^ (value + 0x9e3779b9 + (seed << 6) + (seed >> 2));
}

}  // namespace

size_t IValue::hash(const IValue& v) {
  switch (v.tag_) {
    case Tag::None:
      return 0;
    case Tag::Bool:
      return std::hash<bool>()(v.payload_.u.as_bool);
    case Tag::Double:
      return std::hash<double>()(v.payload_.u.as_double);
    case Tag::Int:
      return std::hash<int64_t>()(v.payload_.u.as_int);
    case Tag::Tensor: {
      // A tensor's hash is its identity, as Python's id().
      const void* impl = v.payload_.as_tensor.unsafeGetTensorImpl();
      return std::hash<const void*>()(impl ? impl : &kUndefinedTensorIdentity);
    }
    case Tag::Storage:
      return std::hash<const void*>()(v.payload_.u.as_intrusive_ptr);
    case Tag::String:
      return std::hash<std::string>()(v.toStringRef());
    case Tag::Device:
      return std::hash<Device>()(v.toDevice());
    case Tag::Tuple: {
      size_t seed = 0;
      for (const IValue& e : v.toTupleRef().elements()) seed = hash_combine(seed, hash(e));
      return seed;
    }
    default:
      break;
  }
  TORCH_CHECK(false, "unhashable type: '", annotation(*v.type()), "'");
}

size_t IValue::HashAliasedIValue::operator()(const IValue& v) const {
  if (v.isTensor()) {
    const at::Tensor& t = v.payload_.as_tensor;
    if (!t.has_storage()) return std::hash<const void*>()(t.unsafeGetTensorImpl());
    return std::hash<const void*>()(t.storage().unsafeGetStorageImpl());
  }
  // Other values alias only when they are the same object.
  return static_cast<size_t>(v.payload_.u.as_int);
}

void IValue::getSubValues(HashAliasedIValues& subValues) const {
  switch (tag_) {
    case Tag::Tensor:
      subValues.insert(*this);
      return;
    case Tag::TensorList:
      subValues.insert(*this);
      for (const at::Tensor& t : toTensorList()) IValue(t).getSubValues(subValues);
      return;
    case Tag::OptionalTensorList:
      subValues.insert(*this);
      for (const auto& t : toOptionalTensorList()) IValue(t).getSubValues(subValues);
      return;
    case Tag::GenericList:
      subValues.insert(*this);
      for (const IValue& e : toListRef()) e.getSubValues(subValues);
      return;
    case Tag::Tuple:
      subValues.insert(*this);
      for (const IValue& e : toTupleRef().elements()) e.getSubValues(subValues);
      return;
    case Tag::GenericDict:
      subValues.insert(*this);
      for (const auto& entry : toGenericDict()) {
        entry.value().getSubValues(subValues);
        entry.key().getSubValues(subValues);
      }
      return;
    case Tag::Object: {
      subValues.insert(*this);
      const auto& object = toObjectRef();
      for (const IValue& slot : object.slots()) slot.getSubValues(subValues);
      return;
    }
    case Tag::Future:
    case Tag::Device:
      TORCH_CHECK(false, "Cannot inspect value of type ", tagKind());
    default:
      return;  // numbers and strings hold no subvalues
  }
}

// ---- type -------------------------------------------------------------------------------

TypePtr IValue::type() const {
  switch (tag_) {
    case Tag::None:
      return NoneType::get();
    case Tag::Tensor:
      return TensorType::get();
    case Tag::Double:
      return FloatType::get();
    case Tag::ComplexDouble:
      return ComplexType::get();
    case Tag::Int:
      return IntType::get();
    case Tag::Bool:
      return BoolType::get();
    case Tag::String:
      return StringType::get();
    case Tag::Device:
      return DeviceObjType::get();
    case Tag::Stream:
      return StreamObjType::get();
    case Tag::Storage:
      return StorageType::get();
    case Tag::IntList:
      return SchemaType::list(IntType::get());
    case Tag::DoubleList:
      return SchemaType::list(FloatType::get());
    case Tag::BoolList:
      return SchemaType::list(BoolType::get());
    case Tag::ComplexDoubleList:
      return SchemaType::list(ComplexType::get());
    case Tag::TensorList:
      return SchemaType::list(TensorType::get());
    case Tag::OptionalTensorList:
      return SchemaType::list(SchemaType::optional(TensorType::get()));
    case Tag::GenericList: {
      const auto* impl = static_cast<const detail::ListImpl<IValue>*>(payload_.u.as_intrusive_ptr);
      return SchemaType::list(impl->elementType ? impl->elementType : AnyType::get());
    }
    case Tag::Tuple: {
      std::vector<TypePtr> types;
      for (const IValue& e : toTupleRef().elements()) types.push_back(e.type());
      return SchemaType::tuple(std::move(types));
    }
    case Tag::GenericDict: {
      const auto* impl = static_cast<const detail::DictImpl*>(payload_.u.as_intrusive_ptr);
      return SchemaType::dict(impl->keyType, impl->valueType);
    }
    case Tag::Future:
      return SchemaType::future(toFuture()->elementType());
    case Tag::Object:
      return SchemaType::custom_class(toObjectRef().name());
    case Tag::Enum:
      return SchemaType::custom_class(toEnumHolder()->type()->str());
    case Tag::Capsule:
      return SchemaType::get(TypeKind::Capsule);
    default:
      return AnyType::get();
  }
}

// ---- TorchScript's object model ---------------------------------------------------------

ClassTypePtr ClassType::create(c10::optional<std::string> qualified_name,
                               std::weak_ptr<CompilationUnit> cu, bool is_module) {
  return std::make_shared<ClassType>(std::move(qualified_name), std::move(cu), is_module);
}

size_t ClassType::addAttribute(const std::string& name, TypePtr type, bool is_parameter) {
  TORCH_CHECK(!hasAttribute(name), "attempting to add attribute '", name, "' to ", str(),
              " but an attribute field of the same name already exists with type ",
              getAttribute(*findAttributeSlot(name))->str());
  attributes_.push_back(Attribute{name, std::move(type), is_parameter});
  return attributes_.size() - 1;
}

c10::optional<size_t> ClassType::findAttributeSlot(const std::string& name) const {
  for (size_t i = 0; i < attributes_.size(); ++i) {
    if (attributes_[i].name == name) return i;
  }
  return c10::nullopt;
}

size_t ClassType::getAttributeSlot(const std::string& name) const {
  auto slot = findAttributeSlot(name);
  TORCH_CHECK(slot.has_value(), str(), " does not have an attribute with name '", name, "'");
  return *slot;
}

const std::string& ClassType::getAttributeName(size_t slot) const {
  TORCH_CHECK(slot < attributes_.size(), "attribute slot ", slot, " out of range");
  return attributes_[slot].name;
}

const TypePtr& ClassType::getAttribute(size_t slot) const {
  TORCH_CHECK(slot < attributes_.size(), "attribute slot ", slot, " out of range");
  return attributes_[slot].type;
}

void ClassType::addMethod(std::shared_ptr<torch::jit::Function> method) {
  for (auto& existing : methods_) {
    if (existing->name() == method->name()) {
      existing = std::move(method);
      return;
    }
  }
  methods_.push_back(std::move(method));
}

torch::jit::Function* ClassType::findMethod(const std::string& name) const {
  for (const auto& method : methods_) {
    if (method->name() == name) return method.get();
  }
  return nullptr;
}

torch::jit::Function& ClassType::getMethod(const std::string& name) const {
  torch::jit::Function* method = findMethod(name);
  TORCH_CHECK(method != nullptr, "Couldn't find method: '", name, "' on class: '", str(), "'");
  return *method;
}

std::vector<torch::jit::Function*> ClassType::methods() const {
  std::vector<torch::jit::Function*> result;
  for (const auto& method : methods_) result.push_back(method.get());
  return result;
}

EnumType::EnumType(std::string name, TypePtr value_type, std::vector<EnumNameValue> names_values,
                   std::weak_ptr<CompilationUnit> cu)
    : name_(std::move(name)),
      value_type_(std::move(value_type)),
      names_values_(std::move(names_values)),
      cu_(std::move(cu)) {}

EnumTypePtr EnumType::create(std::string qualified_name, TypePtr value_type,
                             std::vector<EnumNameValue> enum_names_values,
                             std::weak_ptr<CompilationUnit> cu) {
  const TypeKind kind = value_type ? value_type->kind() : TypeKind::Any;
  TORCH_CHECK(kind == TypeKind::Int || kind == TypeKind::Float || kind == TypeKind::Str,
              "Cannot create Enum with value type '", value_type ? value_type->str() : "None",
              "', only int, float and string are supported");
  return std::make_shared<EnumType>(std::move(qualified_name), std::move(value_type),
                                    std::move(enum_names_values), std::move(cu));
}

bool operator==(const EnumType& lhs, const EnumType& rhs) {
  return lhs.qualifiedClassName() == rhs.qualifiedClassName() &&
         *lhs.getValueType() == *rhs.getValueType();
}

std::string ivalue::EnumHolder::unqualifiedClassName() const {
  const std::string& name = qualifiedClassName();
  const auto dot = name.rfind('.');
  return dot == std::string::npos ? name : name.substr(dot + 1);
}

}  // namespace c10

c10::IValue torch::jit::Function::operator()(std::vector<c10::IValue> stack) const {
  body_(stack);
  return stack.empty() ? c10::IValue() : std::move(stack.back());
}
