// The GPU reductions behind sum_stub (mean divides its result) and the folds prod_stub,
// max_values_stub, min_values_stub, and_stub and or_stub (ReduceOps.h): a real GPU reduction,
// laid out as Note [How a GPU reduction is laid out] in ReducePlan.h says. One kernel template
// over the op, three instantiations per op and dtype: the one-pass reduction, the first pass of a
// split one (partials of the accumulation type), and the second pass over the partials.
//
// Half and BFloat16 accumulate in float and round once, as on the CPU; the order of the additions
// differs from the CPU's, so a float sum agrees to rounding, not bit for bit. max and min
// propagate NaN and are exact; and/or fold the 0s and 1s ReduceOpsFold.cpp hands them.
//
// Note [Only the sum loads vectors]
// The 16-byte loads of Note [Vector loads in the GPU sum] triple the kernels of an op (along the
// reduction, along the outputs, neither). The sum is the reduction a model runs on big tensors
// and the one the benchmarks hold to the bandwidth bound; the folds take the scalar loads only,
// which keeps this file's compile time within CI's budget.

#include <cuda_runtime_api.h>

#include <limits>
#include <type_traits>

#include "aten/Dispatch.h"
#include "aten/OpMathType.h"
#include "aten/native/ReduceOps.h"
#include "aten/native/cuda/ElementwiseBody.h"  // set_last_gpu_loop
#include "aten/native/cuda/MemoryAccess.h"
#include "aten/native/cuda/OffsetCalculator.h"
#include "aten/native/cuda/ReducePlan.h"
#include "c10/cuda/CUDACachingAllocator.h"
#include "c10/cuda/CUDAException.h"
#include "c10/cuda/CUDAFunctions.h"
#include "c10/cuda/CUDAGuard.h"
#include "c10/cuda/CUDAStream.h"

namespace at {
namespace native {

namespace {

using cuda::detail::OffsetCalculator;

struct ReduceArgs {
  const char* in;
  char* out;  // the output, or the [grid_y, M] workspace of a first pass
  uint32_t num_outputs;
  uint32_t num_reduce;
  OffsetCalculator<2> kept;     // output index -> output offset, input offset (bytes)
  OffsetCalculator<1> reduced;  // reduction index -> input offset from the output's first
};

// The ops: identity, combine (associative and commutative: the lanes combine in any order).
struct SumOp {
  static constexpr bool kVectorize = true;
  template <typename A>
  static __device__ A identity() {
    return A(0);
  }
  template <typename A>
  static __device__ A combine(A a, A b) {
    return a + b;
  }
};
struct ProdOp {
  static constexpr bool kVectorize = false;
  template <typename A>
  static __device__ A identity() {
    return A(1);
  }
  template <typename A>
  static __device__ A combine(A a, A b) {
    return a * b;
  }
};
// A NaN wins from either side, as the CPU's max_values and min_values.
template <bool kMax>
struct ExtremumOp {
  static constexpr bool kVectorize = false;
  template <typename A>
  static __device__ A identity() {
    using limits = std::numeric_limits<A>;
    if constexpr (limits::has_infinity) {
      return kMax ? -limits::infinity() : limits::infinity();
    } else {
      return kMax ? limits::lowest() : limits::max();
    }
  }
  template <typename A>
  static __device__ A combine(A a, A b) {
    if constexpr (!std::is_integral<A>::value) {
      if (a != a) return a;
      if (b != b) return b;
    }
    return kMax ? (a < b ? b : a) : (b < a ? b : a);
  }
};
// and/or over 0s and 1s (Bool or Byte).
template <bool kAnd>
struct LogicalOp {
  static constexpr bool kVectorize = false;
  template <typename A>
  static __device__ A identity() {
    return A(kAnd ? 1 : 0);
  }
  template <typename A>
  static __device__ A combine(A a, A b) {
    return static_cast<A>(kAnd ? (a && b) : (a || b));
  }
};

// kInVec > 1: each load is kInVec consecutive elements of one output's reduction (inner, the
// reduced dim contiguous); kOutVec > 1: each thread sums kOutVec neighbouring outputs, one
// vector load per reduction step (outer, the kept dim contiguous). At most one of them is > 1;
// see Note [Vector loads in the GPU sum].
template <typename Op, typename in_t, typename acc_t, typename out_t, bool kPartial, int kInVec,
          int kOutVec>
__global__ void __launch_bounds__(gpu::kReduceMaxThreads) reduce_kernel(ReduceArgs a, bool inner) {
  static_assert(kInVec == 1 || kOutVec == 1, "vectors along the reduction or the outputs");
  using vec_t = cuda::detail::aligned_vector<in_t, kInVec * kOutVec>;
  extern __shared__ __align__(16) double smem_storage[];  // aligned for every acc_t
  acc_t* smem = reinterpret_cast<acc_t*>(smem_storage);
  const uint32_t threads = blockDim.x * blockDim.y;
  const uint32_t lane = inner ? threadIdx.x : threadIdx.y;
  const uint32_t lanes = inner ? blockDim.x : blockDim.y;
  const uint32_t m =
      inner ? blockIdx.x * blockDim.y + threadIdx.y : blockIdx.x * blockDim.x + threadIdx.x;
  const uint64_t step = static_cast<uint64_t>(lanes) * gridDim.y;
  uint64_t r = static_cast<uint64_t>(blockIdx.y) * lanes + lane;
  acc_t acc[kOutVec];
#pragma unroll
  for (int k = 0; k < kOutVec; ++k) acc[k] = Op::template identity<acc_t>();
  uint32_t out_offset = 0;
  if (m < a.num_outputs) {
    const auto offsets = a.kept.get(m);
    out_offset = offsets[0];
    const char* base = a.in + offsets[1];
    auto load = [&](uint64_t i) {
      return *reinterpret_cast<const vec_t*>(base + a.reduced.get(static_cast<uint32_t>(i))[0]);
    };
    auto add = [&](const vec_t& v) {
#pragma unroll
      for (int j = 0; j < kInVec * kOutVec; ++j) {
        acc[j % kOutVec] = Op::combine(acc[j % kOutVec], static_cast<acc_t>(v.val[j]));
      }
    };
    // Four loads in flight before the first add.
    for (; r + 3 * step < a.num_reduce; r += 4 * step) {
      const vec_t v0 = load(r);
      const vec_t v1 = load(r + step);
      const vec_t v2 = load(r + 2 * step);
      const vec_t v3 = load(r + 3 * step);
      add(v0);
      add(v1);
      add(v2);
      add(v3);
    }
    for (; r < a.num_reduce; r += step) add(load(r));
  }
  // The block's lanes of one output combine pairwise (lanes is a power of two).
  const uint32_t me = threadIdx.y * blockDim.x + threadIdx.x;
  const uint32_t lane_stride = inner ? 1 : blockDim.x;
#pragma unroll
  for (int k = 0; k < kOutVec; ++k) smem[k * threads + me] = acc[k];
  __syncthreads();
  for (uint32_t s = lanes / 2; s > 0; s /= 2) {
    if (lane < s) {
#pragma unroll
      for (int k = 0; k < kOutVec; ++k) {
        smem[k * threads + me] =
            Op::combine(smem[k * threads + me], smem[k * threads + me + s * lane_stride]);
      }
    }
    __syncthreads();
  }
  if (lane != 0 || m >= a.num_outputs) return;
#pragma unroll
  for (int k = 0; k < kOutVec; ++k) {
    const acc_t total = smem[k * threads + me];
    if constexpr (kPartial) {
      // Workspace [grid_y, outputs]; output m * kOutVec + k.
      const uint64_t outputs = static_cast<uint64_t>(a.num_outputs) * kOutVec;
      reinterpret_cast<acc_t*>(
          a.out)[blockIdx.y * outputs + static_cast<uint64_t>(m) * kOutVec + k] = total;
    } else {
      // The stubs fold into the output, which holds the op's identity or the sum so far
      // (ReduceOps.h); kOutVec outputs are contiguous.
      out_t* o = reinterpret_cast<out_t*>(a.out + out_offset) + k;
      *o = static_cast<out_t>(Op::combine(static_cast<acc_t>(*o), total));
    }
  }
}

template <typename Op, typename in_t, typename acc_t, typename out_t, bool kPartial, int kInVec,
          int kOutVec>
void launch_reduce(const gpu::ReducePlan& plan, const ReduceArgs& args) {
  const dim3 grid(static_cast<unsigned>(plan.grid_x), static_cast<unsigned>(plan.grid_y));
  const dim3 block(static_cast<unsigned>(plan.block_x), static_cast<unsigned>(plan.block_y));
  const size_t smem = static_cast<size_t>(plan.threads()) * kOutVec * sizeof(acc_t);
  const cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
  reduce_kernel<Op, in_t, acc_t, out_t, kPartial, kInVec, kOutVec>
      <<<grid, block, smem, stream>>>(args, plan.inner);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

// Which vectors a pass loads (Note [Vector loads in the GPU sum]).
enum class Vectors { kNone, kAlongReduction, kAlongOutputs };

template <typename Op, typename in_t, typename acc_t, typename out_t, bool kPartial, int kVec>
void launch_reduce(const gpu::ReducePlan& plan, const ReduceArgs& args, Vectors vectors) {
  if constexpr (Op::kVectorize) {
    switch (vectors) {
      case Vectors::kAlongReduction:
        return launch_reduce<Op, in_t, acc_t, out_t, kPartial, kVec, 1>(plan, args);
      case Vectors::kAlongOutputs:
        return launch_reduce<Op, in_t, acc_t, out_t, kPartial, 1, kVec>(plan, args);
      default:
        break;
    }
  }
  launch_reduce<Op, in_t, acc_t, out_t, kPartial, 1, 1>(plan, args);
}

const char* loop_name(const gpu::ReducePlan& plan, Vectors vectors) {
  if (vectors != Vectors::kNone) {
    if (plan.grid_y > 1)
      return plan.inner ? "reduce inner, split, vec" : "reduce outer, split, vec";
    return plan.inner ? "reduce inner, vec" : "reduce outer, vec";
  }
  if (plan.grid_y > 1) return plan.inner ? "reduce inner, split" : "reduce outer, split";
  return plan.inner ? "reduce inner" : "reduce outer";
}

// Note [Vector loads in the GPU sum]
// A sum reads each input element once, so it is bound by how many bytes are in flight: 16-byte
// loads carry four times the 4-byte ones. Where the layout allows, the dims are rescaled so one
// index is one vector of kVec elements (16 bytes, at most 8 lanes):
//  * along the reduction (inner): the fastest reduced dim is contiguous and a multiple of kVec
//    long; its size shrinks kVec times and its stride grows as much;
//  * along the outputs (outer): the fastest kept dim is contiguous in the input and the output
//    and a multiple of kVec long; each thread sums kVec neighbouring outputs.
// Every other stride, and the input's address, must keep each vector aligned. The order of the
// additions changes (a vector's lanes are added in turn), as any GPU order differs from the CPU's.
template <int kVec>
Vectors vectorize(gpu::ReduceDims& dims, const void* data, int64_t element_size) {
  const int64_t vec_bytes = kVec * element_size;
  if (kVec == 1 || reinterpret_cast<uintptr_t>(data) % vec_bytes != 0) return Vectors::kNone;
  auto all_multiples = [&](const c10::SmallVector<int64_t, 6>& strides, size_t first) {
    for (size_t i = first; i < strides.size(); ++i) {
      if (strides[i] % vec_bytes != 0) return false;
    }
    return true;
  };
  if (dims.inner && !dims.reduced_sizes.empty() && dims.reduced_in_strides[0] == element_size &&
      dims.reduced_sizes[0] % kVec == 0 && all_multiples(dims.reduced_in_strides, 1) &&
      all_multiples(dims.kept_in_strides, 0)) {
    dims.reduced_sizes[0] /= kVec;
    dims.reduced_in_strides[0] *= kVec;
    dims.num_reduce /= kVec;
    return Vectors::kAlongReduction;
  }
  if (!dims.inner && !dims.kept_sizes.empty() && dims.kept_in_strides[0] == element_size &&
      dims.kept_out_strides[0] == element_size && dims.kept_sizes[0] % kVec == 0 &&
      all_multiples(dims.kept_in_strides, 1) && all_multiples(dims.reduced_in_strides, 0)) {
    dims.kept_sizes[0] /= kVec;
    dims.kept_in_strides[0] *= kVec;
    dims.kept_out_strides[0] *= kVec;
    dims.num_outputs /= kVec;
    return Vectors::kAlongOutputs;
  }
  return Vectors::kNone;
}

template <typename Op, typename scalar_t>
void reduce_gpu(TensorIteratorBase& iter) {
  using acc_t = at::opmath_type<scalar_t>;
  constexpr int kVec = Op::kVectorize ? cuda::detail::max_vec_size(sizeof(scalar_t)) : 1;
  if (!iter.can_use_32bit_indexing()) {
    // Each piece folds its part into the output.
    iter.with_32bit_indexing([](TensorIteratorBase& sub) { reduce_gpu<Op, scalar_t>(sub); });
    return;
  }
  gpu::ReduceDims dims = gpu::split_reduce_dims(iter);
  // Note [Only the sum loads vectors]
  const Vectors vectors = vectorize<kVec>(dims, iter.data_ptr(1), sizeof(scalar_t));
  const int out_vec = vectors == Vectors::kAlongOutputs ? kVec : 1;
  const int sms = c10::cuda::device_properties(iter.device().index()).multiProcessorCount;
  const gpu::ReducePlan plan =
      gpu::make_reduce_plan(dims.num_outputs, dims.num_reduce, dims.inner, sms);
  const int kept_dims = static_cast<int>(dims.kept_sizes.size());
  const int64_t* kept_strides[2] = {dims.kept_out_strides.data(), dims.kept_in_strides.data()};
  const int64_t* reduced_strides[1] = {dims.reduced_in_strides.data()};
  ReduceArgs args{static_cast<const char*>(iter.data_ptr(1)),
                  static_cast<char*>(iter.data_ptr(0)),
                  static_cast<uint32_t>(dims.num_outputs),
                  static_cast<uint32_t>(dims.num_reduce),
                  OffsetCalculator<2>(kept_dims, dims.kept_sizes.data(), kept_strides),
                  OffsetCalculator<1>(static_cast<int>(dims.reduced_sizes.size()),
                                      dims.reduced_sizes.data(), reduced_strides)};
  set_last_gpu_loop(loop_name(plan, vectors));
  if (plan.grid_y == 1) {
    launch_reduce<Op, scalar_t, acc_t, scalar_t, false, kVec>(plan, args, vectors);
    return;
  }
  // First pass: partials [grid_y, M] of acc_t (M the outputs, out_vec per thread). Second pass:
  // the workspace's column m reduced into output m, decomposed over the same kept dims.
  const int64_t outputs = dims.num_outputs * out_vec;
  // From the caching allocator, freed (back to its pool, on this stream) when the passes are
  // queued: a later allocation on the stream runs after them.
  const c10::DataPtr workspace =
      c10::cuda::CUDACachingAllocator::get()->allocate(plan.grid_y * outputs * sizeof(acc_t));
  char* out = args.out;
  args.out = static_cast<char*>(workspace.get());
  launch_reduce<Op, scalar_t, acc_t, acc_t, true, kVec>(plan, args, vectors);

  c10::SmallVector<int64_t, 6> workspace_strides;
  int64_t stride = out_vec * static_cast<int64_t>(sizeof(acc_t));
  for (int64_t size : dims.kept_sizes) {
    workspace_strides.push_back(stride);
    stride *= size;
  }
  const int64_t* second_kept[2] = {dims.kept_out_strides.data(), workspace_strides.data()};
  const int64_t second_size[1] = {plan.grid_y};
  const int64_t second_stride[1] = {outputs * static_cast<int64_t>(sizeof(acc_t))};
  const int64_t* second_reduced[1] = {second_stride};
  const ReduceArgs second{static_cast<const char*>(workspace.get()),
                          out,
                          static_cast<uint32_t>(dims.num_outputs),
                          static_cast<uint32_t>(plan.grid_y),
                          OffsetCalculator<2>(kept_dims, dims.kept_sizes.data(), second_kept),
                          OffsetCalculator<1>(1, second_size, second_reduced)};
  const bool second_inner = dims.num_outputs == 1 && vectors != Vectors::kAlongOutputs;
  const gpu::ReducePlan second_plan = gpu::make_reduce_plan(
      dims.num_outputs, plan.grid_y, second_inner, sms, /*allow_split=*/false);
  if constexpr (kVec > 1) {
    if (vectors == Vectors::kAlongOutputs) {
      launch_reduce<Op, acc_t, acc_t, scalar_t, false, 1, kVec>(second_plan, second);
      return;
    }
  }
  launch_reduce<Op, acc_t, acc_t, scalar_t, false, 1, 1>(second_plan, second);
}

// Complex numbers add part by part (and multiply, for prod) in their own type, as on the CPU
// (c10::complex's arithmetic is constexpr: Note [Complex math on the GPU] in ComplexMath.h).
void sum_kernel_cuda(TensorIterator& iter) {
  const c10::cuda::CUDAGuard guard(iter.device());
  AT_DISPATCH_ALL_MINIATEN_TYPES_AND_COMPLEX(iter.dtype(0), "sum_cuda",
                                             [&] { reduce_gpu<SumOp, scalar_t>(iter); });
}

// Integers and Bool reach prod as Long (or as Bool for dtype=Bool), as on the CPU.
void prod_kernel_cuda(TensorIterator& iter) {
  const c10::cuda::CUDAGuard guard(iter.device());
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(kHalf, kBFloat16, kBool, iter.dtype(0), "prod_cuda",
                                         [&] { reduce_gpu<ProdOp, scalar_t>(iter); });
}

template <bool kMax>
void extremum_kernel_cuda(TensorIterator& iter) {
  const c10::cuda::CUDAGuard guard(iter.device());
  AT_DISPATCH_ALL_TYPES_AND3(kHalf, kBFloat16, kBool, iter.dtype(0),
                             kMax ? "max_values_cuda" : "min_values_cuda",
                             [&] { reduce_gpu<ExtremumOp<kMax>, scalar_t>(iter); });
}

template <bool kAnd>
void logical_kernel_cuda(TensorIterator& iter) {
  const c10::cuda::CUDAGuard guard(iter.device());
  // Bool, or Byte for a Byte input (ReduceOpsFold.cpp's logical_fold converted the rest).
  if (iter.dtype(0) == kByte) {
    reduce_gpu<LogicalOp<kAnd>, uint8_t>(iter);
  } else {
    reduce_gpu<LogicalOp<kAnd>, bool>(iter);
  }
}

}  // namespace

REGISTER_CUDA_DISPATCH(sum_stub, &sum_kernel_cuda);
REGISTER_CUDA_DISPATCH(prod_stub, &prod_kernel_cuda);
REGISTER_CUDA_DISPATCH(max_values_stub, &extremum_kernel_cuda<true>);
REGISTER_CUDA_DISPATCH(min_values_stub, &extremum_kernel_cuda<false>);
REGISTER_CUDA_DISPATCH(and_stub, &logical_kernel_cuda<true>);
REGISTER_CUDA_DISPATCH(or_stub, &logical_kernel_cuda<false>);

}  // namespace native
}  // namespace at
