// CPU kernels of the folds (prod, max, min, and, or): see ReduceOps.h. Compiled once per CPU
// capability (miniaten_add_cpu_kernels in aten/CMakeLists.txt).
//
// Each 2-D block parallel_reduce hands over is either "size0 reduced elements x size1 rows" (the
// output has stride 0 along dim 0: fold the run into a register, then into the output once) or
// an elementwise block (the output steps with the input: fold element by element). See Note
// [How reductions iterate and parallelise] in TensorIteratorReduce.h; float, double and the
// integers take Vectorized paths for the contiguous shapes (fold_block). Half and BFloat16 fold
// in float within a block and round when the block writes its output.

#include <cmath>
#include <type_traits>

#include "aten/Dispatch.h"
#include "aten/NumericUtils.h"
#include "aten/OpMathType.h"
#include "aten/cpu/vec/Vectorized.h"
#include "aten/native/ReduceOps.h"
#include "aten/native/TensorIteratorReduce.h"
#include "c10/util/WrappingArithmetic.h"

namespace at {
namespace native {
inline namespace CPU_CAPABILITY {

namespace {

// Float, double and the integers fold through Vectorized (the vector op must give what the
// scalar one gives lane by lane); Half, BFloat16, complex and Bool element by element.
template <typename T>
constexpr bool kFoldsInVectors = std::is_same<T, float>::value || std::is_same<T, double>::value ||
                                 (std::is_integral<T>::value && !std::is_same<T, bool>::value);

// One block of parallel_reduce's loop, in the three shapes Note [How reductions iterate and
// parallelise] gives it:
//  * a contiguous reduced run per output element (out stride 0, in stride one element): four
//    vector accumulators fold the run, then fold into one, across its lanes and into the output;
//  * contiguous columns (out stride 0 along dim 0, out and in contiguous along dim 1: a
//    reduction over an outer dim): each output vector folds a row of input vectors per step;
//  * element by element otherwise.
template <typename T, typename Op, typename VecOp>
void fold_block(char** data, const int64_t* strides, int64_t size0, int64_t size1, const Op& op,
                const VecOp& vop) {
  using acc_t = at::opmath_type<T>;
  constexpr int64_t kSize = sizeof(T);
  if constexpr (kFoldsInVectors<T>) {
    using Vec = vec::Vectorized<T>;
    constexpr int64_t kLanes = Vec::size();
    if (strides[0] == 0 && strides[1] == kSize && size0 >= 4 * kLanes) {
      // Four accumulators: a fold step waits for the previous one (a multiply's or a
      // compare's latency), so four independent chains keep the vector unit busy.
      for (int64_t j = 0; j < size1; ++j) {
        T* out = reinterpret_cast<T*>(data[0] + j * strides[2]);
        const T* in = reinterpret_cast<const T*>(data[1] + j * strides[3]);
        Vec acc0 = Vec::loadu(in), acc1 = Vec::loadu(in + kLanes),
            acc2 = Vec::loadu(in + 2 * kLanes), acc3 = Vec::loadu(in + 3 * kLanes);
        int64_t i = 4 * kLanes;
        for (; i + 4 * kLanes <= size0; i += 4 * kLanes) {
          acc0 = vop(acc0, Vec::loadu(in + i));
          acc1 = vop(acc1, Vec::loadu(in + i + kLanes));
          acc2 = vop(acc2, Vec::loadu(in + i + 2 * kLanes));
          acc3 = vop(acc3, Vec::loadu(in + i + 3 * kLanes));
        }
        for (; i + kLanes <= size0; i += kLanes) acc0 = vop(acc0, Vec::loadu(in + i));
        T lanes[kLanes];
        vop(vop(acc0, acc1), vop(acc2, acc3)).store(lanes);
        T value = *out;
        for (int64_t l = 0; l < kLanes; ++l) value = op(value, lanes[l]);
        for (; i < size0; ++i) value = op(value, in[i]);
        *out = value;
      }
      return;
    }
    if (strides[0] == 0 && strides[2] == kSize && strides[3] == kSize && size1 >= kLanes) {
      // Columns: up to four output vectors advance together, one input row per step.
      T* out = reinterpret_cast<T*>(data[0]);
      int64_t j = 0;
      for (; j + 4 * kLanes <= size1; j += 4 * kLanes) {
        Vec acc[4];
        for (int k = 0; k < 4; ++k) acc[k] = Vec::loadu(out + j + k * kLanes);
        for (int64_t i = 0; i < size0; ++i) {
          const char* row = data[1] + i * strides[1] + j * kSize;
          for (int k = 0; k < 4; ++k) acc[k] = vop(acc[k], Vec::loadu(row + k * kLanes * kSize));
        }
        for (int k = 0; k < 4; ++k) acc[k].store(out + j + k * kLanes);
      }
      for (; j + kLanes <= size1; j += kLanes) {
        Vec acc = Vec::loadu(out + j);
        for (int64_t i = 0; i < size0; ++i) {
          acc = vop(acc, Vec::loadu(data[1] + i * strides[1] + j * kSize));
        }
        acc.store(out + j);
      }
      for (; j < size1; ++j) {
        T value = out[j];
        for (int64_t i = 0; i < size0; ++i) {
          value = op(value, *reinterpret_cast<const T*>(data[1] + i * strides[1] + j * kSize));
        }
        out[j] = value;
      }
      return;
    }
  }
  for (int64_t j = 0; j < size1; ++j) {
    T* out = reinterpret_cast<T*>(data[0] + j * strides[2]);
    const char* in = data[1] + j * strides[3];
    if (strides[0] == 0) {
      acc_t acc = static_cast<acc_t>(*out);
      for (int64_t i = 0; i < size0; ++i) {
        acc = op(acc, static_cast<acc_t>(*reinterpret_cast<const T*>(in + i * strides[1])));
      }
      *out = static_cast<T>(acc);
    } else {
      char* out_bytes = reinterpret_cast<char*>(out);
      for (int64_t i = 0; i < size0; ++i) {
        T* o = reinterpret_cast<T*>(out_bytes + i * strides[0]);
        *o = static_cast<T>(
            op(static_cast<acc_t>(*o),
               static_cast<acc_t>(*reinterpret_cast<const T*>(in + i * strides[1]))));
      }
    }
  }
}

template <typename T, typename Op, typename VecOp>
void fold(TensorIteratorBase& iter, Op op, VecOp vop) {
  parallel_reduce(iter,
                  [op, vop](char** data, const int64_t* strides, int64_t size0, int64_t size1) {
                    fold_block<T>(data, strides, size0, size1, op, vop);
                  });
}

// For the types that never take the vector paths.
constexpr auto kNoVecOp = [](auto a, auto) { return a; };

void prod_kernel(TensorIterator& iter) {
  if (iter.dtype() == kBool) {  // prod(..., dtype=Bool): all of them, as libtorch's
    fold<bool>(
        iter, [](bool a, bool b) { return a && b; }, kNoVecOp);
    return;
  }
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND2(kHalf, kBFloat16, iter.dtype(), "prod_cpu", [&] {
    fold<scalar_t>(
        iter,
        [](auto a, auto b) -> decltype(a) {
          // Integers wrap modulo 2^N, as the rest of miniaten's integer arithmetic does (the
          // vector multiply wraps too: -fwrapv).
          if constexpr (std::is_integral<decltype(a)>::value) {
            return static_cast<decltype(a)>(c10::wrapping_mul(a, b));
          } else {
            return a * b;
          }
        },
        [](auto a, auto b) { return a * b; });
  });
}

// A NaN on either side wins: once the fold holds NaN nothing replaces it.
void max_values_kernel(TensorIterator& iter) {
  AT_DISPATCH_ALL_TYPES_AND3(kHalf, kBFloat16, kBool, iter.dtype(), "max_values_cpu", [&] {
    fold<scalar_t>(
        iter, [](auto a, auto b) { return (at::_isnan(b) || b > a) ? b : a; },
        [](auto a, auto b) { return maximum(a, b); });
  });
}

void min_values_kernel(TensorIterator& iter) {
  AT_DISPATCH_ALL_TYPES_AND3(kHalf, kBFloat16, kBool, iter.dtype(), "min_values_cpu", [&] {
    fold<scalar_t>(
        iter, [](auto a, auto b) { return (at::_isnan(b) || b < a) ? b : a; },
        [](auto a, auto b) { return minimum(a, b); });
  });
}

// Bool or Byte: the caller converted every other input dtype to Bool.
template <bool kAnd>
void logical_fold_kernel(TensorIterator& iter) {
  if (iter.dtype() == kByte) {
    // 0 or 1 in, 0 or 1 out: and is min, or is max.
    fold<uint8_t>(
        iter,
        [](uint8_t a, uint8_t b) -> uint8_t {
          return kAnd ? (a != 0 && b != 0) : (a != 0 || b != 0);
        },
        [](auto a, auto b) { return kAnd ? minimum(a, b) : maximum(a, b); });
  } else {
    fold<bool>(
        iter, [](bool a, bool b) { return kAnd ? (a && b) : (a || b); }, kNoVecOp);
  }
}

void and_kernel(TensorIterator& iter) {
  logical_fold_kernel<true>(iter);
}
void or_kernel(TensorIterator& iter) {
  logical_fold_kernel<false>(iter);
}

}  // namespace

}  // namespace CPU_CAPABILITY

REGISTER_DISPATCH(prod_stub, &prod_kernel);
REGISTER_DISPATCH(max_values_stub, &max_values_kernel);
REGISTER_DISPATCH(min_values_stub, &min_values_kernel);
REGISTER_DISPATCH(and_stub, &and_kernel);
REGISTER_DISPATCH(or_stub, &or_kernel);

}  // namespace native
}  // namespace at
