#pragma once
// torch::class_: binds a C++ class to a TorchScript custom class, as libtorch's
// torch/custom_class.h does, so that IValues can hold it, schemas can name it and operators can
// take and return it.
//
//   struct Counter : torch::CustomClassHolder {
//     explicit Counter(int64_t start) : n(start) {}
//     int64_t next() { return n++; }
//     int64_t n;
//   };
//   TORCH_LIBRARY(demo, m) {
//     m.class_<Counter>("Counter")                 // __torch__.torch.classes.demo.Counter
//         .def(torch::init<int64_t>())             // the __init__ method
//         .def("next", &Counter::next);            // or a lambda taking intrusive_ptr<Counter>
//     m.def("bump(__torch__.torch.classes.demo.Counter c) -> int", ...);
//   }
//   c10::IValue v = c10::make_intrusive<Counter>(5);            // an Object holding the pointer
//   v.toCustomClass<Counter>()->next();                          // 5
//   c10::getCustomClassType<c10::intrusive_ptr<Counter>>()->getMethod("next")({v});  // 6
//
// Methods are boxed C++ functions on the class type (ClassType::getMethod); there is no
// TorchScript to call them from, and no pickling (def_pickle) or static methods yet.

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "c10/util/Exception.h"
#include "dispatcher/CustomClass.h"
#include "dispatcher/CustomClassHolder.h"
#include "dispatcher/IValue.h"
#include "dispatcher/JitType.h"
#include "dispatcher/Library.h"
#include "dispatcher/Stack.h"
#include "dispatcher/impl/Boxing.h"

namespace torch {
namespace detail {

template <class R, class... Args>
struct types {
  using type = types;
};

// "Namespace name"/"Class name" must be an identifier, as libtorch requires.
TORCH_API void checkValidIdent(const std::string& str, const char* type);

// A callable's boxed form: takes its arguments off the stack and pushes its return.
template <class Func>
std::function<void(std::vector<c10::IValue>&)> boxMethod(Func func) {
  return [func = std::move(func)](std::vector<c10::IValue>& stack) mutable {
    c10::impl::make_boxed_from_unboxed_functor<Func>::call_on_stack(&func, c10::DispatchKeySet(),
                                                                    &stack);
  };
}

// A member function pointer as a callable taking `self` first.
template <class CurClass, class Func>
struct MethodOf {
  static Func wrap(Func f) { return f; }  // already a callable
};
template <class CurClass, class R, class... Args>
struct MethodOf<CurClass, R (CurClass::*)(Args...)> {
  static auto wrap(R (CurClass::*m)(Args...)) {
    return [m](const c10::intrusive_ptr<CurClass>& self, Args... args) -> R {
      return ((*self).*m)(std::forward<Args>(args)...);
    };
  }
};
template <class CurClass, class R, class... Args>
struct MethodOf<CurClass, R (CurClass::*)(Args...) const> {
  static auto wrap(R (CurClass::*m)(Args...) const) {
    return [m](const c10::intrusive_ptr<CurClass>& self, Args... args) -> R {
      return ((*self).*m)(std::forward<Args>(args)...);
    };
  }
};

}  // namespace detail

// The constructor argument types for class_::def: .def(torch::init<int64_t, std::string>()).
template <class... Types>
detail::types<void, Types...> init() {
  return detail::types<void, Types...>{};
}

template <class CurClass>
class class_ final {
  static_assert(std::is_base_of<CustomClassHolder, CurClass>::value,
                "torch::class_<T> requires T to inherit from CustomClassHolder");

 public:
  // Registers __torch__.torch.classes.<namespaceName>.<className> for CurClass.
  explicit class_(const std::string& namespaceName, const std::string& className,
                  std::string doc_string = "")
      : class_type_(register_type(namespaceName, className)), doc_string_(std::move(doc_string)) {}

  // The constructor: an __init__ method making CurClass(args...) into `self`'s capsule.
  template <class... Types>
  class_& def(detail::types<void, Types...>, std::string doc_string = "") {
    (void)doc_string;
    auto init = [](c10::IValue self, Types... args) {
      self.toObject()->setSlot(
          0, c10::IValue::make_capsule(c10::make_intrusive<CurClass>(std::move(args)...)));
    };
    return add_method("__init__", detail::boxMethod(std::move(init)));
  }

  // A method: a member function of CurClass, or a callable taking
  // (const c10::intrusive_ptr<CurClass>& self, args...).
  template <class Func>
  class_& def(std::string name, Func f, std::string doc_string = "") {
    (void)doc_string;
    return add_method(std::move(name),
                      detail::boxMethod(detail::MethodOf<CurClass, Func>::wrap(std::move(f))));
  }

  const c10::ClassTypePtr& classType() const { return class_type_; }

 private:
  static c10::ClassTypePtr register_type(const std::string& ns, const std::string& name) {
    detail::checkValidIdent(ns, "Namespace name");
    detail::checkValidIdent(name, "Class name");
    return c10::registerCustomClassType("__torch__.torch.classes." + ns + "." + name,
                                        typeid(c10::intrusive_ptr<CurClass>));
  }
  class_& add_method(std::string name, std::function<void(std::vector<c10::IValue>&)> body) {
    class_type_->addMethod(std::make_shared<jit::Function>(std::move(name), std::move(body)));
    return *this;
  }

  c10::ClassTypePtr class_type_;
  std::string doc_string_;
};

template <class CurClass>
inline class_<CurClass> Library::class_(const std::string& className) {
  return torch::class_<CurClass>(classNamespace(className), className);
}

}  // namespace torch
