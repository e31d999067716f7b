#pragma once
// cpu_kernel / cpu_kernel_vec / cpu_serial_kernel: run a scalar op (and optionally its
// Vectorized twin) over every element of a TensorIterator. libtorch's
// aten/src/ATen/native/cpu/Loops.h; seed 002 walks through it.
//
//   // In a kernel file compiled per capability (namespace at::native::CPU_CAPABILITY):
//   void mul_kernel(TensorIteratorBase& iter) {
//     AT_DISPATCH_ALL_TYPES(iter.common_dtype(), "mul_cpu", [&] {
//       cpu_kernel_vec(iter,
//           [](scalar_t a, scalar_t b) -> scalar_t { return a * b; },
//           [](Vectorized<scalar_t> a, Vectorized<scalar_t> b) { return a * b; });
//     });
//   }
//   cpu_kernel(iter, [](float a) -> bool { return a > 0; });   // scalar only; any types
//
// The op's argument and result types must be the operands' dtypes (TensorIterator has already
// cast them): op(in_0, ..., in_{n-1}) -> out_0. For cpu_kernel_vec every argument has the
// result's type, and vop takes and returns Vectorized<that type>.
//
// Note [Which loop runs]
// TensorIterator calls the loop once per 2-D block: size1 rows of size0 elements, with
// strides[0..ntensors) the byte strides along a row (one per operand, output first) and
// strides[ntensors..2*ntensors) from one row to the next. For each block, cpu_kernel_vec's
// VectorizedLoop2d looks only at the row strides:
//  * output and all inputs contiguous (stride == sizeof(type), is_contiguous<traits>)
//      -> vectorized_loop: 2 * Vec::size() elements per step with loadu/vop/store;
//  * else, one input broadcast along the row (stride 0) and the rest contiguous
//    (is_contiguous_scalar, tried for each input by unroll_contiguous_scalar_checks; the
//    Scalar of add(t, 2), or a row-broadcast tensor)
//      -> vectorized_loop with that input loaded once into a broadcast Vec;
//  * anything else (transposed, sliced, several broadcast inputs)
//      -> basic_loop: op on one element at a time, each operand read through its stride.
// vectorized_loop hands the tail of each row (fewer than 2 * Vec::size() elements) to
// basic_loop. cpu_kernel and cpu_serial_kernel always use basic_loop; the compiler can still
// auto-vectorize it when the strides turn out to be sizeof(T).
//
// Note [Vector math runs on partial vectors]
// cpu_kernel_vec runs the scalar op on each row's tail and on strided rows. That is right where
// op and vop compute the same bits: arithmetic, comparisons, sqrt, rounding. SLEEF's functions
// (Note [Which function computes each lane] in VecMath.h) may differ from std:: by an ulp, and
// exp(x) would then depend on whether x sat in a vector's worth of contiguous elements, in a
// tail, or in a transposed tensor. cpu_vec_kernel takes only the vop and runs every element
// through it: contiguous rows a vector at a time, the tail as a partial vector (the missing
// lanes are 0 and their results dropped), strided operands gathered a vector's worth at a time
// into a buffer and the output scattered back. libtorch's vml functions do the same with a
// partial vector and a buffer. Padding lanes of 0 are harmless for floating-point math (no
// trap); integer division, which would trap, never goes through cpu_vec_kernel.
//
// Note [Loop counters]
// Tests check which loop ran through detail::loop_counters: while `enabled` is set, each block
// adds 1 to the counter of the path it took. Off, a block pays one relaxed load and a
// predictable branch; on, the shared atomics would cost real time in parallel loops of many
// small blocks, hence the switch.

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "aten/cpu/vec/Vectorized.h"
#include "aten/detail/FunctionTraits.h"
#include "aten/native/TensorIterator.h"
#include "aten/native/cpu/IsContiguous.h"
#include "c10/core/ScalarType.h"

namespace at {
namespace native {

namespace detail {
// See Note [Loop counters]. Shared by every capability's copy of the loops.
struct LoopCounters {
  std::atomic<bool> enabled{false};
  std::atomic<int64_t> vectorized{0};         // every operand contiguous
  std::atomic<int64_t> vectorized_scalar{0};  // contiguous but one broadcast (stride 0) input
  std::atomic<int64_t> basic{0};              // element by element
  std::atomic<int64_t> gathered{0};           // cpu_vec_kernel: strided lanes gathered
  void reset() {
    vectorized.store(0);
    vectorized_scalar.store(0);
    basic.store(0);
    gathered.store(0);
  }
};
inline LoopCounters loop_counters;

inline void count(std::atomic<int64_t>& counter) {
  if (C10_UNLIKELY(loop_counters.enabled.load(std::memory_order_relaxed))) {
    counter.fetch_add(1, std::memory_order_relaxed);
  }
}
}  // namespace detail

inline namespace CPU_CAPABILITY {

using vec::Vectorized;

namespace loop_detail {

// Reads a T; bools go through a byte so that a stray non-0/1 byte cannot make an invalid bool.
template <typename T>
inline T load(const void* src) {
  if constexpr (std::is_same<T, bool>::value) {
    return *static_cast<const unsigned char*>(src) != 0;
  } else {
    return *static_cast<const T*>(src);
  }
}

template <typename traits, std::size_t... I>
inline auto dereference_impl(char* const* data, const int64_t* strides, int64_t i,
                             std::index_sequence<I...>) {
  return std::make_tuple(load<arg_t<traits, I>>(data[I] + i * strides[I])...);
}

// The op's arguments for element i: input I at data[I] + i * strides[I].
template <typename traits>
inline auto dereference(char* const* data, const int64_t* strides, int64_t i) {
  return dereference_impl<traits>(data, strides, i, std::make_index_sequence<traits::arity>{});
}

template <typename traits, std::size_t... I>
inline auto dereference_vec_impl(char* const* data, const typename traits::result_type& opt_scalar,
                                 std::size_t S, int64_t i, std::index_sequence<I...>) {
  using Vec = typename traits::result_type;
  using scalar_t = typename Vec::value_type;
  return std::make_tuple(S == I + 1 ? opt_scalar
                                    : Vec::loadu(data[I] + i * int64_t(sizeof(scalar_t)))...);
}

// The vop's arguments for lanes [i, i + Vec::size()): contiguous loads, except input S
// (1-based; 0 for none), which is the broadcast opt_scalar.
template <typename traits>
inline auto dereference_vec(char* const* data, const typename traits::result_type& opt_scalar,
                            std::size_t S, int64_t i) {
  return dereference_vec_impl<traits>(data, opt_scalar, S, i,
                                      std::make_index_sequence<traits::arity>{});
}

// Whether each operand's dtype is the C++ type the op reads or writes.
template <typename traits, std::size_t... I>
inline bool inputs_match(const TensorIteratorBase& iter, std::index_sequence<I...>) {
  return ((iter.input_dtype(I) == c10::CppTypeToScalarType<arg_t<traits, I>>::value) && ...);
}
template <typename traits>
inline bool dtypes_match(const TensorIteratorBase& iter) {
  using result_t = typename traits::result_type;
  if constexpr (!std::is_void<result_t>::value) {
    if (iter.dtype(0) != c10::CppTypeToScalarType<result_t>::value) return false;
  }
  return inputs_match<traits>(iter, std::make_index_sequence<traits::arity>{});
}

}  // namespace loop_detail

// Elements [i, n) of one row: out[i] = op(in_0[i], ...), every operand through its stride. A
// void op is called for its side effects and has no output operand.
template <typename func_t>
inline void basic_loop(char* const* data, const int64_t* strides, int64_t i, int64_t n,
                       func_t&& op) {
  using traits = function_traits<func_t>;
  using result_t = typename traits::result_type;
  if constexpr (std::is_void<result_t>::value) {
    for (; i < n; i++) {
      std::apply(op, loop_detail::dereference<traits>(data, strides, i));
    }
  } else {
    // Local copies keep the strides in registers (the compiler cannot assume *strides does
    // not alias the output).
    constexpr int ntensors = traits::arity + 1;
    int64_t s[ntensors];
    for (int arg = 0; arg < ntensors; ++arg) s[arg] = strides[arg];
    for (; i < n; i++) {
      result_t* out = reinterpret_cast<result_t*>(data[0] + i * s[0]);
      *out = std::apply(op, loop_detail::dereference<traits>(&data[1], &s[1], i));
    }
  }
}

// One contiguous row of n elements, 2 * Vec::size() per step, the tail through basic_loop.
// S is the 1-based index of an input broadcast along the row (stride 0), or 0.
template <typename func_t, typename vec_func_t>
inline void vectorized_loop(char* const* data, int64_t n, int64_t S, func_t&& op,
                            vec_func_t&& vop) {
  using traits = function_traits<vec_func_t>;
  using scalar_t = typename function_traits<func_t>::result_type;
  using Vec = Vectorized<scalar_t>;
  constexpr int ntensors = traits::arity + 1;
  constexpr int64_t kStep = 2 * Vec::size();
  constexpr int64_t kSize = sizeof(scalar_t);

  const Vec opt_scalar = Vec(S > 0 ? loop_detail::load<scalar_t>(data[S]) : scalar_t(0));
  int64_t i = 0;
  for (; i <= n - kStep; i += kStep) {
    auto out1 = std::apply(vop, loop_detail::dereference_vec<traits>(&data[1], opt_scalar, S, i));
    auto out2 = std::apply(
        vop, loop_detail::dereference_vec<traits>(&data[1], opt_scalar, S, i + Vec::size()));
    out1.store(data[0] + i * kSize);
    out2.store(data[0] + (i + Vec::size()) * kSize);
  }
  if (i < n) {
    int64_t strides[ntensors];
    for (int arg = 0; arg < ntensors; ++arg) {
      strides[arg] = (S > 0 && arg == S) ? 0 : kSize;
    }
    basic_loop(data, strides, i, n, op);
  }
}

// Calls cb(s) with the first input s (1-based) that is a broadcast scalar while everything
// else is contiguous, or cb(0) when there is none. Unrolled over the inputs at compile time.
template <typename traits, typename cb_t>
inline void unroll_contiguous_scalar_checks(const int64_t* /*strides*/, std::index_sequence<>,
                                            cb_t&& cb) {
  cb(0);
}
template <typename traits, typename cb_t, std::size_t INDEX0, std::size_t... INDEX>
inline void unroll_contiguous_scalar_checks(const int64_t* strides,
                                            std::index_sequence<INDEX0, INDEX...>, cb_t&& cb) {
  if (is_contiguous_scalar<traits, INDEX0 + 1>(strides)) {
    cb(INDEX0 + 1);
  } else {
    unroll_contiguous_scalar_checks<traits>(strides, std::index_sequence<INDEX...>{},
                                            std::forward<cb_t>(cb));
  }
}

// The loop2d cpu_kernel_vec hands to TensorIterator::for_each. See Note [Which loop runs].
template <typename op_t, typename vop_t>
struct VectorizedLoop2d {
  op_t op;
  vop_t vop;

  using traits = function_traits<op_t>;
  static constexpr int ntensors = traits::arity + 1;
  using data_t = std::array<char*, ntensors>;

  VectorizedLoop2d(const op_t& op, vop_t vop) : op(op), vop(std::move(vop)) {}

  static void advance(data_t& data, const int64_t* outer_strides) {
    for (int arg = 0; arg < ntensors; ++arg) data[arg] += outer_strides[arg];
  }

  void operator()(char** base, const int64_t* strides, int64_t size0, int64_t size1) {
    data_t data;
    std::copy_n(base, ntensors, data.data());
    const int64_t* outer_strides = &strides[ntensors];

    if (is_contiguous<traits>(strides)) {
      detail::count(detail::loop_counters.vectorized);
      for (int64_t j = 0; j < size1; ++j) {
        vectorized_loop(data.data(), size0, 0, op, vop);
        advance(data, outer_strides);
      }
      return;
    }
    using Indices = std::make_index_sequence<traits::arity>;
    unroll_contiguous_scalar_checks<traits>(strides, Indices{}, [&](std::size_t idx) {
      if (idx) {
        detail::count(detail::loop_counters.vectorized_scalar);
        for (int64_t j = 0; j < size1; ++j) {
          vectorized_loop(data.data(), size0, static_cast<int64_t>(idx), op, vop);
          advance(data, outer_strides);
        }
      } else {
        detail::count(detail::loop_counters.basic);
        for (int64_t j = 0; j < size1; ++j) {
          basic_loop(data.data(), strides, 0, size0, op);
          advance(data, outer_strides);
        }
      }
    });
  }
};

// cpu_vec_kernel's loop. See Note [Vector math runs on partial vectors].
template <typename vop_t>
struct VectorOnlyLoop2d {
  vop_t vop;

  using traits = function_traits<vop_t>;
  using Vec = typename traits::result_type;
  using scalar_t = typename Vec::value_type;
  static constexpr int ntensors = traits::arity + 1;
  static constexpr int64_t kSize = sizeof(scalar_t);

  // Lanes [i, i + count) of the operand at base (count <= Vec::size()).
  static Vec load(const char* base, int64_t stride, int64_t i, int64_t count) {
    if (stride == kSize) {
      return count == Vec::size() ? Vec::loadu(base + i * kSize)
                                  : Vec::loadu(base + i * kSize, count);
    }
    if (stride == 0) return Vec(loop_detail::load<scalar_t>(base));
    scalar_t buffer[Vec::size()];
    for (int64_t k = 0; k < count; ++k)
      buffer[k] = loop_detail::load<scalar_t>(base + (i + k) * stride);
    return Vec::loadu(buffer, count);
  }
  static void store(const Vec& v, char* base, int64_t stride, int64_t i, int64_t count) {
    if (stride == kSize) {
      if (count == Vec::size()) {
        v.store(base + i * kSize);
      } else {
        v.store(base + i * kSize, count);
      }
      return;
    }
    scalar_t buffer[Vec::size()];
    v.store(buffer, count);
    for (int64_t k = 0; k < count; ++k) {
      *reinterpret_cast<scalar_t*>(base + (i + k) * stride) = buffer[k];
    }
  }
  template <std::size_t... I>
  Vec apply(char* const* data, const int64_t* strides, int64_t i, int64_t count,
            std::index_sequence<I...>) const {
    return vop(load(data[I + 1], strides[I + 1], i, count)...);
  }
  // Lanes [i, i + Vec::size()) of a row whose inputs are contiguous or broadcast (bcast).
  template <std::size_t... I>
  Vec apply_dense(char* const* data, const int64_t* strides, const Vec* bcast, int64_t i,
                  std::index_sequence<I...>) const {
    return vop((strides[I + 1] == 0 ? bcast[I] : Vec::loadu(data[I + 1] + i * kSize))...);
  }

  void operator()(char** base, const int64_t* strides, int64_t size0, int64_t size1) const {
    constexpr auto inputs = std::make_index_sequence<traits::arity>{};
    bool any_strided = false;
    bool any_broadcast = false;
    for (int arg = 0; arg < ntensors; ++arg) {
      any_strided |= strides[arg] != kSize && (arg == 0 || strides[arg] != 0);
      any_broadcast |= arg > 0 && strides[arg] == 0;
    }
    detail::count(any_strided     ? detail::loop_counters.gathered
                  : any_broadcast ? detail::loop_counters.vectorized_scalar
                                  : detail::loop_counters.vectorized);
    std::array<char*, ntensors> data;
    std::copy_n(base, ntensors, data.data());
    for (int64_t j = 0; j < size1; ++j) {
      int64_t i = 0;
      if constexpr (traits::arity == 1) {
        // The common unary case as libtorch's vec::map: two pointers in registers across the
        // call into SLEEF.
        if (!any_strided && strides[1] == kSize) {
          const char* in = data[1];
          char* out = data[0];
          for (; i + Vec::size() <= size0; i += Vec::size()) {
            vop(Vec::loadu(in + i * kSize)).store(out + i * kSize);
          }
        }
      }
      if (!any_strided && i == 0) {
        // Whole vectors straight from memory; the tail below as a partial one.
        Vec bcast[traits::arity > 0 ? traits::arity : 1];
        for (int arg = 1; arg < ntensors; ++arg) {
          if (strides[arg] == 0) bcast[arg - 1] = Vec(loop_detail::load<scalar_t>(data[arg]));
        }
        for (; i + Vec::size() <= size0; i += Vec::size()) {
          apply_dense(data.data(), strides, bcast, i, inputs).store(data[0] + i * kSize);
        }
      }
      for (; i < size0; i += Vec::size()) {
        const int64_t count = std::min<int64_t>(Vec::size(), size0 - i);
        store(apply(data.data(), strides, i, count, inputs), data[0], strides[0], i, count);
      }
      for (int arg = 0; arg < ntensors; ++arg) data[arg] += strides[ntensors + arg];
    }
  }
};

template <typename op_t, typename vop_t>
VectorizedLoop2d<op_t, vop_t> make_vectorized_loop2d(const op_t& op, const vop_t& vop) {
  return VectorizedLoop2d<op_t, vop_t>(op, vop);
}

// basic_loop over each row of a 2-D block.
template <typename func_t>
struct BasicLoop2d {
  func_t& op;

  using traits = function_traits<func_t>;
  static constexpr int ntensors =
      traits::arity + (std::is_void<typename traits::result_type>::value ? 0 : 1);

  void operator()(char** base, const int64_t* strides, int64_t size0, int64_t size1) const {
    detail::count(detail::loop_counters.basic);
    std::array<char*, ntensors> data;
    std::copy_n(base, ntensors, data.data());
    for (int64_t j = 0; j < size1; ++j) {
      basic_loop(data.data(), strides, 0, size0, op);
      for (int arg = 0; arg < ntensors; ++arg) data[arg] += strides[ntensors + arg];
    }
  }
};

template <typename func_t>
void cpu_kernel(TensorIteratorBase& iter, func_t&& op,
                int64_t grain_size = at::internal::GRAIN_SIZE) {
  using traits = function_traits<func_t>;
  static_assert(!std::is_void<typename traits::result_type>::value,
                "cpu_kernel: the op must return the output value (see cpu_serial_kernel)");
  TORCH_INTERNAL_ASSERT(iter.ninputs() == traits::arity);
  TORCH_INTERNAL_ASSERT(iter.noutputs() == 1);
  TORCH_INTERNAL_ASSERT(loop_detail::dtypes_match<traits>(iter),
                        "cpu_kernel: op types do not match ",
                        "the operands' dtypes (no dynamic casting on CPU)");
  iter.for_each(BasicLoop2d<func_t>{op}, grain_size);
  iter.cast_outputs();
}

// check_dynamic_cast=false lets a kernel whose op deliberately reads other types (fill's
// nullary op, say) skip the dtype check, as libtorch's does.
template <bool check_dynamic_cast = true, typename func_t, typename vec_func_t>
void cpu_kernel_vec(TensorIteratorBase& iter, func_t&& op, vec_func_t&& vop,
                    int64_t grain_size = at::internal::GRAIN_SIZE) {
  using traits = function_traits<func_t>;
  using vtraits = function_traits<vec_func_t>;
  using scalar_t = typename traits::result_type;
  static_assert(!std::is_void<scalar_t>::value, "cpu_kernel_vec: the op must return a value");
  static_assert(traits::arity == vtraits::arity, "cpu_kernel_vec: op and vop arities differ");
  static_assert(std::is_same<typename vtraits::result_type, Vectorized<scalar_t>>::value,
                "cpu_kernel_vec: vop must return Vectorized<result type of op>");
  TORCH_INTERNAL_ASSERT(iter.ninputs() == traits::arity);
  TORCH_INTERNAL_ASSERT(iter.noutputs() == 1);
  if constexpr (check_dynamic_cast) {
    TORCH_INTERNAL_ASSERT(loop_detail::dtypes_match<traits>(iter),
                          "cpu_kernel_vec: op types do not match the operands' dtypes");
  }
  iter.for_each(make_vectorized_loop2d(op, vop), grain_size);
  iter.cast_outputs();
}

// Every element through vop, whatever its layout: for functions whose vector and scalar forms
// may differ in the last bits (SLEEF's). See Note [Vector math runs on partial vectors].
//   cpu_vec_kernel(iter, [](Vectorized<scalar_t> a) { return a.exp(); });
template <typename vec_func_t>
void cpu_vec_kernel(TensorIteratorBase& iter, vec_func_t&& vop,
                    int64_t grain_size = at::internal::GRAIN_SIZE) {
  using vtraits = function_traits<vec_func_t>;
  using Vec = typename vtraits::result_type;
  using scalar_t = typename Vec::value_type;
  static_assert(std::is_same<Vec, Vectorized<scalar_t>>::value,
                "cpu_vec_kernel: vop must return a Vectorized");
  TORCH_INTERNAL_ASSERT(iter.ninputs() == vtraits::arity);
  TORCH_INTERNAL_ASSERT(iter.noutputs() == 1);
  for (int arg = 0; arg < iter.ntensors(); ++arg) {
    TORCH_INTERNAL_ASSERT(iter.dtype(arg) == c10::CppTypeToScalarType<scalar_t>::value,
                          "cpu_vec_kernel: operand dtypes differ from the vop's");
  }
  iter.for_each(VectorOnlyLoop2d<std::decay_t<vec_func_t>>{vop}, grain_size);
  iter.cast_outputs();
}

// On the calling thread only, over the linear range [range.begin, range.end). A void op has
// no output operand (reductions into captured state).
template <typename func_t>
void cpu_serial_kernel(TensorIteratorBase& iter, func_t&& op, const Range& range) {
  using traits = function_traits<func_t>;
  constexpr bool result_void = std::is_void<typename traits::result_type>::value;
  TORCH_INTERNAL_ASSERT(
      iter.ninputs() == traits::arity &&
      ((result_void && iter.noutputs() == 0) || (!result_void && iter.noutputs() == 1)));
  TORCH_INTERNAL_ASSERT(loop_detail::dtypes_match<traits>(iter),
                        "cpu_serial_kernel: op types do not match the operands' dtypes");
  iter.serial_for_each(BasicLoop2d<func_t>{op}, range);
  iter.cast_outputs();
}

template <typename func_t>
void cpu_serial_kernel(TensorIteratorBase& iter, func_t&& op) {
  cpu_serial_kernel(iter, op, {0, iter.numel()});
}

template <typename func_t, typename vec_func_t>
void cpu_serial_kernel_vec(TensorIteratorBase& iter, func_t&& op, vec_func_t&& vop,
                           const Range& range) {
  using traits = function_traits<func_t>;
  static_assert(std::is_same<typename function_traits<vec_func_t>::result_type,
                             Vectorized<typename traits::result_type>>::value,
                "cpu_serial_kernel_vec: vop must return Vectorized<result type of op>");
  TORCH_INTERNAL_ASSERT(iter.ninputs() == traits::arity);
  TORCH_INTERNAL_ASSERT(iter.noutputs() == 1);
  TORCH_INTERNAL_ASSERT(loop_detail::dtypes_match<traits>(iter),
                        "cpu_serial_kernel_vec: op types do not match the operands' dtypes");
  iter.serial_for_each(make_vectorized_loop2d(op, vop), range);
  iter.cast_outputs();
}

template <typename func_t, typename vec_func_t>
void cpu_serial_kernel_vec(TensorIteratorBase& iter, func_t&& op, vec_func_t&& vop) {
  cpu_serial_kernel_vec(iter, op, vop, {0, iter.numel()});
}

}  // namespace CPU_CAPABILITY
}  // namespace native
}  // namespace at
