// copy_ between CUDA tensors: memcpy, the tiled transpose, or the elementwise loop with dynamic
// casting (see CopyKernel.h). Kept to one file and few instantiations: 5 transposes (one per
// element size) and 3 loops for each of the 12 destination dtypes.

#include <cuda_runtime_api.h>

#include "aten/Dispatch.h"
#include "aten/native/Copy.h"
#include "aten/native/cuda/CopyKernel.h"
#include "aten/native/cuda/Loops.cuh"

namespace at {
namespace native {

namespace {

// The elementwise loop with an identity functor of the destination's type: a source of another
// dtype (or a layout no faster path takes) is read through dynamic casting.
void copy_elementwise(TensorIteratorBase& iter) {
  AT_DISPATCH_ALL_MINIATEN_TYPES_AND_COMPLEX(
      iter.dtype(0), "copy_", [&] { gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x) { return x; }); });
}

template <int bytes>
void launch_transpose(TensorIteratorBase& iter) {
  using T = typename gpu::Carrier<bytes>::type;
  gpu::DeviceLauncher::launch_transpose(gpu::make_transpose_body<gpu::CopyTransposeBody<T>>(iter));
  set_last_gpu_loop("transpose");
}

// The tiled transpose for each 32-bit piece that still is one (splitting keeps the strides; a
// piece can only become too short for a tile, and then takes the elementwise loop).
void transpose_copy(TensorIteratorBase& iter) {
  if (!iter.can_use_32bit_indexing()) {
    iter.with_32bit_indexing([](TensorIteratorBase& sub) { transpose_copy(sub); });
    return;
  }
  if (!gpu::is_transpose_copy(iter)) return copy_elementwise(iter);
  switch (iter.element_size(0)) {
    case 1:
      return launch_transpose<1>(iter);
    case 2:
      return launch_transpose<2>(iter);
    case 4:
      return launch_transpose<4>(iter);
    case 8:
      return launch_transpose<8>(iter);
    case 16:
      return launch_transpose<16>(iter);
    default:
      TORCH_INTERNAL_ASSERT(false, "unexpected element size");
  }
}

// One of the two devices' current streams waits for the work queued so far on the other.
void stream_waits_for(cudaStream_t waiter, c10::Device waiter_device, cudaStream_t producer,
                      c10::Device producer_device) {
  cudaEvent_t event;
  {
    const c10::cuda::CUDAGuard guard(producer_device);
    C10_CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
    C10_CUDA_CHECK(cudaEventRecord(event, producer));
  }
  const c10::cuda::CUDAGuard guard(waiter_device);
  C10_CUDA_CHECK(cudaStreamWaitEvent(waiter, event, 0));
  C10_CUDA_CHECK(cudaEventDestroy(event));  // released once the wait has been satisfied
}

}  // namespace

void copy_device_to_device(TensorIteratorBase& iter, bool non_blocking) {
  (void)non_blocking;  // copies between device buffers never block the host
  const c10::Device dst_device = iter.device(0);
  const c10::Device src_device = iter.device(1);
  const bool same_type = iter.dtype(0) == iter.dtype(1);
  // The copy runs on the source device's current stream (libtorch's choice).
  const c10::cuda::CUDAGuard guard(src_device);
  const cudaStream_t copy_stream = c10::cuda::getCurrentCUDAStream(src_device.index());
  const cudaStream_t dst_stream = c10::cuda::getCurrentCUDAStream(dst_device.index());
  if (src_device != dst_device) {
    // Nothing may still be reading or writing dst when the copy starts.
    stream_waits_for(copy_stream, src_device, dst_stream, dst_device);
  }
  if (same_type && iter.is_contiguous()) {
    const size_t nbytes = static_cast<size_t>(iter.numel()) * iter.element_size(0);
    if (src_device == dst_device) {
      C10_CUDA_CHECK(cudaMemcpyAsync(iter.data_ptr(0), iter.data_ptr(1), nbytes,
                                     cudaMemcpyDeviceToDevice, copy_stream));
    } else {
      C10_CUDA_CHECK(cudaMemcpyPeerAsync(iter.data_ptr(0), dst_device.index(), iter.data_ptr(1),
                                         src_device.index(), nbytes, copy_stream));
    }
    set_last_gpu_loop("memcpy");
  } else if (same_type) {
    transpose_copy(iter);
  } else {
    copy_elementwise(iter);
  }
  set_last_copy_loop(last_gpu_loop());
  if (src_device != dst_device) {
    // Nothing on the destination device may use dst before the copy is done.
    stream_waits_for(dst_stream, dst_device, copy_stream, src_device);
  }
}

}  // namespace native
}  // namespace at
