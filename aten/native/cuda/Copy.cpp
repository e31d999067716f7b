// copy_ when either side is a CUDA tensor (copy_stub's CUDA slot), ATen's native/cuda/Copy.cu
// host logic:
//  * both on one device, or on two devices with peer access -> copy_device_to_device
//    (CopyKernel.cu: cudaMemcpyAsync, the tiled transpose, or gpu_kernel with casting);
//  * host <-> device, same dtype and contiguous as iterated -> one cudaMemcpyAsync on the
//    current stream of the CUDA side; waited for, unless non_blocking (then a pinned host
//    buffer is held back by an event until the copy is done);
//  * anything else (another dtype or layout across the host boundary, devices without peer
//    access) -> contiguous temporaries, converted on the device when non_blocking and on the
//    host otherwise, and the copies above between them (Note [Copies that need temporaries]).

#include <cuda_runtime_api.h>

#include "aten/ATen.h"
#include "aten/native/Copy.h"
#include "aten/native/cuda/CopyKernel.h"
#include "c10/cuda/CUDAGuard.h"
#include "c10/cuda/CachingHostAllocator.h"

namespace at {
namespace native {

namespace {

// Whether `device` can read and write `peer`'s memory directly; enabled on first ask.
bool p2p_enabled(c10::Device device, c10::Device peer) {
  if (device == peer) return true;
  int can = 0;
  C10_CUDA_CHECK(cudaDeviceCanAccessPeer(&can, device.index(), peer.index()));
  if (!can) return false;
  const c10::cuda::CUDAGuard guard(device);
  const cudaError_t err = cudaDeviceEnablePeerAccess(peer.index(), 0);
  if (err == cudaErrorPeerAccessAlreadyEnabled) {
    (void)cudaGetLastError();
  } else {
    C10_CUDA_CHECK(err);
  }
  return true;
}

// Note [Copies that need temporaries]
// cudaMemcpyAsync moves a run of bytes. A copy across the host boundary (or between devices
// that cannot reach each other) in another dtype or layout is made of steps that are such runs:
// the source made contiguous in the destination's shape (and, when non_blocking, converted on
// the device side so that the host is not held up converting), one run of bytes, then a copy
// into the destination if it was not contiguous. libtorch 1.13's rule, copy_requires_temporaries.
bool copy_requires_temporaries(const TensorIteratorBase& iter, bool p2p) {
  const c10::Device dst_device = iter.device(0);
  const c10::Device src_device = iter.device(1);
  if (dst_device == src_device) return false;
  if (iter.dtype(0) == iter.dtype(1) && iter.is_contiguous()) return false;
  if (dst_device.is_cuda() && src_device.is_cuda()) return !p2p;
  return true;
}

void copy_through_temporaries(TensorIteratorBase& iter, bool non_blocking) {
  Tensor dst = iter.tensor(0);
  const Tensor& src = iter.tensor(1);
  Tensor dst_contig;
  Tensor src_contig;
  const c10::DeviceType conversion_device = non_blocking ? c10::kCUDA : c10::kCPU;
  if (iter.device_type(1) == conversion_device) {
    dst_contig =
        dst.is_contiguous() ? dst : at::empty_like(dst, dst.options(), MemoryFormat::Contiguous);
    src_contig = src.to(iter.dtype(0)).expand_as(dst).contiguous();
  } else {
    const bool same_type = iter.dtype(0) == iter.dtype(1);
    dst_contig =
        (dst.is_contiguous() && same_type)
            ? dst
            : at::empty_like(dst, dst.options().dtype(iter.dtype(1)), MemoryFormat::Contiguous);
    src_contig = src.expand_as(dst).contiguous();
  }
  dst_contig.copy_(src_contig, non_blocking);
  if (!dst_contig.is_same(dst)) dst.copy_(dst_contig, non_blocking);
}

void copy_kernel_cuda(TensorIteratorBase& iter, bool non_blocking) {
  TORCH_INTERNAL_ASSERT(iter.ntensors() == 2);
  const c10::Device dst_device = iter.device(0);
  const c10::Device src_device = iter.device(1);
  const bool p2p =
      dst_device.is_cuda() && src_device.is_cuda() && p2p_enabled(src_device, dst_device);
  if (copy_requires_temporaries(iter, p2p)) {
    copy_through_temporaries(iter, non_blocking);
    return;
  }
  if (dst_device.is_cuda() && src_device.is_cuda()) {
    copy_device_to_device(iter, non_blocking);
    return;
  }
  // Host <-> device: one run of bytes.
  const bool to_device = dst_device.is_cuda();
  const c10::Device device = to_device ? dst_device : src_device;
  const c10::cuda::CUDAGuard guard(device);
  const c10::cuda::CUDAStream stream = c10::cuda::getCurrentCUDAStream(device.index());
  const size_t nbytes = static_cast<size_t>(iter.numel()) * iter.element_size(0);
  const cudaMemcpyKind kind = to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
  C10_CUDA_CHECK(cudaMemcpyAsync(iter.data_ptr(0), iter.data_ptr(1), nbytes, kind, stream));
  if (non_blocking) {
    // A pinned host buffer must not be reused before the copy has read or written it.
    const Tensor& host = to_device ? iter.tensor(1) : iter.tensor(0);
    c10::cuda::CachingHostAllocator_recordEvent(host.storage().data(), stream);
    set_last_copy_loop(to_device ? "cudaMemcpyAsync host to device (non-blocking)"
                                 : "cudaMemcpyAsync device to host (non-blocking)");
  } else {
    stream.synchronize();
    set_last_copy_loop(to_device ? "cudaMemcpyAsync host to device"
                                 : "cudaMemcpyAsync device to host");
  }
}

}  // namespace

REGISTER_CUDA_DISPATCH(copy_stub, &copy_kernel_cuda);

}  // namespace native
}  // namespace at
