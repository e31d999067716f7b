#pragma once
// c10::List<T>: libtorch's list, a reference to a shared vector. Copies of a List (and the
// IValues made from it) see the same elements; copy() makes an independent one.
//
//   c10::List<int64_t> a({3, 4, 5});
//   c10::List<int64_t> b = a;          // same list: a.use_count() == 2
//   b[0] = 7;                          // a.get(0) == 7 (operator[] hands out a reference)
//   c10::IValue v(a);                  // shares it too; v.toIntList().is(a)
//   c10::List<std::string> s({"x"});   // a GenericList: its elements are IValues
//
// List<T> of an unboxed kind (int64_t, double, bool, complex<double>, Tensor, Tensor?) keeps a
// std::vector<T>; any other T keeps a std::vector<IValue> and converts on access. See
// Note [IValue layout].

#include <initializer_list>
#include <iterator>
#include <vector>

#include "dispatcher/IValue.h"

namespace c10 {

namespace detail {

template <class T, class Stored>
T list_element_to(const Stored& stored) {
  if constexpr (std::is_same<T, Stored>::value) {
    return stored;
  } else {
    return stored.template to<T>();
  }
}

template <class T, class Stored>
Stored list_element_from(T&& value) {
  if constexpr (std::is_same<std::decay_t<T>, Stored>::value) {
    return std::forward<T>(value);
  } else {
    return IValue(std::forward<T>(value));
  }
}

// Element equality as libtorch's list comparison has it: numbers by value, the rest through
// IValue's [container equality] (identity first).
template <class Stored>
bool list_elements_equal(const Stored& a, const Stored& b) {
  if constexpr (std::is_arithmetic<Stored>::value ||
                std::is_same<Stored, c10::complex<double>>::value) {
    return a == b;
  } else {
    return _fastEqualsForContainer(IValue(a), IValue(b));
  }
}

}  // namespace detail

// What list[i] returns: reads convert to T, assignments write through to the shared list.
template <class T, class Iterator>
class ListElementReference final {
 public:
  using Stored = typename std::iterator_traits<Iterator>::value_type;

  operator T() const { return detail::list_element_to<T, Stored>(*iterator_); }  // NOLINT
  ListElementReference& operator=(T value) && {
    *iterator_ = detail::list_element_from<T, Stored>(std::move(value));
    return *this;
  }
  ListElementReference& operator=(ListElementReference&& rhs) && noexcept {
    *iterator_ = *rhs.iterator_;
    return *this;
  }
  friend void swap(ListElementReference&& lhs, ListElementReference&& rhs) {
    std::swap(*lhs.iterator_, *rhs.iterator_);
  }
  friend bool operator==(const ListElementReference& lhs, const T& rhs) {
    return static_cast<T>(lhs) == rhs;
  }
  friend bool operator==(const T& lhs, const ListElementReference& rhs) { return rhs == lhs; }

 private:
  template <class, class>
  friend class ListIterator;
  template <class>
  friend class List;
  explicit ListElementReference(Iterator it) : iterator_(it) {}
  Iterator iterator_;
};

// A random-access iterator whose elements are ListElementReferences.
template <class T, class Iterator>
class ListIterator final {
 public:
  using iterator_category = std::random_access_iterator_tag;
  using value_type = T;
  using difference_type = std::ptrdiff_t;
  using reference = ListElementReference<T, Iterator>;
  using pointer = void;

  ListIterator() = default;
  reference operator*() const { return reference(iterator_); }
  reference operator[](difference_type n) const { return reference(iterator_ + n); }
  ListIterator& operator++() {
    ++iterator_;
    return *this;
  }
  ListIterator operator++(int) { return ListIterator(iterator_++); }
  ListIterator& operator--() {
    --iterator_;
    return *this;
  }
  ListIterator operator--(int) { return ListIterator(iterator_--); }
  ListIterator& operator+=(difference_type n) {
    iterator_ += n;
    return *this;
  }
  ListIterator& operator-=(difference_type n) {
    iterator_ -= n;
    return *this;
  }
  friend ListIterator operator+(ListIterator it, difference_type n) { return it += n; }
  friend ListIterator operator-(ListIterator it, difference_type n) { return it -= n; }
  friend difference_type operator-(const ListIterator& a, const ListIterator& b) {
    return a.iterator_ - b.iterator_;
  }
  friend bool operator==(const ListIterator& a, const ListIterator& b) {
    return a.iterator_ == b.iterator_;
  }
  friend bool operator!=(const ListIterator& a, const ListIterator& b) { return !(a == b); }
  friend bool operator<(const ListIterator& a, const ListIterator& b) {
    return a.iterator_ < b.iterator_;
  }

 private:
  template <class>
  friend class List;
  explicit ListIterator(Iterator it) : iterator_(it) {}
  Iterator iterator_;
};

template <class T>
class List final {
  using Stored = detail::list_storage_t<T>;
  using Impl = detail::ListImpl<Stored>;
  using StoredIterator = typename std::vector<Stored>::iterator;

 public:
  using value_type = T;
  using size_type = size_t;
  using iterator = ListIterator<T, StoredIterator>;
  using reference = ListElementReference<T, StoredIterator>;
  // Const iteration over an unboxed list yields `const T&` (no conversion, and code that
  // overloads on T sees a T); over a GenericList it converts as operator[] does.
  using const_iterator = std::conditional_t<std::is_same<Stored, T>::value,
                                            typename std::vector<T>::const_iterator, iterator>;

  List() : impl_(make_intrusive<Impl>(std::vector<Stored>(), element_type())) {}
  List(std::initializer_list<T> values) : List(ArrayRef<T>(values.begin(), values.size())) {}
  explicit List(ArrayRef<T> values) : List() {
    impl_->list.reserve(values.size());
    for (const T& v : values) impl_->list.push_back(detail::list_element_from<const T&, Stored>(v));
  }
  explicit List(std::vector<T> values) : List() {
    if constexpr (std::is_same<Stored, T>::value) {
      impl_->list = std::move(values);
    } else {
      impl_->list.reserve(values.size());
      for (T& v : values) impl_->list.push_back(IValue(std::move(v)));
    }
  }

  size_t size() const { return impl_->list.size(); }
  bool empty() const { return impl_->list.empty(); }
  T get(size_t pos) const { return detail::list_element_to<T, Stored>(impl_->list.at(pos)); }
  reference operator[](size_t pos) const { return reference(impl_->list.begin() + pos); }
  // Moves the element out, leaving a moved-from (for IValue: None) value in its place.
  T extract(size_t pos) const {
    Stored moved = std::move(impl_->list.at(pos));
    return detail::list_element_to<T, Stored>(moved);
  }
  void set(size_t pos, T value) const {
    impl_->list.at(pos) = detail::list_element_from<T, Stored>(std::move(value));
  }

  iterator begin() { return iterator(impl_->list.begin()); }
  iterator end() { return iterator(impl_->list.end()); }
  const_iterator begin() const { return const_begin(); }
  const_iterator end() const { return const_end(); }
  const_iterator cbegin() const { return const_begin(); }
  const_iterator cend() const { return const_end(); }

  void push_back(T value) const {
    impl_->list.push_back(detail::list_element_from<T, Stored>(std::move(value)));
  }
  template <class... Args>
  void emplace_back(Args&&... args) const {
    push_back(T(std::forward<Args>(args)...));
  }
  void append(List<T> other) const {
    impl_->list.insert(impl_->list.end(), other.impl_->list.begin(), other.impl_->list.end());
  }
  iterator insert(iterator pos, T value) const {
    return iterator(
        impl_->list.insert(pos.iterator_, detail::list_element_from<T, Stored>(std::move(value))));
  }
  iterator erase(iterator pos) const { return iterator(impl_->list.erase(pos.iterator_)); }
  iterator erase(iterator first, iterator last) const {
    return iterator(impl_->list.erase(first.iterator_, last.iterator_));
  }
  void pop_back() const { impl_->list.pop_back(); }
  void clear() const { impl_->list.clear(); }
  void resize(size_t count) const { impl_->list.resize(count, Stored{}); }
  void reserve(size_t capacity) const { impl_->list.reserve(capacity); }

  // An independent list with the same elements (tensors and other objects are shared).
  List copy() const { return List(make_intrusive<Impl>(impl_->list, impl_->elementType)); }
  std::vector<T> vec() const {
    if constexpr (std::is_same<Stored, T>::value) {
      return impl_->list;
    } else {
      std::vector<T> result;
      result.reserve(size());
      for (const IValue& v : impl_->list) result.push_back(v.to<T>());
      return result;
    }
  }
  // The number of Lists and IValues that refer to this list.
  size_t use_count() const { return impl_.use_count(); }
  bool is(const List& rhs) const { return impl_ == rhs.impl_; }
  TypePtr elementType() const { return impl_->elementType; }

 private:
  friend class IValue;
  template <class U>
  friend class List;
  explicit List(intrusive_ptr<Impl> impl) : impl_(std::move(impl)) {}

  // A GenericList records what it holds; the unboxed kinds have it in their tag.
  static TypePtr element_type() {
    if constexpr (std::is_same<Stored, T>::value) {
      return nullptr;
    } else {
      return detail::schema_type_of<T>();
    }
  }
  const_iterator const_begin() const {
    if constexpr (std::is_same<Stored, T>::value) {
      return impl_->list.cbegin();
    } else {
      return iterator(impl_->list.begin());
    }
  }
  const_iterator const_end() const {
    if constexpr (std::is_same<Stored, T>::value) {
      return impl_->list.cend();
    } else {
      return iterator(impl_->list.end());
    }
  }

  intrusive_ptr<Impl> impl_;
};

// Element by element (identity first for non-numbers), as libtorch compares lists.
template <class T>
bool operator==(const List<T>& lhs, const List<T>& rhs) {
  if (lhs.is(rhs)) return true;
  if (lhs.size() != rhs.size()) return false;
  for (size_t i = 0; i < lhs.size(); ++i) {
    if (!detail::list_elements_equal(
            detail::list_element_from<T, detail::list_storage_t<T>>(lhs.get(i)),
            detail::list_element_from<T, detail::list_storage_t<T>>(rhs.get(i)))) {
      return false;
    }
  }
  return true;
}
template <class T>
bool operator!=(const List<T>& lhs, const List<T>& rhs) {
  return !(lhs == rhs);
}

namespace impl {
using GenericList = List<IValue>;
}  // namespace impl

// ---- IValue's list members --------------------------------------------------------------

template <class T>
IValue::IValue(c10::List<T> list)
    : IValue(detail::list_tag_of<detail::list_storage_t<T>>(), std::move(list.impl_)) {}

template <class T, std::enable_if_t<!detail::has_unboxed_list<T>::value, int>>
IValue::IValue(const std::vector<T>& v) : IValue(c10::List<T>(v)) {}

template <class T>
c10::List<T> IValue::list_of(Tag expected) const& {
  if (tag_ != expected) report_type_error(tag_name(expected));
  return c10::List<T>(toIntrusivePtr<detail::ListImpl<detail::list_storage_t<T>>>());
}
template <class T>
c10::List<T> IValue::list_of(Tag expected) && {
  if (tag_ != expected) report_type_error(tag_name(expected));
  return c10::List<T>(moveToIntrusivePtr<detail::ListImpl<detail::list_storage_t<T>>>());
}

inline c10::List<int64_t> IValue::toIntList() const& {
  return list_of<int64_t>(Tag::IntList);
}
inline c10::List<int64_t> IValue::toIntList() && {
  return std::move(*this).list_of<int64_t>(Tag::IntList);
}
inline c10::List<double> IValue::toDoubleList() const& {
  return list_of<double>(Tag::DoubleList);
}
inline c10::List<double> IValue::toDoubleList() && {
  return std::move(*this).list_of<double>(Tag::DoubleList);
}
inline c10::List<bool> IValue::toBoolList() const& {
  return list_of<bool>(Tag::BoolList);
}
inline c10::List<bool> IValue::toBoolList() && {
  return std::move(*this).list_of<bool>(Tag::BoolList);
}
inline c10::List<c10::complex<double>> IValue::toComplexDoubleList() const& {
  return list_of<c10::complex<double>>(Tag::ComplexDoubleList);
}
inline c10::List<c10::complex<double>> IValue::toComplexDoubleList() && {
  return std::move(*this).list_of<c10::complex<double>>(Tag::ComplexDoubleList);
}
inline c10::List<IValue> IValue::toList() const& {
  return list_of<IValue>(Tag::GenericList);
}
inline c10::List<IValue> IValue::toList() && {
  return std::move(*this).list_of<IValue>(Tag::GenericList);
}
inline c10::ArrayRef<IValue> IValue::toListRef() const {
  return list_ref<IValue>(Tag::GenericList);
}

}  // namespace c10
