#pragma once
// Schema inference: the schema types a C++ kernel signature corresponds to, so that
//   * m.def("name", fn) can define an operator from a function alone ("(Tensor _0, int _1)
//     -> Tensor _0", as libtorch infers it), and
//   * registering a kernel, or calling typed<Sig>(), whose C++ types disagree with the
//     operator's schema is a clear error instead of a crash.

#include <array>
#include <string>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "aten/core/Tensor.h"
#include "c10/core/Scalar.h"
#include "c10/util/string_view.h"
#include "dispatcher/CustomClass.h"
#include "dispatcher/Dict.h"
#include "dispatcher/List.h"
#include "dispatcher/impl/FunctionTraits.h"

namespace c10 {

class FunctionSchema;

namespace infer_schema {

template <class T>
struct always_false : std::false_type {};

// The schema type a C++ argument or return type stands for ("Tensor", "int[]", "float?", ...).
template <class T, class Enable = void>
struct type_str {
  static_assert(always_false<T>::value,
                "This C++ type cannot appear in an operator signature (no schema type for it).");
};
#define MINIATEN_SCHEMA_TYPE(cpp, text)     \
  template <>                               \
  struct type_str<cpp> {                    \
    static std::string call() { return text; } \
  }
MINIATEN_SCHEMA_TYPE(at::Tensor, "Tensor");
MINIATEN_SCHEMA_TYPE(int64_t, "int");
MINIATEN_SCHEMA_TYPE(double, "float");
MINIATEN_SCHEMA_TYPE(bool, "bool");
MINIATEN_SCHEMA_TYPE(c10::string_view, "str");
MINIATEN_SCHEMA_TYPE(std::string, "str");
MINIATEN_SCHEMA_TYPE(c10::Scalar, "Scalar");
MINIATEN_SCHEMA_TYPE(c10::ScalarType, "ScalarType");
MINIATEN_SCHEMA_TYPE(c10::Layout, "Layout");
MINIATEN_SCHEMA_TYPE(c10::MemoryFormat, "MemoryFormat");
MINIATEN_SCHEMA_TYPE(c10::Device, "Device");
MINIATEN_SCHEMA_TYPE(at::Generator, "Generator");
MINIATEN_SCHEMA_TYPE(c10::OptionalIntArrayRef, "int[]?");
#undef MINIATEN_SCHEMA_TYPE
template <class T>
struct type_str<c10::optional<T>> {
  static std::string call() { return type_str<T>::call() + "?"; }
};
// Lists, whatever C++ holds them. A fixed size is no part of the type: std::array<bool, 3>
// infers bool[], and takes a bool[3] argument (libtorch infers and compares alike).
template <class T>
struct type_str<std::vector<T>> {
  static std::string call() { return type_str<T>::call() + "[]"; }
};
template <class T>
struct type_str<c10::ArrayRef<T>> {
  static std::string call() { return type_str<T>::call() + "[]"; }
};
template <class T>
struct type_str<c10::List<T>> {
  static std::string call() { return type_str<T>::call() + "[]"; }
};
template <class T, size_t N>
struct type_str<std::array<T, N>> {
  static std::string call() { return type_str<T>::call() + "[]"; }
};
// Dicts, and the deprecated std::unordered_map that stands for one: "Dict(str, Tensor)".
template <class K, class V>
struct type_str<c10::Dict<K, V>> {
  static std::string call() { return "Dict(" + type_str<K>::call() + ", " + type_str<V>::call() + ")"; }
};
template <class K, class V>
struct type_str<std::unordered_map<K, V>> {
  static std::string call() { return type_str<c10::Dict<K, V>>::call(); }
};
// A custom class (torch::class_): the name it was bound under,
// "__torch__.torch.classes.ns.Name".
template <class T>
struct type_str<c10::intrusive_ptr<T>,
                std::enable_if_t<std::is_base_of<torch::CustomClassHolder, T>::value>> {
  static std::string call() { return c10::customClassName(typeid(c10::intrusive_ptr<T>)); }
};
// Other integer types spell int as libtorch's inference does.
template <class T>
struct type_str<T, std::enable_if_t<std::is_integral<T>::value && !std::is_same<T, bool>::value &&
                                    !std::is_same<T, int64_t>::value>> {
  static std::string call() { return "int"; }
};

template <class... T>
std::vector<std::string> types_of(guts::typelist<T...>*) {
  return {type_str<std::decay_t<T>>::call()...};
}

template <class R>
struct return_types {
  static std::vector<std::string> call() { return {type_str<std::decay_t<R>>::call()}; }
};
template <>
struct return_types<void> {
  static std::vector<std::string> call() { return {}; }
};
template <class... T>
struct return_types<std::tuple<T...>> {
  static std::vector<std::string> call() { return {type_str<std::decay_t<T>>::call()...}; }
};

}  // namespace infer_schema

// The argument and return types of a C++ signature, as schema types.
struct C10_API InferredSignature {
  std::vector<std::string> arguments;
  std::vector<std::string> returns;

  // "(Tensor _0, int _1) -> Tensor _0", libtorch's spelling of an inferred schema.
  std::string str() const;
  // The text a schema for `name` would have: "ns::name(Tensor _0) -> Tensor _0".
  std::string schema_text(const std::string& name) const;
  // Empty when `schema` can be called with these types, else libtorch's reason
  // ("The number of arguments is different. 3 vs 1.", "Type mismatch in argument 2: ...").
  std::string mismatch_reason(const FunctionSchema& schema) const;

  template <class FuncType>
  static InferredSignature make() {
    using Stripped = typename guts::remove_DispatchKeySet_arg_from_func<
        typename guts::infer_function_traits_t<FuncType>::func_type>::func_type;
    using traits = guts::infer_function_traits_t<Stripped>;
    InferredSignature sig;
    sig.arguments = infer_schema::types_of(
        static_cast<typename traits::parameter_types*>(nullptr));
    sig.returns = infer_schema::return_types<std::decay_t<typename traits::return_type>>::call();
    return sig;
  }
};

}  // namespace c10
