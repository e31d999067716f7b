#pragma once
// OperatorEntry: everything the dispatcher knows about one operator — its schema, every kernel
// registered for it (per dispatch key, newest first), and the flat dispatch table computed from
// them, one entry per runtime key, that calls index with no lock.
//
// Note [Computing a dispatch-table entry]
// For each runtime key, the first rule that matches wins (REFERENCE.md section 6):
//   1. the newest kernel registered directly on the key;
//   2. a CompositeExplicitAutogradNonFunctional, then a CompositeExplicitAutograd kernel
//      (backend keys, and Undefined);
//   3. a CompositeImplicitAutograd kernel (backend keys, autograd keys and Undefined) — for an
//      autograd key only if its backend has no kernel of its own and there is no
//      CompositeExplicitAutograd kernel, so a backend kernel is never bypassed by a composite;
//   4. an Autograd alias kernel (autograd keys);
//   5. the backend fallback registered for the key (e.g. the default autograd fallthrough);
//   6. missing — calling it raises "Could not run ...".
// The table is recomputed whole on every (de)registration: registration is rare, and a whole
// recompute cannot miss a dependency between keys (rules 3 and 5 look across keys). Of the
// num_runtime_entries slots only those whose entry changed get a new one, so a registration
// allocates a few entries, not a hundred.
//
// Note [The table is recomputed whole]
// libtorch 1.13 recomputes, on an alias-key registration, only the runtime keys that alias
// covers. After a CompositeImplicitAutograd kernel and then a CompositeExplicitAutograd one, its
// AutogradCPU entry keeps the implicit kernel (CompositeExplicitAutograd does not cover
// autograd keys), so a plain CPU call runs the implicit kernel while dumpComputedTable() names
// a fallthrough there; registered in the other order, the explicit kernel runs. That is a stale
// table, not a rule, and is not copied: here both orders run the explicit kernel, and the kernel
// a call runs is always the one the dump names (tests/dispatcher/TableMatchesCalls_test.cpp
// checks every pair and order of CPU, Autograd and the two composite keys).
//
// Note [Lock-free dispatch table]
// Calls read the table without a lock while registrations may run on other threads. Each slot
// is an atomic pointer to an immutable entry; a recompute builds new entries and swaps the
// pointers. Old entries are retired, not freed, so a call that loaded one just before the swap
// still reads valid memory. The retired list grows only with registrations.

#include <array>
#include <atomic>
#include <list>
#include <memory>
#include <string>
#include <vector>

#include "dispatcher/CppSignature.h"
#include "dispatcher/DispatchKeyExtractor.h"
#include "dispatcher/FunctionSchema.h"
#include "dispatcher/KernelFunction.h"

namespace c10 {

class Dispatcher;

namespace impl {

struct AnnotatedKernel final {
  KernelFunction kernel;
  c10::optional<CppSignature> cpp_signature;
  std::string debug;  // "wrapper_CPU__empty (registered at file.cpp:12)"
};

struct AnnotatedSchema final {
  FunctionSchema schema;
  std::string debug;
};

// One computed slot of the dispatch table.
// Note [A missing kernel is a kernel that reports it]
// An entry with nothing to run still holds a callable kernel: a boxed one that raises
// libtorch's "Could not run ..." error for the key it was called with (OperatorEntry::
// missingKernel). The call path therefore never asks whether an entry is valid; a typed call
// to a missing kernel reaches the error through the boxed path, boxing its arguments first,
// which only the failing call pays for.
struct DispatchTableEntry final {
  KernelFunction kernel;
  std::string debug;       // the kernel's debug name and where it was registered
  const char* provenance;  // "kernel", "CompositeImplicitAutograd kernel", ..., "missing"

  bool isMissing() const;  // nothing to run: the kernel reports the error
};

class C10_API OperatorEntry final {
 public:
  explicit OperatorEntry(OperatorName&& operator_name);
  OperatorEntry(const OperatorEntry&) = delete;
  OperatorEntry& operator=(const OperatorEntry&) = delete;

  const OperatorName& operator_name() const { return name_; }
  bool hasSchema() const { return schema_.has_value(); }
  const FunctionSchema& schema() const {
    TORCH_INTERNAL_ASSERT(schema_.has_value(), "Tried to access the schema for ", name_,
                          " which doesn't have a schema registered yet");
    return schema_->schema;
  }
  const std::string& debug() const { return schema_->debug; }

  // ---- Registration (always under the Dispatcher's lock) ----------------------------------
  void registerSchema(FunctionSchema&& schema, std::string&& debug);
  void deregisterSchema();

  using AnnotatedKernelContainer = std::list<AnnotatedKernel>;
  using AnnotatedKernelContainerIterator = AnnotatedKernelContainer::iterator;

  // dispatch_key nullopt means CompositeImplicitAutograd (as libtorch 1.13).
  AnnotatedKernelContainerIterator registerKernel(const Dispatcher& dispatcher,
                                                  c10::optional<DispatchKey> dispatch_key,
                                                  KernelFunction kernel,
                                                  c10::optional<CppSignature> cpp_signature,
                                                  std::string debug);
  void deregisterKernel_(const Dispatcher& dispatcher, c10::optional<DispatchKey> dispatch_key,
                         AnnotatedKernelContainerIterator kernel);

  // Recomputes every slot of the dispatch table (see Note [Computing a dispatch-table entry]).
  void updateDispatchTable(const Dispatcher& dispatcher);

  // ---- Calls ------------------------------------------------------------------------------
  const DispatchKeyExtractor& dispatchKeyExtractor() const { return dispatch_key_extractor_; }

  // The kernel to run for ks; a missing one raises when called (Note [A missing kernel is a
  // kernel that reports it]).
  C10_ALWAYS_INLINE const KernelFunction& lookup(DispatchKeySet ks) const {
    return dispatch_table_[detail::dispatchTableIndex(ks)]
        .load(std::memory_order_acquire)
        ->kernel;
  }
  const DispatchTableEntry& tableEntry(DispatchKey k) const {
    return *dispatch_table_[getDispatchTableIndexForDispatchKey(k)].load(
        std::memory_order_acquire);
  }

  bool hasKernelForDispatchKey(DispatchKey k) const;
  // Any kernel registered directly on one of these keys.
  bool hasKernelForAnyDispatchKey(DispatchKeySet ks) const;

  // The signature check of typed<>(): "Tried to access or call an operator with a wrong
  // signature." when a kernel was registered with a different C++ signature, or when the
  // schema cannot take these C++ types.
  void assertSignatureIsCorrect(const CppSignature& call_signature, const char* signature_name,
                                bool (*matches_schema)(const FunctionSchema&)) const;

  [[noreturn]] void reportError(DispatchKey dispatch_key) const;
  // What a missing entry holds: calling it is reportError(the key dispatch chose).
  static KernelFunction missingKernel();

  // What the rules choose for one key: pointers into the registrations (a kernel and its debug
  // text; both null when missing), so choosing copies nothing.
  struct DispatchTableChoice {
    const KernelFunction* kernel;
    const std::string* debug;
    const char* provenance;
  };

  std::string dumpState() const;
  std::string dumpComputedTable() const;
  // "[CPU, CompositeImplicitAutograd]": the keys with kernels registered directly.
  std::string listAllDispatchKeys() const;

 private:
  DispatchTableChoice computeDispatchTableEntry(const Dispatcher& dispatcher, DispatchKey k) const;
  const AnnotatedKernel* getKernelForDispatchKey(DispatchKey k) const;

  OperatorName name_;
  c10::optional<AnnotatedSchema> schema_;
  std::array<std::atomic<const DispatchTableEntry*>, num_runtime_entries> dispatch_table_;
  std::vector<std::unique_ptr<DispatchTableEntry>> entries_;  // live and retired
  DispatchKeyExtractor dispatch_key_extractor_;
  // Per key (runtime or alias), newest registration first.
  std::array<AnnotatedKernelContainer, static_cast<size_t>(DispatchKey::EndOfAliasKeys) + 1>
      kernels_;
  struct CppSignatureWithDebug {
    CppSignature signature;
    std::string debug;
    DispatchKey dispatch_key;
  };
  c10::optional<CppSignatureWithDebug> cpp_signature_;
};

}  // namespace impl
}  // namespace c10
