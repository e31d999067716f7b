#include "dispatcher/CustomClass.h"

#include <mutex>
#include <typeindex>
#include <unordered_map>

#include "c10/util/Exception.h"
#include "dispatcher/IValue.h"
#include "dispatcher/JitType.h"

namespace c10 {

namespace {
struct Registry {
  std::mutex mutex;
  std::unordered_map<std::string, TypePtr> classes;              // by qualified name
  std::unordered_map<std::type_index, ClassTypePtr> bound;       // by C++ type
  std::unordered_map<std::string, std::type_index> bound_names;  // names torch::class_ took
};
Registry& registry() {
  static Registry* r = new Registry();  // never destroyed: static registrations outlive main
  return *r;
}
}  // namespace

TypePtr registerCustomClass(const std::string& qualified_name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  TypePtr& type = r.classes[qualified_name];
  if (!type) type = SchemaType::custom_class(qualified_name);
  return type;
}

TypePtr getCustomClass(const std::string& qualified_name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  const auto it = r.classes.find(qualified_name);
  return it == r.classes.end() ? nullptr : it->second;
}

ClassTypePtr registerCustomClassType(const std::string& qualified_name,
                                     const std::type_info& cpp_type) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  TORCH_CHECK(r.bound_names.count(qualified_name) == 0, "Custom class with name ", qualified_name,
              " is already registered. Ensure that registration with torch::class_ is only "
              "called once.");
  const auto bound = r.bound.find(std::type_index(cpp_type));
  TORCH_CHECK(bound == r.bound.end(), "The C++ class ", cpp_type.name(),
              " is already registered as ", bound == r.bound.end() ? "" : bound->second->str(),
              "; torch::class_ registers a class under one name only.");
  ClassTypePtr cls = ClassType::create(qualified_name, {});
  r.bound.emplace(std::type_index(cpp_type), cls);
  r.bound_names.emplace(qualified_name, std::type_index(cpp_type));
  TypePtr& type = r.classes[qualified_name];
  if (!type) type = SchemaType::custom_class(qualified_name);
  return cls;
}

ClassTypePtr getCustomClassTypeImpl(const std::type_info& cpp_type) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  const auto it = r.bound.find(std::type_index(cpp_type));
  TORCH_CHECK(it != r.bound.end(), "Can't find class id in custom class type map for ",
              cpp_type.name());
  return it->second;
}

std::string customClassName(const std::type_info& cpp_type) {
  return getCustomClassTypeImpl(cpp_type)->str();
}

bool isCustomClassRegistered(const std::type_info& cpp_type) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  return r.bound.count(std::type_index(cpp_type)) != 0;
}

// Note [Custom class objects]
// As in libtorch, an IValue never holds a custom class's pointer bare: it is an ivalue::Object
// of the class torch::class_ registered for the C++ type, whose single slot is a Capsule (the
// pointer as a torch::CustomClassHolder). The object carries the class, so the dispatcher,
// printing and schemas see `__torch__.torch.classes.ns.Name`; toCustomClass<T>() checks that
// class against T's before handing the pointer back. The check is by the static type the value
// was boxed as: an intrusive_ptr<ProcessGroup> holding a ProcessGroupGloo is a ProcessGroup
// object, and comes back as a ProcessGroup.

IValue IValue::make_capsule(c10::intrusive_ptr<torch::CustomClassHolder> blob) {
  return IValue(Tag::Capsule, std::move(blob));
}

c10::intrusive_ptr<torch::CustomClassHolder> IValue::toCapsule() const {
  if (!isCapsule()) report_type_error("Capsule");
  return toIntrusivePtr<torch::CustomClassHolder>();
}

bool IValue::isCustomClass() const {
  if (!isObject()) return false;
  const auto& slots = toObjectRef().slots();
  return slots.size() == 1 && slots[0].isCapsule();
}

namespace detail {

IValue make_custom_class_object(const std::type_info& cpp_type,
                                c10::intrusive_ptr<torch::CustomClassHolder> holder) {
  auto object = ivalue::Object::create(StrongTypePtr(nullptr, getCustomClassTypeImpl(cpp_type)), 1);
  object->setSlot(0, IValue::make_capsule(std::move(holder)));
  return IValue(std::move(object));
}

c10::intrusive_ptr<torch::CustomClassHolder> custom_class_holder(const IValue& v,
                                                                 const std::type_info& cpp_type) {
  const ivalue::Object& object = v.toObjectRef();
  TORCH_CHECK(v.isCustomClass(),
              "Tried to cast IValue to custom class but it did not contain a custom class!");
  const ClassTypePtr expected = getCustomClassTypeImpl(cpp_type);
  TORCH_CHECK(object.type() == expected, "Tried to convert an IValue of type ",
              object.type()->str(), " to custom class type ", expected->str());
  return object.getSlot(0).toCapsule();
}

}  // namespace detail

}  // namespace c10
