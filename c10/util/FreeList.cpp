#include "c10/util/FreeList.h"

namespace c10 {

namespace {

// The thread's armed lists, chained through next_armed; see Note [Per-thread free lists].
C10_TLS_FAST __thread FreeList* tls_armed_lists = nullptr;
C10_TLS_FAST __thread bool tls_exiting = false;

// Returns every armed list's cached blocks to the global heap when its thread exits.
struct FreeListDrain {
  ~FreeListDrain() {
    tls_exiting = true;
    for (FreeList* list = tls_armed_lists; list != nullptr; list = list->next_armed) {
      list->room = 0;  // armed stays true: later frees on this thread go to the global heap
      while (list->head != nullptr) {
        void* block = list->head;
        list->head = *static_cast<void**>(block);
        ::operator delete(block);
      }
    }
  }
};

// Called on a thread's first arming: constructing the drain registers its destructor.
void register_thread_exit_drain() {
  thread_local FreeListDrain drain;
  (void)drain;
}

}  // namespace

void FreeList::deallocate_slow(void* block, bool cacheable) {
  if (kEnabled && cacheable && !armed) {
    armed = true;
    if (!tls_exiting) {
      register_thread_exit_drain();
      next_armed = tls_armed_lists;
      tls_armed_lists = this;
      room = kCapacity;
      push(block);
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
