#include "c10/core/StorageImpl.h"

#include <cstdint>
#include <cstdlib>
#include <new>

#include "c10/core/CPUAllocator.h"

namespace c10 {

void* StorageImpl::operator new(size_t size) { return operator new(size, 0); }

void* StorageImpl::operator new(size_t size, size_t extra_bytes) {
  void* p = std::malloc(size + extra_bytes);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

void StorageImpl::operator delete(void* ptr) noexcept { std::free(ptr); }
void StorageImpl::operator delete(void* ptr, size_t) noexcept { std::free(ptr); }

intrusive_ptr<StorageImpl> StorageImpl::make_with_inline_data(size_t nbytes, Allocator* allocator) {
  TORCH_INTERNAL_ASSERT(nbytes <= kMaxInlineBytes);
  // The bytes start at the first 64-byte boundary after the object.
  auto* impl = new (nbytes + gAlignment) StorageImpl(
      use_byte_size_t(), nbytes, DataPtr(nullptr, Device(DeviceType::CPU)), allocator,
      /*resizable=*/true);
  const auto end = reinterpret_cast<uintptr_t>(impl) + sizeof(StorageImpl);
  void* data = reinterpret_cast<void*>((end + gAlignment - 1) & ~(uintptr_t(gAlignment) - 1));
  // No deleter: the bytes go with the object. A resize later swaps in a separate allocation.
  impl->set_data_ptr_noswap(DataPtr(data, nullptr, nullptr, Device(DeviceType::CPU)));
  return intrusive_ptr<StorageImpl>::adopt_new(impl);
}

}  // namespace c10
