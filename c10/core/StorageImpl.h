#pragma once
// StorageImpl: the bytes behind one or more tensors (views share one StorageImpl).

#include <cstddef>

#include "c10/core/Allocator.h"
#include "c10/util/intrusive_ptr.h"

namespace c10 {

struct C10_API StorageImpl : public intrusive_ptr_target {
  struct use_byte_size_t {};

  // Allocates nbytes with `allocator`.
  StorageImpl(use_byte_size_t, size_t nbytes, Allocator* allocator, bool resizable)
      : StorageImpl(use_byte_size_t(), nbytes, allocator ? allocator->allocate(nbytes) : DataPtr(),
                    allocator, resizable) {}
  // Adopts memory that is already there.
  StorageImpl(use_byte_size_t, size_t nbytes, DataPtr data_ptr, Allocator* allocator,
              bool resizable)
      : data_ptr_(std::move(data_ptr)),
        nbytes_(nbytes),
        allocator_(allocator),
        resizable_(resizable) {
    TORCH_CHECK(!resizable || allocator != nullptr,
                "For resizable storage, allocator must be provided");
  }

  // One allocation for both the StorageImpl and its bytes (64-byte aligned, after it): small
  // CPU tensors then cost one malloc instead of two. See Note [Small CPU allocations].
  static intrusive_ptr<StorageImpl> make_with_inline_data(size_t nbytes, Allocator* allocator);
  static constexpr size_t kMaxInlineBytes = 512;

  // Every StorageImpl, inline bytes or not, comes from these: small blocks from per-thread free
  // lists (Note [Small storage blocks] in StorageImpl.cpp).
  static void* operator new(size_t size);
  static void* operator new(size_t size, size_t extra_bytes);
  static void operator delete(void* ptr) noexcept;
  static void operator delete(void* ptr, size_t extra_bytes) noexcept;

  size_t nbytes() const { return nbytes_; }
  void set_nbytes(size_t nbytes) { nbytes_ = nbytes; }
  bool resizable() const { return resizable_; }
  Allocator* allocator() const { return allocator_; }
  Device device() const { return data_ptr_.device(); }
  DeviceType device_type() const { return data_ptr_.device().type(); }

  void* data() const { return data_ptr_.get(); }
  template <typename T>
  T* data() const { return static_cast<T*>(data_ptr_.get()); }
  DataPtr& data_ptr() { return data_ptr_; }
  const DataPtr& data_ptr() const { return data_ptr_; }

  // Swaps in new memory; returns the old.
  DataPtr set_data_ptr(DataPtr&& data_ptr) {
    std::swap(data_ptr_, data_ptr);
    return std::move(data_ptr);
  }
  void set_data_ptr_noswap(DataPtr&& data_ptr) { data_ptr_ = std::move(data_ptr); }

 protected:
  // The last strong reference went while something observes the storage weakly (the trace
  // page's recorder): the bytes go now, the object when the observer lets go.
  void release_resources() override { data_ptr_ = DataPtr(); }

 private:
  DataPtr data_ptr_;
  size_t nbytes_;
  Allocator* allocator_;
  bool resizable_;
};

// The refcounted handle.
class C10_API Storage {
 public:
  struct use_byte_size_t {};

  Storage() = default;
  Storage(c10::intrusive_ptr<StorageImpl> ptr) : impl_(std::move(ptr)) {}  // NOLINT
  Storage(use_byte_size_t, size_t nbytes, Allocator* allocator, bool resizable = false)
      : impl_(make_intrusive<StorageImpl>(StorageImpl::use_byte_size_t(), nbytes, allocator,
                                          resizable)) {}

  bool defined() const { return impl_.defined(); }
  size_t nbytes() const { return impl_->nbytes(); }
  bool resizable() const { return impl_->resizable(); }
  void* data() const { return impl_->data(); }
  template <typename T>
  T* data() const { return impl_->data<T>(); }
  Allocator* allocator() const { return impl_->allocator(); }
  Device device() const { return impl_->device(); }
  const DataPtr& data_ptr() const { return impl_->data_ptr(); }
  StorageImpl* unsafeGetStorageImpl() const noexcept { return impl_.get(); }
  const c10::intrusive_ptr<StorageImpl>& getIntrusivePtr() const { return impl_; }
  size_t use_count() const { return impl_.use_count(); }
  bool is_alias_of(const Storage& other) const {
    return impl_ == other.impl_ || (impl_ && other.impl_ && data() != nullptr &&
                                    data() == other.data());
  }
  explicit operator bool() const { return impl_.defined(); }

 private:
  c10::intrusive_ptr<StorageImpl> impl_;
};

}  // namespace c10

namespace at {
using c10::Storage;
using c10::StorageImpl;
}  // namespace at
