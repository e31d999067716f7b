// The npu backend: everything it registers with miniaten, through libtorch's headers and API
// only (the same source builds against libtorch). Read top to bottom, it is README.md's
// tutorial: name, allocator, device guard, kernels, fallback.

#include "npu_backend.h"

#include <ATen/ATen.h>
#include <ATen/EmptyTensor.h>
#include <ATen/NativeFunctions.h>
#include <c10/core/Allocator.h>
#include <c10/core/DefaultDtype.h>
#include <c10/core/DeviceGuard.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <torch/library.h>

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace npu {
namespace {

constexpr c10::DeviceIndex kDeviceCount = 2;

// ---- 1. The name: Device("npu:1") parses and prints ------------------------------------------
const bool named = [] {
  c10::register_privateuse1_backend("npu");
  return true;
}();

// ---- 2. The device guard: which npu is current, per thread ------------------------------------
thread_local c10::DeviceIndex current_device = 0;
std::atomic<int> last_device{-1};

struct NpuGuardImpl final : c10::impl::DeviceGuardImplInterface {
  c10::DeviceType type() const override { return c10::DeviceType::PrivateUse1; }
  c10::Device exchangeDevice(c10::Device d) const override {
    const c10::Device old = getDevice();
    setDevice(d);
    return old;
  }
  c10::Device getDevice() const override {
    return c10::Device(c10::DeviceType::PrivateUse1, current_device);
  }
  void setDevice(c10::Device d) const override {
    TORCH_CHECK(d.is_privateuseone(), "npu guard: expected an npu device, got ", d);
    TORCH_CHECK(d.index() >= 0 && d.index() < kDeviceCount, "npu guard: there is no device ", d,
                " (this machine has ", int(kDeviceCount), ")");
    current_device = d.index();
  }
  void uncheckedSetDevice(c10::Device d) const noexcept override { current_device = d.index(); }
  c10::Stream getStream(c10::Device d) const noexcept override {
    return c10::Stream(c10::Stream::DEFAULT, d);
  }
  c10::Stream exchangeStream(c10::Stream s) const noexcept override {
    return c10::Stream(c10::Stream::DEFAULT, s.device());
  }
  c10::DeviceIndex deviceCount() const noexcept override { return kDeviceCount; }
};
C10_REGISTER_GUARD_IMPL(PrivateUse1, NpuGuardImpl);

// ---- 3. The allocator: memory on the current npu -------------------------------------------
std::atomic<size_t> live_bytes{0};
std::atomic<int64_t> allocations{0};

struct Block {
  void* data;
  size_t size;
};

void free_block(void* ctx) {
  auto* block = static_cast<Block*>(ctx);
  live_bytes -= block->size;
  std::free(block->data);
  delete block;
}

struct NpuAllocator final : c10::Allocator {
  c10::DataPtr allocate(size_t nbytes) const override {
    const c10::Device device(c10::DeviceType::PrivateUse1, current_device);
    if (nbytes == 0) return c10::DataPtr(nullptr, device);
    void* data = std::aligned_alloc(64, (nbytes + 63) / 64 * 64);
    TORCH_CHECK(data != nullptr, "npu: out of memory allocating ", nbytes, " bytes");
    live_bytes += nbytes;
    ++allocations;
    return c10::DataPtr(data, new Block{data, nbytes}, &free_block, device);
  }
};
NpuAllocator allocator;
REGISTER_ALLOCATOR(c10::DeviceType::PrivateUse1, &allocator);

// ---- 4. Kernels --------------------------------------------------------------------------------
// Each kernel first makes the device of the tensor it works on current (as libtorch's generated
// backend wrappers do), so that whatever it allocates lands there.
const c10::DispatchKeySet kNpuKeys(c10::DispatchKey::PrivateUse1);

void note_kernel() {
  last_device = current_device;
}

// The npu memory of `t` seen as a CPU tensor with t's sizes, strides and dtype: how this
// backend borrows the CPU kernels. A real device would launch its own kernels here instead.
at::Tensor as_cpu(const at::Tensor& t) {
  if (t.is_cpu()) return t;
  TORCH_CHECK(t.device().is_privateuseone(), "npu: expected an npu or CPU tensor, got one on ",
              t.device());
  return at::from_blob(t.data_ptr(), t.sizes(), t.strides(), t.options().device(at::kCPU));
}

// A result on the npu with the geometry the Meta kernel of the same call gives (sizes,
// strides, dtype: what the CPU kernel would allocate), so the CPU kernel can write into it.
at::Tensor npu_like_meta(const at::Tensor& meta_result, c10::Device device) {
  return at::empty_strided(meta_result.sizes(), meta_result.strides(),
                           meta_result.options().device(device));
}
at::Tensor to_meta(const at::Tensor& t) {
  return at::empty_strided(t.sizes(), t.strides(), t.options().device(at::kMeta));
}

at::Tensor empty_memory_format(at::IntArrayRef size, c10::optional<at::ScalarType> dtype,
                               c10::optional<at::Layout>, c10::optional<at::Device> device,
                               c10::optional<bool>, c10::optional<at::MemoryFormat> memory_format) {
  c10::OptionalDeviceGuard guard(device);  // npu:1 allocates on device 1
  note_kernel();
  return at::detail::empty_generic(size, &allocator, kNpuKeys,
                                   dtype.value_or(c10::get_default_dtype_as_scalartype()),
                                   memory_format);
}

at::Tensor empty_strided(at::IntArrayRef size, at::IntArrayRef stride,
                         c10::optional<at::ScalarType> dtype, c10::optional<at::Layout>,
                         c10::optional<at::Device> device, c10::optional<bool>) {
  c10::OptionalDeviceGuard guard(device);
  note_kernel();
  return at::detail::empty_strided_generic(size, stride, &allocator, kNpuKeys,
                                           dtype.value_or(c10::get_default_dtype_as_scalartype()));
}

// npu <- cpu, cpu <- npu and npu <- npu, any strides and dtypes: the CPU copy on CPU views.
at::Tensor& copy_(at::Tensor& self, const at::Tensor& src, bool /*non_blocking*/) {
  c10::OptionalDeviceGuard guard(self.device().is_privateuseone() ? self.device() : src.device());
  note_kernel();
  as_cpu(self).copy_(as_cpu(src));
  return self;
}

at::Tensor& fill_(at::Tensor& self, const at::Scalar& value) {
  c10::OptionalDeviceGuard guard(self.device());
  note_kernel();
  as_cpu(self).fill_(value);
  return self;
}

at::Tensor add(const at::Tensor& self, const at::Tensor& other, const at::Scalar& alpha) {
  c10::OptionalDeviceGuard guard(self.device());
  note_kernel();
  TORCH_CHECK(self.device() == other.device(),
              "npu add: both tensors must be on the same npu, got ", self.device(), " and ",
              other.device());
  // Broadcasting, type promotion and the output's strides, all from the Meta kernel.
  at::Tensor out = npu_like_meta(at::add(to_meta(self), to_meta(other), alpha), self.device());
  at::Tensor out_cpu = as_cpu(out);
  at::add_out(out_cpu, as_cpu(self), as_cpu(other), alpha);
  return out;
}

at::Tensor sum(const at::Tensor& self, at::OptionalIntArrayRef dim, bool keepdim,
               c10::optional<at::ScalarType> dtype) {
  c10::OptionalDeviceGuard guard(self.device());
  note_kernel();
  at::Tensor out = npu_like_meta(at::sum(to_meta(self), dim, keepdim, dtype), self.device());
  at::Tensor out_cpu = as_cpu(out);
  at::sum_out(out_cpu, as_cpu(self), dim, keepdim, dtype);
  return out;
}

at::Scalar local_scalar_dense(const at::Tensor& self) {
  c10::OptionalDeviceGuard guard(self.device());
  note_kernel();
  return as_cpu(self).item();
}

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("empty.memory_format", TORCH_FN(empty_memory_format));
  m.impl("empty_strided", TORCH_FN(empty_strided));
  m.impl("copy_", TORCH_FN(copy_));
  m.impl("fill_.Scalar", TORCH_FN(fill_));
  m.impl("add.Tensor", TORCH_FN(add));
  m.impl("sum.dim_IntList", TORCH_FN(sum));
  m.impl("_local_scalar_dense", TORCH_FN(local_scalar_dense));
  // Views only make new geometry over the same storage: the library's own kernels serve.
  m.impl("as_strided", TORCH_FN(at::native::as_strided_tensorimpl));
  m.impl("view", TORCH_FN(at::native::view));
  m.impl("_reshape_alias", TORCH_FN(at::native::_reshape_alias));
}

// ---- 5. The fallback: every other operator says what is missing --------------------------------
void npu_fallback(const c10::OperatorHandle& op, torch::jit::Stack* /*stack*/) {
  TORCH_CHECK_NOT_IMPLEMENTED(false, "The npu backend has no kernel for '",
                              op.schema().operator_name(),
                              "'. Move the tensors to the CPU (t.cpu()) for this operator.");
}

TORCH_LIBRARY_IMPL(_, PrivateUse1, m) {
  m.fallback(torch::CppFunction::makeFromBoxedFunction<&npu_fallback>());
}

}  // namespace

size_t allocated_bytes() {
  return live_bytes.load();
}
int64_t allocation_count() {
  return allocations.load();
}
int last_kernel_device() {
  return last_device.load();
}

}  // namespace npu
