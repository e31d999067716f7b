#pragma once
// The heap objects an IValue points to that have no header of their own: strings, complex
// numbers, and the storage of lists (with the traits saying which lists are kept unboxed).
// See Note [IValue layout] in dispatcher/IValue.h.

#include <string>
#include <type_traits>
#include <vector>

#include "aten/core/Tensor.h"
#include "c10/util/Optional.h"
#include "c10/util/complex.h"
#include "c10/util/intrusive_ptr.h"
#include "c10/util/string_view.h"
#include "dispatcher/SchemaType.h"

namespace c10 {

class IValue;

namespace ivalue {

// A string, immutable once built (IValue holds its strings by pointer to one of these).
struct C10_API ConstantString final : intrusive_ptr_target {
  explicit ConstantString(std::string str) : str_(std::move(str)) {}
  static intrusive_ptr<ConstantString> create(std::string str) {
    return make_intrusive<ConstantString>(std::move(str));
  }
  const std::string& string() const { return str_; }
  c10::string_view string_view() const { return str_; }
  operator const std::string&() const { return string(); }  // NOLINT

 private:
  const std::string str_;
};

// libtorch keeps complex numbers on the heap too: the payload has only 8 bytes.
struct ComplexHolder final : intrusive_ptr_target {
  explicit ComplexHolder(c10::complex<double> v) : val(v) {}
  c10::complex<double> val;
};
}  // namespace ivalue

namespace detail {
// The element types whose lists IValue keeps unboxed, each with its own tag.
template <class T>
struct has_unboxed_list : std::false_type {};
template <>
struct has_unboxed_list<int64_t> : std::true_type {};
template <>
struct has_unboxed_list<double> : std::true_type {};
template <>
struct has_unboxed_list<bool> : std::true_type {};
template <>
struct has_unboxed_list<c10::complex<double>> : std::true_type {};
template <>
struct has_unboxed_list<at::Tensor> : std::true_type {};
template <>
struct has_unboxed_list<c10::optional<at::Tensor>> : std::true_type {};

struct DictImpl;  // dispatcher/Dict.h

// How List<T> stores its elements: as T for the unboxed kinds, else as IValues.
template <class T>
using list_storage_t = std::conditional_t<has_unboxed_list<T>::value, T, IValue>;

// The storage of one list: a std::vector of T, shared by every IValue and c10::List that refers
// to it. T is the element type for the unboxed kinds and IValue for GenericList.
template <class T>
struct ListImpl final : intrusive_ptr_target {
  explicit ListImpl(std::vector<T> v, TypePtr element_type = nullptr)
      : list(std::move(v)), elementType(std::move(element_type)) {}
  std::vector<T> list;
  // What a GenericList holds ("str", "int[]"); null when not known (then "Any").
  TypePtr elementType;
};
}  // namespace detail

}  // namespace c10
