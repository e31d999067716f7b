#pragma once
// The dispatcher: finds an operator's kernel for the keys of a call and runs it.
//
//   // Look an operator up once, call it many times (what the generated at:: API does):
//   static auto op = c10::Dispatcher::singleton()
//                        .findSchemaOrThrow("aten::add", "Tensor")
//                        .typed<at::Tensor(const at::Tensor&, const at::Tensor&, const at::Scalar&)>();
//   at::Tensor c = op.call(a, b, 1);
//
//   // Inside a kernel that handled its own key, continue below it:
//   op.redispatch(ks & c10::after_autograd_keyset, a, b, 1);
//
//   // Boxed: arguments and returns on a Stack.
//   torch::jit::Stack stack{a, b, 1};
//   op.callBoxed(&stack);
//
// Registration goes through torch::Library (dispatcher/Library.h) or libtorch's older
// c10::RegisterOperators (dispatcher/RegisterOperators.h); every register* call here
// returns a RegistrationHandleRAII that undoes exactly that registration when destroyed.
// Registration takes a lock and may run while other threads call; calls take no lock (see
// Note [Lock-free dispatch table] in OperatorEntry.h).

#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "dispatcher/DispatchTrace.h"
#include "dispatcher/InferSchema.h"
#include "dispatcher/OperatorEntry.h"
#include "dispatcher/RegistrationListener.h"

namespace c10 {

class OperatorHandle;
template <class FuncType>
class TypedOperatorHandle;

// Undoes one registration when destroyed.
class C10_API RegistrationHandleRAII final {
 public:
  explicit RegistrationHandleRAII(std::function<void()> on_destruction)
      : on_destruction_(std::move(on_destruction)) {}
  ~RegistrationHandleRAII() {
    if (on_destruction_) on_destruction_();
  }
  RegistrationHandleRAII(const RegistrationHandleRAII&) = delete;
  RegistrationHandleRAII& operator=(const RegistrationHandleRAII&) = delete;
  RegistrationHandleRAII(RegistrationHandleRAII&& rhs) noexcept
      : on_destruction_(std::move(rhs.on_destruction_)) {
    rhs.on_destruction_ = nullptr;
  }
  RegistrationHandleRAII& operator=(RegistrationHandleRAII&& rhs) noexcept {
    if (this != &rhs) {
      if (on_destruction_) on_destruction_();
      on_destruction_ = std::move(rhs.on_destruction_);
      rhs.on_destruction_ = nullptr;
    }
    return *this;
  }

 private:
  std::function<void()> on_destruction_;
};

class C10_API Dispatcher final {
 private:
  struct OperatorDef final {
    explicit OperatorDef(OperatorName&& op_name) : op(std::move(op_name)) {}
    impl::OperatorEntry op;
    size_t def_count = 0;           // schema registrations
    size_t def_and_impl_count = 0;  // schema and kernel registrations
  };
  friend class OperatorHandle;
  template <class>
  friend class TypedOperatorHandle;

 public:
  static Dispatcher& singleton() {
    static Dispatcher& s = realSingleton();
    return s;
  }

  // ---- Lookup -----------------------------------------------------------------------------
  // The operator if it has a schema.
  c10::optional<OperatorHandle> findSchema(const OperatorName& operator_name);
  // "Could not find schema for ns::op." when there is none.
  OperatorHandle findSchemaOrThrow(const char* name, const char* overload_name);
  // The operator even if only kernels were registered so far.
  c10::optional<OperatorHandle> findOp(const OperatorName& operator_name);
  std::vector<OperatorName> getAllOpNames();

  // ---- Calls ------------------------------------------------------------------------------
  template <class Return, class... Args>
  Return call(const TypedOperatorHandle<Return(Args...)>& op, Args... args) const {
    return callImpl<Return, Args...>(op, std::forward<Args>(args)...);
  }
  // Like call, but with the key set given: a kernel continues below its own key.
  template <class Return, class... Args>
  Return redispatch(const TypedOperatorHandle<Return(Args...)>& op,
                    DispatchKeySet current_dispatch_key_set, Args... args) const {
    return redispatchImpl<Return, Args...>(op, current_dispatch_key_set,
                                           std::forward<Args>(args)...);
  }
  template <class Return, class... Args>
  static Return callImpl(const TypedOperatorHandle<Return(Args...)>& op, Args&&... args);
  template <class Return, class... Args>
  static Return redispatchImpl(const TypedOperatorHandle<Return(Args...)>& op,
                               DispatchKeySet current_dispatch_key_set, Args&&... args);
  void callBoxed(const OperatorHandle& op, torch::jit::Stack* stack) const;
  void redispatchBoxed(const OperatorHandle& op, DispatchKeySet dispatch_key_set,
                       torch::jit::Stack* stack) const;

  // ---- Registration -----------------------------------------------------------------------
  RegistrationHandleRAII registerDef(FunctionSchema schema, std::string debug);
  // dispatch_key nullopt registers a CompositeImplicitAutograd kernel (as libtorch 1.13).
  RegistrationHandleRAII registerImpl(OperatorName op_name, c10::optional<DispatchKey> dispatch_key,
                                      KernelFunction kernel,
                                      c10::optional<impl::CppSignature> cpp_signature,
                                      std::unique_ptr<InferredSignature> inferred_signature,
                                      std::string debug);
  // A kernel for every operator on a key (alias keys expand to their runtime keys).
  RegistrationHandleRAII registerFallback(DispatchKey dispatch_key, KernelFunction kernel,
                                          std::string debug);
  // Claims a namespace for one TORCH_LIBRARY block.
  RegistrationHandleRAII registerLibrary(std::string ns, std::string debug);
  // See dispatcher/RegistrationListener.h; the handle removes the listener.
  RegistrationHandleRAII addRegistrationListener(std::unique_ptr<OpRegistrationListener> listener);

  // The backend fallback on a runtime key, or nullptr.
  const impl::DispatchTableEntry* backendFallback(DispatchKey k) const;

 private:
  Dispatcher();
  static Dispatcher& realSingleton();

  OperatorHandle findOrRegisterName_(const OperatorName& op_name);
  c10::optional<OperatorHandle> findOp_(const OperatorName& op_name);
  void cleanup(const OperatorHandle& op, const OperatorName& op_name);
  void checkInferredSignature_(const OperatorHandle& op, const InferredSignature& inferred,
                               const std::string& kernel_debug) const;

  // Whole-table recomputes and all bookkeeping happen under this lock.
  mutable std::recursive_mutex mutex_;
  std::list<OperatorDef> operators_;
  struct Lookup;
  std::unique_ptr<Lookup> lookup_;
  detail::RegistrationListenerList listeners_;
  std::array<std::unique_ptr<impl::DispatchTableEntry>, num_runtime_entries> backend_fallbacks_;
  std::vector<std::unique_ptr<impl::DispatchTableEntry>> retired_fallbacks_;
};

class C10_API OperatorHandle {
 public:
  OperatorHandle(const OperatorHandle&) = default;
  OperatorHandle& operator=(const OperatorHandle&) = default;

  const OperatorName& operator_name() const { return operatorDef_->op.operator_name(); }
  bool hasSchema() const { return operatorDef_->op.hasSchema(); }
  const FunctionSchema& schema() const { return operatorDef_->op.schema(); }
  const std::string& debug() const { return operatorDef_->op.debug(); }
  bool hasKernelForDispatchKey(DispatchKey k) const {
    return operatorDef_->op.hasKernelForDispatchKey(k);
  }
  std::string dumpState() const { return operatorDef_->op.dumpState(); }
  std::string dumpComputedTable() const { return operatorDef_->op.dumpComputedTable(); }

  // The typed handle; fails with "Tried to access or call an operator with a wrong
  // signature." when FuncType disagrees with the registered kernels or the schema.
  template <class FuncType>
  TypedOperatorHandle<FuncType> typed() const {
    operatorDef_->op.assertSignatureIsCorrect(
        impl::CppSignature::make<FuncType>(), typeid(FuncType).name(),
        [](const FunctionSchema& schema) {
          return InferredSignature::make<FuncType>().mismatch_reason(schema).empty();
        });
    return TypedOperatorHandle<FuncType>(operatorIterator_);
  }

  void callBoxed(torch::jit::Stack* stack) const { Dispatcher::singleton().callBoxed(*this, stack); }
  void callBoxed(torch::jit::Stack& stack) const { callBoxed(&stack); }
  void redispatchBoxed(DispatchKeySet ks, torch::jit::Stack* stack) const {
    Dispatcher::singleton().redispatchBoxed(*this, ks, stack);
  }

  bool operator==(const OperatorHandle& other) const { return operatorDef_ == other.operatorDef_; }
  bool operator!=(const OperatorHandle& other) const { return operatorDef_ != other.operatorDef_; }

  // Internal: the entry behind this handle.
  const impl::OperatorEntry& entry() const { return operatorDef_->op; }

 protected:
  explicit OperatorHandle(std::list<Dispatcher::OperatorDef>::iterator operatorIterator)
      : operatorDef_(&*operatorIterator), operatorIterator_(operatorIterator) {}
  friend class Dispatcher;
  template <class>
  friend class TypedOperatorHandle;

  Dispatcher::OperatorDef* operatorDef_;
  std::list<Dispatcher::OperatorDef>::iterator operatorIterator_;
};

template <class FuncType>
class TypedOperatorHandle final {
  static_assert(guts::infer_function_traits_t<FuncType>::number_of_parameters >= 0,
                "FuncType in OperatorHandle::typed<FuncType> was not a valid function type");
};

template <class Return, class... Args>
class TypedOperatorHandle<Return(Args...)> final : public OperatorHandle {
 public:
  TypedOperatorHandle(const TypedOperatorHandle&) = default;
  TypedOperatorHandle& operator=(const TypedOperatorHandle&) = default;

  // The dispatcher keeps no per-call state, so these skip fetching the singleton.
  C10_ALWAYS_INLINE Return call(Args... args) const {
    return Dispatcher::callImpl<Return, Args...>(*this, std::forward<Args>(args)...);
  }
  C10_ALWAYS_INLINE Return redispatch(DispatchKeySet current_dispatch_key_set, Args... args) const {
    return Dispatcher::redispatchImpl<Return, Args...>(*this, current_dispatch_key_set,
                                                       std::forward<Args>(args)...);
  }

  // Note [Arguments are forwarded, not copied]
  // call and redispatch take their arguments by value, as libtorch's do, so that any caller's
  // arguments convert. Past that first layer every layer (callImpl, KernelFunction::call, the
  // traced and boxed paths, and the kernel's unboxed entry: Note [Arguments by reference down
  // the chain] in KernelFunction.h) takes Args&& and forwards, and the only other copy is the
  // kernel's own by-value parameter. The generated at::_ops wrappers, whose parameters already have
  // exactly the types Args, skip the first copy too with these. That matters for
  // optional<int64_t> (slice's start and end): GCC copies it as one 16-byte load of a value just
  // stored as two 8-byte halves, a store-forwarding stall of about 5 ns per copy.
  C10_ALWAYS_INLINE Return callForwarded(Args&&... args) const {
    return Dispatcher::callImpl<Return, Args...>(*this, std::forward<Args>(args)...);
  }
  C10_ALWAYS_INLINE Return redispatchForwarded(DispatchKeySet current_dispatch_key_set,
                                               Args&&... args) const {
    return Dispatcher::redispatchImpl<Return, Args...>(*this, current_dispatch_key_set,
                                                       std::forward<Args>(args)...);
  }

 private:
  explicit TypedOperatorHandle(std::list<Dispatcher::OperatorDef>::iterator operatorIterator)
      : OperatorHandle(operatorIterator) {}
  friend class OperatorHandle;
};

namespace impl {
// The slow path of a traced call: logs, then runs the kernel inside a TraceScope.
C10_API std::string trace_kernel_line(const OperatorEntry& entry, DispatchKeySet ks);

template <class... Args>
std::string trace_args(const Args&... args) {
  std::string s;
  size_t i = 0;
  ((s += (i++ ? ", " : "") + trace_describe(args)), ...);
  return s;
}

// The traced path is kept out of line so the hot path stays small (see DispatchTrace.h).
template <class Return, class... Args>
C10_NOINLINE Return traced_call(const TypedOperatorHandle<Return(Args...)>& op,
                                const KernelFunction& kernel, DispatchKeySet ks, bool redispatch,
                                Args&&... args) {
  const OperatorEntry& entry = op.entry();
  TraceScope scope(entry.operator_name(), redispatch, ks, trace_args(args...),
                   trace_kernel_line(entry, ks));
  if (scope.records_tensors()) {
    std::vector<at::Tensor> inputs;
    (trace_collect(inputs, args), ...);
    scope.record_inputs(inputs);
  }
  if constexpr (std::is_void<Return>::value) {
    kernel.template callForwarded<Return, Args...>(op, ks, std::forward<Args>(args)...);
  } else {
    Return result =
        kernel.template callForwarded<Return, Args...>(op, ks, std::forward<Args>(args)...);
    if (scope.records_tensors()) {
      std::vector<at::Tensor> outputs;
      trace_collect(outputs, result);
      scope.record_outputs(outputs);
    }
    return result;
  }
}
}  // namespace impl

template <class Return, class... Args>
C10_ALWAYS_INLINE Return Dispatcher::callImpl(const TypedOperatorHandle<Return(Args...)>& op,
                                              Args&&... args) {
  const impl::OperatorEntry& entry = op.operatorDef_->op;
  const DispatchKeySet ks =
      entry.dispatchKeyExtractor().template getDispatchKeySetUnboxed<Args...>(args...);
  const KernelFunction& kernel = entry.lookup(ks);
  if (impl::dispatch_trace_enabled()) {
    return impl::traced_call<Return, Args...>(op, kernel, ks, false, std::forward<Args>(args)...);
  }
  return kernel.template callForwarded<Return, Args...>(op, ks, std::forward<Args>(args)...);
}

template <class Return, class... Args>
C10_ALWAYS_INLINE Return Dispatcher::redispatchImpl(const TypedOperatorHandle<Return(Args...)>& op,
                                                    DispatchKeySet current_dispatch_key_set,
                                                    Args&&... args) {
  const impl::OperatorEntry& entry = op.operatorDef_->op;
  // Masking again makes a caller's unmasked set safe: fallthrough keys are never chosen.
  const DispatchKeySet ks =
      entry.dispatchKeyExtractor().maskFallthroughKeys(current_dispatch_key_set);
  const KernelFunction& kernel = entry.lookup(ks);
  if (impl::dispatch_trace_enabled()) {
    return impl::traced_call<Return, Args...>(op, kernel, ks, true, std::forward<Args>(args)...);
  }
  return kernel.template callForwarded<Return, Args...>(op, ks, std::forward<Args>(args)...);
}

}  // namespace c10

namespace torch {
using c10::Dispatcher;
using c10::OperatorHandle;
}  // namespace torch
