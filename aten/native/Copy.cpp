// copy_: self = src, broadcasting src to self and converting dtypes (REFERENCE.md section 4).
// The op builds a TensorIterator (output first, so the output's layout decides the loop order)
// and hands it to copy_stub: copy_kernel in aten/native/cpu/CopyKernel.cpp, one per CPU
// capability, or, when either side is a CUDA tensor, copy_kernel_cuda (aten/native/cuda/Copy.cpp).

#include "aten/native/Copy.h"
#include "aten/ATen.h"
#include "aten/generated/NativeFunctions.h"
#include "aten/native/TensorIterator.h"
#include "c10/util/TypeCast.h"
#include "dispatcher/DispatchTrace.h"

namespace at {
namespace native {

DEFINE_DISPATCH(copy_stub);

namespace {
// Here, compiled once, rather than in the kernel file, which is compiled once per capability.
__thread const char* tls_last_copy_loop C10_TLS_FAST = "";
}  // namespace

const char* last_copy_loop() { return tls_last_copy_loop; }

void set_last_copy_loop(const char* loop) { tls_last_copy_loop = loop; }

namespace {
// Out of line: the message's ostringstream would otherwise enlarge every copy_'s frame.
[[noreturn]] C10_NOINLINE void fail_devices(c10::Device self, c10::Device src) {
  TORCH_CHECK_NOT_IMPLEMENTED(!src.is_meta(), "Cannot copy out of meta tensor; no data!");
  TORCH_CHECK(false, "copy_: cannot copy from a tensor on ", src, " to one on ", self);
  __builtin_unreachable();
}
}  // namespace

Tensor& copy_(Tensor& self, const Tensor& src, bool non_blocking) {
  TORCH_CHECK(self.defined(), "copy_(): self must be defined");
  TORCH_CHECK(src.defined(), "copy_(): src must be defined");
  // Early exits: the same tensor, or an identical view of the same memory.
  if (self.is_same(src)) return self;
  const bool is_same_data = self.is_alias_of(src) &&
                            self.storage_offset() == src.storage_offset() &&
                            self.strides().equals(src.strides()) &&
                            self.sizes().equals(src.sizes()) &&
                            self.scalar_type() == src.scalar_type();
  if (is_same_data) return self;
  if (self.is_meta()) {
    // Shape checks only: a meta copy moves no data.
    infer_size_dimvector(self.sizes(), src.sizes());
    return self;
  }
  // CPU <-> CPU here; any copy with a CUDA side goes to the CUDA kernel, which also moves
  // bytes across the host boundary (aten/native/cuda/Copy.cpp).
  const bool cpu_only = self.is_cpu() && src.is_cpu();
  if (C10_UNLIKELY(!cpu_only) &&
      !((self.is_cuda() || self.is_cpu()) && (src.is_cuda() || src.is_cpu()))) {
    fail_devices(self.device(), src.device());
  }
  // TensorIterator checks self for internal overlap first (libtorch's copy_ error), then its
  // partial overlap with src.
  auto iter = TensorIteratorConfig()
                  .add_output(self)
                  .add_input(src)
                  .resize_outputs(false)
                  .check_all_same_dtype(false)
                  .check_all_same_device(false)
                  .build();
  if (iter.numel() == 0) return self;
  // As libtorch: a Bool destination keeps the information "nonzero", so it is not warned about.
  if (C10_UNLIKELY(src.is_complex() && !self.is_complex() && self.scalar_type() != kBool)) {
    c10::warn_complex_to_real_once();
  }
  copy_stub(cpu_only ? c10::DeviceType::CPU : c10::DeviceType::CUDA, iter, non_blocking);
  if (c10::DispatchTrace::enabled()) {
    c10::DispatchTrace::log(std::string("copy_kernel: ") + last_copy_loop() + " loop");
  }
  return self;
}

}  // namespace native
}  // namespace at
