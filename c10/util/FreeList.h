#pragma once
// c10::FreeList: a per-thread cache of fixed-size memory blocks, for the objects every call makes
// and drops again (the TensorImpl of a view, its AutogradMeta). A class opts in with class-level
// operator new/delete defined in its .cpp:
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
//  * The list is armed on a thread's first free, which registers a thread-exit hook that returns
//    the cached blocks to the global heap. After that hook has run (thread-local destructors of
//    other objects may still free tensors), the list takes nothing more: frees go straight to
//    the global operator delete.
//  * Under AddressSanitizer nothing is cached, so use-after-free stays detectable.

#include <cstddef>
#include <cstdint>
#include <new>

#include "c10/util/Macros.h"

namespace c10 {

struct C10_API FreeList {
  static constexpr int32_t kCapacity = 64;

  // Fields are zero in a fresh thread (the list must be a zero-initialized __thread variable).
  void* head;    // the first cached block; its first word points to the next
  int32_t room;  // how many more blocks it may take: 0 until armed and after thread exit
  bool armed;    // the thread-exit hook is registered (or can no longer be)

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
      *static_cast<void**>(block) = head;
      head = block;
      --room;
      return;
    }
    deallocate_slow(block, size == block_size);
  }

  // The number of cached blocks (for tests).
  int32_t cached() const;

 private:
#if defined(__SANITIZE_ADDRESS__)
  static constexpr bool kEnabled = false;
#else
  static constexpr bool kEnabled = true;
#endif
  // Arms the list on the thread's first free of a block of its size, else frees globally.
  void deallocate_slow(void* block, bool cacheable);
};

}  // namespace c10
