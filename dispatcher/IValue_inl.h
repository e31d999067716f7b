#pragma once
// The rest of IValue, included at the end of dispatcher/IValue.h (libtorch's ivalue_inl.h):
// the container headers, and IValue::to<T>() for every C++ type an IValue converts to.
//
// Include order: the container headers each include IValue.h first, which includes this file;
// whichever of them a translation unit names first, the others follow from here. What they use
// of one another is templated (instantiated only after all are defined), and what this file
// defines before its #includes (the type and tag traits) is visible to all of them.

#include <array>
#include <string>
#include <tuple>
#include <unordered_map>
#include <type_traits>
#include <vector>

#include "dispatcher/CustomClassHolder.h"

namespace c10 {
namespace detail {

template <class T>
struct is_std_vector : std::false_type {};
template <class T>
struct is_std_vector<std::vector<T>> : std::true_type {};
template <class T>
struct is_c10_list : std::false_type {};
template <class T>
struct is_c10_list<c10::List<T>> : std::true_type {};
template <class T>
struct is_c10_dict : std::false_type {};
template <class K, class V>
struct is_c10_dict<c10::Dict<K, V>> : std::true_type {};
template <class T>
struct is_std_tuple : std::false_type {};
template <class... T>
struct is_std_tuple<std::tuple<T...>> : std::true_type {};
template <class T>
struct is_c10_optional : std::false_type {};
template <class T>
struct is_c10_optional<c10::optional<T>> : std::true_type {};
template <class T>
struct is_std_array : std::false_type {};
template <class T, size_t N>
struct is_std_array<std::array<T, N>> : std::true_type {};
template <class T>
struct is_std_unordered_map : std::false_type {};
template <class K, class V>
struct is_std_unordered_map<std::unordered_map<K, V>> : std::true_type {};
template <class T>
struct always_false : std::false_type {};
template <class T>
struct is_custom_class_ptr : std::false_type {};
template <class T>
struct is_custom_class_ptr<c10::intrusive_ptr<T>> : std::is_base_of<torch::CustomClassHolder, T> {};

// Custom class objects (dispatcher/CustomClass.cpp, Note [Custom class objects]).
C10_API IValue make_custom_class_object(const std::type_info& cpp_type,
                                        c10::intrusive_ptr<torch::CustomClassHolder> holder);
C10_API c10::intrusive_ptr<torch::CustomClassHolder> custom_class_holder(
    const IValue& v, const std::type_info& cpp_type);

// The schema type of a C++ type, as far as the containers record it ("Any" when unknown).
template <class T>
TypePtr schema_type_of() {
  if constexpr (std::is_same<T, int64_t>::value) {
    return SchemaType::get(TypeKind::Int);
  } else if constexpr (std::is_same<T, double>::value) {
    return SchemaType::get(TypeKind::Float);
  } else if constexpr (std::is_same<T, bool>::value) {
    return SchemaType::get(TypeKind::Bool);
  } else if constexpr (std::is_same<T, c10::complex<double>>::value) {
    return SchemaType::get(TypeKind::Complex);
  } else if constexpr (std::is_same<T, std::string>::value ||
                       std::is_same<T, c10::string_view>::value) {
    return SchemaType::get(TypeKind::Str);
  } else if constexpr (std::is_same<T, at::Tensor>::value) {
    return SchemaType::get(TypeKind::Tensor);
  } else if constexpr (std::is_same<T, c10::Device>::value) {
    return SchemaType::get(TypeKind::Device);
  } else if constexpr (is_c10_optional<T>::value) {
    return SchemaType::optional(schema_type_of<typename T::value_type>());
  } else if constexpr (is_c10_list<T>::value || is_std_vector<T>::value) {
    return SchemaType::list(schema_type_of<typename T::value_type>());
  } else if constexpr (is_c10_dict<T>::value) {
    return SchemaType::dict(schema_type_of<typename T::key_type>(),
                            schema_type_of<typename T::mapped_type>());
  } else {
    return SchemaType::get(TypeKind::Any);
  }
}

// The tag of a list whose elements are stored as Stored.
template <class Stored>
constexpr IValue::Tag list_tag_of() {
  if constexpr (std::is_same<Stored, int64_t>::value) {
    return IValue::Tag::IntList;
  } else if constexpr (std::is_same<Stored, double>::value) {
    return IValue::Tag::DoubleList;
  } else if constexpr (std::is_same<Stored, bool>::value) {
    return IValue::Tag::BoolList;
  } else if constexpr (std::is_same<Stored, c10::complex<double>>::value) {
    return IValue::Tag::ComplexDoubleList;
  } else if constexpr (std::is_same<Stored, at::Tensor>::value) {
    return IValue::Tag::TensorList;
  } else if constexpr (std::is_same<Stored, c10::optional<at::Tensor>>::value) {
    return IValue::Tag::OptionalTensorList;
  } else {
    return IValue::Tag::GenericList;
  }
}

}  // namespace detail
}  // namespace c10

#include "dispatcher/Blob.h"
#include "dispatcher/Dict.h"
#include "dispatcher/Future.h"
#include "dispatcher/JitType.h"
#include "dispatcher/List.h"
#include "dispatcher/Object.h"
#include "dispatcher/Tuple.h"
#include "dispatcher/WeakIValue.h"

namespace c10 {

inline IValue::IValue(at::Generator g) : IValue(Tag::Generator, g.getIntrusivePtr().get()) {}
inline at::Generator IValue::toGenerator() const {
  if (!isGenerator()) report_type_error("Generator");
  return at::Generator(toIntrusivePtr<c10::GeneratorImpl>());
}

inline IValue::IValue(c10::intrusive_ptr<caffe2::Blob> b) : IValue(Tag::Blob, std::move(b)) {}
inline c10::intrusive_ptr<caffe2::Blob> IValue::toBlob() const {
  if (!isBlob()) report_type_error("Blob");
  return toIntrusivePtr<caffe2::Blob>();
}

template <class T, std::enable_if_t<std::is_base_of<torch::CustomClassHolder, T>::value, int>>
IValue::IValue(c10::intrusive_ptr<T> custom_class)
    : IValue(detail::make_custom_class_object(typeid(c10::intrusive_ptr<T>),
                                              std::move(custom_class))) {}
template <typename T>
c10::intrusive_ptr<T> IValue::toCustomClass() const {
  static_assert(std::is_base_of<torch::CustomClassHolder, T>::value,
                "toCustomClass<T>() needs a T derived from torch::CustomClassHolder");
  return c10::intrusive_ptr<T>::reclaim(
      static_cast<T*>(detail::custom_class_holder(*this, typeid(c10::intrusive_ptr<T>)).release()));
}

// `self` is `const IValue&` or `IValue&&` (an rvalue we may take from).
template <typename T, typename Self>
T IValue::to_impl(Self&& self) {
  constexpr bool kRvalue = !std::is_lvalue_reference<Self>::value;
  if constexpr (detail::is_c10_optional<T>::value) {
    if (self.isNone()) return c10::nullopt;
    return to_impl<typename T::value_type>(std::forward<Self>(self));
  } else if constexpr (std::is_same<T, IValue>::value) {
    return std::forward<Self>(self);
  } else if constexpr (std::is_same<T, at::Tensor>::value) {
    return std::forward<Self>(self).toTensor();
  } else if constexpr (std::is_same<T, bool>::value) {
    return self.toBool();
  } else if constexpr (std::is_integral<T>::value) {
    return static_cast<T>(self.toInt());
  } else if constexpr (std::is_same<T, double>::value) {
    return self.toDouble();
  } else if constexpr (std::is_same<T, c10::complex<double>>::value) {
    return self.toComplexDouble();
  } else if constexpr (std::is_same<T, std::string>::value) {
    return self.toStringRef();
  } else if constexpr (std::is_same<T, c10::string_view>::value) {
    static_assert(!kRvalue, "a string_view into a temporary IValue");
    return self.toStringView();
  } else if constexpr (std::is_same<T, Scalar>::value) {
    return self.toScalar();
  } else if constexpr (std::is_same<T, ScalarType>::value) {
    return self.toScalarType();
  } else if constexpr (std::is_same<T, Layout>::value) {
    return self.toLayout();
  } else if constexpr (std::is_same<T, MemoryFormat>::value) {
    return self.toMemoryFormat();
  } else if constexpr (std::is_same<T, Device>::value) {
    return self.toDevice();
  } else if constexpr (std::is_same<T, c10::Stream>::value) {
    return self.toStream();
  } else if constexpr (std::is_same<T, c10::Storage>::value) {
    return self.toStorage();
  } else if constexpr (detail::is_std_vector<T>::value) {
    using U = typename T::value_type;
    if constexpr (detail::has_unboxed_list<U>::value) {
      constexpr Tag tag = detail::list_tag_of<U>();
      if constexpr (kRvalue) {
        return self.template take_list<U>(tag);
      } else {
        return self.template list_ref<U>(tag);
      }
    } else {
      T result;
      for (const IValue& e : self.template list_ref<IValue>(Tag::GenericList)) {
        result.push_back(e.to<U>());
      }
      return result;
    }
  } else if constexpr (detail::is_std_array<T>::value) {
    using U = typename T::value_type;
    constexpr size_t N = std::tuple_size<T>::value;
    std::vector<U> list = to_impl<std::vector<U>>(std::forward<Self>(self));
    TORCH_CHECK(list.size() == N, "Tried to convert a List with ", list.size(),
                " elements to a fixed-size array of size ", N);
    T result{};
    for (size_t i = 0; i < N; ++i) result[i] = std::move(list[i]);
    return result;
  } else if constexpr (detail::is_c10_list<T>::value) {
    using U = typename T::value_type;
    return std::forward<Self>(self).template list_of<U>(
        detail::list_tag_of<detail::list_storage_t<U>>());
  } else if constexpr (detail::is_c10_dict<T>::value) {
    if (!self.isGenericDict()) self.report_type_error("GenericDict");
    return T(self.template toIntrusivePtr<detail::DictImpl>());
  } else if constexpr (detail::is_std_unordered_map<T>::value) {
    T result;
    for (const auto& entry : self.toGenericDict()) {
      result.emplace(entry.key().template to<typename T::key_type>(),
                     entry.value().template to<typename T::mapped_type>());
    }
    return result;
  } else if constexpr (detail::is_std_tuple<T>::value) {
    const auto& elements = self.toTupleRef().elements();
    TORCH_CHECK(elements.size() == std::tuple_size<T>::value, "Expected a tuple of ",
                std::tuple_size<T>::value, " elements but got ", elements.size());
    return tuple_from<T>(elements, std::make_index_sequence<std::tuple_size<T>::value>());
  } else if constexpr (std::is_same<T, intrusive_ptr<ivalue::Tuple>>::value) {
    return std::forward<Self>(self).toTuple();
  } else if constexpr (std::is_same<T, intrusive_ptr<ivalue::ConstantString>>::value) {
    return self.toString();
  } else if constexpr (std::is_same<T, intrusive_ptr<ivalue::Future>>::value) {
    return self.toFuture();
  } else if constexpr (std::is_same<T, intrusive_ptr<ivalue::Object>>::value) {
    return self.toObject();
  } else if constexpr (std::is_same<T, intrusive_ptr<ivalue::EnumHolder>>::value) {
    return self.toEnumHolder();
  } else if constexpr (std::is_same<T, intrusive_ptr<caffe2::Blob>>::value) {
    return self.toBlob();
  } else if constexpr (std::is_same<T, at::Generator>::value) {
    return self.toGenerator();
  } else if constexpr (detail::is_custom_class_ptr<T>::value) {
    return self.template toCustomClass<typename T::element_type>();
  } else {
    static_assert(detail::always_false<T>::value, "IValue::to<T>() does not support this T");
  }
}

template <class Tuple, class Elements, size_t... I>
Tuple IValue::tuple_from(const Elements& elements, std::index_sequence<I...>) {
  return Tuple(elements[I].template to<std::tuple_element_t<I, Tuple>>()...);
}

template <typename T>
T IValue::to() const& {
  return to_impl<T>(*this);
}
template <typename T>
T IValue::to() && {
  return to_impl<T>(std::move(*this));
}

}  // namespace c10
