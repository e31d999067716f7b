#pragma once
// CppSignature: the C++ function type a kernel was registered with, or a typed call was made
// with (without a leading DispatchKeySet). Two must be identical for an unboxed call to be safe.

#include <string>
#include <typeindex>

#include "dispatcher/impl/FunctionTraits.h"

namespace c10 {
namespace impl {

class C10_API CppSignature final {
 public:
  template <class FuncType>
  static CppSignature make() {
    using Stripped = typename guts::remove_DispatchKeySet_arg_from_func<
        typename guts::infer_function_traits_t<FuncType>::func_type>::func_type;
    return CppSignature(std::type_index(typeid(Stripped)));
  }

  // The demangled function type, e.g. "at::Tensor (at::Tensor const&, long)".
  std::string name() const;

  friend bool operator==(const CppSignature& a, const CppSignature& b) {
    return a.signature_ == b.signature_;
  }
  friend bool operator!=(const CppSignature& a, const CppSignature& b) { return !(a == b); }

 private:
  explicit CppSignature(std::type_index signature) : signature_(signature) {}
  std::type_index signature_;
};

}  // namespace impl
}  // namespace c10
