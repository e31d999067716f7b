#pragma once
// c10::Dict<Key, Value>: libtorch's dict, insertion-ordered and shared by reference like
// c10::List. Every Dict stores IValues (a GenericDict); Dict<K, V> is a typed view of one.
//
//   c10::Dict<std::string, int64_t> d;
//   d.insert("one", 1);                       // {one: 1}; insert never overwrites
//   d.insert_or_assign("one", 2);
//   d.at("one");                              // 2; a missing key throws
//   for (const auto& e : d) e.key(), e.value();   // in insertion order
//   c10::IValue v(d);  v.toGenericDict();     // the same dict, as Dict<IValue, IValue>
//
// Keys hash as libtorch hashes them (detail::DictKeyHash): ints, strings, doubles, complex
// numbers, bools and devices by value, tensors by identity; anything else cannot be a key.

#include <list>
#include <unordered_map>
#include <utility>

#include "dispatcher/IValue.h"

namespace c10 {

namespace detail {

struct C10_API DictKeyHash {
  size_t operator()(const IValue& key) const;
};
// Tensors by identity; other keys by identity first, then value.
struct C10_API DictKeyEqualTo {
  bool operator()(const IValue& lhs, const IValue& rhs) const;
};

struct C10_API DictImpl final : intrusive_ptr_target {
  // Entries in insertion order; the index finds a key's entry.
  using Entries = std::list<std::pair<IValue, IValue>>;
  using Index = std::unordered_map<IValue, Entries::iterator, DictKeyHash, DictKeyEqualTo>;

  DictImpl(TypePtr key_type, TypePtr value_type)
      : keyType(std::move(key_type)), valueType(std::move(value_type)) {}

  Entries::iterator find(const IValue& key) {
    auto it = index.find(key);
    return it == index.end() ? entries.end() : it->second;
  }
  // Returns the entry for key and whether it is new; an existing entry is left as it was.
  std::pair<Entries::iterator, bool> insert(IValue key, IValue value) {
    auto it = index.find(key);
    if (it != index.end()) return {it->second, false};
    entries.emplace_back(std::move(key), std::move(value));
    auto entry = std::prev(entries.end());
    index.emplace(entry->first, entry);
    return {entry, true};
  }
  void erase(Entries::iterator entry) {
    index.erase(entry->first);
    entries.erase(entry);
  }
  intrusive_ptr<DictImpl> copy() const {
    auto result = make_intrusive<DictImpl>(keyType, valueType);
    for (const auto& e : entries) result->insert(e.first, e.second);
    return result;
  }

  Entries entries;
  Index index;
  TypePtr keyType;
  TypePtr valueType;
};

// Same key and value types, same keys, values equal ([container equality]); order is ignored.
C10_API bool operator==(const DictImpl& lhs, const DictImpl& rhs);

}  // namespace detail

// One entry of a dict, as its iterator hands it out.
template <class Key, class Value>
class DictEntryRef final {
  using Entry = detail::DictImpl::Entries::iterator;

 public:
  explicit DictEntryRef(Entry entry) : entry_(entry) {}
  Key key() const { return entry_->first.template to<Key>(); }
  Value value() const { return entry_->second.template to<Value>(); }
  template <class V>
  void setValue(V&& value) const {
    entry_->second = IValue(std::forward<V>(value));
  }

 private:
  Entry entry_;
};

template <class Key, class Value>
class DictIterator final {
  using Entry = detail::DictImpl::Entries::iterator;

 public:
  using iterator_category = std::bidirectional_iterator_tag;
  using value_type = DictEntryRef<Key, Value>;
  using difference_type = std::ptrdiff_t;
  using reference = const value_type&;
  using pointer = const value_type*;

  explicit DictIterator(Entry entry) : entry_(entry), ref_(entry) {}
  reference operator*() const {
    ref_ = value_type(entry_);
    return ref_;
  }
  pointer operator->() const { return &**this; }
  DictIterator& operator++() {
    ++entry_;
    return *this;
  }
  DictIterator operator++(int) {
    DictIterator copy = *this;
    ++*this;
    return copy;
  }
  friend bool operator==(const DictIterator& a, const DictIterator& b) {
    return a.entry_ == b.entry_;
  }
  friend bool operator!=(const DictIterator& a, const DictIterator& b) { return !(a == b); }

 private:
  template <class, class>
  friend class Dict;
  Entry entry_;
  mutable value_type ref_;
};

namespace impl {
using GenericDict = Dict<IValue, IValue>;
// The typed view of a generic dict (the same dict); its key and value types must match.
template <class Key, class Value>
Dict<Key, Value> toTypedDict(GenericDict dict);
// The generic view of a typed dict (the same dict).
template <class Key, class Value>
GenericDict toGenericDict(Dict<Key, Value> dict);
}  // namespace impl

template <class Key, class Value>
class Dict final {
 public:
  using key_type = Key;
  using mapped_type = Value;
  using size_type = size_t;
  using iterator = DictIterator<Key, Value>;

  Dict()
      : impl_(make_intrusive<detail::DictImpl>(detail::schema_type_of<Key>(),
                                               detail::schema_type_of<Value>())) {}
  // A GenericDict of the given key and value types.
  Dict(TypePtr key_type, TypePtr value_type)
      : impl_(make_intrusive<detail::DictImpl>(std::move(key_type), std::move(value_type))) {}

  iterator begin() const { return iterator(impl_->entries.begin()); }
  iterator end() const { return iterator(impl_->entries.end()); }
  bool empty() const { return impl_->entries.empty(); }
  size_t size() const { return impl_->entries.size(); }
  void clear() const {
    impl_->entries.clear();
    impl_->index.clear();
  }
  void reserve(size_t count) const { impl_->index.reserve(count); }

  // Adds key -> value unless key is there; returns its entry and whether it was added.
  template <class K, class V>
  std::pair<iterator, bool> insert(K&& key, V&& value) const {
    auto result =
        impl_->insert(IValue(Key(std::forward<K>(key))), IValue(Value(std::forward<V>(value))));
    return {iterator(result.first), result.second};
  }
  template <class K, class V>
  std::pair<iterator, bool> insert_or_assign(K&& key, V&& value) const {
    IValue v(Value(std::forward<V>(value)));
    auto result = impl_->insert(IValue(Key(std::forward<K>(key))), v);
    if (!result.second) result.first->second = std::move(v);
    return {iterator(result.first), result.second};
  }
  void erase(iterator it) const { impl_->erase(it.entry_); }
  size_t erase(const Key& key) const {
    auto entry = impl_->find(IValue(key));
    if (entry == impl_->entries.end()) return 0;
    impl_->erase(entry);
    return 1;
  }

  Value at(const Key& key) const {
    auto entry = impl_->find(IValue(key));
    TORCH_CHECK(entry != impl_->entries.end(), "Argument passed to at() was not in the map.");
    return entry->second.template to<Value>();
  }
  iterator find(const Key& key) const { return iterator(impl_->find(IValue(key))); }
  bool contains(const Key& key) const { return impl_->find(IValue(key)) != impl_->entries.end(); }

  // An independent dict with the same entries (tensors and other objects are shared).
  Dict copy() const { return Dict(impl_->copy()); }
  bool is(const Dict& rhs) const { return impl_ == rhs.impl_; }
  size_t use_count() const { return impl_.use_count(); }
  TypePtr keyType() const { return impl_->keyType; }
  TypePtr valueType() const { return impl_->valueType; }

  template <class K, class V>
  friend bool operator==(const Dict<K, V>& lhs, const Dict<K, V>& rhs);
  template <class K, class V>
  friend class Dict;
  template <class K, class V>
  friend Dict<K, V> impl::toTypedDict(Dict<IValue, IValue> dict);
  template <class K, class V>
  friend Dict<IValue, IValue> impl::toGenericDict(Dict<K, V> dict);

 private:
  friend class IValue;
  explicit Dict(intrusive_ptr<detail::DictImpl> impl) : impl_(std::move(impl)) {}
  intrusive_ptr<detail::DictImpl> impl_;
};

template <class K, class V>
bool operator==(const Dict<K, V>& lhs, const Dict<K, V>& rhs) {
  return lhs.is(rhs) || *lhs.impl_ == *rhs.impl_;
}
template <class K, class V>
bool operator!=(const Dict<K, V>& lhs, const Dict<K, V>& rhs) {
  return !(lhs == rhs);
}

template <class Key, class Value>
Dict<Key, Value> impl::toTypedDict(GenericDict dict) {
  const auto matches = [](const TypePtr& stored, const TypePtr& wanted) {
    return !stored || stored->kind() == TypeKind::Any || wanted->kind() == TypeKind::Any ||
           *stored == *wanted;
  };
  TORCH_CHECK(matches(dict.keyType(), detail::schema_type_of<Key>()) &&
                  matches(dict.valueType(), detail::schema_type_of<Value>()),
              "Tried to cast a Dict<", dict.keyType()->str(), ", ", dict.valueType()->str(),
              "> to a Dict<", detail::schema_type_of<Key>()->str(), ", ",
              detail::schema_type_of<Value>()->str(), ">. Key or value types mismatch.");
  return Dict<Key, Value>(std::move(dict.impl_));
}

template <class Key, class Value>
impl::GenericDict impl::toGenericDict(Dict<Key, Value> dict) {
  return GenericDict(std::move(dict.impl_));
}

// ---- IValue's dict members --------------------------------------------------------------

template <class Key, class Value>
IValue::IValue(c10::Dict<Key, Value> dict) : IValue(Tag::GenericDict, std::move(dict.impl_)) {}

template <class Key, class Value>
IValue::IValue(const std::unordered_map<Key, Value>& map)
    : IValue([&map] {
        c10::Dict<Key, Value> dict;
        dict.reserve(map.size());
        for (const auto& entry : map) dict.insert(entry.first, entry.second);
        return dict;
      }()) {}

inline c10::Dict<IValue, IValue> IValue::toGenericDict() const& {
  if (!isGenericDict()) report_type_error("GenericDict");
  return c10::Dict<IValue, IValue>(toIntrusivePtr<detail::DictImpl>());
}
inline c10::Dict<IValue, IValue> IValue::toGenericDict() && {
  if (!isGenericDict()) report_type_error("GenericDict");
  return c10::Dict<IValue, IValue>(moveToIntrusivePtr<detail::DictImpl>());
}

}  // namespace c10
