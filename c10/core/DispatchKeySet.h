#pragma once
// DispatchKeySet: a set of functionality keys and backend components; the highest wins.
//
//   DispatchKeySet ks = a.key_set() | b.key_set();          // CPU, ADInplaceOrView, AutogradCPU
//   ks = (ks | tls.included_) - tls.excluded_;              // what the dispatcher does
//   ks.highestPriorityTypeId();                             // AutogradCPU
//   ks.getDispatchTableIndexForDispatchKeySet();            // its slot in the dispatch table
//   (ks & after_autograd_keyset).highestPriorityTypeId();   // ADInplaceOrView, then CPU
//   ks.has_backend(BackendComponent::CPUBit);               // true
//   for (DispatchKey k : ks) { ... }                        // CPU, ADInplaceOrView, AutogradCPU
//
// Alias keys are never members; getRuntimeDispatchKeySet expands one into the runtime keys a
// kernel registered on it covers.

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <iterator>
#include <string>

#include "c10/core/DispatchKey.h"
#include "c10/util/Macros.h"

namespace c10 {

// Note [Key set representation]
// As in libtorch 1.13, the 64 bits are split: bit b-1 is backend component b (CPUBit is bit 0,
// ..., PrivateUse3Bit bit 13), and bit num_backends + f - 1 is functionality key f (Dense is
// bit 14, ..., PythonDispatcher bit 53). A per-backend runtime key sets two bits: CPU is
// {Dense, CPUBit}, AutogradCUDA is {AutogradFunctionality, CUDABit}. Consequences:
//  * A set holds the full cross product of its functionalities and backends: {AutogradCUDA, CPU}
//    is also {AutogradCPU, CUDA}. Real tensors have one backend, so this never bites.
//  * `-` and remove() clear functionality bits only, never a backend bit: CPU and AutogradCPU
//    share CPUBit, so excluding the autograd keys must leave the CPU key in place.
//    remove_backend() clears a backend bit.
//  * The highest key is the highest functionality bit, combined with the highest backend bit
//    when that functionality is per backend. See Note [Dispatch table index] for its slot.
//  * Iteration yields runtime keys only (never Dense or CPUBit alone), functionality by
//    functionality in priority order, each per-backend one once per backend bit.
class DispatchKeySet;
namespace detail {
constexpr uint64_t dispatchTableIndex(DispatchKeySet ks);  // Note [Dispatch table index on the call path]
}  // namespace detail

class DispatchKeySet final {
 public:
  enum Full { FULL };
  enum FullAfter { FULL_AFTER };
  enum Raw { RAW };

  constexpr DispatchKeySet() = default;
  // Every backend and every functionality key.
  constexpr DispatchKeySet(Full)
      : repr_((uint64_t{1} << (num_backends + num_functionality_keys - 1)) - 1) {}
  // Every backend and every functionality of lower priority than t's (t's excluded), plus
  // PythonDispatcher, as libtorch.
  constexpr DispatchKeySet(FullAfter, DispatchKey t)
      : repr_(((uint64_t{1} << (num_backends + static_cast<uint8_t>(toFunctionalityKey(t)) - 1)) -
               1) |
              functionality_bit(DispatchKey::PythonDispatcher)) {}
  // The bits as raw_repr() gave them. Callers own their meaning.
  constexpr DispatchKeySet(Raw, uint64_t x) : repr_(x) {}
  constexpr explicit DispatchKeySet(BackendComponent b) : repr_(backend_bit(b)) {}
  // A functionality key sets its bit, a per-backend runtime key two bits; Undefined, the
  // markers and alias keys give the empty set.
  constexpr explicit DispatchKeySet(DispatchKey k) : repr_(key_bits(k)) {}
  constexpr explicit DispatchKeySet(std::initializer_list<DispatchKey> ks) : repr_(0) {
    for (DispatchKey k : ks) repr_ |= key_bits(k);
  }
  constexpr explicit DispatchKeySet(std::initializer_list<BackendComponent> bs) : repr_(0) {
    for (BackendComponent b : bs) repr_ |= backend_bit(b);
  }

  // Whether every bit of k is set (as libtorch: true for Undefined and alias keys, which have
  // none; ask about runtime keys).
  constexpr bool has(DispatchKey k) const { return has_all(DispatchKeySet(k)); }
  constexpr bool has_backend(BackendComponent b) const { return has_all(DispatchKeySet(b)); }
  constexpr bool has_all(DispatchKeySet ks) const { return (repr_ & ks.repr_) == ks.repr_; }
  constexpr bool has_any(DispatchKeySet ks) const { return (repr_ & ks.repr_) != 0; }
  constexpr bool isSupersetOf(DispatchKeySet ks) const { return has_all(ks); }
  constexpr bool empty() const { return repr_ == 0; }
  constexpr uint64_t raw_repr() const { return repr_; }

  constexpr DispatchKeySet operator|(DispatchKeySet other) const {
    return DispatchKeySet(RAW, repr_ | other.repr_);
  }
  constexpr DispatchKeySet operator&(DispatchKeySet other) const {
    return DispatchKeySet(RAW, repr_ & other.repr_);
  }
  // Removes other's functionality bits; backend bits stay. See Note [Key set representation].
  constexpr DispatchKeySet operator-(DispatchKeySet other) const {
    return DispatchKeySet(RAW, repr_ & (full_backend_mask | ~other.repr_));
  }
  constexpr DispatchKeySet operator^(DispatchKeySet other) const {
    return DispatchKeySet(RAW, repr_ ^ other.repr_);
  }
  constexpr bool operator==(DispatchKeySet other) const { return repr_ == other.repr_; }
  constexpr bool operator!=(DispatchKeySet other) const { return repr_ != other.repr_; }

  // Like libtorch, these return a new set and leave *this alone.
  [[nodiscard]] constexpr DispatchKeySet add(DispatchKey k) const {
    return *this | DispatchKeySet(k);
  }
  [[nodiscard]] constexpr DispatchKeySet add(DispatchKeySet ks) const { return *this | ks; }
  // Removes k's functionality bit (remove(AutogradCPU) removes every Autograd<backend>).
  [[nodiscard]] constexpr DispatchKeySet remove(DispatchKey k) const {
    return DispatchKeySet(RAW, repr_ & ~(key_bits(k) & ~uint64_t{full_backend_mask}));
  }
  [[nodiscard]] constexpr DispatchKeySet remove_backend(BackendComponent b) const {
    return DispatchKeySet(RAW, repr_ & ~backend_bit(b));
  }

  // The highest functionality key (Undefined if none).
  constexpr DispatchKey highestFunctionalityKey() const {
    const uint8_t index = indexOfHighestBit();
    return index < num_backends ? DispatchKey::Undefined
                                : static_cast<DispatchKey>(index - num_backends);
  }
  // The highest backend component (InvalidBit if none).
  constexpr BackendComponent highestBackendKey() const {
    return static_cast<BackendComponent>(
        DispatchKeySet(RAW, repr_ & full_backend_mask).indexOfHighestBit());
  }
  // The key dispatch picks; Undefined for the empty set.
  constexpr DispatchKey highestPriorityTypeId() const {
    const DispatchKey functionality = highestFunctionalityKey();
    return isPerBackendFunctionalityKey(functionality)
               ? toRuntimePerBackendFunctionalityKey(functionality, highestBackendKey())
               : functionality;
  }
  // 1 + the position of the highest set bit; 0 for the empty set.
  constexpr uint8_t indexOfHighestBit() const {
    return repr_ == 0 ? 0 : static_cast<uint8_t>(64 - __builtin_clzll(repr_));
  }

  // Index of highestPriorityTypeId() in a table of num_runtime_entries entries.
  // See Note [Dispatch table index].
  constexpr int getDispatchTableIndexForDispatchKeySet() const;

  // 0 for CPUBit (and for no backend), 1 for CUDABit, ...: the highest backend's index.
  constexpr uint64_t getBackendIndex() const {
    return highest_bit_position_or_zero(repr_ & full_backend_mask);
  }

  // Iterates over the runtime keys, lowest priority first. See Note [Key set representation].
  class iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = DispatchKey;
    using difference_type = std::ptrdiff_t;
    using pointer = const DispatchKey*;
    using reference = DispatchKey;

    // The position past the last functionality bit, and the key value *end() gives.
    static constexpr uint8_t end_iter_mask_val = num_backends + num_functionality_keys;
    static constexpr uint8_t end_iter_key_val = num_functionality_keys;

    // Starts at functionality bit `next_functionality` (a bit position, at least num_backends)
    // and backend bit `next_backend` of *data, which is read once, here.
    C10_API explicit iterator(const uint64_t* data, uint8_t next_functionality = num_backends,
                              uint8_t next_backend = 0);

    DispatchKey operator*() const {
      const auto functionality = static_cast<DispatchKey>(current_dispatchkey_idx_);
      return isPerBackendFunctionalityKey(functionality)
                 ? toRuntimePerBackendFunctionalityKey(
                       functionality, static_cast<BackendComponent>(current_backendcomponent_idx_))
                 : functionality;
    }
    C10_API iterator& operator++();
    iterator operator++(int) {
      iterator previous = *this;
      ++*this;
      return previous;
    }
    bool operator==(const iterator& rhs) const {
      return next_functionality_ == rhs.next_functionality_ &&
             current_dispatchkey_idx_ == rhs.current_dispatchkey_idx_ &&
             next_backend_ == rhs.next_backend_ &&
             current_backendcomponent_idx_ == rhs.current_backendcomponent_idx_;
    }
    bool operator!=(const iterator& rhs) const { return !(*this == rhs); }

   private:
    uint64_t bits_;
    uint8_t next_functionality_;
    uint8_t next_backend_;
    uint8_t current_dispatchkey_idx_ = end_iter_key_val;
    uint8_t current_backendcomponent_idx_ = end_iter_key_val;
  };
  iterator begin() const { return iterator(&repr_); }
  iterator end() const { return iterator(&repr_, iterator::end_iter_mask_val); }

 private:
  static constexpr uint64_t backend_bit(BackendComponent b) {
    return b == BackendComponent::InvalidBit ? 0 : uint64_t{1} << (static_cast<uint8_t>(b) - 1);
  }
  static constexpr uint64_t functionality_bit(DispatchKey f) {
    return f == DispatchKey::Undefined
               ? 0
               : uint64_t{1} << (num_backends + static_cast<uint8_t>(f) - 1);
  }
  static constexpr uint64_t key_bits(DispatchKey k) {
    // The markers have bits too, as in libtorch: EndOfFunctionalityKeys the bit past the last
    // key (never in FULL), a StartOf<Functionality>Backends marker its functionality's bit.
    if (k <= DispatchKey::EndOfFunctionalityKeys) return functionality_bit(k);
    if (k <= DispatchKey::EndOfRuntimeBackendKeys) {
      return functionality_bit(toFunctionalityKey(k)) | backend_bit(toBackendComponent(k));
    }
    return 0;  // alias keys
  }
  // The position of the highest set bit of x, 0 when x is 0 (or 1), without a branch:
  // x | 1 is never 0, and its highest bit is x's unless x is 0.
  static constexpr uint64_t highest_bit_position_or_zero(uint64_t x) {
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
    // GCC turns `63 ^ clz` into a 32-bit bsr and sign-extends the result before indexing with
    // it; its 64-bit bsr builtin leaves one instruction on the dispatch path (clang emits that
    // from the portable form below).
    if (!__builtin_is_constant_evaluated()) {
      return static_cast<uint64_t>(__builtin_ia32_bsrdi(static_cast<long long>(x | 1)));
    }
#endif
    // `63 ^ clz` rather than `63 - clz`: the same for 0..63, and compilers fold it into a bsr.
    return 63 ^ static_cast<uint64_t>(__builtin_clzll(x | 1));
  }
  friend constexpr uint64_t detail::dispatchTableIndex(DispatchKeySet ks);

  uint64_t repr_ = 0;
};

// Note [Dispatch table index]
// A dispatch table has an entry for Undefined (index 0), one per functionality key that is not
// per backend, and num_backends per per-backend functionality, in key order: Undefined, CPU,
// CUDA, ..., PrivateUse3, FPGA, ORT, ... A set's index is therefore
//   offset[highest functionality] + (that functionality is per backend ? highest backend : 0),
// two count-leading-zeros and one load from the small table below. It is computed at compile
// time, so the hot path has no initialization guard (libtorch's is a function-local static).
struct FunctionalityOffsetAndMask {
  uint16_t offset;  // table index of the functionality's first entry
  uint16_t mask;    // full_backend_mask for a per-backend functionality, else 0
};

namespace detail {
constexpr std::array<FunctionalityOffsetAndMask, num_functionality_keys>
computeFunctionalityOffsetsAndMasks() {
  std::array<FunctionalityOffsetAndMask, num_functionality_keys> table{};
  table[0] = FunctionalityOffsetAndMask{0, 0};  // Undefined
  for (uint8_t f = 1; f < num_functionality_keys; ++f) {
    const FunctionalityOffsetAndMask previous = table[f - 1];
    table[f].offset =
        static_cast<uint16_t>(previous.offset + (previous.mask == 0 ? 1 : num_backends));
    table[f].mask =
        isPerBackendFunctionalityKey(static_cast<DispatchKey>(f)) ? full_backend_mask : 0;
  }
  return table;
}
}  // namespace detail

inline constexpr std::array<FunctionalityOffsetAndMask, num_functionality_keys>
    functionality_offsets_and_masks = detail::computeFunctionalityOffsetsAndMasks();
static_assert(functionality_offsets_and_masks[num_functionality_keys - 1].offset ==
                  num_runtime_entries - 1,
              "the highest functionality key (not per backend) takes the last table entry");

// Note [Dispatch table index on the call path]
// The dispatch path reads the table above through two copies indexed by the position of a
// set's highest bit (0-63) instead of by its functionality, as 64-bit words: from the set to
// its index is then bsr, a load, and, bsr, add, with no shift to find the functionality and no
// unpacking of 16-bit fields. Positions below num_backends (a set with backend bits only) give
// Undefined's entry; position num_backends - 1 + f gives functionality f's.
namespace detail {
template <bool kOffsets>
constexpr std::array<uint64_t, 64> computeByHighestBit() {
  std::array<uint64_t, 64> table{};
  for (int bit = 0; bit < 64; ++bit) {
    const int f = bit - (num_backends - 1);
    const FunctionalityOffsetAndMask entry = f > 0 && f < num_functionality_keys
                                                 ? functionality_offsets_and_masks[f]
                                                 : functionality_offsets_and_masks[0];
    table[bit] = kOffsets ? entry.offset : entry.mask;
  }
  return table;
}
inline constexpr std::array<uint64_t, 64> table_offset_by_highest_bit = computeByHighestBit<true>();
inline constexpr std::array<uint64_t, 64> backend_mask_by_highest_bit = computeByHighestBit<false>();

// getDispatchTableIndexForDispatchKeySet() as the unsigned 64-bit value the dispatch path
// indexes with (an int would be sign-extended on the way to the table).
constexpr uint64_t dispatchTableIndex(DispatchKeySet ks) {
  const uint64_t highest = DispatchKeySet::highest_bit_position_or_zero(ks.repr_);
  return table_offset_by_highest_bit[highest] +
         DispatchKeySet::highest_bit_position_or_zero(ks.repr_ &
                                                      backend_mask_by_highest_bit[highest]);
}
}  // namespace detail

// libtorch's accessor for the table.
inline const std::array<FunctionalityOffsetAndMask, num_functionality_keys>& offsetsAndMasks() {
  return functionality_offsets_and_masks;
}

constexpr int DispatchKeySet::getDispatchTableIndexForDispatchKeySet() const {
  return static_cast<int>(detail::dispatchTableIndex(*this));
}

constexpr int getDispatchTableIndexForDispatchKey(DispatchKey k) {
  return DispatchKeySet(k).getDispatchTableIndexForDispatchKeySet();
}

// "DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU)", lowest priority first; empty:
// "DispatchKeySet()".
C10_API std::string toString(DispatchKeySet ks);
C10_API std::ostream& operator<<(std::ostream& os, DispatchKeySet ks);

// ---- Named sets, as libtorch 1.13 has them ----

// The autograd functionalities. With no backend bits of their own (Note [Key set
// representation]), they serve for excluding and masking; the Autograd alias covers them
// crossed with every backend.
constexpr DispatchKeySet autograd_dispatch_keyset({
    DispatchKey::AutogradFunctionality,
    DispatchKey::AutogradOther,
    DispatchKey::AutogradNestedTensor,
});

constexpr DispatchKeySet autocast_dispatch_keyset({
    DispatchKey::AutocastCPU,
    DispatchKey::AutocastCUDA,
    DispatchKey::AutocastXPU,
});

// The thread-local included/excluded sets every thread starts with. BackendSelect routes
// factory functions (Note [Key order]); autocast is off until a guard turns it on.
constexpr DispatchKeySet default_included_set({DispatchKey::BackendSelect,
                                               DispatchKey::ADInplaceOrView});
constexpr DispatchKeySet default_excluded_set = autocast_dispatch_keyset;

constexpr DispatchKeySet autograd_dispatch_keyset_with_ADInplaceOrView =
    autograd_dispatch_keyset | DispatchKeySet(DispatchKey::ADInplaceOrView);

constexpr DispatchKeySet python_ks({DispatchKey::Python, DispatchKey::PythonTLSSnapshot});
constexpr DispatchKeySet sparse_ks(DispatchKey::Sparse);
constexpr DispatchKeySet sparse_csr_ks({DispatchKey::SparseCsrCPU, DispatchKey::SparseCsrCUDA});
constexpr DispatchKeySet mkldnn_ks(DispatchKey::MkldnnCPU);

// Backends whose autograd key is AutogradOther (they have no Autograd<backend> key).
constexpr DispatchKeySet autogradother_backends =
    DispatchKeySet({DispatchKey::FPGA, DispatchKey::ORT, DispatchKey::Vulkan, DispatchKey::Metal,
                    DispatchKey::SparseCsrCPU, DispatchKey::SparseCsrCUDA,
                    DispatchKey::CustomRNGKeyId, DispatchKey::MkldnnCPU, DispatchKey::Sparse,
                    DispatchKey::Quantized}) |
    DispatchKeySet(DispatchKeySet::RAW, full_backend_mask);

// Every key a CompositeExplicitAutograd kernel serves: the backends' kernels (Dense x every
// backend, and the other backend functionalities). NestedTensor is not among them (libtorch's
// Note [NestedTensor Not Included in Backend Keys]).
constexpr DispatchKeySet backend_dispatch_keyset =
    autogradother_backends | DispatchKeySet(DispatchKey::Dense);

// Every key a CompositeImplicitAutograd kernel serves: the backends and autograd, with
// NestedTensor.
constexpr DispatchKeySet math_dispatch_keyset =
    backend_dispatch_keyset | autograd_dispatch_keyset | DispatchKeySet(DispatchKey::NestedTensor);

// Every key below AutogradOther (the lowest autograd key): what an autograd kernel
// redispatches with, `ks & after_autograd_keyset`. See Note [Key order].
constexpr DispatchKeySet after_autograd_keyset(DispatchKeySet::FULL_AFTER,
                                               DispatchKey::AutogradOther);
// Every key below ADInplaceOrView.
constexpr DispatchKeySet after_ADInplaceOrView_keyset(DispatchKeySet::FULL_AFTER,
                                                      DispatchKey::ADInplaceOrView);
constexpr DispatchKeySet after_func_keyset =
    DispatchKeySet(DispatchKeySet::FULL_AFTER, DispatchKey::Functionalize)
        .remove(DispatchKey::ADInplaceOrView);

constexpr DispatchKeySet backend_bitset_mask(DispatchKeySet::RAW,
                                             (uint64_t{1} << num_backends) - 1);

constexpr DispatchKeySet inplace_or_view_ks(DispatchKey::ADInplaceOrView);
constexpr DispatchKeySet autograd_cpu_ks(DispatchKey::AutogradCPU);
constexpr DispatchKeySet autograd_ipu_ks(DispatchKey::AutogradIPU);
constexpr DispatchKeySet autograd_xpu_ks(DispatchKey::AutogradXPU);
constexpr DispatchKeySet autograd_cuda_ks(DispatchKey::AutogradCUDA);
constexpr DispatchKeySet autograd_xla_ks(DispatchKey::AutogradXLA);
constexpr DispatchKeySet autograd_lazy_ks(DispatchKey::AutogradLazy);
constexpr DispatchKeySet autograd_meta_ks(DispatchKey::AutogradMeta);
constexpr DispatchKeySet autograd_mps_ks(DispatchKey::AutogradMPS);
constexpr DispatchKeySet autograd_hpu_ks(DispatchKey::AutogradHPU);
constexpr DispatchKeySet autograd_privateuse1_ks(DispatchKey::AutogradPrivateUse1);
constexpr DispatchKeySet autograd_privateuse2_ks(DispatchKey::AutogradPrivateUse2);
constexpr DispatchKeySet autograd_privateuse3_ks(DispatchKey::AutogradPrivateUse3);
constexpr DispatchKeySet autograd_other_ks(DispatchKey::AutogradOther);
constexpr DispatchKeySet autograd_nested(DispatchKey::AutogradNestedTensor);

constexpr DispatchKeySet functorch_transforms_ks({DispatchKey::FuncTorchBatched,
                                                  DispatchKey::FuncTorchVmapMode,
                                                  DispatchKey::Batched, DispatchKey::VmapMode,
                                                  DispatchKey::FuncTorchGradWrapper});

// The functionalities that make a tensor's backend (used to find a set's backend key).
constexpr DispatchKeySet backend_functionality_keys =
    DispatchKeySet({DispatchKey::Dense, DispatchKey::Quantized, DispatchKey::Sparse}) |
    DispatchKeySet(DispatchKeySet::RAW, full_backend_mask);

// ---- Alias keys and backends ----

// Whether k is a key a CompositeExplicitAutograd kernel serves (CPU, SparseCUDA, FPGA, ...);
// false for Undefined, alias keys and NestedTensor.
C10_API bool isBackendDispatchKey(DispatchKey k);

// The runtime keys a kernel registered on `k` covers:
//   Autograd                  -> every Autograd<backend>, AutogradOther, AutogradNestedTensor
//   CompositeExplicitAutograd -> backend_dispatch_keyset
//   CompositeImplicitAutograd -> math_dispatch_keyset
//   a runtime key             -> {k}
// Undefined is a bug in the caller (internal assert), as in libtorch.
C10_API DispatchKeySet getRuntimeDispatchKeySet(DispatchKey k);

// getRuntimeDispatchKeySet(alias).has(k), without building the set.
C10_API bool runtimeDispatchKeySetHas(DispatchKey alias, DispatchKey k);

// Whether runtime key k is one of the keys `alias` covers (false for Undefined).
C10_API bool isIncludedInAlias(DispatchKey k, DispatchKey alias);

// AutogradCPU -> {CPU}, ...; AutogradOther -> autogradother_backends; anything else -> {}.
C10_API DispatchKeySet getBackendKeySetFromAutograd(DispatchKey k);

// {ADInplaceOrView, Autograd<backend>} (AutogradOther for a backend without its own key).
constexpr DispatchKeySet getAutogradRelatedKeySetFromBackend(BackendComponent b) {
  return inplace_or_view_ks | DispatchKeySet(getAutogradKeyFromBackend(b));
}

// {AutocastCPU} for CPUBit, {AutocastXPU} for XPUBit, {AutocastCUDA} for CUDA and XLA.
constexpr DispatchKeySet getAutocastRelatedKeySetFromBackend(BackendComponent b) {
  switch (b) {
    case BackendComponent::CPUBit:
      return DispatchKeySet(DispatchKey::AutocastCPU);
    case BackendComponent::XPUBit:
      return DispatchKeySet(DispatchKey::AutocastXPU);
    case BackendComponent::CUDABit:
    case BackendComponent::XLABit:
      return DispatchKeySet(DispatchKey::AutocastCUDA);
    default:
      return DispatchKeySet();
  }
}

// The key set a tensor of backend key `backend` (CPU, CUDA, Meta, PrivateUse1) carries:
// {backend, ADInplaceOrView, Autograd<backend>}; empty for Undefined (an undefined tensor).
constexpr DispatchKeySet keysetForBackend(DispatchKey backend) {
  return backend == DispatchKey::Undefined
             ? DispatchKeySet()
             : DispatchKeySet(backend) |
                   getAutogradRelatedKeySetFromBackend(toBackendComponent(backend));
}

// The highest backend key in ks (Undefined if none).
constexpr DispatchKey highestPriorityBackendTypeId(DispatchKeySet ks) {
  return (ks & backend_functionality_keys).highestPriorityTypeId();
}

// The key that names a tensor's backend, ignoring the autograd, autocast and Python layers
// (libtorch's helper for code that predates key sets).
constexpr DispatchKey legacyExtractDispatchKey(DispatchKeySet ks) {
  return (ks - autograd_dispatch_keyset_with_ADInplaceOrView - autocast_dispatch_keyset - python_ks)
      .highestPriorityTypeId();
}

}  // namespace c10
