#pragma once
// Allocator and DataPtr: how storage memory is obtained and released, per device type.
//
//   c10::Allocator* alloc = c10::GetAllocator(c10::kCPU);
//   c10::DataPtr p = alloc->allocate(nbytes);   // frees itself when p is destroyed

#include <cstddef>
#include <utility>

#include "c10/core/Device.h"

namespace c10 {

using DeleterFnPtr = void (*)(void*);

// Owns one allocation: the data pointer, a context handed to the deleter, and the device.
class C10_API DataPtr {
 public:
  DataPtr() : data_(nullptr), ctx_(nullptr), deleter_(nullptr), device_(DeviceType::CPU) {}
  DataPtr(void* data, Device device) : data_(data), ctx_(nullptr), deleter_(nullptr), device_(device) {}
  DataPtr(void* data, void* ctx, DeleterFnPtr deleter, Device device)
      : data_(data), ctx_(ctx), deleter_(deleter), device_(device) {}
  DataPtr(DataPtr&& rhs) noexcept
      : data_(rhs.data_), ctx_(rhs.ctx_), deleter_(rhs.deleter_), device_(rhs.device_) {
    rhs.release_context();
  }
  DataPtr& operator=(DataPtr&& rhs) noexcept {
    if (this != &rhs) {
      clear();
      data_ = rhs.data_;
      ctx_ = rhs.ctx_;
      deleter_ = rhs.deleter_;
      device_ = rhs.device_;
      rhs.release_context();
    }
    return *this;
  }
  DataPtr(const DataPtr&) = delete;
  DataPtr& operator=(const DataPtr&) = delete;
  ~DataPtr() { clear(); }

  void clear() {
    if (deleter_ && ctx_) deleter_(ctx_);
    data_ = nullptr;
    ctx_ = nullptr;
    deleter_ = nullptr;
  }
  void* get() const { return data_; }
  void* get_context() const { return ctx_; }
  DeleterFnPtr get_deleter() const { return deleter_; }
  Device device() const { return device_; }
  void unsafe_set_device(Device device) { device_ = device; }
  explicit operator bool() const { return data_ != nullptr; }

 private:
  void release_context() {
    data_ = nullptr;
    ctx_ = nullptr;
    deleter_ = nullptr;
  }

  void* data_;
  void* ctx_;
  DeleterFnPtr deleter_;
  Device device_;
};

struct C10_API Allocator {
  virtual ~Allocator() = default;
  virtual DataPtr allocate(size_t nbytes) const = 0;
  // A deleter usable on a raw pointer from raw_allocate, or nullptr if there is none.
  virtual DeleterFnPtr raw_deleter() const { return nullptr; }
  // Memory a raw_deleter() can free; the default goes through allocate().
  virtual void* raw_allocate(size_t n);
  void raw_deallocate(void* ptr);
};

// The allocator registered for a device type (CPU is always present).
C10_API void SetAllocator(DeviceType t, Allocator* alloc);
C10_API Allocator* GetAllocator(DeviceType t);

// Registers an allocator for a device type at static-initialization time.
struct AllocatorRegisterer {
  AllocatorRegisterer(DeviceType t, Allocator* alloc) { SetAllocator(t, alloc); }
};
#define REGISTER_ALLOCATOR(t, f) \
  static ::c10::AllocatorRegisterer C10_ANONYMOUS_VARIABLE(g_allocator_)(t, f)

}  // namespace c10

namespace at {
using c10::Allocator;
using c10::DataPtr;
}  // namespace at
