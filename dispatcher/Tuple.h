#pragma once
// ivalue::Tuple: an immutable-size tuple of IValues, shared by pointer (what a multi-return op's
// boxed result or a tuple default is), and TupleElements, its element array.
//
//   auto t = c10::ivalue::Tuple::create(1, "a");         // or create({IValue(1), IValue("a")})
//   t->elements()[1].toStringRef();                       // "a"
//   c10::IValue(std::make_tuple(1, 2.5)).to<std::tuple<int64_t, double>>();
//
// libtorch keeps up to three elements inline in TupleElements; miniaten keeps a std::vector.

#include <tuple>
#include <utility>
#include <vector>

#include "dispatcher/IValue.h"

namespace c10 {
namespace ivalue {

struct C10_API TupleElements {
  using iterator = IValue*;
  using const_iterator = const IValue*;

  TupleElements() = default;
  explicit TupleElements(std::vector<IValue> elements) : elements_(std::move(elements)) {}
  explicit TupleElements(c10::ArrayRef<IValue> elements) : elements_(elements.vec()) {}
  explicit TupleElements(IValue&& e1) { elements_.push_back(std::move(e1)); }
  explicit TupleElements(IValue&& e1, IValue&& e2) {
    elements_.reserve(2);
    elements_.push_back(std::move(e1));
    elements_.push_back(std::move(e2));
  }
  explicit TupleElements(IValue&& e1, IValue&& e2, IValue&& e3) {
    elements_.reserve(3);
    elements_.push_back(std::move(e1));
    elements_.push_back(std::move(e2));
    elements_.push_back(std::move(e3));
  }

  bool empty() const { return elements_.empty(); }
  size_t size() const { return elements_.size(); }
  IValue& operator[](size_t i) { return elements_[i]; }
  const IValue& operator[](size_t i) const { return elements_[i]; }
  const IValue& at(size_t i) const { return elements_.at(i); }
  IValue& at(size_t i) { return elements_.at(i); }
  iterator begin() { return elements_.data(); }
  iterator end() { return elements_.data() + elements_.size(); }
  const_iterator begin() const { return elements_.data(); }
  const_iterator end() const { return elements_.data() + elements_.size(); }
  const_iterator cbegin() const { return begin(); }
  const_iterator cend() const { return end(); }
  IValue& back() { return elements_.back(); }
  const IValue& back() const { return elements_.back(); }

  std::vector<IValue> vec() const& { return elements_; }
  std::vector<IValue> vec() && { return std::move(elements_); }
  operator std::vector<IValue>() const& { return elements_; }         // NOLINT
  operator std::vector<IValue>() && { return std::move(elements_); }  // NOLINT
  c10::ArrayRef<IValue> asArrayRef() const { return elements_; }
  void setContents(std::vector<IValue>&& contents) { elements_ = std::move(contents); }

 private:
  std::vector<IValue> elements_;
};

struct C10_API Tuple final : intrusive_ptr_target {
  explicit Tuple(TupleElements elements) : elements_(std::move(elements)) {}
  explicit Tuple(std::vector<IValue> elements) : elements_(std::move(elements)) {}

  static intrusive_ptr<Tuple> create(std::initializer_list<IValue> elements) {
    return create(c10::ArrayRef<IValue>(elements.begin(), elements.size()));
  }
  static intrusive_ptr<Tuple> create(std::vector<IValue> elements) {
    return make_intrusive<Tuple>(std::move(elements));
  }
  static intrusive_ptr<Tuple> create(TupleElements elements) {
    return make_intrusive<Tuple>(std::move(elements));
  }
  static intrusive_ptr<Tuple> create(c10::ArrayRef<IValue> elements) {
    return make_intrusive<Tuple>(TupleElements(elements));
  }
  // create(a), create(a, b), ...: each argument becomes one element.
  template <class... Args,
            std::enable_if_t<(sizeof...(Args) > 0) &&
                                 !(sizeof...(Args) == 1 &&
                                   (std::is_convertible<Args, std::vector<IValue>>::value && ...)),
                             int> = 0>
  static intrusive_ptr<Tuple> create(Args&&... elements) {
    return make_intrusive<Tuple>(std::vector<IValue>{IValue(std::forward<Args>(elements))...});
  }

  const TupleElements& elements() const& { return elements_; }
  TupleElements elements() && { return std::move(elements_); }
  void setElements(TupleElements&& elements) { elements_ = std::move(elements); }
  size_t size() const { return elements_.size(); }

 private:
  TupleElements elements_;
};

// Element by element, identity first (IValue's [container equality]).
C10_API bool operator==(const Tuple& lhs, const Tuple& rhs);
inline bool operator!=(const Tuple& lhs, const Tuple& rhs) {
  return !(lhs == rhs);
}

}  // namespace ivalue

// ---- IValue's tuple members -------------------------------------------------------------

inline IValue::IValue(c10::intrusive_ptr<ivalue::Tuple> t) : IValue(Tag::Tuple, std::move(t)) {
  TORCH_INTERNAL_ASSERT(payload_.u.as_intrusive_ptr != nullptr, "IValue from a null Tuple pointer");
}

template <class... Args>
IValue::IValue(const std::tuple<Args...>& t)
    : IValue(std::apply(
          [](const auto&... elements) {
            return ivalue::Tuple::create(std::vector<IValue>{IValue(elements)...});
          },
          t)) {}

inline const ivalue::Tuple& IValue::toTupleRef() const {
  if (!isTuple()) report_type_error("Tuple");
  return *static_cast<const ivalue::Tuple*>(payload_.u.as_intrusive_ptr);
}
inline c10::intrusive_ptr<ivalue::Tuple> IValue::toTuple() const& {
  if (!isTuple()) report_type_error("Tuple");
  return toIntrusivePtr<ivalue::Tuple>();
}
inline c10::intrusive_ptr<ivalue::Tuple> IValue::toTuple() && {
  if (!isTuple()) report_type_error("Tuple");
  return moveToIntrusivePtr<ivalue::Tuple>();
}

}  // namespace c10
