#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "c10/core/CPUAllocator.h"
#include "c10/core/StorageImpl.h"

namespace {

TEST(CPUAllocator, AlignsTo64Bytes) {
  c10::Allocator* alloc = c10::GetCPUAllocator();
  for (size_t n : {1u, 3u, 64u, 1000u, 1u << 20}) {
    c10::DataPtr p = alloc->allocate(n);
    ASSERT_NE(p.get(), nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p.get()) % 64, 0u);
    EXPECT_EQ(p.device(), c10::Device(c10::kCPU));
  }
  EXPECT_EQ(alloc->allocate(0).get(), nullptr);
}

TEST(CPUAllocator, AbsurdSizeRaisesOutOfMemoryWithTheByteCount) {
  try {
    c10::DataPtr p = c10::GetCPUAllocator()->allocate(size_t(1) << 50);
    FAIL() << "allocated a petabyte";
  } catch (const c10::OutOfMemoryError& e) {
    EXPECT_STREQ(e.what_without_backtrace(),
                 "DefaultCPUAllocator: can't allocate memory: you tried to allocate "
                 "1125899906842624 bytes. Error code 12 (Cannot allocate memory)");
  }
}

TEST(CPUAllocator, RawAllocateRoundTrip) {
  c10::Allocator* alloc = c10::GetCPUAllocator();
  void* p = alloc->raw_allocate(128);
  ASSERT_NE(p, nullptr);
  alloc->raw_deallocate(p);
}

TEST(Storage, OwnsItsBytesAndKnowsAliases) {
  c10::Storage s(c10::Storage::use_byte_size_t(), 40, c10::GetCPUAllocator(), true);
  EXPECT_EQ(s.nbytes(), 40u);
  EXPECT_TRUE(s.resizable());
  EXPECT_NE(s.data(), nullptr);
  c10::Storage same = s;
  EXPECT_TRUE(same.is_alias_of(s));
  EXPECT_EQ(s.use_count(), 2u);
  c10::Storage other(c10::Storage::use_byte_size_t(), 40, c10::GetCPUAllocator());
  EXPECT_FALSE(other.is_alias_of(s));
}

TEST(Allocator, MissingDeviceAllocatorIsAClearError) {
  try {
    c10::GetAllocator(c10::kPrivateUse1);
    FAIL();
  } catch (const c10::Error& e) {
    EXPECT_STREQ(e.what_without_backtrace(), "Allocator for privateuseone is not set.");
  }
}

}  // namespace
