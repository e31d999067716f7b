// The CUDA factories: empty / empty_strided from the caching allocator, and reading one element
// back (item()). Host code: the GPU kernels of the value-computing factories are in
// FactoryKernels.cu.

#include <cuda_runtime_api.h>

#include "aten/Context.h"
#include "aten/Dispatch.h"
#include "aten/detail/EmptyTensor.h"
#include "aten/generated/NativeFunctions.h"
#include "c10/cuda/CUDACachingAllocator.h"
#include "c10/cuda/CUDAGuard.h"

namespace at {
namespace native {

namespace {

constexpr c10::DispatchKeySet kCUDAKeys = c10::keysetForBackend(c10::DispatchKey::CUDA);

void check_cuda_options(c10::optional<Layout> layout, c10::optional<bool> pin_memory) {
  TORCH_CHECK(layout.value_or(Layout::Strided) == Layout::Strided,
              "empty: only the strided layout is supported");
  TORCH_CHECK(!pin_memory.value_or(false), "Only dense CPU tensors can be pinned");
}

// The device the tensor goes to made current for the allocation (the allocator serves the
// current device); nothing to do for "cuda" without an index or the current device.
struct AllocationDevice {
  explicit AllocationDevice(c10::optional<Device> device) {
    at::globalContext().lazyInitCUDA();
    if (device.has_value() && device->has_index()) guard.set_index(device->index());
  }
  c10::cuda::OptionalCUDAGuard guard;
};

}  // namespace

Tensor empty_cuda(IntArrayRef size, c10::optional<c10::ScalarType> dtype,
                  c10::optional<Layout> layout, c10::optional<Device> device,
                  c10::optional<bool> pin_memory, c10::optional<MemoryFormat> memory_format) {
  check_cuda_options(layout, pin_memory);
  const AllocationDevice on(device);
  return at::detail::empty_generic(size, c10::cuda::CUDACachingAllocator::get(), kCUDAKeys,
                                   dtype.value_or(c10::ScalarType::Float), memory_format);
}

Tensor empty_strided_cuda(IntArrayRef size, IntArrayRef stride,
                          c10::optional<c10::ScalarType> dtype, c10::optional<Layout> layout,
                          c10::optional<Device> device, c10::optional<bool> pin_memory) {
  check_cuda_options(layout, pin_memory);
  at::detail::check_size_nonnegative(size);
  TORCH_CHECK(size.size() == stride.size(), "dimensionality of sizes (", size.size(),
              ") must match dimensionality of strides (", stride.size(), ")");
  const AllocationDevice on(device);
  return at::detail::empty_strided_generic(size, stride, c10::cuda::CUDACachingAllocator::get(),
                                           kCUDAKeys, dtype.value_or(c10::ScalarType::Float));
}

// One element to the host: a copy on the current stream, waited for.
Scalar _local_scalar_dense_cuda(const Tensor& self) {
  // As on the CPU (_local_scalar_dense_cpu): an empty tensor has no first element.
  TORCH_CHECK(self.numel() > 0, "a Tensor with 0 elements cannot be converted to Scalar");
  Scalar r;
  AT_DISPATCH_ALL_MINIATEN_TYPES_AND_COMPLEX(self.scalar_type(), "_local_scalar_dense_cuda", [&] {
    scalar_t value;
    const c10::cuda::CUDAGuard guard(self.device());
    const cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
    C10_CUDA_CHECK(
        cudaMemcpyAsync(&value, self.data_ptr(), sizeof(scalar_t), cudaMemcpyDeviceToHost, stream));
    C10_CUDA_CHECK(cudaStreamSynchronize(stream));
    r = Scalar(value);
  });
  return r;
}

}  // namespace native
}  // namespace at
