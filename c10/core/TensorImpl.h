#pragma once
// TensorImpl: the one object behind every tensor — storage, sizes, strides, offset, dtype,
// device, dispatch keys, version counter — with the layout flags of REFERENCE.md section 1
// cached and refreshed on every size/stride change.
//
//   auto impl = c10::make_intrusive<c10::TensorImpl>(
//       std::move(storage), c10::DispatchKeySet(c10::DispatchKey::CPU), caffe2::TypeMeta::Make<float>());
//   impl->set_sizes_contiguous({2, 3});       // strides [3, 1]; flags refreshed
//   impl->is_contiguous();                    // true

#include <atomic>
#include <memory>

#include "c10/core/Device.h"
#include "c10/core/DispatchKeySet.h"
#include "c10/core/Layout.h"
#include "c10/core/MemoryFormat.h"
#include "c10/core/ScalarType.h"
#include "c10/core/Storage.h"
#include "c10/core/TensorOptions.h"
#include "c10/core/WrapDimMinimal.h"
#include "c10/core/impl/SizesAndStrides.h"
#include "c10/util/Exception.h"
#include "c10/util/Optional.h"
#include "c10/util/WrappingArithmetic.h"
#include "c10/util/intrusive_ptr.h"
#include "c10/util/typeid.h"

namespace c10 {

struct TensorImpl;

// Note [Version counter]
// Every in-place operation bumps the version of the tensor it writes; views share their base's
// counter, so a write through any view is seen by all of them. Autograd compares versions to
// detect a saved tensor that was modified after it was saved.
//
// The counter is created on first need (a bump, or a view sharing it), so that the common
// tensor that is never written in place or viewed does not pay an allocation for it; see
// Note [Small CPU allocations] for why that matters. Creation is a compare-and-swap, so two
// threads taking views of one fresh tensor still end up sharing a single counter.
struct C10_API VariableVersion {
 public:
  struct VersionCounter : intrusive_ptr_target {
    explicit VersionCounter(uint32_t version) : version_(version) {}
    std::atomic<uint32_t> version_;
  };

  VariableVersion() = default;
  // Copying shares the counter (creating it if needed): that is how views share a version.
  VariableVersion(const VariableVersion& other) : counter_(other.shared()) {}
  // Assignment is not a synchronisation point (as libtorch's intrusive_ptr assignment is not):
  // a plain load and store, no locked exchange. Only the lazy creation in get() races.
  VariableVersion& operator=(const VariableVersion& other) {
    if (this != &other) {
      VersionCounter* c = other.shared();
      VersionCounter* old = counter_.load(std::memory_order_relaxed);
      counter_.store(c, std::memory_order_release);
      release(old);
    }
    return *this;
  }
  ~VariableVersion() { release(counter_.load(std::memory_order_relaxed)); }

  uint32_t current_version() const {
    VersionCounter* c = counter_.load(std::memory_order_acquire);
    return c ? c->version_.load() : 0;
  }
  void bump() { ++get()->version_; }
  void set_version(int64_t v) { get()->version_ = static_cast<uint32_t>(v); }
  // True when both share one counter (a view and its base).
  bool is_shared_with(const VariableVersion& other) const { return get() == other.get(); }
  bool unique() const {
    VersionCounter* c = counter_.load(std::memory_order_acquire);
    return c == nullptr || intrusive_ptr<VersionCounter>::reclaim_copy(c).use_count() == 2;
  }

 private:
  // The counter, created on first use.
  VersionCounter* get() const {
    VersionCounter* c = counter_.load(std::memory_order_acquire);
    if (C10_LIKELY(c != nullptr)) return c;
    VersionCounter* fresh = make_intrusive<VersionCounter>(0).release();
    if (counter_.compare_exchange_strong(c, fresh, std::memory_order_acq_rel)) return fresh;
    release(fresh);  // another thread won; use its counter
    return c;
  }
  // A new owning reference to the counter.
  VersionCounter* shared() const {
    return intrusive_ptr<VersionCounter>::reclaim_copy(get()).release();
  }
  static void release(VersionCounter* c) {
    if (c) intrusive_ptr<VersionCounter>::reclaim(c);  // drops the reference
  }

  mutable std::atomic<VersionCounter*> counter_{nullptr};
};

// Autograd keeps its per-tensor state (requires_grad, grad, grad_fn, ...) behind this
// interface so c10 needs to know nothing about autograd. See aten/autograd.
struct C10_API AutogradMetaInterface {
  virtual ~AutogradMetaInterface() = default;
  virtual void set_requires_grad(bool requires_grad, TensorImpl* self_impl) = 0;
  virtual bool requires_grad() const = 0;
};

struct C10_API TensorImpl : public intrusive_ptr_target {
  TensorImpl(Storage&& storage, DispatchKeySet key_set, caffe2::TypeMeta data_type);
  // A tensor on a device without storage (e.g. Meta), or storage set later.
  TensorImpl(DispatchKeySet key_set, caffe2::TypeMeta data_type, c10::optional<Device> device_opt);
  ~TensorImpl() override;
  // From a per-thread free list: see Note [Per-thread free lists] in c10/util/FreeList.h.
  static void* operator new(size_t size);
  static void operator delete(void* p, size_t size);

  TensorImpl(const TensorImpl&) = delete;
  TensorImpl& operator=(const TensorImpl&) = delete;

  // ---- Geometry ---------------------------------------------------------------------------
  int64_t dim() const { return static_cast<int64_t>(sizes_and_strides_.size()); }
  IntArrayRef sizes() const { return sizes_and_strides_.sizes_arrayref(); }
  IntArrayRef strides() const { return sizes_and_strides_.strides_arrayref(); }
  int64_t size(int64_t d) const {
    return sizes_and_strides_.size_at(maybe_wrap_dim(d, dim(), /*wrap_scalar=*/false));
  }
  int64_t stride(int64_t d) const {
    return sizes_and_strides_.stride_at(maybe_wrap_dim(d, dim(), /*wrap_scalar=*/false));
  }
  int64_t numel() const { return numel_; }
  bool is_empty() const { return numel_ == 0; }
  int64_t storage_offset() const { return storage_offset_; }

  // Sets sizes, strides and (optionally) the storage offset, then refreshes numel and flags.
  // No bounds checks: see c10/core/StorageSize.h for those (as_strided uses them).
  void set_sizes_and_strides(IntArrayRef new_size, IntArrayRef new_stride);
  // The geometry of `base` with its dims reordered, or size-1 dims added or dropped (permute,
  // transpose, squeeze, unsqueeze): numel and non-overlapping-and-dense depend only on the
  // (size, stride) pairs of the dims of size > 1, so they carry over instead of being
  // recomputed (the latter is a sort).
  void set_sizes_and_strides_reordered(IntArrayRef new_size, IntArrayRef new_stride,
                                       int64_t storage_offset, const TensorImpl& base);
  // A broadcast view (expand), where some dim of size >= 2 has stride 0: its elements repeat,
  // so if it has any, every layout flag is false and none needs computing. The caller
  // guarantees the stride-0 dim.
  void set_sizes_and_strides_broadcast(IntArrayRef new_size, IntArrayRef new_stride,
                                       int64_t storage_offset);
  // A slice of `base` (slice, narrow): base's geometry with dim `d` given `size` and `stride`.
  // numel, and below rank 4 mostly the flags, follow from base's (Note [Layout flags of a slice]).
  void set_sizes_and_strides_sliced(const TensorImpl& base, int64_t d, int64_t size,
                                    int64_t stride, int64_t storage_offset);
  // The offset overloads are inline so that an offset is passed in a register (views).
  void set_sizes_and_strides(IntArrayRef new_size, IntArrayRef new_stride,
                             int64_t storage_offset) {
    set_sizes_and_strides(new_size, new_stride);
    storage_offset_ = storage_offset;
  }
  void set_sizes_and_strides(IntArrayRef new_size, IntArrayRef new_stride,
                             c10::optional<int64_t> storage_offset) {
    set_sizes_and_strides(new_size, new_stride);
    if (storage_offset.has_value()) storage_offset_ = *storage_offset;
  }
  // Sets sizes with contiguous strides.
  void set_sizes_contiguous(IntArrayRef new_size);
  void set_storage_offset(int64_t storage_offset);
  // Re-strides in place (no data moves) for a format; used on freshly allocated tensors.
  // "required rank 4 tensor to use channels_last format" on the wrong rank.
  void empty_tensor_restride(MemoryFormat memory_format);

  // ---- Layout flags (cached) --------------------------------------------------------------
  bool is_contiguous(MemoryFormat memory_format = MemoryFormat::Contiguous) const {
    if (memory_format == MemoryFormat::ChannelsLast) return is_channels_last_contiguous_;
    if (memory_format == MemoryFormat::ChannelsLast3d) return is_channels_last_3d_contiguous_;
    return is_contiguous_;
  }
  // See Note [Ambiguous strides and channels-last] in MemoryFormat.h.
  bool is_strides_like_channels_last() const { return is_channels_last_; }
  bool is_strides_like_channels_last_3d() const { return is_channels_last_3d_; }
  bool is_strides_like(MemoryFormat memory_format) const {
    if (memory_format == MemoryFormat::ChannelsLast) return is_channels_last_;
    if (memory_format == MemoryFormat::ChannelsLast3d) return is_channels_last_3d_;
    return false;
  }
  bool is_non_overlapping_and_dense() const { return is_non_overlapping_and_dense_; }

  // ---- Type, device, keys -----------------------------------------------------------------
  caffe2::TypeMeta dtype() const { return data_type_; }
  ScalarType scalar_type() const { return data_type_.toScalarType(); }
  size_t itemsize() const { return data_type_.itemsize(); }
  Device device() const { return device_; }
  DeviceType device_type() const { return device_.type(); }
  bool is_cpu() const { return device_.is_cpu(); }
  bool is_cuda() const { return device_.is_cuda(); }
  bool is_meta() const { return device_.is_meta(); }
  Layout layout() const { return Layout::Strided; }
  DispatchKeySet key_set() const { return key_set_; }

  // ---- Storage and data -------------------------------------------------------------------
  bool has_storage() const { return storage_.defined(); }
  const Storage& storage() const { return storage_; }
  Storage& unsafe_storage() { return storage_; }
  // Replaces the storage, keeping dtype, sizes and strides.
  void set_storage_keep_dtype(Storage storage);
  // Pointer to the first element (storage data + offset), or nullptr when there is none: no
  // storage data, or no elements (as libtorch's data(); the typed pointer below still points).
  void* data() const { return numel_ == 0 ? nullptr : data_at_offset(); }
  // The typed pointer also needs the data to exist: a meta tensor's (with elements) does not.
  template <typename T>
  T* data_ptr_impl() const {
    TORCH_CHECK(storage_initialized(),
                "The tensor has a non-zero number of elements, but its data is not allocated yet. "
                "Caffe2 uses a lazy allocation, so you will need to call mutable_data() or "
                "raw_mutable_data() to actually allocate memory.");
    return static_cast<T*>(data_at_offset());
  }
  // storage data + offset. An empty tensor may carry any offset, so the address is computed
  // modulo 2^64 rather than by pointer arithmetic that could overflow (Note [Geometry that wraps
  // as libtorch's does]); it is never dereferenced then.
  void* data_at_offset() const {
    if (!storage_.defined() || storage_.data() == nullptr) return nullptr;
    const int64_t bytes =
        wrapping_mul(static_cast<int64_t>(data_type_.itemsize()), storage_offset_);
    return reinterpret_cast<void*>(reinterpret_cast<uintptr_t>(storage_.data()) +
                                   static_cast<uint64_t>(bytes));
  }
  bool storage_initialized() const {
    return (storage_.defined() && storage_.data() != nullptr) || numel() == 0;
  }

  // ---- Version counter and autograd -------------------------------------------------------
  const VariableVersion& version_counter() const { return version_counter_; }
  void set_version_counter(const VariableVersion& version_counter) {
    version_counter_ = version_counter;
  }
  void bump_version() { version_counter_.bump(); }

  AutogradMetaInterface* autograd_meta() const { return autograd_meta_.get(); }
  void set_autograd_meta(std::unique_ptr<AutogradMetaInterface> autograd_meta) {
    autograd_meta_ = std::move(autograd_meta);
  }
  bool requires_grad() const { return autograd_meta_ && autograd_meta_->requires_grad(); }

  // A wrapped number is a 0-dim tensor made from a C++ number (add(t, 2.5)): type promotion
  // gives it the lowest priority (REFERENCE.md section 3).
  bool is_wrapped_number() const { return is_wrapped_number_; }
  void set_wrapped_number(bool value) {
    TORCH_INTERNAL_ASSERT(dim() == 0);
    is_wrapped_number_ = value;
  }

  // Turns the key set into another backend's (used by to(device) and the trace tests).
  void set_key_set(DispatchKeySet key_set) { key_set_ = key_set; }
  // Drops the autograd keys (ADInplaceOrView stays, as in libtorch 1.13). libtorch's test
  // helpers use it to make tensors that autograd never sees.
  void remove_autograd_key() { key_set_ = key_set_ - autograd_dispatch_keyset; }

 private:
  // Recomputes numel and every cached flag; called after any size/stride change.
  void refresh_numel();
  void refresh_contiguous() { refresh_contiguous_flags(nullptr); }
  // The flags of a layout that is channels-last in no sense, given the other two.
  void set_flags_not_channels_last(bool contiguous, bool non_overlapping_and_dense) {
    is_contiguous_ = contiguous;
    is_non_overlapping_and_dense_ = non_overlapping_and_dense;
    is_channels_last_contiguous_ = false;
    is_channels_last_3d_contiguous_ = false;
    is_channels_last_ = false;
    is_channels_last_3d_ = false;
  }
  // The same with is_non_overlapping_and_dense_ given, when not null.
  void refresh_contiguous_flags(const bool* known_non_overlapping_and_dense);
  void restride_contiguous();

  Storage storage_;
  std::unique_ptr<AutogradMetaInterface> autograd_meta_;
  VariableVersion version_counter_;
  impl::SizesAndStrides sizes_and_strides_;
  int64_t storage_offset_ = 0;
  int64_t numel_ = 0;
  caffe2::TypeMeta data_type_;
  Device device_;
  DispatchKeySet key_set_;

  bool is_contiguous_ : 1;
  bool is_channels_last_contiguous_ : 1;
  bool is_channels_last_3d_contiguous_ : 1;
  bool is_channels_last_ : 1;
  bool is_channels_last_3d_ : 1;
  bool is_non_overlapping_and_dense_ : 1;
  bool is_wrapped_number_ = false;
};

}  // namespace c10

namespace at {
using c10::TensorImpl;
}  // namespace at
