#pragma once
// ivalue::Object: an instance of a TorchScript class, its attributes in slots (the class's
// attribute order); ivalue::EnumHolder: one value of a TorchScript enum.
//
//   auto obj = c10::ivalue::Object::create(c10::StrongTypePtr(cu, cls), cls->numAttributes());
//   obj->setAttr("weight", tensor);     // slot cls->getAttributeSlot("weight")
//   obj->getSlot(0);
//   std::cout << c10::IValue(obj);      // <foo.Bar object at 0x...>

#include <string>
#include <vector>

#include "dispatcher/IValue.h"
#include "dispatcher/JitType.h"

namespace c10 {
namespace ivalue {

struct C10_API Object final : intrusive_ptr_target {
  Object(StrongTypePtr type, size_t num_slots) : type_(std::move(type)) {
    slots_.resize(num_slots);
  }
  static intrusive_ptr<Object> create(StrongTypePtr type, size_t num_slots) {
    return make_intrusive<Object>(std::move(type), num_slots);
  }

  void setSlot(size_t slot, IValue v) {
    if (slot >= slots_.size()) slots_.resize(slot + 1);  // the class gained attributes
    slots_[slot] = std::move(v);
  }
  const IValue& getSlot(size_t slot) const {
    TORCH_CHECK(slot < slots_.size(), "slot ", slot, " out of range for an object with ",
                slots_.size(), " slots");
    return slots_[slot];
  }
  void setAttr(const std::string& name, IValue v) {
    setSlot(type()->getAttributeSlot(name), std::move(v));
  }
  IValue getAttr(const std::string& name) const { return getSlot(type()->getAttributeSlot(name)); }
  // Drops the attribute's slot from this object only; the class keeps the attribute (so slot
  // indices after it no longer match the class).
  void unsafeRemoveAttr(const std::string& name) {
    slots_.erase(slots_.begin() + type()->getAttributeSlot(name));
  }
  const std::vector<IValue>& slots() const { return slots_; }

  ClassTypePtr type() const { return type_.type_; }
  std::shared_ptr<CompilationUnit> compilation_unit() const { return type_.cu_; }
  std::string name() const { return type()->str(); }

 private:
  StrongTypePtr type_;
  std::vector<IValue> slots_;
};

struct C10_API EnumHolder final : intrusive_ptr_target {
  EnumHolder(EnumTypePtr type, std::string name, IValue value)
      : type_(std::move(type)), name_(std::move(name)), value_(std::move(value)) {}

  // Same enum type and same name.
  bool is(const EnumHolder& rhs) const { return *type_ == *rhs.type_ && name_ == rhs.name_; }

  const EnumTypePtr& type() const { return type_; }
  const std::string& name() const { return name_; }
  const IValue& value() const { return value_; }
  // "Color.RED".
  std::string qualifiedClassName() const { return type_->qualifiedClassName(); }
  std::string unqualifiedClassName() const;

 private:
  EnumTypePtr type_;
  std::string name_;
  IValue value_;
};

inline bool operator==(const EnumHolder& lhs, const EnumHolder& rhs) {
  return lhs.is(rhs);
}

}  // namespace ivalue

inline IValue::IValue(c10::intrusive_ptr<ivalue::Object> o) : IValue(Tag::Object, std::move(o)) {}
inline c10::intrusive_ptr<ivalue::Object> IValue::toObject() const {
  if (!isObject()) report_type_error("Object");
  return toIntrusivePtr<ivalue::Object>();
}
inline IValue::IValue(c10::intrusive_ptr<ivalue::EnumHolder> e) : IValue(Tag::Enum, std::move(e)) {}
inline c10::intrusive_ptr<ivalue::EnumHolder> IValue::toEnumHolder() const {
  if (!isEnum()) report_type_error("Enum");
  return toIntrusivePtr<ivalue::EnumHolder>();
}
inline const ivalue::Object& IValue::toObjectRef() const {
  if (!isObject()) report_type_error("Object");
  return *static_cast<const ivalue::Object*>(payload_.u.as_intrusive_ptr);
}

}  // namespace c10
