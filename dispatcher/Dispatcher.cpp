#include "dispatcher/Dispatcher.h"

#include <absl/container/flat_hash_map.h>

#include "dispatcher/SchemaParser.h"

namespace c10 {

struct Dispatcher::Lookup {
  absl::flat_hash_map<OperatorName, std::list<OperatorDef>::iterator> operators;
  absl::flat_hash_map<std::string, std::string> libraries;  // namespace -> debug
};

Dispatcher::Dispatcher() : lookup_(std::make_unique<Lookup>()) {}

Dispatcher& Dispatcher::realSingleton() {
  // Never destroyed: static registrations in other libraries may outlive this one's statics.
  static Dispatcher* singleton = new Dispatcher();
  return *singleton;
}

// ---- Lookup ---------------------------------------------------------------------------------

c10::optional<OperatorHandle> Dispatcher::findOp_(const OperatorName& op_name) {
  auto it = lookup_->operators.find(op_name);
  if (it == lookup_->operators.end()) return c10::nullopt;
  return OperatorHandle(it->second);
}

c10::optional<OperatorHandle> Dispatcher::findOp(const OperatorName& op_name) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  return findOp_(op_name);
}

c10::optional<OperatorHandle> Dispatcher::findSchema(const OperatorName& op_name) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  auto op = findOp_(op_name);
  if (op.has_value() && op->hasSchema()) return op;
  return c10::nullopt;
}

OperatorHandle Dispatcher::findSchemaOrThrow(const char* name, const char* overload_name) {
  auto it = findSchema({name, overload_name});
  if (!it.has_value()) {
    // A name with kernels but no schema gets a more specific message, as in libtorch.
    auto it2 = findOp({name, overload_name});
    if (it2.has_value()) {
      TORCH_CHECK(false, "Could not find schema for ", name, ".", overload_name,
                  " but we found an implementation; did you forget to def() the operator?");
    }
    const std::string overload(overload_name);
    TORCH_CHECK(false, "Could not find schema for ", name, overload.empty() ? "" : ".", overload,
                overload.empty() ? "." : "");
  }
  return *it;
}

std::vector<OperatorName> Dispatcher::getAllOpNames() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  std::vector<OperatorName> names;
  for (const auto& def : operators_) {
    if (def.op.hasSchema()) names.push_back(def.op.operator_name());
  }
  return names;
}

OperatorHandle Dispatcher::findOrRegisterName_(const OperatorName& op_name) {
  if (auto found = findOp_(op_name)) return *found;
  operators_.emplace_back(OperatorName(op_name));
  auto it = std::prev(operators_.end());
  lookup_->operators.emplace(op_name, it);
  it->op.updateDispatchTable(*this);  // backend fallbacks apply from the start
  return OperatorHandle(it);
}

const impl::DispatchTableEntry* Dispatcher::backendFallback(DispatchKey k) const {
  return backend_fallbacks_[getDispatchTableIndexForDispatchKey(k)].get();
}

// ---- Calls ----------------------------------------------------------------------------------

namespace {
// A traced boxed call: its `num_args` arguments are the top of the stack before the call, its
// results what replaced them after it.
void traced_call_boxed(impl::TraceScope& scope, const KernelFunction& kernel,
                       const OperatorHandle& op, DispatchKeySet ks, torch::jit::Stack* stack,
                       size_t num_args) {
  auto tensors_of = [](auto begin, auto end) {
    std::vector<at::Tensor> tensors;
    for (auto it = begin; it != end; ++it) {
      if (it->isTensor()) impl::trace_collect(tensors, it->toTensor());
      if (it->isTensorList()) impl::trace_collect(tensors, it->toTensorVector());
      if (it->isOptionalTensorList()) impl::trace_collect(tensors, it->toOptionalTensorList());
    }
    return tensors;
  };
  // Values below the arguments are the caller's, not the call's.
  const size_t base = stack->size() - num_args;
  if (scope.records_tensors()) scope.record_inputs(tensors_of(stack->begin() + base, stack->end()));
  kernel.callBoxed(op, ks, stack);
  if (scope.records_tensors())
    scope.record_outputs(tensors_of(stack->begin() + base, stack->end()));
}
}  // namespace

void Dispatcher::callBoxed(const OperatorHandle& op, torch::jit::Stack* stack) const {
  const impl::OperatorEntry& entry = op.operatorDef_->op;
  const DispatchKeySet ks = entry.dispatchKeyExtractor().getDispatchKeySetBoxed(stack);
  const KernelFunction& kernel = entry.lookup(ks);
  if (impl::dispatch_trace_enabled()) {
    const size_t n = std::min(stack->size(), entry.schema().arguments().size());
    std::string args;
    for (size_t i = 0; i < n; ++i) {
      args += (i ? ", " : "") + impl::trace_describe(torch::jit::peek(*stack, i, n),
                                                     entry.schema().arguments()[i].type());
    }
    impl::TraceScope scope(entry.operator_name(), false, ks, args,
                           impl::trace_kernel_line(entry, ks));
    traced_call_boxed(scope, kernel, op, ks, stack, n);
    return;
  }
  kernel.callBoxed(op, ks, stack);
}

void Dispatcher::redispatchBoxed(const OperatorHandle& op, DispatchKeySet dispatch_key_set,
                                 torch::jit::Stack* stack) const {
  const impl::OperatorEntry& entry = op.operatorDef_->op;
  const DispatchKeySet ks = entry.dispatchKeyExtractor().maskFallthroughKeys(dispatch_key_set);
  const KernelFunction& kernel = entry.lookup(ks);
  if (impl::dispatch_trace_enabled()) {
    impl::TraceScope scope(entry.operator_name(), true, ks, "...",
                           impl::trace_kernel_line(entry, ks));
    traced_call_boxed(scope, kernel, op, ks, stack,
                      std::min(stack->size(), entry.schema().arguments().size()));
    return;
  }
  kernel.callBoxed(op, ks, stack);
}

// ---- Registration ---------------------------------------------------------------------------

RegistrationHandleRAII Dispatcher::registerDef(FunctionSchema schema, std::string debug) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  OperatorName op_name = schema.operator_name();
  OperatorHandle op = findOrRegisterName_(op_name);
  TORCH_CHECK(op.operatorDef_->def_count == 0, "Tried to register an operator (", schema,
              ") with the same name and overload name multiple times.",
              " Each overload's schema should only be registered with a single call to def().",
              " Duplicate registration: ", debug, ". Original registration: ",
              op.operatorDef_->op.debug());
  op.operatorDef_->op.registerSchema(std::move(schema), std::move(debug));
  ++op.operatorDef_->def_count;
  ++op.operatorDef_->def_and_impl_count;
  listeners_.callOnOperatorRegistered(op);
  return RegistrationHandleRAII([this, op, op_name] {
    std::lock_guard<std::recursive_mutex> guard(mutex_);
    listeners_.callOnOperatorDeregistered(op);
    op.operatorDef_->op.deregisterSchema();
    --op.operatorDef_->def_count;
    --op.operatorDef_->def_and_impl_count;
    cleanup(op, op_name);
  });
}

// Note [An operator goes when its last registration does]
// Once neither a schema nor a kernel is registered for a name, its OperatorEntry is removed, as
// in libtorch: findOp() no longer finds it, and a later registration starts afresh. Handles to
// it are invalid from then on (a typed handle is only valid while something is registered).
void Dispatcher::cleanup(const OperatorHandle& op, const OperatorName& op_name) {
  if (op.operatorDef_->def_and_impl_count != 0) return;
  lookup_->operators.erase(op_name);
  operators_.erase(op.operatorIterator_);
}

RegistrationHandleRAII Dispatcher::addRegistrationListener(
    std::unique_ptr<OpRegistrationListener> listener) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  for (auto it = operators_.begin(); it != operators_.end(); ++it) {
    if (it->op.hasSchema()) listener->onOperatorRegistered(OperatorHandle(it));
  }
  auto added = listeners_.add(std::move(listener));
  return RegistrationHandleRAII([this, added] {
    std::lock_guard<std::recursive_mutex> guard(mutex_);
    listeners_.remove(added);
  });
}

void Dispatcher::checkInferredSignature_(const OperatorHandle& op,
                                         const InferredSignature& inferred,
                                         const std::string& kernel_debug) const {
  if (!op.hasSchema()) return;
  const std::string reason = inferred.mismatch_reason(op.schema());
  TORCH_CHECK(reason.empty(),
              "Inferred operator schema for a C++ kernel function doesn't match the expected "
              "function schema.\n  operator: ",
              toString(op.operator_name()), "\n  expected schema: ", op.schema(),
              "\n    ", op.debug(), "\n  inferred schema: ", inferred.str(),
              "\n    ", kernel_debug, "\n  reason: ", reason);
}

RegistrationHandleRAII Dispatcher::registerImpl(OperatorName op_name,
                                                c10::optional<DispatchKey> dispatch_key,
                                                KernelFunction kernel,
                                                c10::optional<impl::CppSignature> cpp_signature,
                                                std::unique_ptr<InferredSignature> inferred_signature,
                                                std::string debug) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  OperatorHandle op = findOrRegisterName_(op_name);
  if (inferred_signature) checkInferredSignature_(op, *inferred_signature, debug);
  auto handle = op.operatorDef_->op.registerKernel(*this, dispatch_key, std::move(kernel),
                                                   std::move(cpp_signature), std::move(debug));
  ++op.operatorDef_->def_and_impl_count;
  return RegistrationHandleRAII([this, op, op_name, dispatch_key, handle] {
    std::lock_guard<std::recursive_mutex> guard(mutex_);
    op.operatorDef_->op.deregisterKernel_(*this, dispatch_key, handle);
    --op.operatorDef_->def_and_impl_count;
    cleanup(op, op_name);
  });
}

RegistrationHandleRAII Dispatcher::registerFallback(DispatchKey dispatch_key, KernelFunction kernel,
                                                    std::string debug) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  const DispatchKeySet keys = isAliasDispatchKey(dispatch_key)
                                  ? getRuntimeDispatchKeySet(dispatch_key)
                                  : DispatchKeySet(dispatch_key);
  for (DispatchKey k : keys) {
    const auto& existing = backend_fallbacks_[getDispatchTableIndexForDispatchKey(k)];
    TORCH_CHECK(!existing, "Tried to register multiple backend fallbacks for the same dispatch key ",
                k, "; previous registration ", existing ? existing->debug : "",
                ", new registration ", debug);
  }
  for (DispatchKey k : keys) {
    backend_fallbacks_[getDispatchTableIndexForDispatchKey(k)] =
        std::make_unique<impl::DispatchTableEntry>(
            impl::DispatchTableEntry{kernel, debug, "backend fallback"});
  }
  for (auto& def : operators_) def.op.updateDispatchTable(*this);
  return RegistrationHandleRAII([this, keys] {
    std::lock_guard<std::recursive_mutex> guard(mutex_);
    for (DispatchKey k : keys) {
      // Retired, not freed: a call may be reading it (Note [Lock-free dispatch table]).
      retired_fallbacks_.push_back(
          std::move(backend_fallbacks_[getDispatchTableIndexForDispatchKey(k)]));
    }
    for (auto& def : operators_) def.op.updateDispatchTable(*this);
  });
}

RegistrationHandleRAII Dispatcher::registerLibrary(std::string ns, std::string debug) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  auto found = lookup_->libraries.find(ns);
  TORCH_CHECK(found == lookup_->libraries.end(), "Only a single TORCH_LIBRARY can be used to ",
              "register the namespace ", ns,
              "; please put all of your definitions in a single TORCH_LIBRARY block.  If you were "
              "trying to specify implementations, consider using TORCH_LIBRARY_IMPL (which can be "
              "duplicated).  If you really intended to define operators for a single namespace in "
              "a distributed way, you can use TORCH_LIBRARY_FRAGMENT to explicitly indicate this.  "
              "Previous registration of TORCH_LIBRARY was ",
              found->second, "; latest registration was ", debug);
  lookup_->libraries.emplace(ns, debug);
  return RegistrationHandleRAII([this, ns] {
    std::lock_guard<std::recursive_mutex> guard(mutex_);
    lookup_->libraries.erase(ns);
  });
}

}  // namespace c10
