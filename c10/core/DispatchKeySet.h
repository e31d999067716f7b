#pragma once
// DispatchKeySet: a set of runtime DispatchKeys, one bit per key; the highest bit wins.
//
//   DispatchKeySet ks = a.key_set() | b.key_set();          // CPU, ADInplaceOrView, AutogradCPU
//   ks = (ks | tls.included_) - tls.excluded_;              // what the dispatcher does
//   ks.highestPriorityTypeId();                             // AutogradCPU
//   ks.getDispatchTableIndexForDispatchKeySet();            // its slot in the dispatch table
//   (ks & after_autograd_keyset).highestPriorityTypeId();   // CPU: where autograd redispatches
//   for (DispatchKey k : ks) { ... }                        // lowest priority first
//
// Alias keys are never members; getRuntimeDispatchKeySet expands one into the runtime keys a
// kernel registered on it covers.

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <iterator>
#include <string>

#include "c10/core/DispatchKey.h"
#include "c10/util/Macros.h"

namespace c10 {

// Note [Flat key set]
// libtorch 1.13 splits its 64 bits into "backend" bits and "functionality" bits, so that
// Dense/Sparse/Quantized/Autograd x 16 backends fit; a per-backend key such as AutogradCPU is
// two bits (Autograd + CPUBit). miniaten has 4 backends and two per-backend functionalities, so
// it gives every runtime key its own bit, at position = enum value (bit 0, Undefined, is never
// set). Every set operation is then plain bit arithmetic, and:
//  * highestPriorityTypeId() and the dispatch-table index are one count-leading-zeros;
//    `repr_ | 1` makes the empty set answer Undefined (index 0) without a branch;
//  * `-` and remove() really remove any key (libtorch's never clear a backend bit, since there
//    CPU and AutogradCPU share one);
//  * the order among per-backend keys is total: {CUDA, AutogradCPU} picks AutogradCPU, where
//    libtorch would combine the bits into AutogradCUDA, and FULL_AFTER AutogradCUDA holds
//    AutogradCPU, where libtorch's holds no Autograd<backend> key. Real tensors never carry
//    such a mix, and the sets that matter (below AutogradOther or ADInplaceOrView) agree.
class DispatchKeySet final {
 public:
  enum Full { FULL };
  enum FullAfter { FULL_AFTER };
  enum Raw { RAW };

  constexpr DispatchKeySet() = default;
  // Every runtime key.
  constexpr DispatchKeySet(Full) : repr_(bit_range_below(DispatchKey::NumDispatchKeys)) {}
  // Every runtime key with lower priority than t (t itself excluded), as libtorch.
  constexpr DispatchKeySet(FullAfter, DispatchKey t) : repr_(bit_range_below(t)) {}
  // The bits as raw_repr() gave them. Callers own their meaning.
  constexpr DispatchKeySet(Raw, uint64_t x) : repr_(x) {}
  // Undefined and alias keys give the empty set.
  constexpr explicit DispatchKeySet(DispatchKey k) : repr_(key_bit(k)) {}
  constexpr explicit DispatchKeySet(std::initializer_list<DispatchKey> ks) : repr_(0) {
    for (DispatchKey k : ks) repr_ |= key_bit(k);
  }

  // False for Undefined and alias keys: they are never members.
  constexpr bool has(DispatchKey k) const { return (repr_ & key_bit(k)) != 0; }
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
  // Set difference. See Note [Flat key set] for how this differs from libtorch.
  constexpr DispatchKeySet operator-(DispatchKeySet other) const {
    return DispatchKeySet(RAW, repr_ & ~other.repr_);
  }
  constexpr DispatchKeySet operator^(DispatchKeySet other) const {
    return DispatchKeySet(RAW, repr_ ^ other.repr_);
  }
  constexpr bool operator==(DispatchKeySet other) const { return repr_ == other.repr_; }
  constexpr bool operator!=(DispatchKeySet other) const { return repr_ != other.repr_; }

  // Like libtorch, these return a new set and leave *this alone.
  [[nodiscard]] constexpr DispatchKeySet add(DispatchKey k) const {
    return DispatchKeySet(RAW, repr_ | key_bit(k));
  }
  [[nodiscard]] constexpr DispatchKeySet add(DispatchKeySet ks) const { return *this | ks; }
  [[nodiscard]] constexpr DispatchKeySet remove(DispatchKey k) const {
    return DispatchKeySet(RAW, repr_ & ~key_bit(k));
  }

  // The key dispatch picks: the highest bit; Undefined for the empty set.
  // See Note [Flat key set].
  constexpr DispatchKey highestPriorityTypeId() const {
    return static_cast<DispatchKey>(getDispatchTableIndexForDispatchKeySet());
  }
  // Index of highestPriorityTypeId() in a table of num_runtime_entries entries.
  constexpr int getDispatchTableIndexForDispatchKeySet() const {
    return 63 - __builtin_clzll(repr_ | 1);
  }

  // Iterates over the keys in increasing priority (lowest bit first).
  class iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = DispatchKey;
    using difference_type = std::ptrdiff_t;
    using pointer = const DispatchKey*;
    using reference = DispatchKey;

    constexpr explicit iterator(uint64_t remaining) : remaining_(remaining) {}
    DispatchKey operator*() const { return static_cast<DispatchKey>(__builtin_ctzll(remaining_)); }
    iterator& operator++() {
      remaining_ &= remaining_ - 1;  // drop the lowest bit
      return *this;
    }
    iterator operator++(int) {
      iterator previous = *this;
      ++*this;
      return previous;
    }
    constexpr bool operator==(const iterator& rhs) const { return remaining_ == rhs.remaining_; }
    constexpr bool operator!=(const iterator& rhs) const { return remaining_ != rhs.remaining_; }

   private:
    uint64_t remaining_;
  };
  iterator begin() const { return iterator(repr_); }
  iterator end() const { return iterator(0); }

 private:
  static constexpr uint64_t key_bit(DispatchKey k) {
    return k > DispatchKey::Undefined && k < DispatchKey::NumDispatchKeys
               ? uint64_t{1} << static_cast<uint8_t>(k)
               : 0;
  }
  // Bits 1 .. t-1: the runtime keys below t.
  static constexpr uint64_t bit_range_below(DispatchKey t) {
    return t > DispatchKey::Undefined && t <= DispatchKey::NumDispatchKeys
               ? (uint64_t{1} << static_cast<uint8_t>(t)) - 2
               : 0;
  }

  uint64_t repr_ = 0;
};

// "DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU)", lowest priority first; empty:
// "DispatchKeySet()".
C10_API std::string toString(DispatchKeySet ks);
C10_API std::ostream& operator<<(std::ostream& os, DispatchKeySet ks);

// ---- Named sets ----

// CPU, CUDA, Meta, PrivateUse1.
constexpr DispatchKeySet backend_dispatch_keyset({DispatchKey::CPU, DispatchKey::CUDA,
                                                  DispatchKey::Meta, DispatchKey::PrivateUse1});

// Every runtime autograd key: what the Autograd alias covers, and what
// AutoDispatchBelowAutograd excludes.
constexpr DispatchKeySet autograd_dispatch_keyset({
    DispatchKey::AutogradOther,
    DispatchKey::AutogradCPU,
    DispatchKey::AutogradCUDA,
    DispatchKey::AutogradMeta,
    DispatchKey::AutogradPrivateUse1,
});

constexpr DispatchKeySet autograd_dispatch_keyset_with_ADInplaceOrView =
    autograd_dispatch_keyset | DispatchKeySet(DispatchKey::ADInplaceOrView);

// Backends whose autograd key is AutogradOther. libtorch puts Sparse, Quantized, Vulkan, ...
// here; every miniaten backend has its own Autograd<backend> key, so it is empty.
constexpr DispatchKeySet autogradother_backends{};

// Every key below AutogradOther (the lowest autograd key): what an autograd kernel
// redispatches with, `ks & after_autograd_keyset`. See Note [Key order].
constexpr DispatchKeySet after_autograd_keyset(DispatchKeySet::FULL_AFTER,
                                               DispatchKey::AutogradOther);

// Every key below ADInplaceOrView.
constexpr DispatchKeySet after_ADInplaceOrView_keyset(DispatchKeySet::FULL_AFTER,
                                                      DispatchKey::ADInplaceOrView);

// The thread-local included/excluded sets every thread starts with (as libtorch, minus its
// Autocast keys). BackendSelect routes factory functions; see Note [Key order].
constexpr DispatchKeySet default_included_set({DispatchKey::BackendSelect,
                                               DispatchKey::ADInplaceOrView});
constexpr DispatchKeySet default_excluded_set{};

// ---- Alias keys and backends ----

// The runtime keys a kernel registered on `k` covers:
//   Autograd                  -> autograd_dispatch_keyset (every Autograd<backend> + Other)
//   CompositeExplicitAutograd -> backend_dispatch_keyset
//   CompositeImplicitAutograd -> backend_dispatch_keyset | autograd_dispatch_keyset
//   a runtime key             -> {k}
// Undefined is a bug in the caller (internal assert), as in libtorch.
C10_API DispatchKeySet getRuntimeDispatchKeySet(DispatchKey k);

// getRuntimeDispatchKeySet(alias).has(k), without building the set.
C10_API bool runtimeDispatchKeySetHas(DispatchKey alias, DispatchKey k);

// Whether runtime key k is one of the keys `alias` covers (false for Undefined).
C10_API bool isIncludedInAlias(DispatchKey k, DispatchKey alias);

// AutogradCPU -> {CPU}, ...; AutogradOther -> autogradother_backends; anything else -> {}.
C10_API DispatchKeySet getBackendKeySetFromAutograd(DispatchKey k);

// {ADInplaceOrView, Autograd<backend>} (AutogradOther for a non-backend key).
constexpr DispatchKeySet getAutogradRelatedKeySetFromBackend(DispatchKey backend) {
  return DispatchKeySet({DispatchKey::ADInplaceOrView, getAutogradKeyFromBackend(backend)});
}

// The key set a tensor on `backend` carries: {backend, ADInplaceOrView, Autograd<backend>};
// empty for Undefined (an undefined tensor).
constexpr DispatchKeySet keysetForBackend(DispatchKey backend) {
  return backend == DispatchKey::Undefined
             ? DispatchKeySet()
             : DispatchKeySet(backend) | getAutogradRelatedKeySetFromBackend(backend);
}

// The highest backend key in ks (Undefined if none).
constexpr DispatchKey highestPriorityBackendTypeId(DispatchKeySet ks) {
  return (ks & backend_dispatch_keyset).highestPriorityTypeId();
}

// The key that names a tensor's backend, ignoring the autograd layers (libtorch's helper for
// code that predates key sets).
constexpr DispatchKey legacyExtractDispatchKey(DispatchKeySet ks) {
  return (ks - autograd_dispatch_keyset_with_ADInplaceOrView).highestPriorityTypeId();
}

constexpr int getDispatchTableIndexForDispatchKey(DispatchKey k) {
  return DispatchKeySet(k).getDispatchTableIndexForDispatchKeySet();
}

}  // namespace c10
