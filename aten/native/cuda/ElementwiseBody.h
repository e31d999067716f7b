#pragma once
// The GPU elementwise loop, minus the launch: what one thread of one block does, and how
// gpu_kernel chooses among the ways of doing it (ATen's cuda/Loops.cuh and CUDALoops.cuh).
// Everything here compiles for the host too, so the CPU tests run the very same bodies and the
// same choices over every layout case (tests/aten/cuda/HostLauncher.h runs each block and
// thread in turn); the real launch (Loops.cuh) only adds <<<grid, block, 0, stream>>>.
//
// Note [Which GPU loop runs]
// gpu_elementwise(iter, f) splits the iterator until 32-bit indices suffice
// (with_32bit_indexing), then picks, for each piece:
//  * "vectorized": every operand contiguous (iter.is_contiguous()), of the type f takes, and
//    aligned for vec-element vectors, vec = 16 bytes / the widest operand's size (at most 8):
//    each thread loads kVecsPerThread aligned vectors of every input (LDG.128 for float4) and
//    stores as many output vectors; the last, partial block goes element by element;
//  * "strided": anything else of f's types: each thread takes kThreadWork elements
//    kNumThreads apart (so a warp's accesses are consecutive along iteration dim 0, the
//    output's fastest), finds each operand's byte offset with an OffsetCalculator, loads all of
//    its inputs first and only then computes and stores (all loads in flight at once);
//  * "vectorized cast": a one-input functor whose contiguous, aligned input has another dtype
//    than it takes (a dtype conversion): one switch on that dtype per thread, then 4-wide
//    vectors of it, each lane converted (VectorizedCastBody);
//  * "strided cast": as strided, but an operand whose dtype differs from f's type is read and
//    written through one switch on its dtype per thread (fetch_as_n / store_as_n), ATen's
//    dynamic casting: one kernel per functor type instead of one per pair of dtypes.
// The name of the loop that ran goes to last_gpu_loop() (and to the trace).

#include <algorithm>
#include <type_traits>

#include "aten/detail/FunctionTraits.h"
#include "aten/native/TensorIterator.h"
#include "aten/native/cuda/MemoryAccess.h"
#include "aten/native/cuda/OffsetCalculator.h"

namespace at {
namespace native {

// The loop the last GPU launch on this thread used ("vectorized", "strided", "strided cast",
// "memcpy", "transpose", ...), for tests and the trace (aten/native/cuda/GpuLoopNames.cpp).
TORCH_API const char* last_gpu_loop();
TORCH_API void set_last_gpu_loop(const char* loop);

namespace gpu {

constexpr int kNumThreads = 128;  // threads per block
constexpr int kThreadWork = 4;    // elements per thread in the strided loops
constexpr int kBlockWork = kNumThreads * kThreadWork;
constexpr int kVecsPerThread = 2;  // vectors per operand per thread in the vectorized loop

using cuda::detail::Array;
using cuda::detail::OffsetCalculator;

// f's types: the result is operand 0, argument i is operand i + 1. Up to three arguments.
template <typename func_t>
struct LoopTraits {
  using traits = function_traits<func_t>;
  static constexpr int arity = traits::arity;
  static_assert(arity <= 3, "gpu_kernel takes functors of at most three arguments");
  static constexpr int ntensors = arity + 1;
  using out_t = std::decay_t<typename traits::result_type>;

  template <int i, bool used = (i < arity)>
  struct Arg {
    using type = std::decay_t<typename traits::template arg<i>::type>;
  };
  template <int i>
  struct Arg<i, false> {
    using type = char;  // no such argument: a placeholder the compiler drops
  };
  using arg0_t = typename Arg<0>::type;
  using arg1_t = typename Arg<1>::type;
  using arg2_t = typename Arg<2>::type;

  // The widest operand, for the vector width.
  static constexpr int max_size() {
    int s = static_cast<int>(sizeof(out_t));
    if (arity > 0 && sizeof(arg0_t) > static_cast<size_t>(s)) s = sizeof(arg0_t);
    if (arity > 1 && sizeof(arg1_t) > static_cast<size_t>(s)) s = sizeof(arg1_t);
    if (arity > 2 && sizeof(arg2_t) > static_cast<size_t>(s)) s = sizeof(arg2_t);
    return s;
  }
  static constexpr int vec_size = cuda::detail::max_vec_size(max_size());

  // The dtype each operand must have for the uncast loops.
  static Array<c10::ScalarType, ntensors> dtypes() {
    Array<c10::ScalarType, ntensors> d;
    d[0] = c10::CppTypeToScalarType<out_t>::value;
    if constexpr (arity > 0) d[1] = c10::CppTypeToScalarType<arg0_t>::value;
    if constexpr (arity > 1) d[2] = c10::CppTypeToScalarType<arg1_t>::value;
    if constexpr (arity > 2) d[3] = c10::CppTypeToScalarType<arg2_t>::value;
    return d;
  }
};

template <typename L, typename func_t>
C10_HOST_DEVICE C10_ALWAYS_INLINE typename L::out_t invoke(const func_t& f,
                                                           const typename L::arg0_t& a0,
                                                           const typename L::arg1_t& a1,
                                                           const typename L::arg2_t& a2) {
  if constexpr (L::arity == 0) {
    return f();
  } else if constexpr (L::arity == 1) {
    return f(a0);
  } else if constexpr (L::arity == 2) {
    return f(a0, a1);
  } else {
    return f(a0, a1, a2);
  }
}

// ---- The strided loop (with or without dynamic casting) -------------------------------------

template <typename func_t, bool kCast>
struct StridedBody {
  using L = LoopTraits<func_t>;
  static constexpr int kBlockWorkSize = kBlockWork;

  int numel;
  func_t f;
  Array<char*, L::ntensors> data;
  Array<c10::ScalarType, L::ntensors> dtypes;
  OffsetCalculator<L::ntensors> calc;

  // The thread's first `valid` elements of operand `arg` (an input).
  template <typename T>
  C10_HOST_DEVICE void load(int arg, const uint32_t (&offsets)[kThreadWork], int valid,
                            T (&values)[kThreadWork]) const {
    if constexpr (kCast) {
      cuda::detail::fetch_as_n(dtypes[arg], data[arg], offsets, valid, values);
    } else {
      C10_UNROLL
      for (int k = 0; k < kThreadWork; ++k) {
        if (k < valid) values[k] = *reinterpret_cast<const T*>(data[arg] + offsets[k]);
      }
    }
  }

  C10_HOST_DEVICE void operator()(int block, int thread) const {
    const int base = block * kBlockWork + thread;
    // The thread's elements are base + k * kNumThreads for k < valid.
    uint32_t offsets[L::ntensors][kThreadWork];
    int valid = 0;
    C10_UNROLL
    for (int k = 0; k < kThreadWork; ++k) {
      const int idx = base + k * kNumThreads;
      if (idx < numel) {
        const auto o = calc.get(static_cast<uint32_t>(idx));
        C10_UNROLL
        for (int arg = 0; arg < L::ntensors; ++arg) offsets[arg][k] = o[arg];
        valid = k + 1;
      }
    }
    // Every load first, so that they are all in flight before the first result is needed.
    typename L::arg0_t a0[kThreadWork];
    typename L::arg1_t a1[kThreadWork];
    typename L::arg2_t a2[kThreadWork];
    if constexpr (L::arity > 0) load(1, offsets[1], valid, a0);
    if constexpr (L::arity > 1) load(2, offsets[2], valid, a1);
    if constexpr (L::arity > 2) load(3, offsets[3], valid, a2);
    typename L::out_t r[kThreadWork];
    C10_UNROLL
    for (int k = 0; k < kThreadWork; ++k) {
      if (k < valid) r[k] = invoke<L>(f, a0[k], a1[k], a2[k]);
    }
    if constexpr (kCast) {
      cuda::detail::store_as_n(dtypes[0], data[0], offsets[0], valid, r);
    } else {
      C10_UNROLL
      for (int k = 0; k < kThreadWork; ++k) {
        if (k < valid) *reinterpret_cast<typename L::out_t*>(data[0] + offsets[0][k]) = r[k];
      }
    }
  }
};

// ---- The vectorized loop (contiguous, aligned, no casting) ------------------------------------

template <int vec, typename func_t>
struct VectorizedBody {
  using L = LoopTraits<func_t>;
  static constexpr int kBlockWorkSize = kNumThreads * vec * kVecsPerThread;

  int numel;
  func_t f;
  Array<char*, L::ntensors> data;

  template <typename T>
  C10_HOST_DEVICE const T* in(int arg) const {
    return reinterpret_cast<const T*>(data[arg]);
  }

  C10_HOST_DEVICE void operator()(int block, int thread) const {
    using out_t = typename L::out_t;
    const int start = block * kBlockWorkSize;
    const int remaining = numel - start;
    if (remaining < kBlockWorkSize) {
      // The last block: element by element, consecutive threads on consecutive elements. Kept
      // rolled (one copy of f, not vec * kVecsPerThread): it runs in one block of the grid,
      // and a heavy f (erf, tan) unrolled there would only cost compile time.
      C10_NOUNROLL
      for (int j = 0; j < vec * kVecsPerThread; ++j) {
        const int i = thread + j * kNumThreads;
        if (i >= remaining) break;
        const int e = start + i;
        typename L::arg0_t a0{};
        typename L::arg1_t a1{};
        typename L::arg2_t a2{};
        if constexpr (L::arity > 0) a0 = in<typename L::arg0_t>(1)[e];
        if constexpr (L::arity > 1) a1 = in<typename L::arg1_t>(2)[e];
        if constexpr (L::arity > 2) a2 = in<typename L::arg2_t>(3)[e];
        reinterpret_cast<out_t*>(data[0])[e] = invoke<L>(f, a0, a1, a2);
      }
      return;
    }
    using cuda::detail::aligned_vector;
    aligned_vector<typename L::arg0_t, vec> v0[kVecsPerThread];
    aligned_vector<typename L::arg1_t, vec> v1[kVecsPerThread];
    aligned_vector<typename L::arg2_t, vec> v2[kVecsPerThread];
    const int first_vec = start / vec + thread;
    C10_UNROLL
    for (int v = 0; v < kVecsPerThread; ++v) {
      const int vi = first_vec + v * kNumThreads;
      if constexpr (L::arity > 0) {
        v0[v] = reinterpret_cast<const aligned_vector<typename L::arg0_t, vec>*>(data[1])[vi];
      }
      if constexpr (L::arity > 1) {
        v1[v] = reinterpret_cast<const aligned_vector<typename L::arg1_t, vec>*>(data[2])[vi];
      }
      if constexpr (L::arity > 2) {
        v2[v] = reinterpret_cast<const aligned_vector<typename L::arg2_t, vec>*>(data[3])[vi];
      }
    }
    C10_UNROLL
    for (int v = 0; v < kVecsPerThread; ++v) {
      aligned_vector<out_t, vec> r;
      C10_UNROLL
      for (int l = 0; l < vec; ++l)
        r.val[l] = invoke<L>(f, v0[v].val[l], v1[v].val[l], v2[v].val[l]);
      reinterpret_cast<aligned_vector<out_t, vec>*>(data[0])[first_vec + v * kNumThreads] = r;
    }
  }
};

// ---- The vectorized cast loop (contiguous, aligned; a unary functor whose input differs) -------

// As VectorizedBody for a one-argument functor whose input has another dtype than it takes (a
// dtype conversion: copy_, to(dtype)): a switch on the input's dtype once per thread, then
// vec-wide loads of that type, each lane converted. kVec is 4 whatever the types: 16-byte loads
// for a float source, 8-byte stores for a half destination.
template <typename func_t>
struct VectorizedCastBody {
  using L = LoopTraits<func_t>;
  static_assert(L::arity == 1, "the vectorized cast loop is for one-input functors");
  static constexpr int kVec = 4;
  static constexpr int kBlockWorkSize = kNumThreads * kVec * kVecsPerThread;

  int numel;
  func_t f;
  Array<char*, 2> data;
  c10::ScalarType src;

  C10_HOST_DEVICE void operator()(int block, int thread) const {
    switch (src) {
#define MINIATEN_CAST_CASE(ctype, name) \
  case c10::ScalarType::name:           \
    return run<ctype>(block, thread);
      C10_FORALL_SCALAR_TYPES(MINIATEN_CAST_CASE)
#undef MINIATEN_CAST_CASE
      default:
        return;
    }
  }

  template <typename S>
  C10_HOST_DEVICE void run(int block, int thread) const {
    using out_t = typename L::out_t;
    using in_t = typename L::arg0_t;
    const S* in = reinterpret_cast<const S*>(data[1]);
    out_t* out = reinterpret_cast<out_t*>(data[0]);
    const int start = block * kBlockWorkSize;
    const int remaining = numel - start;
    if (remaining < kBlockWorkSize) {
      C10_NOUNROLL
      for (int j = 0; j < kVec * kVecsPerThread; ++j) {
        const int i = thread + j * kNumThreads;
        if (i >= remaining) break;
        out[start + i] = f(c10::convert<in_t>(in[start + i]));
      }
      return;
    }
    using cuda::detail::aligned_vector;
    aligned_vector<S, kVec> v[kVecsPerThread];
    const int first_vec = start / kVec + thread;
    C10_UNROLL
    for (int k = 0; k < kVecsPerThread; ++k) {
      v[k] = reinterpret_cast<const aligned_vector<S, kVec>*>(in)[first_vec + k * kNumThreads];
    }
    C10_UNROLL
    for (int k = 0; k < kVecsPerThread; ++k) {
      aligned_vector<out_t, kVec> r;
      C10_UNROLL
      for (int l = 0; l < kVec; ++l) r.val[l] = f(c10::convert<in_t>(v[k].val[l]));
      reinterpret_cast<aligned_vector<out_t, kVec>*>(out)[first_vec + k * kNumThreads] = r;
    }
  }
};

// ---- An index loop: out[i] = f(base + i) over a contiguous output (arange) --------------------

template <typename func_t>
struct IndexBody {
  using out_t = std::decay_t<typename function_traits<func_t>::result_type>;
  static constexpr int kBlockWorkSize = kBlockWork;

  int numel;
  int64_t base;
  func_t f;
  out_t* out;

  C10_HOST_DEVICE void operator()(int block, int thread) const {
    const int first = block * kBlockWork + thread;
    C10_UNROLL
    for (int k = 0; k < kThreadWork; ++k) {
      const int i = first + k * kNumThreads;
      if (i < numel) out[i] = f(base + i);
    }
  }
};

template <typename Body>
int64_t blocks_for(int64_t numel) {
  return (numel + Body::kBlockWorkSize - 1) / Body::kBlockWorkSize;
}

// ---- The choice (Note [Which GPU loop runs]) ---------------------------------------------------

// The functor's operands (result first, then each argument) as operands of the iterator:
// operands[i] is the iterator's operand the functor's i-th one reads or writes. Usually
// 0, 1, 2, ...; gpu_kernel_with_scalars leaves out an input that is a CPU scalar (Loops.cuh).
template <int N>
using OperandMap = Array<int, N>;

template <int N>
OperandMap<N> all_operands() {
  OperandMap<N> map;
  for (int i = 0; i < N; ++i) map[i] = i;
  return map;
}

// iter.is_contiguous() over the mapped operands only (a CPU scalar left out has stride 0).
template <int N>
bool mapped_operands_contiguous(const TensorIteratorBase& iter, const OperandMap<N>& operands) {
  if (iter.numel() == 1) return true;
  if (iter.ndim() != 1) return false;
  for (int i = 0; i < N; ++i) {
    if (iter.strides(operands[i])[0] != iter.element_size(operands[i])) return false;
  }
  return true;
}

// Runs f over iter with Launcher: gpu::DeviceLauncher (Loops.cuh) launches kernels, the tests'
// HostLauncher runs the bodies on the CPU. Launcher::launch(blocks, body) runs body(b, t) for
// every block b < blocks and thread t < kNumThreads.
//
// kDynamicCast false (the op kernels: gpu_kernel_nocast, gpu_kernel_with_scalars) compiles only
// the two uncast loops; every operand must then have f's dtypes, as the iterator's conversions
// ensure (Note [Operands are converted before a CUDA op kernel] in TensorIteratorTypes.cpp).
template <typename Launcher, bool kDynamicCast = true, typename func_t>
void elementwise(TensorIteratorBase& iter, const func_t& f,
                 const OperandMap<LoopTraits<func_t>::ntensors>& operands) {
  using L = LoopTraits<func_t>;
  TORCH_INTERNAL_ASSERT(iter.noutputs() == 1 && operands[0] == 0);
  if (iter.numel() == 0) return;
  if (!iter.can_use_32bit_indexing()) {
    iter.with_32bit_indexing(
        [&](TensorIteratorBase& sub) { elementwise<Launcher, kDynamicCast>(sub, f, operands); });
    return;
  }
  const auto expected = L::dtypes();
  Array<char*, L::ntensors> data;
  Array<c10::ScalarType, L::ntensors> dtypes;
  bool needs_cast = false;
  for (int i = 0; i < L::ntensors; ++i) {
    data[i] = static_cast<char*>(iter.data_ptr(operands[i]));
    dtypes[i] = iter.dtype(operands[i]);
    needs_cast |= dtypes[i] != expected[i];
  }
  const int numel = static_cast<int>(iter.numel());
  const bool contiguous = mapped_operands_contiguous(iter, operands);
  if constexpr (L::vec_size > 1) {  // a 16-byte element has no wider vector
    if (!needs_cast && contiguous) {
      bool aligned = true;
      for (int i = 0; i < L::ntensors; ++i) {
        aligned &= cuda::detail::is_aligned_for(
            data[i], static_cast<int>(c10::elementSize(dtypes[i])), L::vec_size);
      }
      if (aligned) {
        using Body = VectorizedBody<L::vec_size, func_t>;
        set_last_gpu_loop("vectorized");
        Launcher::launch(blocks_for<Body>(numel), Body{numel, f, data});
        return;
      }
    }
  }
  const auto calc = cuda::detail::make_offset_calculator<L::ntensors>(iter, operands.data);
  if constexpr (kDynamicCast) {
    if constexpr (L::arity == 1) {
      // A conversion of a contiguous input into an output of the functor's own type.
      using Body = VectorizedCastBody<func_t>;
      if (needs_cast && dtypes[0] == expected[0] && contiguous &&
          cuda::detail::is_aligned_for(data[0], sizeof(typename L::out_t), Body::kVec) &&
          cuda::detail::is_aligned_for(data[1], static_cast<int>(c10::elementSize(dtypes[1])),
                                       Body::kVec)) {
        set_last_gpu_loop("vectorized cast");
        Launcher::launch(blocks_for<Body>(numel), Body{numel, f, {{data[0], data[1]}}, dtypes[1]});
        return;
      }
    }
    if (needs_cast) {
      using Body = StridedBody<func_t, true>;
      set_last_gpu_loop("strided cast");
      Launcher::launch(blocks_for<Body>(numel), Body{numel, f, data, dtypes, calc});
      return;
    }
  } else {
    TORCH_INTERNAL_ASSERT(!needs_cast, "gpu_kernel_nocast: operand dtypes (", dtypes[0],
                          ", ...) differ from the functor's (", expected[0], ", ...)");
  }
  using Body = StridedBody<func_t, false>;
  set_last_gpu_loop("strided");
  Launcher::launch(blocks_for<Body>(numel), Body{numel, f, data, dtypes, calc});
}

// Every operand of iter, in order.
template <typename Launcher, bool kDynamicCast = true, typename func_t>
void elementwise(TensorIteratorBase& iter, const func_t& f) {
  using L = LoopTraits<func_t>;
  TORCH_INTERNAL_ASSERT(iter.ntensors() == L::ntensors, "gpu_kernel: the functor takes ", L::arity,
                        " arguments but the iterator has ", iter.ninputs(), " inputs");
  elementwise<Launcher, kDynamicCast>(iter, f, all_operands<L::ntensors>());
}

// Note [A CPU scalar rides along as a kernel argument]
// add(cuda_tensor, 2) and add(cuda_tensor, cpu_0dim_tensor) reach the kernel with a CPU operand
// (TensorIterator lets a 0-dim CPU input join CUDA operands: allow_cpu_scalars). Its memory is
// the host's, so no thread may read it: elementwise_with_scalars reads the value once on the
// host, converted to the type f takes, binds it into a functor of the remaining argument, and
// runs that over the other operands (ATen's gpu_kernel_with_scalars and its AUnaryFunctor /
// BUnaryFunctor). The other operands already have f's dtypes (Note [Operands are converted
// before a CUDA op kernel]): no dynamic casting.

template <typename func_t, typename a_t, typename b_t, typename out_t>
struct BindSecond {  // f(x, b)
  func_t f;
  b_t b;
  C10_HOST_DEVICE out_t operator()(a_t a) const { return f(a, b); }
};

// f with its arguments swapped: the mirror of a functor that does not commute.
template <typename func_t>
struct Swapped {
  using L = LoopTraits<func_t>;
  func_t f;
  C10_HOST_DEVICE typename L::out_t operator()(typename L::arg1_t b, typename L::arg0_t a) const {
    return f(a, b);
  }
};

template <typename T>
struct Constant {
  T value;
  C10_HOST_DEVICE T operator()() const { return value; }
};

// mirror(x, s) == f(s, x): what runs when the first input is the CPU scalar, bound as mirror's
// second argument, so that each functor adds one bound form, not two. A commuting f is its own
// mirror (mul, maximum, eq); lt's is gt's functor, which gt's own kernels instantiate anyway;
// anything else takes Swapped<f>. Both inputs on the host: f runs there, once, and the output
// is filled with the result.
template <typename Launcher, typename func_t, typename mirror_t>
void elementwise_with_scalars(TensorIteratorBase& iter, const func_t& f, const mirror_t& mirror) {
  using L = LoopTraits<func_t>;
  static_assert(L::arity == 2, "gpu_kernel_with_scalars takes functors of two arguments");
  using a_t = typename L::arg0_t;
  using b_t = typename L::arg1_t;
  using out_t = typename L::out_t;
  using M = LoopTraits<mirror_t>;
  static_assert(std::is_same<typename M::arg0_t, b_t>::value &&
                    std::is_same<typename M::arg1_t, a_t>::value &&
                    std::is_same<typename M::out_t, out_t>::value,
                "the mirror takes f's arguments swapped and returns what f does");
  TORCH_INTERNAL_ASSERT(iter.ntensors() == 3 && iter.noutputs() == 1);
  const bool a_on_host = iter.is_cpu_scalar(1);
  const bool b_on_host = iter.is_cpu_scalar(2);
  if (a_on_host && b_on_host) {
    const Constant<out_t> value{f(iter.scalar_value<a_t>(1), iter.scalar_value<b_t>(2))};
    elementwise<Launcher, false>(iter, value, {{0}});
  } else if (a_on_host) {
    const BindSecond<mirror_t, b_t, a_t, out_t> bound{mirror, iter.scalar_value<a_t>(1)};
    elementwise<Launcher, false>(iter, bound, {{0, 2}});
  } else if (b_on_host) {
    const BindSecond<func_t, a_t, b_t, out_t> bound{f, iter.scalar_value<b_t>(2)};
    elementwise<Launcher, false>(iter, bound, {{0, 1}});
  } else {
    elementwise<Launcher, false>(iter, f, all_operands<3>());
  }
  iter.cast_outputs();
}

template <typename Launcher, typename func_t>
void elementwise_with_scalars(TensorIteratorBase& iter, const func_t& f) {
  elementwise_with_scalars<Launcher>(iter, f, Swapped<func_t>{f});
}

// out[i] = f(i) for the contiguous output of a one-operand iterator, in pieces of at most
// INT32_MAX elements (the index handed to f is the full 64-bit one).
template <typename Launcher, typename func_t>
void elementwise_with_index(TensorIteratorBase& iter, const func_t& f) {
  using out_t = typename IndexBody<func_t>::out_t;
  TORCH_INTERNAL_ASSERT(iter.ntensors() == 1 && iter.is_contiguous());
  TORCH_INTERNAL_ASSERT(iter.dtype(0) == c10::CppTypeToScalarType<out_t>::value);
  out_t* out = static_cast<out_t*>(iter.data_ptr(0));
  const int64_t total = iter.numel();
  constexpr int64_t kPiece = int64_t{1} << 30;
  set_last_gpu_loop("index");
  for (int64_t base = 0; base < total; base += kPiece) {
    const int n = static_cast<int>(std::min(kPiece, total - base));
    using Body = IndexBody<func_t>;
    Launcher::launch(blocks_for<Body>(n), Body{n, base, f, out + base});
  }
}

}  // namespace gpu
}  // namespace native
}  // namespace at
