#include "c10/core/StorageImpl.h"

#include <cstdint>
#include <cstdlib>
#include <new>

#include "c10/core/CPUAllocator.h"
#include "c10/util/FreeList.h"

namespace c10 {

// Note [Small storage blocks]
// Every clone or empty of a small CPU tensor makes a StorageImpl with its bytes inline (Note
// [Small CPU allocations]), and drops it again as often. Blocks up to kCachedClasses * 64 bytes
// therefore come from per-thread free lists (Note [Per-thread free lists]), one per 64-byte
// size class. operator delete is only told sizeof(StorageImpl), not the inline bytes, so each
// block starts with a small header naming its class (0: not cached, from the global heap).
namespace {
constexpr size_t kHeaderBytes = 16;  // keeps the StorageImpl 16-byte aligned
constexpr size_t kClassBytes = 64;
constexpr size_t kCachedClasses =
    (kHeaderBytes + sizeof(StorageImpl) + StorageImpl::kMaxInlineBytes + gAlignment) /
        kClassBytes +
    1;
C10_TLS_FAST __thread FreeList tls_storage_blocks[kCachedClasses + 1];  // [0] unused
}  // namespace

void* StorageImpl::operator new(size_t size) { return operator new(size, 0); }

void* StorageImpl::operator new(size_t size, size_t extra_bytes) {
  const size_t total = kHeaderBytes + size + extra_bytes;
  const size_t size_class = (total + kClassBytes - 1) / kClassBytes;
  void* block;
  if (size_class <= kCachedClasses) {
    const size_t block_size = size_class * kClassBytes;
    block = tls_storage_blocks[size_class].allocate(block_size, block_size);
  } else {
    block = ::operator new(total);
  }
  *static_cast<size_t*>(block) = size_class <= kCachedClasses ? size_class : 0;
  return static_cast<char*>(block) + kHeaderBytes;
}

void StorageImpl::operator delete(void* ptr) noexcept {
  void* block = static_cast<char*>(ptr) - kHeaderBytes;
  const size_t size_class = *static_cast<size_t*>(block);
  if (size_class == 0) {
    ::operator delete(block);
  } else {
    const size_t block_size = size_class * kClassBytes;
    tls_storage_blocks[size_class].deallocate(block, block_size, block_size);
  }
}
void StorageImpl::operator delete(void* ptr, size_t) noexcept { operator delete(ptr); }

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
