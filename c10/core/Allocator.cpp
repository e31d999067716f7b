#include "c10/core/Allocator.h"

#include <array>
#include <atomic>

namespace c10 {

void* Allocator::raw_allocate(size_t n) {
  DeleterFnPtr deleter = raw_deleter();
  TORCH_CHECK(deleter != nullptr, "This allocator does not support raw allocation");
  DataPtr dptr = allocate(n);
  TORCH_INTERNAL_ASSERT(dptr.get() == dptr.get_context());
  void* data = dptr.get();
  // Keep the allocation alive: raw_deallocate frees it through the deleter.
  new (&dptr) DataPtr();
  return data;
}

void Allocator::raw_deallocate(void* ptr) {
  DeleterFnPtr deleter = raw_deleter();
  TORCH_CHECK(deleter != nullptr, "This allocator does not support raw deallocation");
  deleter(ptr);
}

namespace {
std::array<std::atomic<Allocator*>, COMPILE_TIME_MAX_DEVICE_TYPES>& allocator_array() {
  static std::array<std::atomic<Allocator*>, COMPILE_TIME_MAX_DEVICE_TYPES> array{};
  return array;
}
}  // namespace

void SetAllocator(DeviceType t, Allocator* alloc) {
  allocator_array()[static_cast<int>(t)].store(alloc);
}

Allocator* GetAllocator(DeviceType t) {
  Allocator* alloc = allocator_array()[static_cast<int>(t)].load(std::memory_order_acquire);
  TORCH_CHECK(alloc != nullptr, "Allocator for ", t, " is not set.");
  return alloc;
}

}  // namespace c10
