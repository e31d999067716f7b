// index_select and masked_fill_ on the GPU: the CUDA kernels behind index_select_stub
// (Indexing.h; the indices were checked on the host and copied to the device by Indexing.cpp) and
// masked_fill_stub. embedding, built on index_select, runs on CUDA through them.

#include <cuda_runtime_api.h>

#include "aten/Dispatch.h"
#include "aten/native/Indexing.h"
#include "aten/native/cuda/Loops.cuh"
#include "aten/native/cuda/RowGatherBody.h"
#include "c10/cuda/CUDAException.h"
#include "c10/cuda/CUDAStream.h"

namespace at {
namespace native {

namespace {

constexpr int kGatherThreads = 256;

// One chunk of `Chunk` bytes a thread; the chunk's source from gpu::row_gather_source_offset.
template <typename Chunk>
__global__ void row_gather(RowGather rows, int64_t chunks) {
  const int64_t c = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (c >= chunks) return;
  const int64_t from = gpu::row_gather_source_offset(rows, sizeof(Chunk), c);
  reinterpret_cast<Chunk*>(rows.out)[c] = *reinterpret_cast<const Chunk*>(rows.in + from);
}

struct alignas(16) Bytes16 {
  uint64_t lo, hi;
};

void index_select_kernel_cuda(const RowGather& rows) {
  const int width = gpu::row_gather_width(rows);
  const int64_t chunks = rows.outer * rows.n * (rows.run / width);
  if (chunks == 0) return;
  const int64_t blocks = (chunks + kGatherThreads - 1) / kGatherThreads;
  TORCH_CHECK(blocks <= std::numeric_limits<int>::max(),
              "index_select: result too large for one CUDA launch");
  const auto grid = static_cast<unsigned>(blocks);
  const cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
  switch (width) {
    case 16:
      row_gather<Bytes16><<<grid, kGatherThreads, 0, stream>>>(rows, chunks);
      break;
    case 8:
      row_gather<uint64_t><<<grid, kGatherThreads, 0, stream>>>(rows, chunks);
      break;
    case 4:
      row_gather<uint32_t><<<grid, kGatherThreads, 0, stream>>>(rows, chunks);
      break;
    case 2:
      row_gather<uint16_t><<<grid, kGatherThreads, 0, stream>>>(rows, chunks);
      break;
    default:
      row_gather<uint8_t><<<grid, kGatherThreads, 0, stream>>>(rows, chunks);
      break;
  }
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

template <typename T>
struct MaskedFillFunctor {
  T value;
  C10_HOST_DEVICE T operator()(T self, bool mask) const { return mask ? value : self; }
};

// iter: (self; self, mask), mask Bool and broadcast to self.
void masked_fill_kernel_cuda(TensorIteratorBase& iter, const c10::Scalar& value) {
  AT_DISPATCH_ALL_TYPES_AND3(kHalf, kBFloat16, kBool, iter.dtype(0), "masked_fill_", [&] {
    gpu_kernel_nocast(iter, MaskedFillFunctor<scalar_t>{value.to<scalar_t>()});
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(index_select_stub, &index_select_kernel_cuda);
REGISTER_CUDA_DISPATCH(masked_fill_stub, &masked_fill_kernel_cuda);

}  // namespace native
}  // namespace at
