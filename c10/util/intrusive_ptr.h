#pragma once
// intrusive_ptr<T>: a shared pointer whose count lives in the object (TensorImpl, StorageImpl).
// One atomic increment per copy, no control block, and a raw TensorImpl* can be turned back
// into an owning pointer (reclaim_copy), which the dispatcher and autograd rely on.
// weak_intrusive_ptr<T> observes an object without keeping it alive (WeakIValue uses it).
//
// Note [Strong and weak counts]
// As in libtorch, weakcount_ counts the weak pointers plus one for all strong ones together, so
// an object nobody observes weakly has weakcount_ == 1 and its last strong release deletes it
// after one relaxed load. With weak observers, the last strong release calls release_resources()
// and the last weak release deletes. Both counts are 32-bit and share the 8 bytes the single
// count used to take, so no object grew.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "c10/util/Exception.h"

namespace c10 {

class intrusive_ptr_target {
 public:
  intrusive_ptr_target() noexcept : refcount_(0), weakcount_(0) {}
  // Copying an object never copies its counts.
  intrusive_ptr_target(const intrusive_ptr_target&) noexcept : refcount_(0), weakcount_(0) {}
  intrusive_ptr_target& operator=(const intrusive_ptr_target&) noexcept { return *this; }

 protected:
  virtual ~intrusive_ptr_target() = default;
  // Called when the last strong reference goes while weak ones remain: free what a weak
  // observer cannot reach. See Note [Strong and weak counts].
  virtual void release_resources() {}

 private:
  template <typename T>
  friend class intrusive_ptr;
  template <typename T>
  friend class weak_intrusive_ptr;
  friend struct raw_intrusive_ptr;
  mutable std::atomic<uint32_t> refcount_;
  mutable std::atomic<uint32_t> weakcount_;
};

template <typename T>
class intrusive_ptr final {
 public:
  using element_type = T;

  constexpr intrusive_ptr() noexcept : target_(nullptr) {}
  constexpr intrusive_ptr(std::nullptr_t) noexcept : target_(nullptr) {}  // NOLINT

  intrusive_ptr(const intrusive_ptr& rhs) noexcept : target_(rhs.target_) { retain(); }
  intrusive_ptr(intrusive_ptr&& rhs) noexcept : target_(rhs.target_) { rhs.target_ = nullptr; }
  template <typename U, typename = std::enable_if_t<std::is_convertible<U*, T*>::value>>
  intrusive_ptr(intrusive_ptr<U>&& rhs) noexcept : target_(rhs.release()) {}  // NOLINT
  template <typename U, typename = std::enable_if_t<std::is_convertible<U*, T*>::value>>
  intrusive_ptr(const intrusive_ptr<U>& rhs) noexcept : target_(rhs.get()) {  // NOLINT
    retain();
  }
  ~intrusive_ptr() noexcept { reset_(); }

  intrusive_ptr& operator=(const intrusive_ptr& rhs) noexcept {
    intrusive_ptr tmp(rhs);
    swap(tmp);
    return *this;
  }
  intrusive_ptr& operator=(intrusive_ptr&& rhs) noexcept {
    intrusive_ptr tmp(std::move(rhs));
    swap(tmp);
    return *this;
  }

  T* get() const noexcept { return target_; }
  T& operator*() const noexcept { return *target_; }
  T* operator->() const noexcept { return target_; }
  explicit operator bool() const noexcept { return target_ != nullptr; }
  bool defined() const noexcept { return target_ != nullptr; }

  void reset() noexcept {
    reset_();
    target_ = nullptr;
  }
  void swap(intrusive_ptr& rhs) noexcept { std::swap(target_, rhs.target_); }

  size_t use_count() const noexcept {
    return target_ ? target_->refcount_.load(std::memory_order_relaxed) : 0;
  }
  bool unique() const noexcept { return use_count() == 1; }

  // Gives up ownership without decrementing; pair with reclaim().
  T* release() noexcept {
    T* result = target_;
    target_ = nullptr;
    return result;
  }
  // Takes ownership of a pointer whose count was already incremented for us.
  static intrusive_ptr reclaim(T* owning_ptr) {
    intrusive_ptr result;
    result.target_ = owning_ptr;
    return result;
  }
  // A new owning pointer to an object that is already owned elsewhere.
  static intrusive_ptr reclaim_copy(T* non_owning_ptr) {
    intrusive_ptr result;
    result.target_ = non_owning_ptr;
    result.retain();
    return result;
  }

  // Owns an object that was just created with a count of zero (by a custom operator new).
  static intrusive_ptr adopt_new(T* fresh) {
    intrusive_ptr result;
    result.target_ = fresh;
    fresh->refcount_.store(1, std::memory_order_relaxed);
    fresh->weakcount_.store(1, std::memory_order_relaxed);
    return result;
  }

  template <typename... Args>
  static intrusive_ptr make(Args&&... args) {
    intrusive_ptr result;
    result.target_ = new T(std::forward<Args>(args)...);
    result.target_->refcount_.store(1, std::memory_order_relaxed);
    result.target_->weakcount_.store(1, std::memory_order_relaxed);
    return result;
  }

 private:
  template <typename U>
  friend class intrusive_ptr;

  void retain() noexcept {
    if (target_) target_->refcount_.fetch_add(1, std::memory_order_relaxed);
  }
  // (Checked here, not in the class body, so an intrusive_ptr<T> of a T declared but not yet
  // defined can appear in declarations, as IValue's constructors need.)
  void reset_() noexcept {
    static_assert(std::is_base_of<intrusive_ptr_target, T>::value,
                  "intrusive_ptr<T> requires T to derive from intrusive_ptr_target");
    if (target_ && target_->refcount_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      // See Note [Strong and weak counts].
      if (target_->weakcount_.load(std::memory_order_acquire) == 1) {
        delete target_;
        return;
      }
      release_last_strong(target_);
    }
  }
  static void release_last_strong(intrusive_ptr_target* target) noexcept {
    target->release_resources();
    if (target->weakcount_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete target;
  }

  T* target_;
};

// A non-owning observer: lock() gives a strong pointer while the object is alive, null after.
template <typename T>
class weak_intrusive_ptr final {
 public:
  explicit weak_intrusive_ptr(const intrusive_ptr<T>& strong) : target_(strong.get()) { retain(); }
  weak_intrusive_ptr(const weak_intrusive_ptr& rhs) noexcept : target_(rhs.target_) { retain(); }
  weak_intrusive_ptr(weak_intrusive_ptr&& rhs) noexcept : target_(rhs.target_) {
    rhs.target_ = nullptr;
  }
  weak_intrusive_ptr& operator=(weak_intrusive_ptr rhs) noexcept {
    std::swap(target_, rhs.target_);
    return *this;
  }
  ~weak_intrusive_ptr() noexcept {
    if (target_ && target_->weakcount_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      delete target_;
    }
  }

  size_t use_count() const noexcept {
    return target_ ? target_->refcount_.load(std::memory_order_relaxed) : 0;
  }
  bool expired() const noexcept { return use_count() == 0; }
  bool is_null() const noexcept { return target_ == nullptr; }
  // The observed object, which may already be released: compare it, never dereference it.
  const T* unsafe_get_target() const noexcept { return target_; }

  intrusive_ptr<T> lock() const noexcept {
    if (!target_) return intrusive_ptr<T>();
    uint32_t count = target_->refcount_.load(std::memory_order_relaxed);
    do {
      if (count == 0) return intrusive_ptr<T>();
    } while (!target_->refcount_.compare_exchange_weak(count, count + 1, std::memory_order_acq_rel,
                                                       std::memory_order_relaxed));
    return intrusive_ptr<T>::reclaim(target_);
  }

 private:
  void retain() noexcept {
    if (target_) target_->weakcount_.fetch_add(1, std::memory_order_relaxed);
  }
  T* target_;
};

template <typename T, typename... Args>
inline intrusive_ptr<T> make_intrusive(Args&&... args) {
  return intrusive_ptr<T>::make(std::forward<Args>(args)...);
}

template <typename T, typename U>
bool operator==(const intrusive_ptr<T>& a, const intrusive_ptr<U>& b) noexcept {
  return a.get() == b.get();
}
template <typename T, typename U>
bool operator!=(const intrusive_ptr<T>& a, const intrusive_ptr<U>& b) noexcept {
  return a.get() != b.get();
}

}  // namespace c10
