#pragma once
// torch::Library: how operators and kernels are registered, as in libtorch.
//
//   TORCH_LIBRARY(myops, m) {                      // one per namespace: defines schemas
//     m.def("myadd(Tensor self, Tensor other) -> Tensor");
//     m.def("twice", [](const at::Tensor& t) { return t; });   // schema inferred from C++
//   }
//   TORCH_LIBRARY_IMPL(myops, CPU, m) {            // any number: kernels for one key
//     m.impl("myadd", TORCH_FN(myadd_cpu));
//   }
//   TORCH_LIBRARY_IMPL(_, PrivateUse1, m) {        // `_`: a fallback for every operator
//     m.fallback(torch::CppFunction::makeFromBoxedFunction<&my_boxed_fallback>());
//   }
//
// A Library can also be constructed directly (tests do); dropping it undoes everything it
// registered.

#include <memory>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "dispatcher/Dispatcher.h"
#include "dispatcher/SchemaParser.h"

namespace torch {

template <class CurClass>
class class_;

// A kernel with everything the dispatcher wants to know about it: the KernelFunction, its
// C++ signature and inferred schema (for unboxed kernels), an optional dispatch key, and a
// debug name for the trace and the table dumps.
class TORCH_API CppFunction final {
  template <class F>
  using is_plain_function = std::is_function<std::remove_pointer_t<std::decay_t<F>>>;

 public:
  // A function pointer.
  template <class Func, std::enable_if_t<std::is_function<Func>::value, int> = 0>
  explicit CppFunction(Func* f)
      : func_(c10::KernelFunction::makeFromUnboxedRuntimeFunction(f)),
        cpp_signature_(c10::impl::CppSignature::make<Func>()),
        schema_(std::make_unique<c10::InferredSignature>(c10::InferredSignature::make<Func>())) {}

  // TORCH_FN(f): called directly, named in the trace.
  template <class FuncPtr,
            std::enable_if_t<c10::is_compile_time_function_pointer<FuncPtr>::value, int> = 0>
  explicit CppFunction(FuncPtr f)
      : func_(c10::KernelFunction::makeFromUnboxedFunction(f)),
        cpp_signature_(c10::impl::CppSignature::make<typename FuncPtr::FuncType>()),
        schema_(std::make_unique<c10::InferredSignature>(
            c10::InferredSignature::make<typename FuncPtr::FuncType>())),
        debug_(f.name() ? f.name() : "") {}

  // A lambda or functor.
  template <class Lambda,
            std::enable_if_t<!std::is_same<std::decay_t<Lambda>, CppFunction>::value &&
                                 !c10::is_compile_time_function_pointer<std::decay_t<Lambda>>::value &&
                                 !is_plain_function<Lambda>::value &&
                                 std::is_class<std::decay_t<Lambda>>::value,
                             int> = 0>
  explicit CppFunction(Lambda&& f)
      : func_(c10::KernelFunction::makeFromUnboxedLambda(std::forward<Lambda>(f))),
        cpp_signature_(c10::impl::CppSignature::make<std::decay_t<Lambda>>()),
        schema_(std::make_unique<c10::InferredSignature>(
            c10::InferredSignature::make<std::decay_t<Lambda>>())) {}

  CppFunction(CppFunction&&) noexcept = default;
  CppFunction& operator=(CppFunction&&) = default;
  ~CppFunction();

  // "Skip this key": for fallbacks.
  static CppFunction makeFallthrough();
  // A boxed kernel: void(const OperatorHandle&, Stack*) or with a leading DispatchKeySet.
  template <c10::KernelFunction::BoxedKernelFunction* func>
  static CppFunction makeFromBoxedFunction() {
    return CppFunction(c10::KernelFunction::makeFromBoxedFunction<func>(), c10::nullopt, nullptr);
  }
  template <c10::KernelFunction::BoxedKernelFunction_withDispatchKeys* func>
  static CppFunction makeFromBoxedFunction() {
    return CppFunction(c10::KernelFunction::makeFromBoxedFunction<func>(), c10::nullopt, nullptr);
  }

  // Names the kernel in the trace and the table dumps.
  CppFunction&& debug(std::string d) && {
    debug_ = std::move(d);
    return std::move(*this);
  }

 private:
  friend class Library;
  template <class Func>
  friend CppFunction dispatch(c10::DispatchKey k, Func&& raw_f);

  CppFunction(c10::KernelFunction func, c10::optional<c10::impl::CppSignature> cpp_signature,
              std::unique_ptr<c10::InferredSignature> schema);

  c10::optional<c10::DispatchKey> dispatch_key_;
  c10::KernelFunction func_;
  c10::optional<c10::impl::CppSignature> cpp_signature_;
  std::unique_ptr<c10::InferredSignature> schema_;
  std::string debug_;
};

// A kernel for one dispatch key: m.impl("op", torch::dispatch(c10::DispatchKey::CPU, fn)).
// DispatchKey::CatchAll means no key: the kernel is CompositeImplicitAutograd.
template <class Func>
inline CppFunction dispatch(c10::DispatchKey k, Func&& raw_f) {
  CppFunction f(std::forward<Func>(raw_f));
  if (k == c10::DispatchKey::CatchAll) {
    f.dispatch_key_ = c10::nullopt;
  } else {
    f.dispatch_key_ = k;
  }
  return f;
}

// A schema for def(), with how alias analysis treats the operator (dispatcher/OperatorOptions.h):
//   m.def(torch::schema("def3(Tensor self) -> Tensor", c10::AliasAnalysisKind::PURE_FUNCTION));
// A schema given as text, here or straight to def(), is FROM_SCHEMA: its alias annotations
// (Tensor(a!), ...) are taken at their word. A FunctionSchema object keeps what it has.
inline c10::FunctionSchema schema(const char* str, c10::AliasAnalysisKind k) {
  c10::FunctionSchema s = torch::jit::parseSchema(str);
  s.setAliasAnalysis(k);
  return s;
}
inline c10::FunctionSchema schema(const char* s) {
  return schema(s, c10::AliasAnalysisKind::FROM_SCHEMA);
}
inline c10::FunctionSchema&& schema(c10::FunctionSchema&& s) { return std::move(s); }
template <class Func>
inline CppFunction dispatch(c10::DeviceType type, Func&& raw_f) {
  return dispatch(c10::backendDispatchKey(type), std::forward<Func>(raw_f));
}

class TORCH_API Library final {
 public:
  enum Kind {
    DEF,       // TORCH_LIBRARY: the one block that defines a namespace
    IMPL,      // TORCH_LIBRARY_IMPL: kernels (for one dispatch key, or any)
    FRAGMENT,  // TORCH_LIBRARY_FRAGMENT: more definitions for a namespace
  };

  Library(Kind kind, std::string ns, c10::optional<c10::DispatchKey> k, const char* file,
          uint32_t line);
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;
  Library(Library&&) = default;
  Library& operator=(Library&&) = default;
  ~Library();

  // def("name(Tensor self) -> Tensor"), def(torch::schema(...)) or def(c10::FunctionSchema).
  template <class Schema>
  Library& def(Schema&& raw_schema) & {
    return _def(std::string(std::forward<Schema>(raw_schema)));
  }
  Library& def(c10::FunctionSchema s) & { return _def(std::move(s)); }
  // def("name", fn) infers the schema from fn; def("name(...) -> ...", fn) checks it.
  template <class NameOrSchema, class Func>
  Library& def(NameOrSchema&& raw_name_or_schema, Func&& raw_f) & {
    return _def(std::string(std::forward<NameOrSchema>(raw_name_or_schema)),
                toCppFunction(std::forward<Func>(raw_f)));
  }

  // impl("name[.overload]", fn): for the block's dispatch key (or fn's, via torch::dispatch);
  // with no key at all, a CompositeImplicitAutograd kernel.
  template <class Name, class Func>
  Library& impl(Name name, Func&& raw_f) & {
    return _impl(std::string(name), toCppFunction(std::forward<Func>(raw_f)));
  }
  template <class Name, class Func>
  Library& impl(Name name, c10::DispatchKey k, Func&& raw_f) & {
    return impl(name, dispatch(k, std::forward<Func>(raw_f)));
  }
  template <class Name, class Func>
  Library& impl(Name name, c10::DeviceType type, Func&& raw_f) & {
    return impl(name, dispatch(type, std::forward<Func>(raw_f)));
  }

  // Binds a C++ class as __torch__.torch.classes.<ns>.<className> (dispatcher/
  // CustomClassBinding.h); only in a TORCH_LIBRARY or TORCH_LIBRARY_FRAGMENT block.
  template <class CurClass>
  inline torch::class_<CurClass> class_(const std::string& className);
  // The namespace class_ registers a class in; throws in a TORCH_LIBRARY_IMPL block.
  const std::string& classNamespace(const std::string& className) const;

  // A kernel for every operator on this block's dispatch key (TORCH_LIBRARY_IMPL(_, K, m)).
  template <class Func>
  Library& fallback(Func&& raw_f) & {
    return _fallback(toCppFunction(std::forward<Func>(raw_f)));
  }

  Library& _def(std::string schema_text) &;
  Library& _def(c10::FunctionSchema&& schema) &;
  Library& _def(std::string name_or_schema, CppFunction&& f) &;
  Library& _impl(const std::string& name, CppFunction&& f) &;
  Library& _fallback(CppFunction&& f) &;

 private:
  template <class Func>
  static CppFunction toCppFunction(Func&& f) {
    if constexpr (std::is_same<std::decay_t<Func>, CppFunction>::value) {
      return std::move(f);
    } else {
      return CppFunction(std::forward<Func>(f));
    }
  }
  std::string debugString(const std::string& name) const;
  std::string withNamespace(std::string name, const char* what) const;

  Kind kind_;
  c10::optional<std::string> ns_;
  c10::optional<c10::DispatchKey> dispatch_key_;
  const char* file_;
  uint32_t line_;
  std::vector<c10::RegistrationHandleRAII> registrars_;
};

namespace detail {

// Runs a TORCH_LIBRARY block's body at static-initialization time and keeps its Library alive.
class TORCH_API TorchLibraryInit final {
 public:
  using InitFn = void(Library&);
  TorchLibraryInit(Library::Kind kind, InitFn* fn, const char* ns,
                   c10::optional<c10::DispatchKey> k, const char* file, uint32_t line)
      : lib_(kind, ns, k, file, line) {
    fn(lib_);
  }

 private:
  Library lib_;
};

}  // namespace detail
}  // namespace torch

#define TORCH_LIBRARY(ns, m)                                                                  \
  static void TORCH_LIBRARY_init_##ns(torch::Library&);                                       \
  static const torch::detail::TorchLibraryInit TORCH_LIBRARY_static_init_##ns(                \
      torch::Library::DEF, &TORCH_LIBRARY_init_##ns, #ns, c10::nullopt, __FILE__, __LINE__); \
  void TORCH_LIBRARY_init_##ns(torch::Library& m)

#define TORCH_LIBRARY_FRAGMENT(ns, m) _TORCH_LIBRARY_FRAGMENT(ns, m, C10_UID)
#define _TORCH_LIBRARY_FRAGMENT(ns, m, uid)                                                 \
  static void C10_CONCATENATE(TORCH_LIBRARY_FRAGMENT_init_##ns##_, uid)(torch::Library&);   \
  static const torch::detail::TorchLibraryInit C10_CONCATENATE(                             \
      TORCH_LIBRARY_FRAGMENT_static_init_##ns##_, uid)(                                     \
      torch::Library::FRAGMENT, &C10_CONCATENATE(TORCH_LIBRARY_FRAGMENT_init_##ns##_, uid), \
      #ns, c10::nullopt, __FILE__, __LINE__);                                               \
  void C10_CONCATENATE(TORCH_LIBRARY_FRAGMENT_init_##ns##_, uid)(torch::Library & m)

#define TORCH_LIBRARY_IMPL(ns, k, m) _TORCH_LIBRARY_IMPL(ns, k, m, C10_UID)
#define _TORCH_LIBRARY_IMPL(ns, k, m, uid)                                                   \
  static void C10_CONCATENATE(TORCH_LIBRARY_IMPL_init_##ns##_##k##_, uid)(torch::Library&);  \
  static const torch::detail::TorchLibraryInit C10_CONCATENATE(                              \
      TORCH_LIBRARY_IMPL_static_init_##ns##_##k##_, uid)(                                    \
      torch::Library::IMPL, &C10_CONCATENATE(TORCH_LIBRARY_IMPL_init_##ns##_##k##_, uid),    \
      #ns, c10::make_optional(c10::parseDispatchKey(#k)), __FILE__, __LINE__);               \
  void C10_CONCATENATE(TORCH_LIBRARY_IMPL_init_##ns##_##k##_, uid)(torch::Library & m)

// A Library as a value, for tests and for registrations whose lifetime the caller controls:
//   auto m = MAKE_TORCH_LIBRARY(myops);          // like TORCH_LIBRARY(myops, m)
//   auto m2 = MAKE_TORCH_LIBRARY_IMPL(_, CPU);   // like TORCH_LIBRARY_IMPL(_, CPU, m2)
// Everything registered through it is undone when it is destroyed.
#define MAKE_TORCH_LIBRARY(ns) \
  torch::Library(torch::Library::DEF, #ns, c10::nullopt, __FILE__, __LINE__)
#define MAKE_TORCH_LIBRARY_IMPL(ns, k)                                                     \
  torch::Library(torch::Library::IMPL, #ns, c10::make_optional(c10::DispatchKey::k), __FILE__, \
                 __LINE__)

// class_() is a template over the C++ class (dispatcher/CustomClassBinding.h), as in libtorch,
// whose torch/library.h ends by including torch/custom_class.h.
#include "dispatcher/CustomClassBinding.h"
