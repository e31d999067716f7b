#include "dispatcher/OperatorEntry.h"

#include <cstring>
#include <sstream>

#include "dispatcher/Dispatcher.h"

namespace c10 {
namespace impl {

namespace {

// kernels_ holds a list per DispatchKey value (runtime or alias key).
size_t slot(DispatchKey k) { return static_cast<size_t>(k); }

// Every runtime key, Undefined first, in key order: the rows of the dispatch table (row i is
// the key whose table index is i). Built at compile time: it is read while static
// registrations are torn down at exit, after any function-local static would be gone.
constexpr std::array<DispatchKey, num_runtime_entries> computeRuntimeKeys() {
  std::array<DispatchKey, num_runtime_entries> keys{};
  size_t i = 0;
  keys[i++] = DispatchKey::Undefined;
  for (uint8_t f = 1; f < num_functionality_keys; ++f) {
    const auto functionality = static_cast<DispatchKey>(f);
    if (!isPerBackendFunctionalityKey(functionality)) {
      keys[i++] = functionality;
      continue;
    }
    for (uint8_t b = 1; b <= num_backends; ++b) {
      keys[i++] =
          toRuntimePerBackendFunctionalityKey(functionality, static_cast<BackendComponent>(b));
    }
  }
  return keys;
}
constexpr std::array<DispatchKey, num_runtime_entries> kRuntimeKeys = computeRuntimeKeys();
constexpr bool rowsMatchTableIndices() {
  for (size_t i = 0; i < kRuntimeKeys.size(); ++i) {
    if (getDispatchTableIndexForDispatchKey(kRuntimeKeys[i]) != static_cast<int>(i)) return false;
  }
  return true;
}
static_assert(rowsMatchTableIndices(), "row i of the table is the key whose index is i");
const std::array<DispatchKey, num_runtime_entries>& runtime_keys() {
  return kRuntimeKeys;
}

// Whether the live entry already holds what was chosen (the same kernel, debug text and
// provenance), so a recompute can keep it and copy nothing.
bool same_entry(const DispatchTableEntry& live, const OperatorEntry::DispatchTableChoice& chosen) {
  if (std::strcmp(live.provenance, chosen.provenance) != 0) return false;
  if (chosen.kernel == nullptr) return true;  // both missing
  return live.kernel.isSameAs(*chosen.kernel) && live.debug == *chosen.debug;
}

}  // namespace

OperatorEntry::OperatorEntry(OperatorName&& operator_name)
    : name_(std::move(operator_name)),
      dispatch_key_extractor_(DispatchKeyExtractor::makeUninitialized()) {
  // Every slot starts "missing" until the first recompute.
  entries_.push_back(std::make_unique<DispatchTableEntry>(
      DispatchTableEntry{missingKernel(), "", "missing"}));
  for (auto& e : dispatch_table_) e.store(entries_.back().get(), std::memory_order_relaxed);
}

void OperatorEntry::registerSchema(FunctionSchema&& schema, std::string&& debug) {
  TORCH_INTERNAL_ASSERT(!schema_.has_value());
  dispatch_key_extractor_.registerSchema(schema);
  schema_ = AnnotatedSchema{std::move(schema), std::move(debug)};
}

void OperatorEntry::deregisterSchema() {
  TORCH_INTERNAL_ASSERT(schema_.has_value());
  schema_ = c10::nullopt;
  dispatch_key_extractor_.deregisterSchema();
}

OperatorEntry::AnnotatedKernelContainerIterator OperatorEntry::registerKernel(
    const Dispatcher& dispatcher, c10::optional<DispatchKey> dispatch_key, KernelFunction kernel,
    c10::optional<CppSignature> cpp_signature, std::string debug) {
  const DispatchKey key = dispatch_key.value_or(DispatchKey::CompositeImplicitAutograd);
  // All unboxed kernels of one operator must share one C++ signature: typed calls cast the
  // function pointer to it.
  if (cpp_signature.has_value()) {
    if (cpp_signature_.has_value()) {
      TORCH_CHECK(
          *cpp_signature == cpp_signature_->signature, "\nMismatch in kernel C++ signatures\n",
          "  operator: ", (schema_.has_value() ? toString(schema_->schema) : toString(name_)), "\n",
          (schema_.has_value() ? "    registered at " + schema_->debug + "\n" : ""),
          "  kernel 1: ", cpp_signature_->signature.name(), "\n",
          "    dispatch key: ", toString(cpp_signature_->dispatch_key), "\n", "    ",
          cpp_signature_->debug, "\n", "  kernel 2: ", cpp_signature->name(), "\n",
          "    dispatch key: ", toString(key), "\n", "    ", debug, "\n");
    }
  }

  AnnotatedKernelContainer& k = kernels_[slot(key)];
  if (!k.empty()) {
    // Note [Which kernel the override warning calls previous]
    // The lines are libtorch's, but libtorch 1.13 fills "previous kernel" from the kernel that
    // fixed the operator's C++ signature, i.e. the first unboxed kernel of any key: a third
    // registration on CPU names the first one, not the one it overrides. Here it is the kernel
    // being overridden, the newest on this key.
    TORCH_WARN("Overriding a previously registered kernel for the same operator and the same ",
               "dispatch key\n",
               "  operator: ", (schema_.has_value() ? toString(schema_->schema) : toString(name_)),
               "\n", "    ", (schema_.has_value() ? schema_->debug : std::string("no debug info")),
               "\n", "  dispatch key: ", toString(key), "\n",
               "  previous kernel: ", k.front().debug, "\n", "       new kernel: ", debug);
  }
  // Pinned only now: a warning turned into an error (WarningsAsErrors) leaves no trace.
  if (cpp_signature.has_value() && !cpp_signature_.has_value()) {
    cpp_signature_ = CppSignatureWithDebug{*cpp_signature, debug, key};
  }
  k.emplace_front(AnnotatedKernel{std::move(kernel), cpp_signature, std::move(debug)});
  const auto inserted = k.begin();
  updateDispatchTable(dispatcher);
  return inserted;
}

void OperatorEntry::deregisterKernel_(const Dispatcher& dispatcher,
                                      c10::optional<DispatchKey> dispatch_key,
                                      AnnotatedKernelContainerIterator kernel) {
  const DispatchKey key = dispatch_key.value_or(DispatchKey::CompositeImplicitAutograd);
  AnnotatedKernelContainer& k = kernels_[slot(key)];
  k.erase(kernel);
  // The C++ signature stays pinned while any unboxed kernel remains.
  bool any_signature = false;
  for (const auto& list : kernels_) {
    for (const auto& annotated : list) any_signature |= annotated.cpp_signature.has_value();
  }
  if (!any_signature) cpp_signature_ = c10::nullopt;
  updateDispatchTable(dispatcher);
}

const AnnotatedKernel* OperatorEntry::getKernelForDispatchKey(DispatchKey k) const {
  const auto& list = kernels_[slot(k)];
  return list.empty() ? nullptr : &list.front();
}

bool OperatorEntry::hasKernelForDispatchKey(DispatchKey k) const {
  return !kernels_[slot(k)].empty();
}

bool OperatorEntry::hasKernelForAnyDispatchKey(DispatchKeySet ks) const {
  for (DispatchKey k : ks) {
    if (hasKernelForDispatchKey(k)) return true;
  }
  return false;
}

// See Note [Computing a dispatch-table entry].
OperatorEntry::DispatchTableChoice OperatorEntry::computeDispatchTableEntry(
    const Dispatcher& dispatcher, DispatchKey k) const {
  auto from = [](const AnnotatedKernel* a, const char* provenance) {
    return DispatchTableChoice{&a->kernel, &a->debug,
                               a->kernel.isFallthrough() ? "fallthrough" : provenance};
  };
  // 1. Direct registration.
  if (k != DispatchKey::Undefined) {
    if (const AnnotatedKernel* direct = getKernelForDispatchKey(k)) return from(direct, "kernel");
  }
  const bool is_autograd =
      k != DispatchKey::Undefined && runtimeDispatchKeySetHas(DispatchKey::Autograd, k);
  // 2. CompositeExplicitAutogradNonFunctional, then CompositeExplicitAutograd.
  for (DispatchKey explicit_key : {DispatchKey::CompositeExplicitAutogradNonFunctional,
                                   DispatchKey::CompositeExplicitAutograd}) {
    if (k != DispatchKey::Undefined && !runtimeDispatchKeySetHas(explicit_key, k)) continue;
    if (const AnnotatedKernel* cea = getKernelForDispatchKey(explicit_key)) {
      return from(cea, "CompositeExplicitAutograd kernel");
    }
  }
  // 3. CompositeImplicitAutograd; an autograd key defers to its backend's own kernels.
  if (k == DispatchKey::Undefined ||
      runtimeDispatchKeySetHas(DispatchKey::CompositeImplicitAutograd, k)) {
    if (const AnnotatedKernel* cia = getKernelForDispatchKey(DispatchKey::CompositeImplicitAutograd)) {
      const bool has_backend_kernel =
          (is_autograd && hasKernelForAnyDispatchKey(getBackendKeySetFromAutograd(k))) ||
          hasKernelForDispatchKey(DispatchKey::CompositeExplicitAutograd);
      if (!has_backend_kernel) return from(cia, "CompositeImplicitAutograd kernel");
    }
  }
  // 4. The Autograd alias.
  if (is_autograd) {
    if (const AnnotatedKernel* ag = getKernelForDispatchKey(DispatchKey::Autograd)) {
      return from(ag, "Autograd kernel");
    }
  }
  // 5. Backend fallback.
  if (k != DispatchKey::Undefined) {
    if (const DispatchTableEntry* fallback = dispatcher.backendFallback(k)) {
      return DispatchTableChoice{
          &fallback->kernel, &fallback->debug,
          fallback->kernel.isFallthrough() ? "fallthrough" : "backend fallback"};
    }
  }
  // 6. Missing.
  return DispatchTableChoice{nullptr, nullptr, "missing"};
}

void OperatorEntry::updateDispatchTable(const Dispatcher& dispatcher) {
  // See Note [Fallthrough masks are per backend].
  std::array<DispatchKeySet, num_backends> non_fallthrough;
  non_fallthrough.fill(DispatchKeySet(DispatchKeySet::FULL));
  for (DispatchKey k : runtime_keys()) {
    const DispatchTableChoice chosen = computeDispatchTableEntry(dispatcher, k);
    if (k != DispatchKey::Undefined && chosen.kernel != nullptr && chosen.kernel->isFallthrough()) {
      const BackendComponent b = toBackendComponent(k);
      for (size_t i = 0; i < num_backends; ++i) {
        // A per-backend key falls through for its own backend only.
        if (b == BackendComponent::InvalidBit || static_cast<size_t>(b) == i + 1) {
          non_fallthrough[i] = non_fallthrough[i].remove(k);
        }
      }
    }
    auto& slot_ptr = dispatch_table_[getDispatchTableIndexForDispatchKey(k)];
    if (same_entry(*slot_ptr.load(std::memory_order_relaxed), chosen)) continue;
    entries_.push_back(std::make_unique<DispatchTableEntry>(
        chosen.kernel == nullptr
            ? DispatchTableEntry{missingKernel(), "", chosen.provenance}
            : DispatchTableEntry{*chosen.kernel, *chosen.debug, chosen.provenance}));
    // The previous entry is retired, not freed. See Note [Lock-free dispatch table].
    slot_ptr.store(entries_.back().get(), std::memory_order_release);
  }
  dispatch_key_extractor_.setNonFallthroughKeys(non_fallthrough);
}

void OperatorEntry::assertSignatureIsCorrect(const CppSignature& call_signature,
                                             const char* signature_name,
                                             bool (*matches_schema)(const FunctionSchema&)) const {
  (void)signature_name;
  if (cpp_signature_.has_value()) {
    if (C10_LIKELY(call_signature == cpp_signature_->signature)) return;
    TORCH_CHECK(false, "\nTried to access or call an operator with a wrong signature.\n",
                "  operator: ", (schema_.has_value() ? toString(schema_->schema) : toString(name_)),
                "\n", (schema_.has_value() ? "    registered at " + schema_->debug + "\n" : ""),
                "  correct signature:  ", cpp_signature_->signature.name(), "\n", "    ",
                cpp_signature_->debug, "\n", "  accessed/called as: ", call_signature.name(), "\n",
                "This likely happened in a call to OperatorHandle::typed<Return (Args...)>(). ",
                "Please make sure that the function signature matches the signature in the "
                "operator registration call.");
  }
  // No unboxed kernel pins a signature: the C++ types must at least fit the schema, since a
  // boxed kernel will read them off a stack as the schema's types.
  if (schema_.has_value() && !matches_schema(schema_->schema)) {
    TORCH_CHECK(false, "\nTried to access or call an operator with a wrong signature.\n",
                "  operator: ", toString(schema_->schema), "\n", "    registered at ",
                schema_->debug, "\n", "  accessed/called as: ", call_signature.name(), "\n",
                "This likely happened in a call to OperatorHandle::typed<Return (Args...)>(). ",
                "Please make sure that the function signature matches the signature in the "
                "operator registration call.");
  }
}

std::string OperatorEntry::listAllDispatchKeys() const {
  // Every runtime key whose entry can run something (a kernel, a fallback or a fallthrough),
  // in key order, as libtorch.
  std::ostringstream str;
  str << "[";
  const char* separator = "";
  for (DispatchKey k : DispatchKeySet(DispatchKeySet::FULL)) {
    if (tableEntry(k).isMissing()) continue;
    str << separator << toString(k);
    separator = ", ";
  }
  str << "]";
  return str.str();
}

bool DispatchTableEntry::isMissing() const {
  return std::strcmp(provenance, "missing") == 0;
}

namespace {
void missing_kernel(OperatorKernel*, const OperatorHandle& op, DispatchKeySet ks,
                    torch::jit::Stack*) {
  op.entry().reportError(ks.highestPriorityTypeId());
}
}  // namespace

KernelFunction OperatorEntry::missingKernel() {
  return KernelFunction::makeFromBoxedKernel(BoxedKernel(nullptr, &missing_kernel));
}

void OperatorEntry::reportError(DispatchKey dispatch_key) const {
  if (dispatch_key == DispatchKey::Undefined) {
    TORCH_CHECK_NOT_IMPLEMENTED(
        false,
        "There were no tensor arguments to this function (e.g., you passed an empty list of "
        "Tensors), but no fallback function is registered for schema ",
        name_,
        ".  This usually means that this function requires a non-empty list of Tensors, or "
        "that you (the operator writer) forgot to register a fallback function.  Available "
        "functions are ",
        listAllDispatchKeys(), ".\n\n", dumpComputedTable());
  }
  TORCH_CHECK_NOT_IMPLEMENTED(
      false, "Could not run '", name_, "' with arguments from the '", toString(dispatch_key),
      "' backend. This could be because the operator doesn't exist for this backend, or was "
      "omitted during the selective/custom build process (if using custom build). If you are a "
      "Facebook employee using PyTorch on mobile, please visit https://fburl.com/ptmfixes for "
      "possible resolutions. '",
      name_, "' is only available for these backends: ", listAllDispatchKeys(), ".\n\n",
      dumpComputedTable());
}

std::string OperatorEntry::dumpState() const {
  std::ostringstream oss;
  oss << "name: " << name_ << "\n";
  if (schema_.has_value()) {
    oss << "schema: " << schema_->schema << "\n";
    oss << "debug: " << schema_->debug << "\n";
  } else {
    oss << "schema: (none)\n";
  }
  for (size_t i = 0; i < kernels_.size(); ++i) {
    for (const AnnotatedKernel& k : kernels_[i]) {
      oss << (i == 0 ? std::string("(catch all)") : toString(static_cast<DispatchKey>(i)))
          << ": " << (k.kernel.isFallthrough() ? "fallthrough " : "") << k.debug << " ["
          << (k.kernel.isValid() ? " boxed" : "") << (k.kernel.isValidUnboxed() ? " unboxed" : "")
          << " ]\n";
    }
  }
  return oss.str();
}

std::string OperatorEntry::dumpComputedTable() const {
  // One line per runtime key that can run something, as libtorch (the other keys, most of
  // the num_runtime_entries, are missing).
  std::ostringstream oss;
  for (DispatchKey k : runtime_keys()) {
    const DispatchTableEntry& e = tableEntry(k);
    if (e.isMissing()) continue;
    oss << toString(k) << ": " << e.debug << " [" << e.provenance << "]\n";
  }
  return oss.str();
}

}  // namespace impl
}  // namespace c10
