#pragma once
// c10::FreeList: a per-thread cache of fixed-size memory blocks, for the objects every call makes
// and drops again (the TensorImpl of a view, its AutogradMeta, autograd nodes). A class opts in
// with class-level operator new/delete defined in its .cpp (shared_ptr-owned objects use
// FreeListAllocator below instead):
//
//   static C10_TLS_FAST __thread c10::FreeList tls_blocks;   // zero-initialized, one per thread
//   void* TensorImpl::operator new(size_t size) {
//     return tls_blocks.allocate(size, sizeof(TensorImpl));
//   }
//   void TensorImpl::operator delete(void* p, size_t size) {
//     tls_blocks.deallocate(p, size, sizeof(TensorImpl));
//   }
//
// Note [Per-thread free lists]
// A view costs about 70 ns, and two malloc/free pairs (the TensorImpl and the AutogradMeta that
// records its base) were about 20 ns of it: glibc's tcache is fast, but still checks and
// bookkeeps more than a view needs. A FreeList keeps up to kCapacity freed blocks of one size in
// a singly linked list threaded through the blocks themselves; taking or giving one back is a
// few instructions on a thread-local head, with no atomics and no locks.
//  * Only blocks of exactly the class's size are cached. A subclass (bigger) goes to the global
//    operator new/delete, so the class stays safe to derive from.
//  * A block freed on another thread joins that thread's list: every block came from the global
//    operator new, so any thread may hand it back to it later.
//  * A list is armed on its thread's first free, which chains it to the thread's armed lists
//    and registers a thread-exit hook that returns their cached blocks to the global heap.
//    After that hook has run (thread-local destructors of other objects may still free
//    tensors), the list takes nothing more: frees go straight to the global operator delete.
//  * Under AddressSanitizer nothing is cached, so use-after-free stays detectable.

#include <cstddef>
#include <cstdint>
#include <new>

#include "c10/util/Macros.h"

namespace c10 {

struct C10_API FreeList {
  static constexpr int32_t kCapacity = 64;

  // Fields are zero in a fresh thread (the list must be a zero-initialized __thread variable).
  void* head;           // the first cached block; its first word points to the next
  FreeList* next_armed;  // the thread's armed lists form a chain, for the thread-exit drain
  int32_t room;          // how many more blocks it may take: 0 until armed and after thread exit
  bool armed;            // the thread-exit drain knows it (or the thread is exiting)

  void* allocate(size_t size, size_t block_size) {
    if (C10_LIKELY(kEnabled && size == block_size && head != nullptr)) {
      void* block = head;
      head = *static_cast<void**>(block);
      ++room;
      return block;
    }
    return ::operator new(size);
  }

  void deallocate(void* block, size_t size, size_t block_size) {
    if (C10_LIKELY(kEnabled && size == block_size && room > 0)) {
      push(block);
      return;
    }
    deallocate_slow(block, size == block_size);
  }

  // The number of cached blocks (for tests).
  int32_t cached() const;

  // Whether lists cache at all: not under AddressSanitizer, so use-after-free stays detectable.
#if C10_ASAN_ENABLED
  static constexpr bool kEnabled = false;
#else
  static constexpr bool kEnabled = true;
#endif

 private:
  void push(void* block) {
    *static_cast<void**>(block) = head;
    head = block;
    --room;
  }
  // Arms the list on the thread's first free of a block of its size, else frees globally.
  void deallocate_slow(void* block, bool cacheable);
};

// A std allocator over one per-thread FreeList per allocated type, for std::allocate_shared:
// the block is the shared_ptr's control block and object together.
//
//   std::allocate_shared<CloneBackward0>(c10::FreeListAllocator<CloneBackward0>());
template <class T>
struct FreeListAllocator {
  using value_type = T;
  FreeListAllocator() = default;
  template <class U>
  FreeListAllocator(const FreeListAllocator<U>&) {}  // NOLINT: rebinding converts implicitly

  T* allocate(size_t n) { return static_cast<T*>(blocks().allocate(n * sizeof(T), sizeof(T))); }
  void deallocate(T* p, size_t n) { blocks().deallocate(p, n * sizeof(T), sizeof(T)); }

  template <class U>
  bool operator==(const FreeListAllocator<U>&) const { return true; }
  template <class U>
  bool operator!=(const FreeListAllocator<U>&) const { return false; }

 private:
  static FreeList& blocks() {
    static C10_TLS_FAST thread_local FreeList list;  // zero-initialized: no guard, no wrapper
    return list;
  }
};

}  // namespace c10
