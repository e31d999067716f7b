#pragma once
// c10::RegisterOperators: libtorch's older registration API, kept because much code still uses
// it. New code should use torch::Library (dispatcher/Library.h), which it is built on the same
// Dispatcher calls as.
//
//   struct MyKernel final : c10::OperatorKernel {
//     at::Tensor operator()(const at::Tensor& a) { return a; }
//   };
//   static auto registry = c10::RegisterOperators()
//       .op("myops::f(Tensor a) -> Tensor",                        // schema ...
//           c10::RegisterOperators::options().kernel<MyKernel>(c10::DispatchKey::CPU))
//       .op("myops::g", [](const at::Tensor& a) { return a; })     // ... or inferred
//       .op(c10::RegisterOperators::options()
//               .schema("myops::h(Tensor a) -> Tensor")
//               .catchAllKernel<&my_boxed_kernel>()               // any key
//               .aliasAnalysis(c10::AliasAnalysisKind::PURE_FUNCTION));
//
// A kernel given with a dispatch key serves that key; a catch-all kernel is a
// CompositeImplicitAutograd kernel (as in libtorch 1.13). When only a name is given, the schema
// is inferred from the first kernel it can be inferred from (not from a boxed one). Everything
// is undone when the RegisterOperators object is destroyed.

#include <memory>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "dispatcher/Dispatcher.h"
#include "dispatcher/OperatorOptions.h"

namespace c10 {

class C10_API RegisterOperators final {
 public:
  RegisterOperators();
  ~RegisterOperators();
  RegisterOperators(const RegisterOperators&) = delete;
  RegisterOperators& operator=(const RegisterOperators&) = delete;
  RegisterOperators(RegisterOperators&&) noexcept;
  RegisterOperators& operator=(RegisterOperators&&) noexcept;

  // One operator's registration: its schema (or name), its kernels, its alias analysis kind.
  class C10_API Options final {
   public:
    Options(const Options&) = delete;
    Options(Options&&) noexcept = delete;
    Options& operator=(const Options&) = delete;
    Options& operator=(Options&&) noexcept = delete;

    // A boxed kernel: void(const OperatorHandle&, Stack*). Its schema cannot be inferred.
    template <KernelFunction::BoxedKernelFunction* kernel_func>
    Options&& kernel(DispatchKey dispatch_key) && {
      return std::move(*this).addKernel_(dispatch_key,
                                         KernelFunction::makeFromBoxedFunction<kernel_func>(),
                                         c10::nullopt, nullptr);
    }
    template <KernelFunction::BoxedKernelFunction* kernel_func>
    Options&& catchAllKernel() && {
      return std::move(*this).addKernel_(c10::nullopt,
                                         KernelFunction::makeFromBoxedFunction<kernel_func>(),
                                         c10::nullopt, nullptr);
    }

    // "ns::name(Tensor a) -> Tensor", or only "ns::name[.overload]" to infer the schema.
    Options&& schema(const std::string& schema_or_name);
    Options&& schema(FunctionSchema&& schema);

    // A functor deriving from OperatorKernel, constructed here from the arguments given.
    template <class KernelFunctor, class... ConstructorParameters>
    std::enable_if_t<guts::is_functor<KernelFunctor>::value, Options&&> kernel(
        DispatchKey dispatch_key, ConstructorParameters&&... constructor_parameters) && {
      return std::move(*this).addFunctor_<KernelFunctor>(
          dispatch_key, std::forward<ConstructorParameters>(constructor_parameters)...);
    }
    template <class KernelFunctor, class... ConstructorParameters>
    std::enable_if_t<guts::is_functor<KernelFunctor>::value, Options&&> catchAllKernel(
        ConstructorParameters&&... constructor_parameters) && {
      return std::move(*this).addFunctor_<KernelFunctor>(
          c10::nullopt, std::forward<ConstructorParameters>(constructor_parameters)...);
    }

    // A function known at compile time: kernel<decltype(f), &f>(DispatchKey::CPU).
    template <class FuncType, FuncType* kernel_func>
    std::enable_if_t<guts::is_function_type<FuncType>::value, Options&&> kernel(
        DispatchKey dispatch_key) && {
      return std::move(*this).addFunction_<FuncType, kernel_func>(dispatch_key);
    }
    template <class FuncType, FuncType* kernel_func>
    std::enable_if_t<guts::is_function_type<FuncType>::value, Options&&> catchAllKernel() && {
      return std::move(*this).addFunction_<FuncType, kernel_func>(c10::nullopt);
    }

    // A function pointer known at run time.
    template <class FuncType>
    std::enable_if_t<guts::is_function_type<FuncType>::value, Options&&> kernel(
        DispatchKey dispatch_key, FuncType* kernel_func) && {
      return std::move(*this).addRuntimeFunction_(dispatch_key, kernel_func);
    }
    template <class FuncType>
    std::enable_if_t<guts::is_function_type<FuncType>::value, Options&&> catchAllKernel(
        FuncType* kernel_func) && {
      return std::move(*this).addRuntimeFunction_(c10::nullopt, kernel_func);
    }

    // A lambda without captures (for state, write a functor).
    template <class Lambda>
    std::enable_if_t<guts::is_functor<std::decay_t<Lambda>>::value &&
                         !std::is_base_of<OperatorKernel, std::decay_t<Lambda>>::value,
                     Options&&>
    kernel(DispatchKey dispatch_key, Lambda&& functor) && {
      return std::move(*this).addLambda_(dispatch_key, std::forward<Lambda>(functor));
    }
    template <class Lambda>
    std::enable_if_t<guts::is_functor<std::decay_t<Lambda>>::value &&
                         !std::is_base_of<OperatorKernel, std::decay_t<Lambda>>::value,
                     Options&&>
    catchAllKernel(Lambda&& lambda) && {
      return std::move(*this).addLambda_(c10::nullopt, std::forward<Lambda>(lambda));
    }

    Options&& aliasAnalysis(AliasAnalysisKind kind) &&;

   private:
    friend class RegisterOperators;
    Options() = default;

    template <class KernelFunctor, class... ConstructorParameters>
    Options&& addFunctor_(c10::optional<DispatchKey> dispatch_key,
                          ConstructorParameters&&... constructor_parameters) && {
      static_assert(std::is_base_of<OperatorKernel, KernelFunctor>::value,
                    "Tried to register a kernel functor using the kernel<Functor>() API, but it "
                    "doesn't inherit from c10::OperatorKernel. Please have the functor inherit "
                    "from it.");
      static_assert(std::is_constructible<KernelFunctor, ConstructorParameters...>::value,
                    "Wrong argument list for constructor of kernel functor. The arguments to "
                    "kernel<Functor>(arguments...) must match one of the constructors of "
                    "Functor.");
      return std::move(*this).addKernel_(
          dispatch_key,
          KernelFunction::makeFromUnboxedFunctor<false, KernelFunctor>(
              std::make_unique<KernelFunctor>(
                  std::forward<ConstructorParameters>(constructor_parameters)...)),
          impl::CppSignature::make<KernelFunctor>(),
          std::make_unique<InferredSignature>(InferredSignature::make<KernelFunctor>()));
    }
    template <class FuncType, FuncType* kernel_func>
    Options&& addFunction_(c10::optional<DispatchKey> dispatch_key) && {
      static_assert(!std::is_same<FuncType, KernelFunction::BoxedKernelFunction>::value,
                    "Tried to register a stackbased (i.e. internal) kernel function using the "
                    "public kernel<...>() API. Please either use the internal kernel(...) API or "
                    "also implement the kernel function as defined by the public API.");
      static_assert(kernel_func != nullptr, "Kernel function cannot be nullptr");
      return std::move(*this).addKernel_(
          dispatch_key,
          KernelFunction::makeFromUnboxedFunction(
              CompileTimeFunctionPointer<FuncType, kernel_func>()),
          impl::CppSignature::make<FuncType>(),
          std::make_unique<InferredSignature>(InferredSignature::make<FuncType>()));
    }
    template <class FuncType>
    Options&& addRuntimeFunction_(c10::optional<DispatchKey> dispatch_key,
                                  FuncType* kernel_func) && {
      static_assert(!std::is_same<FuncType, KernelFunction::BoxedKernelFunction>::value,
                    "Tried to register a stackbased (i.e. internal) kernel function using the "
                    "public kernel<...>() API. Please either use the internal kernel(...) API or "
                    "also implement the kernel function as defined by the public API.");
      TORCH_INTERNAL_ASSERT(kernel_func != nullptr, "Kernel function cannot be nullptr");
      return std::move(*this).addKernel_(
          dispatch_key, KernelFunction::makeFromUnboxedRuntimeFunction(kernel_func),
          impl::CppSignature::make<FuncType>(),
          std::make_unique<InferredSignature>(InferredSignature::make<FuncType>()));
    }
    template <class Lambda>
    Options&& addLambda_(c10::optional<DispatchKey> dispatch_key, Lambda&& lambda) && {
      using L = std::decay_t<Lambda>;
      static_assert(guts::is_stateless_lambda<L>::value,
                    "The kernel(x) API for registering a kernel only works for stateless lambdas "
                    "(i.e. lambdas without captures). If you need a cache, please use the "
                    "functor based API kernel<Functor>() instead.");
      return std::move(*this).addKernel_(
          dispatch_key, KernelFunction::makeFromUnboxedLambda(std::forward<Lambda>(lambda)),
          impl::CppSignature::make<L>(),
          std::make_unique<InferredSignature>(InferredSignature::make<L>()));
    }
    Options&& addKernel_(c10::optional<DispatchKey> dispatch_key, KernelFunction&& func,
                         c10::optional<impl::CppSignature> cpp_signature,
                         std::unique_ptr<InferredSignature> inferred_signature) &&;

    struct KernelRegistrationConfig final {
      c10::optional<DispatchKey> dispatch_key;  // nullopt: a catch-all kernel
      KernelFunction func;
      c10::optional<impl::CppSignature> cpp_signature;
      std::unique_ptr<InferredSignature> inferred_signature;  // null for boxed kernels
    };

    c10::optional<std::variant<OperatorName, FunctionSchema>> schema_or_name_;
    std::vector<KernelRegistrationConfig> kernels_;
    c10::optional<AliasAnalysisKind> alias_analysis_kind_;
  };

  static Options options() { return {}; }

  RegisterOperators&& op(Options&& options) && {
    checkSchemaAndRegisterOp_(std::move(options));
    return std::move(*this);
  }
  RegisterOperators& op(Options&& options) & {
    checkSchemaAndRegisterOp_(std::move(options));
    return *this;
  }
  RegisterOperators&& op(const std::string& schema_or_name,
                         Options&& options = RegisterOperators::options()) && {
    return std::move(*this).op(std::move(options).schema(schema_or_name));
  }
  RegisterOperators&& op(FunctionSchema schema, Options&& options) && {
    return std::move(*this).op(std::move(options).schema(std::move(schema)));
  }

  // Deprecated forms: an operator with one catch-all kernel, a function or a lambda.
  template <class FuncType>
  explicit RegisterOperators(const std::string& schema_or_name, FuncType&& func,
                             Options&& options = RegisterOperators::options())
      : RegisterOperators() {
    std::move(*this).op(schema_or_name, std::forward<FuncType>(func), std::move(options));
  }
  template <class FuncType>
  std::enable_if_t<guts::is_function_type<FuncType>::value &&
                       !std::is_same<FuncType, KernelFunction::BoxedKernelFunction>::value,
                   RegisterOperators&&>
  op(const std::string& schema_or_name, FuncType* func,
     Options&& options = RegisterOperators::options()) && {
    return std::move(*this).op(std::move(options).schema(schema_or_name).catchAllKernel(func));
  }
  // A lambda; with captures it works too, but is deprecated in libtorch (each call shares the
  // one captured state).
  template <class Lambda>
  std::enable_if_t<guts::is_functor<std::decay_t<Lambda>>::value, RegisterOperators&&> op(
      const std::string& schema_or_name, Lambda&& lambda,
      Options&& options = RegisterOperators::options()) && {
    using L = std::decay_t<Lambda>;
    static_assert(!std::is_base_of<OperatorKernel, L>::value,
                  "c10::OperatorKernel is part of the new kernel registration API and shouldn't "
                  "be used together with the deprecated registration API. Please use the new "
                  "RegisterOperators::options().kernel() based API instead.");
    return std::move(*this).op(
        std::move(options)
            .schema(schema_or_name)
            .addKernel_(c10::nullopt,
                        KernelFunction::makeFromUnboxedLambda<true>(std::forward<Lambda>(lambda)),
                        impl::CppSignature::make<L>(),
                        std::make_unique<InferredSignature>(InferredSignature::make<L>())));
  }

 private:
  void checkSchemaAndRegisterOp_(Options&& options);
  static FunctionSchema inferSchemaFromKernels_(const OperatorName& op_name,
                                                const Options& options);
  static void checkNoDuplicateKernels_(const Options& options);
  void registerOp_(Options&& options);

  std::vector<RegistrationHandleRAII> registrars_;
};

}  // namespace c10

namespace torch {
using RegisterOperators = c10::RegisterOperators;
}  // namespace torch
