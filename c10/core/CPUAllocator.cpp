#include "c10/core/CPUAllocator.h"

#include <cstdlib>
#include <cstring>

namespace c10 {

void* alloc_cpu(size_t nbytes) {
  if (nbytes == 0) return nullptr;
  TORCH_CHECK(static_cast<ptrdiff_t>(nbytes) >= 0,
              "alloc_cpu() seems to have been called with negative number: ", nbytes);
  void* data = nullptr;
  const int err = posix_memalign(&data, gAlignment, nbytes);
  TORCH_CHECK_WITH(OutOfMemoryError, err == 0,
                   "DefaultCPUAllocator: can't allocate memory: you tried to allocate ", nbytes,
                   " bytes. Error code ", err, " (", std::strerror(err), ")");
  return data;
}

void free_cpu(void* data) { std::free(data); }

namespace {

struct DefaultCPUAllocator final : public Allocator {
  DataPtr allocate(size_t nbytes) const override {
    void* data = alloc_cpu(nbytes);
    return {data, data, &free_cpu, Device(DeviceType::CPU)};
  }
  DeleterFnPtr raw_deleter() const override { return &free_cpu; }
};

DefaultCPUAllocator g_cpu_alloc;

}  // namespace

Allocator* GetDefaultCPUAllocator() { return &g_cpu_alloc; }
Allocator* GetCPUAllocator() { return GetAllocator(DeviceType::CPU); }

REGISTER_ALLOCATOR(DeviceType::CPU, &g_cpu_alloc);

}  // namespace c10
