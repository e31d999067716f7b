// The GPU kernels of add/sub, mul, div (true, trunc, floor), maximum/minimum, the comparisons,
// the logical ops and where: each a functor of the common dtype run by gpu_kernel_with_scalars
// (Loops.cuh), so a CPU scalar (add(t, 2)) is a kernel argument. Operands of other dtypes
// (promotion, a comparison's out= of another dtype) were converted by the iterator, as on the
// CPU (Note [Operands are converted before a CUDA op kernel] in TensorIteratorTypes.cpp).
//
// The arithmetic is the CPU kernels' (aten/native/cpu/BinaryOpsKernel.cpp; the rounding divisions
// in DivRounding.h), element for element:
// Half and BFloat16 compute in float and round once (Note [Half and BFloat16 compute in float]);
// a + alpha * b is one fma, as the CPU's vectorized fmadd.
//
// Note [Integer division by zero on the GPU]
// The CPU kernels raise "ZeroDivisionError" for an integer division by zero. A GPU thread cannot
// raise: that would take a flag read back after every division, a device-to-host sync per call.
// As PyTorch's CUDA kernels, integer div (trunc, floor) by zero gives what the hardware's
// division gives (all ones for unsigned, -1 for signed quotients here); INT_MIN / -1 wraps as on
// the CPU (Note [Integer division by -1]).
//
// Complex dtypes go to ComplexKernels.cu where the CPU takes them (add/sub, mul, true div, eq,
// ne, the logical ops, where); the rounding divisions and the ordered comparisons raise the
// dispatch macro's "\"lt_cuda\" not implemented for 'ComplexFloat'", as the CPU's do
// (maximum/minimum refuse complex numbers before the kernel, BinaryMathOps.cpp).

#include <cmath>
#include <type_traits>

#include "aten/Dispatch.h"
#include "aten/OpMathType.h"
#include "aten/generated/Functions.h"      // at::empty
#include "aten/generated/TensorMethods.h"  // Tensor::copy_
#include "aten/native/BinaryOps.h"
#include "aten/native/DivRounding.h"
#include "aten/native/cuda/ComplexKernels.h"
#include "aten/native/cuda/Loops.cuh"

namespace at {
namespace native {

namespace {

template <typename T>
using opmath_t = at::opmath_type<T>;

template <typename T>
struct AddFunctor {
  opmath_t<T> alpha;
  C10_HOST_DEVICE T operator()(T a, T b) const {
    return static_cast<T>(static_cast<opmath_t<T>>(a) + alpha * static_cast<opmath_t<T>>(b));
  }
};

template <typename T>
struct MulFunctor {
  C10_HOST_DEVICE T operator()(T a, T b) const {
    if constexpr (std::is_same<T, bool>::value) {
      return a && b;
    } else {
      return static_cast<T>(static_cast<opmath_t<T>>(a) * static_cast<opmath_t<T>>(b));
    }
  }
};

template <typename T>
struct DivTrueFunctor {
  C10_HOST_DEVICE T operator()(T a, T b) const {
    return static_cast<T>(static_cast<opmath_t<T>>(a) / static_cast<opmath_t<T>>(b));
  }
};

template <typename T>
struct DivTruncFunctor {
  C10_HOST_DEVICE T operator()(T a, T b) const {
    if constexpr (std::is_integral<T>::value) {
      return div_trunc_integer(a, b);  // see Note [Integer division by zero on the GPU]
    } else {
      using acc_t = opmath_t<T>;
      return static_cast<T>(std::trunc(static_cast<acc_t>(a) / static_cast<acc_t>(b)));
    }
  }
};

template <typename T>
struct DivFloorFunctor {
  C10_HOST_DEVICE T operator()(T a, T b) const {
    if constexpr (std::is_integral<T>::value) {
      return div_floor_integer(a, b);  // see Note [Integer division by zero on the GPU]
    } else {
      using acc_t = opmath_t<T>;
      return static_cast<T>(div_floor_floating(static_cast<acc_t>(a), static_cast<acc_t>(b)));
    }
  }
};

// NaN-propagating, logical or/and for Bool (the CPU's extremum_kernel).
template <typename T, bool kMax>
struct ExtremumFunctor {
  C10_HOST_DEVICE T operator()(T a, T b) const {
    if constexpr (std::is_same<T, bool>::value) {
      return kMax ? (a || b) : (a && b);
    } else {
      if constexpr (!std::is_integral<T>::value) {
        if (a != a) return a;
        if (b != b) return b;
      }
      return kMax ? (a < b ? b : a) : (b < a ? b : a);
    }
  }
};

void add_kernel_cuda(TensorIteratorBase& iter, const c10::Scalar& alpha) {
  if (c10::isComplexType(iter.common_dtype())) return add_complex_cuda(iter, alpha);
  AT_DISPATCH_ALL_MINIATEN_TYPES(iter.common_dtype(), "add_cuda", [&] {
    // Rounded to the dtype first, as the CPU kernel's alpha.to<scalar_t>().
    const auto a = static_cast<opmath_t<scalar_t>>(alpha.to<scalar_t>());
    gpu_kernel_with_scalars(iter, AddFunctor<scalar_t>{a});
  });
}

// mul commutes: its own mirror (Note [A CPU scalar rides along as a kernel argument]).
void mul_kernel_cuda(TensorIteratorBase& iter) {
  if (c10::isComplexType(iter.common_dtype())) return mul_complex_cuda(iter);
  AT_DISPATCH_ALL_MINIATEN_TYPES(iter.common_dtype(), "mul_cuda", [&] {
    gpu_kernel_with_scalars(iter, MulFunctor<scalar_t>{}, MulFunctor<scalar_t>{});
  });
}

// Integer inputs were promoted to float by binary_float_op.
void div_true_kernel_cuda(TensorIteratorBase& iter) {
  if (c10::isComplexType(iter.common_dtype())) return div_true_complex_cuda(iter);
  AT_DISPATCH_FLOATING_TYPES_AND2(
      c10::kHalf, c10::kBFloat16, iter.common_dtype(), "div_true_cuda",
      [&] { gpu_kernel_with_scalars(iter, DivTrueFunctor<scalar_t>{}); });
}

void div_trunc_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_ALL_TYPES_AND2(c10::kHalf, c10::kBFloat16, iter.common_dtype(), "div_trunc_cuda",
                             [&] { gpu_kernel_with_scalars(iter, DivTruncFunctor<scalar_t>{}); });
}

void div_floor_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_ALL_TYPES_AND2(c10::kHalf, c10::kBFloat16, iter.common_dtype(), "div_floor_cuda",
                             [&] { gpu_kernel_with_scalars(iter, DivFloorFunctor<scalar_t>{}); });
}

// Commutes (a NaN wins from either side): its own mirror.
template <bool kMax>
void extremum_kernel_cuda(TensorIteratorBase& iter, const char* name) {
  AT_DISPATCH_ALL_MINIATEN_TYPES(iter.common_dtype(), name, [&] {
    using F = ExtremumFunctor<scalar_t, kMax>;
    gpu_kernel_with_scalars(iter, F{}, F{});
  });
}
void maximum_kernel_cuda(TensorIteratorBase& iter) {
  extremum_kernel_cuda<true>(iter, "maximum_cuda");
}
void minimum_kernel_cuda(TensorIteratorBase& iter) {
  extremum_kernel_cuda<false>(iter, "minimum_cuda");
}

// ---- Comparisons and logical ops ---------------------------------------------------------------
// One functor of the common dtype returning bool. Half and BFloat16 compare as float (exact).
// Each predicate's mirror (Note [A CPU scalar rides along as a kernel argument]) is another
// predicate: 2 < t is t > 2.
#define MINIATEN_PREDICATE(Name, expr)                \
  template <typename T>                               \
  struct Name {                                       \
    C10_HOST_DEVICE bool operator()(T a, T b) const { \
      using acc_t = opmath_t<T>;                      \
      const acc_t x = static_cast<acc_t>(a);          \
      const acc_t y = static_cast<acc_t>(b);          \
      return expr;                                    \
    }                                                 \
  };
MINIATEN_PREDICATE(EqFunctor, x == y)
MINIATEN_PREDICATE(NeFunctor, x != y)
MINIATEN_PREDICATE(LtFunctor, x < y)
MINIATEN_PREDICATE(LeFunctor, x <= y)
MINIATEN_PREDICATE(GtFunctor, x > y)
MINIATEN_PREDICATE(GeFunctor, x >= y)
// NaN is nonzero: true, as in libtorch.
MINIATEN_PREDICATE(LogicalAndFunctor, (x != acc_t(0)) && (y != acc_t(0)))
MINIATEN_PREDICATE(LogicalOrFunctor, (x != acc_t(0)) || (y != acc_t(0)))
MINIATEN_PREDICATE(LogicalXorFunctor, (x != acc_t(0)) != (y != acc_t(0)))
#undef MINIATEN_PREDICATE

// Note [GPU comparisons write Bool]
// The kernels compile each predicate for a Bool output only. An out= of another dtype (the
// iterator has given it a temporary of the common dtype: Note [Comparison outputs] in
// CompareOps.cpp) is filled from a Bool result of the same inputs, 1 or 0, then cast back: two
// more passes for a rare form, and half the kernels in this file.
// `complex`: the predicate for complex numbers, which eq, ne and the logical ops have; lt & co.
// pass none and raise the dispatch's error for them.
template <template <typename> class Pred, template <typename> class Mirror>
void comparison_kernel_cuda(TensorIteratorBase& iter, const char* name,
                            c10::optional<ComplexPredicate> complex) {
  if (iter.dtype() != c10::kBool) {
    Tensor mask = at::empty({0}, iter.output().options().dtype(c10::kBool));
    auto bool_iter = TensorIterator::comparison_op(mask, iter.input(0), iter.input(1));
    comparison_kernel_cuda<Pred, Mirror>(bool_iter, name, complex);
    iter.output().copy_(mask);
    iter.cast_outputs();
    return;
  }
  if (complex && c10::isComplexType(iter.common_dtype())) {
    return predicate_complex_cuda(iter, *complex, name);
  }
  AT_DISPATCH_ALL_MINIATEN_TYPES(iter.common_dtype(), name, [&] {
    gpu_kernel_with_scalars(iter, Pred<scalar_t>{}, Mirror<scalar_t>{});
  });
}

#define MINIATEN_COMPARISON_KERNEL(name, Pred, Mirror, complex)         \
  void name##_kernel_cuda(TensorIteratorBase& iter) {                   \
    comparison_kernel_cuda<Pred, Mirror>(iter, #name "_cuda", complex); \
  }
MINIATEN_COMPARISON_KERNEL(eq, EqFunctor, EqFunctor, ComplexPredicate::Eq)
MINIATEN_COMPARISON_KERNEL(ne, NeFunctor, NeFunctor, ComplexPredicate::Ne)
MINIATEN_COMPARISON_KERNEL(lt, LtFunctor, GtFunctor, c10::nullopt)
MINIATEN_COMPARISON_KERNEL(le, LeFunctor, GeFunctor, c10::nullopt)
MINIATEN_COMPARISON_KERNEL(gt, GtFunctor, LtFunctor, c10::nullopt)
MINIATEN_COMPARISON_KERNEL(ge, GeFunctor, LeFunctor, c10::nullopt)
MINIATEN_COMPARISON_KERNEL(logical_and, LogicalAndFunctor, LogicalAndFunctor, ComplexPredicate::And)
MINIATEN_COMPARISON_KERNEL(logical_or, LogicalOrFunctor, LogicalOrFunctor, ComplexPredicate::Or)
MINIATEN_COMPARISON_KERNEL(logical_xor, LogicalXorFunctor, LogicalXorFunctor, ComplexPredicate::Xor)
#undef MINIATEN_COMPARISON_KERNEL

template <typename T>
struct WhereFunctor {
  C10_HOST_DEVICE T operator()(bool cond, T a, T b) const { return cond ? a : b; }
};

// Operands (out, condition, self, other), all on the device (where's Scalar forms make tensors of
// the condition's device), self and other already in out's dtype (where_self_out).
void where_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_ALL_MINIATEN_TYPES_AND_COMPLEX(
      iter.dtype(), "where_cuda", [&] { gpu_kernel_nocast(iter, WhereFunctor<scalar_t>{}); });
}

}  // namespace

REGISTER_CUDA_DISPATCH(add_stub, &add_kernel_cuda);
REGISTER_CUDA_DISPATCH(mul_stub, &mul_kernel_cuda);
REGISTER_CUDA_DISPATCH(div_true_stub, &div_true_kernel_cuda);
REGISTER_CUDA_DISPATCH(div_trunc_stub, &div_trunc_kernel_cuda);
REGISTER_CUDA_DISPATCH(div_floor_stub, &div_floor_kernel_cuda);
REGISTER_CUDA_DISPATCH(maximum_stub, &maximum_kernel_cuda);
REGISTER_CUDA_DISPATCH(minimum_stub, &minimum_kernel_cuda);
REGISTER_CUDA_DISPATCH(eq_stub, &eq_kernel_cuda);
REGISTER_CUDA_DISPATCH(ne_stub, &ne_kernel_cuda);
REGISTER_CUDA_DISPATCH(lt_stub, &lt_kernel_cuda);
REGISTER_CUDA_DISPATCH(le_stub, &le_kernel_cuda);
REGISTER_CUDA_DISPATCH(gt_stub, &gt_kernel_cuda);
REGISTER_CUDA_DISPATCH(ge_stub, &ge_kernel_cuda);
REGISTER_CUDA_DISPATCH(logical_and_stub, &logical_and_kernel_cuda);
REGISTER_CUDA_DISPATCH(logical_or_stub, &logical_or_kernel_cuda);
REGISTER_CUDA_DISPATCH(logical_xor_stub, &logical_xor_kernel_cuda);
REGISTER_CUDA_DISPATCH(where_stub, &where_kernel_cuda);

}  // namespace native
}  // namespace at
