// CPU kernels of the folds (prod, max, min, and, or): see ReduceOps.h. Compiled once per CPU
// capability (miniaten_add_cpu_kernels in aten/CMakeLists.txt).
//
// Each 2-D block parallel_reduce hands over is either "size0 reduced elements x size1 rows" (the
// output has stride 0 along dim 0: fold the run into a register, then into the output once) or
// an elementwise block (the output steps with the input: fold element by element). See Note
// [How reductions iterate and parallelise] in TensorIteratorReduce.h. Half and BFloat16 fold in
// float within a block and round when the block writes its output.

#include <cmath>
#include <type_traits>

#include "aten/Dispatch.h"
#include "aten/OpMathType.h"
#include "aten/native/ReduceOps.h"
#include "aten/native/TensorIteratorReduce.h"
#include "c10/util/WrappingArithmetic.h"

namespace at {
namespace native {
inline namespace CPU_CAPABILITY {

namespace {

template <typename T, typename Op>
void fold(TensorIteratorBase& iter, Op op) {
  using acc_t = at::opmath_type<T>;
  parallel_reduce(iter, [op](char** data, const int64_t* strides, int64_t size0, int64_t size1) {
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
  });
}

template <typename T>
bool is_nan(T v) {
  if constexpr (std::is_floating_point<T>::value) {
    return std::isnan(v);
  } else {
    return false;
  }
}

void prod_kernel(TensorIterator& iter) {
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND2(kHalf, kBFloat16, iter.dtype(), "prod_cpu", [&] {
    fold<scalar_t>(iter, [](auto a, auto b) -> decltype(a) {
      // Integers wrap modulo 2^N, as the rest of miniaten's integer arithmetic does.
      if constexpr (std::is_integral<decltype(a)>::value) {
        return static_cast<decltype(a)>(c10::wrapping_mul(a, b));
      } else {
        return a * b;
      }
    });
  });
}

// A NaN on either side wins: once the fold holds NaN nothing replaces it.
void max_values_kernel(TensorIterator& iter) {
  AT_DISPATCH_ALL_TYPES_AND3(kHalf, kBFloat16, kBool, iter.dtype(), "max_values_cpu", [&] {
    fold<scalar_t>(iter, [](auto a, auto b) { return (is_nan(b) || b > a) ? b : a; });
  });
}

void min_values_kernel(TensorIterator& iter) {
  AT_DISPATCH_ALL_TYPES_AND3(kHalf, kBFloat16, kBool, iter.dtype(), "min_values_cpu", [&] {
    fold<scalar_t>(iter, [](auto a, auto b) { return (is_nan(b) || b < a) ? b : a; });
  });
}

// Bool or Byte: the caller converted every other input dtype to Bool.
template <bool kAnd>
void logical_fold_kernel(TensorIterator& iter) {
  if (iter.dtype() == kByte) {
    fold<uint8_t>(iter, [](uint8_t a, uint8_t b) -> uint8_t {
      return kAnd ? (a != 0 && b != 0) : (a != 0 || b != 0);
    });
  } else {
    fold<bool>(iter, [](bool a, bool b) { return kAnd ? (a && b) : (a || b); });
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
