#pragma once
// DispatchKeyExtractor: computes the key set of one call (REFERENCE.md section 5):
//
//   ks = (union of the keys of every Tensor / Tensor? / Tensor[] argument | TLS included)
//        - TLS excluded, then & the keys whose entry for this operator is not a fallthrough.
//
// Typed calls visit their C++ arguments directly; boxed calls look only at the stack slots the
// schema says hold tensors (computed once per schema).

#include <array>
#include <atomic>
#include <cstdint>

#include "aten/core/Tensor.h"
#include "c10/core/LocalDispatchKeySet.h"
#include "dispatcher/FunctionSchema.h"
#include "dispatcher/Stack.h"

namespace c10 {

namespace detail {

// The keys of the tensors among a call's arguments (undefined tensors contribute nothing).
struct MultiDispatchKeySet {
  DispatchKeySet ts;

  void operator()(const at::Tensor& x) {
    if (const TensorImpl* impl = x.unsafeGetTensorImpl()) ts = ts | impl->key_set();
  }
  void operator()(const c10::optional<at::Tensor>& x) {
    if (x.has_value()) (*this)(*x);
  }
  void operator()(at::ArrayRef<at::Tensor> xs) {
    for (const auto& x : xs) (*this)(x);
  }
  void operator()(const std::vector<at::Tensor>& xs) { (*this)(at::ArrayRef<at::Tensor>(xs)); }
  void operator()(at::ArrayRef<c10::optional<at::Tensor>> xs) {
    for (const auto& x : xs) (*this)(x);
  }
  void operator()(const std::vector<c10::optional<at::Tensor>>& xs) {
    (*this)(at::ArrayRef<c10::optional<at::Tensor>>(xs));
  }
  void operator()(const c10::List<c10::optional<at::Tensor>>& xs) {
    for (const auto& x : xs) (*this)(x);
  }
  template <class T>
  void operator()(const T&) {}  // not a tensor
};

template <class... Args>
C10_ALWAYS_INLINE DispatchKeySet multi_dispatch_key_set(const Args&... args) {
  MultiDispatchKeySet visitor;
  (visitor(args), ...);
  return visitor.ts;
}

}  // namespace detail

class C10_API DispatchKeyExtractor final {
 public:
  static DispatchKeyExtractor makeUninitialized() { return DispatchKeyExtractor(); }

  void registerSchema(const FunctionSchema& schema);
  void deregisterSchema() { dispatch_arg_indices_reverse_ = 0; }

  // Keys whose computed table entry is a fallthrough are masked out before the highest key
  // is chosen, so calls skip them without ever running a fallthrough kernel.
  // See Note [Fallthrough masks are per backend].
  void setNonFallthroughKeys(const std::array<DispatchKeySet, num_backends>& per_backend);

  // ks without the keys that fall through for ks's backend.
  C10_ALWAYS_INLINE DispatchKeySet maskFallthroughKeys(DispatchKeySet ks) const {
    const uint64_t common = non_fallthrough_keys_.load(std::memory_order_acquire);
    if (C10_LIKELY((common & kMasksDifferPerBackend) == 0)) {
      return ks & DispatchKeySet(DispatchKeySet::RAW, common);
    }
    return ks & DispatchKeySet(DispatchKeySet::RAW,
                               non_fallthrough_keys_per_backend_[ks.getBackendIndex()].load(
                                   std::memory_order_acquire));
  }

  template <class... Args>
  C10_ALWAYS_INLINE DispatchKeySet getDispatchKeySetUnboxed(const Args&... args) const {
    return computeDispatchKeySet(detail::multi_dispatch_key_set(args...));
  }
  DispatchKeySet getDispatchKeySetBoxed(const torch::jit::Stack* stack) const;

  C10_ALWAYS_INLINE DispatchKeySet computeDispatchKeySet(DispatchKeySet ks) const {
    const impl::LocalDispatchKeySet local = impl::tls_local_dispatch_key_set();
    return maskFallthroughKeys((ks | local.included_) - local.excluded_);
  }

  DispatchKeyExtractor(const DispatchKeyExtractor& rhs);

 private:
  DispatchKeyExtractor();

  // Bit i set: the i-th argument from the top of the stack may hold tensors.
  uint64_t dispatch_arg_indices_reverse_ = 0;
  size_t num_args_ = 0;

  // Note [Fallthrough masks are per backend]
  // A per-backend key shares its functionality bit with the same key of every other backend
  // (Note [Key set representation]), so "AutogradCPU falls through but AutogradCUDA has a
  // kernel" cannot be one mask: each backend gets its own mask of non-fallthrough keys, indexed
  // by the call's highest backend. When all backends' masks agree (the usual case: an operator
  // has kernels, or fallthroughs, for every backend alike) one mask serves and the call skips
  // the backend lookup, as in libtorch. Registrations write these while calls read them
  // (Note [Lock-free dispatch table]); a call racing a registration sees the old or the new
  // masks, perhaps with a newer table slot (Note [A racing call can reach a fallthrough kernel]).
  // The common mask carries, in a bit no key uses, whether the masks differ per backend, so
  // the usual call reads one word.
  static constexpr uint64_t kMasksDifferPerBackend = uint64_t{1} << 63;
  static_assert(num_backends + num_functionality_keys - 1 <= 63,
                "bit 63 of a key set must be free for kMasksDifferPerBackend");
  std::atomic<uint64_t> non_fallthrough_keys_;
  std::array<std::atomic<uint64_t>, num_backends> non_fallthrough_keys_per_backend_;
};

}  // namespace c10
