// The indexing kernels on the GPU:
// - index_select_stub (Indexing.h; the indices were checked on the host and copied to the device
//   by Indexing.cpp) and masked_fill_stub; embedding, built on index_select, runs on them;
// - indexed_copy_stub (IndexedCopy.h), behind gather, scatter, scatter_add_, index and
//   index_put_, and so index_add_ (embedding's backward), masked_select and masked_scatter_;
// - flagged_positions_stub, the positions of a mask's true elements (CUB's DeviceSelect),
//   behind nonzero, masked_select and masked_scatter_.

#include <cuda_runtime_api.h>

#include <thrust/iterator/counting_iterator.h>
#include <cub/device/device_select.cuh>

#include "aten/Dispatch.h"
#include "aten/generated/Functions.h"  // at::empty
#include "aten/native/IndexedCopy.h"
#include "aten/native/Indexing.h"
#include "aten/native/cuda/IndexedCopyBody.h"
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

// ---- indexed_copy_stub -------------------------------------------------------------------------

// Note [Adding a narrow element with a compare-and-swap] in IndexedCopyBody.h.
template <typename T>
__device__ void narrow_atomic_add(char* dst, T value) {
  const auto addr = reinterpret_cast<uintptr_t>(dst);
  auto* word = reinterpret_cast<unsigned int*>(addr & ~static_cast<uintptr_t>(3));
  const uint32_t shift = gpu::word_shift(addr);
  unsigned int old = *word, assumed;
  do {
    assumed = old;
    old = atomicCAS(word, assumed, gpu::word_with_sum(assumed, shift, value));
  } while (old != assumed);
}

// *dst += *src, atomically: indices may repeat. Complex numbers add their two parts separately.
template <typename T>
__device__ void atomic_add_element(char* dst, const char* src) {
  if constexpr (c10::is_complex<T>::value) {
    using R = typename T::value_type;
    const R* s = reinterpret_cast<const R*>(src);
    R* d = reinterpret_cast<R*>(dst);
    atomicAdd(d, s[0]);
    atomicAdd(d + 1, s[1]);
  } else if constexpr (std::is_same<T, float>::value || std::is_same<T, double>::value ||
                       std::is_same<T, int32_t>::value) {
    atomicAdd(reinterpret_cast<T*>(dst), *reinterpret_cast<const T*>(src));
  } else if constexpr (sizeof(T) == 8) {  // int64: the same bits as an unsigned add
    atomicAdd(reinterpret_cast<unsigned long long*>(dst),
              *reinterpret_cast<const unsigned long long*>(src));
  } else {
    narrow_atomic_add<T>(dst, *reinterpret_cast<const T*>(src));
  }
}

template <typename T>
struct AtomicAddElement {
  C10_HOST_DEVICE void operator()(char* dst, const char* src) const {
#ifdef __CUDA_ARCH__
    atomic_add_element<T>(dst, src);
#endif
  }
};

void indexed_copy_kernel_cuda(TensorIteratorBase& iter, const IndexTerms& terms, bool accumulate) {
  gpu::check_all_on_cuda(iter);
  const c10::cuda::CUDAGuard guard(iter.device(0));
  using Launcher = gpu::DeviceLauncher;
  if (accumulate) {
    AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(
        kHalf, kBFloat16, kBool, iter.dtype(0), "index_put_",
        [&] { gpu::indexed_copy<Launcher>(iter, terms, AtomicAddElement<scalar_t>{}); });
    return;
  }
  // A move is a copy of the element's bytes.
  gpu::with_element_copy(c10::elementSize(iter.dtype(0)),
                         [&](auto copy) { gpu::indexed_copy<Launcher>(iter, terms, copy); });
}

// ---- flagged_positions_stub ---------------------------------------------------------------------

// positions[j] = the j-th position p (in order) with mask[p] true; positions is sized to their
// count already (IndexedCopy.cpp).
void flagged_positions_cuda(const Tensor& mask, Tensor& positions) {
  const c10::cuda::CUDAGuard guard(mask.device());
  const cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
  const int64_t n = mask.numel();
  TORCH_CHECK(n <= std::numeric_limits<int>::max(),
              "nonzero is not supported for tensors with more than INT_MAX elements, "
              "file a support request");  // PyTorch 1.13's text (cub takes int sizes)
  const thrust::counting_iterator<int64_t> counter(0);
  const bool* flags = mask.data_ptr<bool>();
  int64_t* out = positions.data_ptr<int64_t>();
  const Tensor selected = at::empty({1}, positions.options());
  size_t bytes = 0;
  C10_CUDA_CHECK(cub::DeviceSelect::Flagged(nullptr, bytes, counter, flags, out,
                                            selected.data_ptr<int64_t>(), static_cast<int>(n),
                                            stream));
  // At least one byte, so that the call below gets a non-null scratch.
  const Tensor scratch =
      at::empty({static_cast<int64_t>(std::max<size_t>(bytes, 1))}, mask.options().dtype(kByte));
  C10_CUDA_CHECK(cub::DeviceSelect::Flagged(scratch.data_ptr(), bytes, counter, flags, out,
                                            selected.data_ptr<int64_t>(), static_cast<int>(n),
                                            stream));
}

}  // namespace

REGISTER_CUDA_DISPATCH(indexed_copy_stub, &indexed_copy_kernel_cuda);
REGISTER_CUDA_DISPATCH(flagged_positions_stub, &flagged_positions_cuda);
REGISTER_CUDA_DISPATCH(index_select_stub, &index_select_kernel_cuda);
REGISTER_CUDA_DISPATCH(masked_fill_stub, &masked_fill_kernel_cuda);

}  // namespace native
}  // namespace at
