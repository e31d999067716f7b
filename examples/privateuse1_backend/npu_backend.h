#pragma once
// npu: an example out-of-tree backend on the PrivateUse1 dispatch key. Its "device memory" is
// host memory from its own allocator, so its kernels can run the CPU kernels on a CPU view of
// that memory; everything else (the allocator, the device guard, the kernels, the fallback,
// the name "npu") is what a real accelerator's backend registers. See README.md.

#include <cstddef>
#include <cstdint>

namespace npu {

// Bytes the npu allocator holds now, and allocations made since the program started.
size_t allocated_bytes();
int64_t allocation_count();

// The npu device that was current when the last npu kernel ran (the backend's own guard
// state, set by c10::DeviceGuard and by the autograd engine).
int last_kernel_device();

}  // namespace npu
