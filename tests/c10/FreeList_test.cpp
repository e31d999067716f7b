// c10::FreeList: see Note [Per-thread free lists] in c10/util/FreeList.h.

#include <gtest/gtest.h>

#include <memory>
#include <thread>
#include <vector>

#include "c10/core/CPUAllocator.h"
#include "c10/core/StorageImpl.h"
#include "c10/core/TensorImpl.h"
#include "c10/util/FreeList.h"

namespace {

constexpr bool kCaching = c10::FreeList::kEnabled;  // nothing is cached under AddressSanitizer

constexpr size_t kBlock = 48;

// Each test thread's own list, zero-initialized as the real ones are.
C10_TLS_FAST __thread c10::FreeList tls_list;

void drop_all(c10::FreeList& list) {
  while (list.cached() > 0) ::operator delete(list.allocate(kBlock, kBlock));
}

TEST(FreeList, ReusesTheLastFreedBlockOfItsSize) {
  if (!kCaching) GTEST_SKIP() << "AddressSanitizer build: the list caches nothing";
  void* a = tls_list.allocate(kBlock, kBlock);
  void* b = tls_list.allocate(kBlock, kBlock);
  tls_list.deallocate(a, kBlock, kBlock);  // arms the list on this thread's first free
  tls_list.deallocate(b, kBlock, kBlock);
  EXPECT_EQ(tls_list.cached(), 2);
  EXPECT_EQ(tls_list.allocate(kBlock, kBlock), b);  // last in, first out
  EXPECT_EQ(tls_list.allocate(kBlock, kBlock), a);
  EXPECT_EQ(tls_list.cached(), 0);
  tls_list.deallocate(a, kBlock, kBlock);
  tls_list.deallocate(b, kBlock, kBlock);
  drop_all(tls_list);
}

TEST(FreeList, OtherSizesGoToTheGlobalHeap) {
  // A subclass of an opted-in class is bigger than the block: neither cached nor served.
  const int32_t before = tls_list.cached();
  void* bigger = tls_list.allocate(kBlock + 16, kBlock);
  tls_list.deallocate(bigger, kBlock + 16, kBlock);
  EXPECT_EQ(tls_list.cached(), before);
}

TEST(FreeList, KeepsAtMostItsCapacity) {
  if (!kCaching) GTEST_SKIP() << "AddressSanitizer build: the list caches nothing";
  std::vector<void*> blocks;
  for (int i = 0; i < c10::FreeList::kCapacity + 5; ++i) {
    blocks.push_back(tls_list.allocate(kBlock, kBlock));
  }
  for (void* block : blocks) tls_list.deallocate(block, kBlock, kBlock);
  EXPECT_EQ(tls_list.cached(), c10::FreeList::kCapacity);
  drop_all(tls_list);
}

TEST(FreeList, ABlockFreedOnAnotherThreadJoinsThatThreadsList) {
  if (!kCaching) GTEST_SKIP() << "AddressSanitizer build: the list caches nothing";
  void* block = nullptr;
  std::thread([&] { block = tls_list.allocate(kBlock, kBlock); }).join();
  const int32_t before = tls_list.cached();
  tls_list.deallocate(block, kBlock, kBlock);
  EXPECT_EQ(tls_list.cached(), before + 1);
  EXPECT_EQ(tls_list.allocate(kBlock, kBlock), block);
  ::operator delete(block);
}

// Thread-local destructors run in reverse order of construction: this probe is made before the
// list is armed, so it runs after the list was drained at thread exit.
struct AfterDrainProbe {
  int32_t* cached_after_drain;
  int32_t* cached_after_late_free;
  ~AfterDrainProbe() {
    *cached_after_drain = tls_list.cached();
    tls_list.deallocate(tls_list.allocate(kBlock, kBlock), kBlock, kBlock);  // a late free
    *cached_after_late_free = tls_list.cached();
  }
};

TEST(FreeList, ThreadExitReturnsTheBlocksAndLaterFreesGoGlobal) {
  int32_t cached_before_exit = -1, cached_after_drain = -1, cached_after_late_free = -1;
  std::thread([&] {
    thread_local AfterDrainProbe probe{&cached_after_drain, &cached_after_late_free};
    (void)probe;
    void* a = tls_list.allocate(kBlock, kBlock);
    void* b = tls_list.allocate(kBlock, kBlock);
    tls_list.deallocate(a, kBlock, kBlock);
    tls_list.deallocate(b, kBlock, kBlock);
    cached_before_exit = tls_list.cached();
  }).join();
  EXPECT_EQ(cached_before_exit, kCaching ? 2 : 0);
  EXPECT_EQ(cached_after_drain, 0);
  EXPECT_EQ(cached_after_late_free, 0);
}

TEST(FreeList, TensorImplsComeFromThePerThreadList) {
  if (!kCaching) GTEST_SKIP() << "AddressSanitizer build: the list caches nothing";
  auto make = [] {
    return c10::make_intrusive<c10::TensorImpl>(c10::Storage(), c10::DispatchKeySet(),
                                                caffe2::TypeMeta::Make<float>());
  };
  auto first = make();
  const c10::TensorImpl* address = first.get();
  first.reset();
  EXPECT_EQ(make().get(), address);  // the block just freed, not a fresh one
}

TEST(FreeList, AllocateSharedKeepsTheBlockUntilTheLastWeakReference) {
  if (!kCaching) GTEST_SKIP() << "AddressSanitizer build: the list caches nothing";
  using Alloc = c10::FreeListAllocator<int64_t>;
  auto a = std::allocate_shared<int64_t>(Alloc(), 7);
  const int64_t* address = a.get();
  std::weak_ptr<int64_t> watcher = a;
  a.reset();  // the object is gone, the control block (same block) is not
  auto b = std::allocate_shared<int64_t>(Alloc(), 8);
  EXPECT_NE(b.get(), address);
  b.reset();
  watcher.reset();  // now the block goes back to the list, after b's
  auto c = std::allocate_shared<int64_t>(Alloc(), 9);
  EXPECT_EQ(c.get(), address);
  EXPECT_EQ(*c, 9);
}

// Note [Small storage blocks]: one list per 64-byte size class, the class in a block header.
TEST(FreeList, SmallStoragesReuseBlocksOfTheirSizeClass) {
  if (!kCaching) GTEST_SKIP() << "AddressSanitizer build: the list caches nothing";
  c10::Allocator* cpu = c10::GetDefaultCPUAllocator();
  auto first = c10::StorageImpl::make_with_inline_data(256, cpu);
  const c10::StorageImpl* address = first.get();
  first.reset();
  auto other_class = c10::StorageImpl::make_with_inline_data(512, cpu);
  EXPECT_NE(other_class.get(), address);
  auto same_class = c10::StorageImpl::make_with_inline_data(250, cpu);
  EXPECT_EQ(same_class.get(), address);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(same_class->data()) % c10::gAlignment, 0u);
  EXPECT_EQ(same_class->nbytes(), 250u);
}

TEST(FreeList, LargeStoragesStillComeAndGo) {
  auto big = c10::make_intrusive<c10::StorageImpl>(c10::StorageImpl::use_byte_size_t(), 1 << 20,
                                                   c10::GetDefaultCPUAllocator(), true);
  static_cast<char*>(big->data())[(1 << 20) - 1] = 1;
  EXPECT_EQ(big->nbytes(), size_t{1} << 20);
}

}  // namespace
