#pragma once
// Thread-local included/excluded dispatch keys, and the guards that change them for a scope.
//
//   {
//     c10::impl::ExcludeDispatchKeyGuard no_autograd(c10::autograd_dispatch_keyset);
//     // Calls on this thread now skip every autograd key ...
//   }  // ... and the excluded set is back to what it was.
//
//   auto tls = c10::impl::tls_local_dispatch_key_set();
//   DispatchKeySet ks = (tensor_keys | tls.included_) - tls.excluded_;   // the dispatcher
//
// A new thread starts from default_included_set / default_excluded_set; a thread's sets never
// affect another thread (an engine thread that must inherit them copies them with
// ForceDispatchKeyGuard).

#include <cstdint>
#include <type_traits>

#include "c10/core/DispatchKeySet.h"
#include "c10/util/Macros.h"

namespace c10 {
namespace impl {

// The raw thread-local storage. Plain integers keep it trivial, so the thread-local needs no
// constructor and no destructor. See Note [Fast TLS access].
struct C10_API PODLocalDispatchKeySet {
  uint64_t included_;
  uint64_t excluded_;

  DispatchKeySet included() const { return DispatchKeySet(DispatchKeySet::RAW, included_); }
  DispatchKeySet excluded() const { return DispatchKeySet(DispatchKeySet::RAW, excluded_); }
  void set_included(DispatchKeySet x) { included_ = x.raw_repr(); }
  void set_excluded(DispatchKeySet x) { excluded_ = x.raw_repr(); }
};
static_assert(std::is_trivial<PODLocalDispatchKeySet>::value &&
                  std::is_standard_layout<PODLocalDispatchKeySet>::value,
              "PODLocalDispatchKeySet must be a POD type.");

// A snapshot of this thread's sets, as the dispatcher reads them.
struct C10_API LocalDispatchKeySet {
  /* implicit */ LocalDispatchKeySet(PODLocalDispatchKeySet x)
      : included_(x.included()), excluded_(x.excluded()) {}
  DispatchKeySet included_;
  DispatchKeySet excluded_;
};

// Note [Fast TLS access]
// The dispatcher reads these sets on every call, so reading them must cost one thread-local
// load. A C++ `extern thread_local` object may have a dynamic initializer in the file that
// defines it, so GCC and Clang make every other file check for one (a compare on a weak
// `_ZTH` symbol, and maybe a call) on each access. GNU `__thread` promises constant
// initialization, so the access is just the load (%fs-relative in an executable). libtorch
// avoids the same cost by keeping its POD zero-initialized; we initialize it to the defaults.
// Touch it only through the functions below.
extern C10_API __thread PODLocalDispatchKeySet raw_local_dispatch_key_set C10_TLS_FAST;

inline LocalDispatchKeySet tls_local_dispatch_key_set() {
  return raw_local_dispatch_key_set;
}

// Replaces this thread's sets wholesale (ForceDispatchKeyGuard, threads inheriting a parent's).
C10_API void _force_tls_local_dispatch_key_set(LocalDispatchKeySet key_set);

C10_API bool tls_is_dispatch_key_excluded(DispatchKey x);
C10_API void tls_set_dispatch_key_excluded(DispatchKey x, bool desired_state);
C10_API bool tls_is_dispatch_key_included(DispatchKey x);
C10_API void tls_set_dispatch_key_included(DispatchKey x, bool desired_state);
// Whether every key of ks is excluded (resp. included).
C10_API bool tls_is_dispatch_keyset_excluded(DispatchKeySet ks);
C10_API bool tls_is_dispatch_keyset_included(DispatchKeySet ks);

// Note [Guards add only what was missing]
// A guard adds to the set only the keys not already there (its delta) and, on destruction,
// removes only that delta. Nested guards on the same key therefore compose: the inner one
// adds nothing and removes nothing, and the key stays until the outer guard ends. A key that
// was already excluded before any guard stays excluded after them all. Guards must be
// destroyed on their own thread in reverse order of construction (RAII scopes do that).

// The bits of `a` that `b` lacks, backend bits included. Guards work on raw bits, not with
// DispatchKeySet's `-`, which keeps backend bits (Note [Key set representation]): libtorch
// 1.13's guards use `-`, so a guard on AutogradCPU leaves CPUBit behind in the thread's set
// when it ends (harmless when excluded, but an included CPUBit would join every later call's
// keys). Raw-bit deltas put back exactly what was there.
constexpr DispatchKeySet bits_missing(DispatchKeySet a, DispatchKeySet b) {
  return DispatchKeySet(DispatchKeySet::RAW, a.raw_repr() & ~b.raw_repr());
}

class C10_API IncludeDispatchKeyGuard {
 public:
  // Inline: every Autograd kernel sets one of these guards, a call out costs as much as the work.
  /* implicit */ IncludeDispatchKeyGuard(DispatchKeySet include)
      : tls_(&raw_local_dispatch_key_set), include_(bits_missing(include, tls_->included())) {
    if (!include_.empty()) tls_->set_included(tls_->included() | include_);
  }
  /* implicit */ IncludeDispatchKeyGuard(DispatchKey k)
      : IncludeDispatchKeyGuard(DispatchKeySet(k)) {}
  IncludeDispatchKeyGuard(const IncludeDispatchKeyGuard&) = delete;
  IncludeDispatchKeyGuard& operator=(const IncludeDispatchKeyGuard&) = delete;
  IncludeDispatchKeyGuard(IncludeDispatchKeyGuard&&) = delete;
  IncludeDispatchKeyGuard& operator=(IncludeDispatchKeyGuard&&) = delete;
  ~IncludeDispatchKeyGuard() {
    if (!include_.empty()) tls_->set_included(bits_missing(tls_->included(), include_));
  }

 private:
  PODLocalDispatchKeySet* tls_;  // this thread's sets, looked up once
  DispatchKeySet include_;       // the delta. See Note [Guards add only what was missing]
};

class C10_API ExcludeDispatchKeyGuard {
 public:
  /* implicit */ ExcludeDispatchKeyGuard(DispatchKeySet exclude)
      : tls_(&raw_local_dispatch_key_set), exclude_(bits_missing(exclude, tls_->excluded())) {
    if (!exclude_.empty()) tls_->set_excluded(tls_->excluded() | exclude_);
  }
  /* implicit */ ExcludeDispatchKeyGuard(DispatchKey k)
      : ExcludeDispatchKeyGuard(DispatchKeySet(k)) {}
  ExcludeDispatchKeyGuard(const ExcludeDispatchKeyGuard&) = delete;
  ExcludeDispatchKeyGuard& operator=(const ExcludeDispatchKeyGuard&) = delete;
  ExcludeDispatchKeyGuard(ExcludeDispatchKeyGuard&&) = delete;
  ExcludeDispatchKeyGuard& operator=(ExcludeDispatchKeyGuard&&) = delete;
  ~ExcludeDispatchKeyGuard() {
    if (!exclude_.empty()) tls_->set_excluded(bits_missing(tls_->excluded(), exclude_));
  }

 private:
  PODLocalDispatchKeySet* tls_;
  DispatchKeySet exclude_;  // the delta. See Note [Guards add only what was missing]
};

// Sets both sets to key_set for a scope, then puts back exactly what was there.
class C10_API ForceDispatchKeyGuard {
 public:
  /* implicit */ ForceDispatchKeyGuard(LocalDispatchKeySet key_set)
      : saved_keyset_(tls_local_dispatch_key_set()) {
    _force_tls_local_dispatch_key_set(key_set);
  }
  ForceDispatchKeyGuard(const ForceDispatchKeyGuard&) = delete;
  ForceDispatchKeyGuard& operator=(const ForceDispatchKeyGuard&) = delete;
  ~ForceDispatchKeyGuard() { _force_tls_local_dispatch_key_set(saved_keyset_); }

 private:
  LocalDispatchKeySet saved_keyset_;
};

}  // namespace impl
}  // namespace c10
