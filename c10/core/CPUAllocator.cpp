#include "c10/core/CPUAllocator.h"

#include "c10/core/CPUCachingAllocator.h"

#include <cstdlib>
#include <cstdint>
#include <cstring>

namespace c10 {

namespace detail {

void throw_cpu_out_of_memory(size_t nbytes, int err) {
  TORCH_CHECK_WITH(OutOfMemoryError, false,
                   "DefaultCPUAllocator: can't allocate memory: you tried to allocate ", nbytes,
                   " bytes. Error code ", err, " (", std::strerror(err), ")");
}

namespace {
void check_nonnegative(size_t nbytes) {
  TORCH_CHECK(static_cast<ptrdiff_t>(nbytes) >= 0,
              "alloc_cpu() seems to have been called with negative number: ", nbytes);
}
}  // namespace

}  // namespace detail

void* alloc_cpu(size_t nbytes) {
  if (nbytes == 0) return nullptr;
  detail::check_nonnegative(nbytes);
  void* data = nullptr;
  const int err = posix_memalign(&data, gAlignment, nbytes);
  if (err != 0) detail::throw_cpu_out_of_memory(nbytes, err);
  return data;
}

void free_cpu(void* data) { std::free(data); }

namespace {

// Note [Small CPU allocations]
// posix_memalign bypasses glibc's per-thread cache, and freeing its blocks makes malloc
// consolidate; for the small tensors that per-call overhead is about, that was half the cost
// of at::empty({1}). Small blocks therefore come from plain malloc (cached per thread),
// over-allocated by the alignment and aligned by hand; the DataPtr's context keeps the
// pointer malloc returned, which is what the deleter frees.
constexpr size_t kSmallAllocation = 4096;

void free_small(void* ctx) { std::free(ctx); }

struct DefaultCPUAllocator final : public Allocator {
  DataPtr allocate(size_t nbytes) const override {
    if (nbytes > 0 && nbytes <= kSmallAllocation) {
      void* raw = std::malloc(nbytes + gAlignment);
      TORCH_CHECK_WITH(OutOfMemoryError, raw != nullptr,
                       "DefaultCPUAllocator: can't allocate memory: you tried to allocate ", nbytes,
                       " bytes. Error code 12 (Cannot allocate memory)");
      const auto addr = reinterpret_cast<uintptr_t>(raw);
      void* data = reinterpret_cast<void*>((addr + gAlignment) & ~(uintptr_t(gAlignment) - 1));
      return {data, raw, &free_small, Device(DeviceType::CPU)};
    }
    if (nbytes >= cpu::kLargeAllocation) {
      detail::check_nonnegative(nbytes);
      return cpu::detail::allocate_large(nbytes);  // Note [Why big CPU tensors come from a cache]
    }
    void* data = alloc_cpu(nbytes);
    return {data, data, &free_cpu, Device(DeviceType::CPU)};
  }
  DeleterFnPtr raw_deleter() const override { return &free_cpu; }
  void* raw_allocate(size_t nbytes) override { return alloc_cpu(nbytes); }
};

DefaultCPUAllocator g_cpu_alloc;

}  // namespace

Allocator* GetDefaultCPUAllocator() { return &g_cpu_alloc; }
Allocator* GetCPUAllocator() { return GetAllocator(DeviceType::CPU); }

REGISTER_ALLOCATOR(DeviceType::CPU, &g_cpu_alloc);

}  // namespace c10
