#include "c10/util/FreeList.h"

namespace c10 {

namespace {

// Returns every armed list's cached blocks to the global heap when its thread exits; see
// Note [Per-thread free lists]. A thread has a handful of lists (one per opted-in class).
struct FreeListDrain {
  static constexpr int kMaxLists = 8;
  FreeList* lists[kMaxLists];
  int count = 0;

  ~FreeListDrain();
};

C10_TLS_FAST __thread bool tls_drain_done = false;
thread_local FreeListDrain tls_drain;

FreeListDrain::~FreeListDrain() {
  tls_drain_done = true;
  for (int i = 0; i < count; ++i) {
    FreeList& list = *lists[i];
    list.room = 0;  // armed stays true: later frees on this thread go to the global heap
    while (list.head != nullptr) {
      void* block = list.head;
      list.head = *static_cast<void**>(block);
      ::operator delete(block);
    }
  }
}

}  // namespace

void FreeList::deallocate_slow(void* block, bool cacheable) {
  if (kEnabled && cacheable && !armed) {
    armed = true;
    if (!tls_drain_done && tls_drain.count < FreeListDrain::kMaxLists) {
      tls_drain.lists[tls_drain.count++] = this;
      room = kCapacity;
      deallocate(block, 0, 0);  // sizes equal: cached now that there is room
      return;
    }
  }
  ::operator delete(block);
}

int32_t FreeList::cached() const {
  int32_t n = 0;
  for (void* block = head; block != nullptr; block = *static_cast<void**>(block)) ++n;
  return n;
}

}  // namespace c10
