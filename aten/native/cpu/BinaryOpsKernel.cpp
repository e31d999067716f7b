// CPU kernels of add/sub, mul, div (the complex dtypes too), the comparisons and logical ops,
// bitwise and/or/xor, and where. Compiled once per CPU capability (miniaten_add_cpu_kernels in
// aten/CMakeLists.txt); see Note [Kernels are compiled once per CPU capability] in
// aten/native/DispatchStub.h. Loops.h picks the loop: vectorized when every operand is contiguous
// along the row or one input is broadcast (the Scalar of add(t, 2)), element by element otherwise
// (see Note [Which loop runs] there).
//
// Note [Half and BFloat16 compute in float]
// Each scalar op converts Half and BFloat16 operands to float, computes, and rounds once, as
// Vectorized<Half> does lane by lane (see Note [Storage lanes and compute lanes]); so the
// vectorized body and the scalar tail give bit-identical results. (libtorch rounds in between
// on its scalar path: a + alpha * b there rounds alpha * b to Half first.)

#include <cmath>
#include <type_traits>

#include "aten/Dispatch.h"
#include "aten/OpMathType.h"
#include "aten/native/BinaryOps.h"
#include "aten/native/DivRounding.h"
#include "aten/native/cpu/Loops.h"
#include "aten/native/cpu/PredicateLoops.h"
#include "c10/util/WrappingArithmetic.h"

namespace at {
namespace native {
inline namespace CPU_CAPABILITY {

using vec::Vectorized;

namespace {

// See Note [Half and BFloat16 compute in float].
template <typename T>
using opmath_t = at::opmath_type<T>;

// The arithmetic kernels run their (op, vop) pair over one of two targets: a TensorIterator,
// or three dense arrays (see Note [The dense fast path] in BinaryOps.h).
template <typename op_t, typename vop_t>
void run_vec(TensorIteratorBase& iter, const op_t& op, const vop_t& vop) {
  cpu_kernel_vec(iter, op, vop);
}

// The loop cpu_kernel_vec runs on a contiguous block, in for_each's parallel chunks.
template <typename op_t, typename vop_t>
void run_vec(const DenseBinaryArgs& args, const op_t& op, const vop_t& vop) {
  constexpr int64_t size = sizeof(typename function_traits<op_t>::result_type);
  at::parallel_for(0, args.numel, internal::GRAIN_SIZE, [&](int64_t begin, int64_t end) {
    const int64_t other_stride = args.other_is_scalar ? 0 : size;
    char* data[3] = {args.out + begin * size, const_cast<char*>(args.self) + begin * size,
                     const_cast<char*>(args.other) + begin * other_stride};
    const int64_t strides[6] = {size, size, other_stride, 0, 0, 0};
    make_vectorized_loop2d(op, vop)(data, strides, end - begin, 1);
  });
}

// Note [Complex kernels run the scalar loop]
// There is no Vectorized<c10::complex<T>>: the complex dtypes run the op as plain C++ over
// c10::complex (cpu_kernel's basic loop, or a plain loop over the dense arrays), whose * and /
// are libtorch's textbook formulas. GCC vectorizes those loops itself (Note [The kernels' plain
// loops vectorize at -O2], aten/CMakeLists.txt), with each product rounded as libtorch's vector
// kernels round it (Note [A complex product is rounded as written], c10/util/complex.h).
template <typename op_t>
void run_scalar(TensorIteratorBase& iter, const op_t& op) {
  cpu_kernel(iter, op);
}

template <typename op_t>
void run_scalar(const DenseBinaryArgs& args, const op_t& op) {
  using T = typename function_traits<op_t>::result_type;
  at::parallel_for(0, args.numel, internal::GRAIN_SIZE, [&](int64_t begin, int64_t end) {
    T* out = reinterpret_cast<T*>(args.out);
    const T* self = reinterpret_cast<const T*>(args.self);
    const T* other = reinterpret_cast<const T*>(args.other);
    if (args.other_is_scalar) {
      const T b = other[0];
      for (int64_t i = begin; i < end; ++i) out[i] = op(self[i], b);
    } else {
      for (int64_t i = begin; i < end; ++i) out[i] = op(self[i], other[i]);
    }
  });
}

template <typename Target>
void add_impl(Target& target, c10::ScalarType dtype, const Scalar& alpha_scalar) {
  if (c10::isComplexType(dtype)) {
    // See Note [Complex kernels run the scalar loop].
    AT_DISPATCH_COMPLEX_TYPES(dtype, "add_stub", [&] {
      const scalar_t alpha = alpha_scalar.to<scalar_t>();
      if (alpha == scalar_t(1)) {
        run_scalar(target, [](scalar_t a, scalar_t b) -> scalar_t { return a + b; });
      } else {
        run_scalar(target, [=](scalar_t a, scalar_t b) -> scalar_t { return a + alpha * b; });
      }
    });
    return;
  }
  AT_DISPATCH_ALL_MINIATEN_TYPES(dtype, "add_stub", [&] {
    using Vec = Vectorized<scalar_t>;
    using acc_t = opmath_t<scalar_t>;
    const scalar_t alpha = alpha_scalar.to<scalar_t>();
    if (static_cast<acc_t>(alpha) == acc_t(1)) {
      // alpha == 1, the common case: skip the multiply (exact either way).
      run_vec(
          target,
          [](scalar_t a, scalar_t b) -> scalar_t {
            return static_cast<scalar_t>(static_cast<acc_t>(a) + static_cast<acc_t>(b));
          },
          [](Vec a, Vec b) { return a + b; });
    } else {
      const acc_t alpha_acc = static_cast<acc_t>(alpha);
      run_vec(
          target,
          [=](scalar_t a, scalar_t b) -> scalar_t {
            return static_cast<scalar_t>(static_cast<acc_t>(a) + alpha_acc * static_cast<acc_t>(b));
          },
          [=](Vec a, Vec b) { return fmadd(b, Vec(alpha), a); });
    }
  });
}

template <typename T>
T multiply(T a, T b) {
  if constexpr (std::is_same<T, bool>::value) {
    return a && b;
  } else {
    return static_cast<T>(static_cast<opmath_t<T>>(a) * static_cast<opmath_t<T>>(b));
  }
}

template <typename Target>
void mul_impl(Target& target, c10::ScalarType dtype) {
  if (c10::isComplexType(dtype)) {
    // See Note [Complex kernels run the scalar loop].
    AT_DISPATCH_COMPLEX_TYPES(dtype, "mul_cpu", [&] {
      run_scalar(target, [](scalar_t a, scalar_t b) -> scalar_t { return a * b; });
    });
    return;
  }
  AT_DISPATCH_ALL_MINIATEN_TYPES(dtype, "mul_cpu", [&] {
    run_vec(
        target, [](scalar_t a, scalar_t b) -> scalar_t { return multiply(a, b); },
        [](Vectorized<scalar_t> a, Vectorized<scalar_t> b) { return a * b; });
  });
}

// Integer inputs were promoted to float by binary_float_op.
template <typename Target>
void div_true_impl(Target& target, c10::ScalarType dtype) {
  if (c10::isComplexType(dtype)) {
    // See Note [Complex kernels run the scalar loop].
    AT_DISPATCH_COMPLEX_TYPES(dtype, "div_true_cpu", [&] {
      run_scalar(target, [](scalar_t a, scalar_t b) -> scalar_t { return a / b; });
    });
    return;
  }
  AT_DISPATCH_FLOATING_TYPES_AND2(
      c10::ScalarType::Half, c10::ScalarType::BFloat16, dtype, "div_true_cpu", [&] {
        using acc_t = opmath_t<scalar_t>;
        run_vec(
            target,
            [](scalar_t a, scalar_t b) -> scalar_t {
              return static_cast<scalar_t>(static_cast<acc_t>(a) / static_cast<acc_t>(b));
            },
            [](Vectorized<scalar_t> a, Vectorized<scalar_t> b) { return a / b; });
      });
}

// Rounding division: aten/native/DivRounding.h (Note [Integer division by -1] there).
void div_trunc_kernel(TensorIteratorBase& iter) {
  const c10::ScalarType dtype = iter.common_dtype();
  if (c10::isIntegralType(dtype, /*includeBool=*/false)) {
    AT_DISPATCH_INTEGRAL_TYPES(dtype, "div_trunc_cpu", [&] {
      cpu_kernel(iter, [](scalar_t a, scalar_t b) -> scalar_t {
        TORCH_CHECK(b != 0, "ZeroDivisionError");
        return div_trunc_integer(a, b);
      });
    });
    return;
  }
  AT_DISPATCH_FLOATING_TYPES_AND2(
      c10::ScalarType::Half, c10::ScalarType::BFloat16, dtype, "div_trunc_cpu", [&] {
        using acc_t = opmath_t<scalar_t>;
        cpu_kernel(iter, [](scalar_t a, scalar_t b) -> scalar_t {
          return static_cast<scalar_t>(std::trunc(static_cast<acc_t>(a) / static_cast<acc_t>(b)));
        });
      });
}

void div_floor_kernel(TensorIteratorBase& iter) {
  const c10::ScalarType dtype = iter.common_dtype();
  if (c10::isIntegralType(dtype, /*includeBool=*/false)) {
    AT_DISPATCH_INTEGRAL_TYPES(dtype, "div_floor_cpu", [&] {
      cpu_kernel(iter, [](scalar_t a, scalar_t b) -> scalar_t {
        TORCH_CHECK(b != 0, "ZeroDivisionError");
        return div_floor_integer(a, b);
      });
    });
    return;
  }
  AT_DISPATCH_FLOATING_TYPES_AND2(
      c10::ScalarType::Half, c10::ScalarType::BFloat16, dtype, "div_floor_cpu", [&] {
        using acc_t = opmath_t<scalar_t>;
        cpu_kernel(iter, [](scalar_t a, scalar_t b) -> scalar_t {
          return static_cast<scalar_t>(
              div_floor_floating(static_cast<acc_t>(a), static_cast<acc_t>(b)));
        });
      });
}

void add_kernel(TensorIteratorBase& iter, const Scalar& alpha) {
  add_impl(iter, iter.common_dtype(), alpha);
}
void add_dense_kernel(const DenseBinaryArgs& args, const Scalar& alpha) {
  add_impl(args, args.dtype, alpha);
}
void mul_kernel(TensorIteratorBase& iter) {
  mul_impl(iter, iter.common_dtype());
}
void mul_dense_kernel(const DenseBinaryArgs& args) {
  mul_impl(args, args.dtype);
}
void div_true_kernel(TensorIteratorBase& iter) {
  div_true_impl(iter, iter.common_dtype());
}
void div_true_dense_kernel(const DenseBinaryArgs& args) {
  div_true_impl(args, args.dtype);
}

// ---- Comparisons -----------------------------------------------------------------------------
// Each predicate as a scalar function and in two Vectorized forms: 1 or 0 in lanes of T (an
// output of the inputs' dtype), and a mask (a Bool output).
#define MINIATEN_PREDICATE(Name, op, method)                            \
  struct Name {                                                         \
    template <typename T>                                               \
    static bool apply(T a, T b) {                                       \
      return a op b;                                                    \
    }                                                                   \
    template <typename T>                                               \
    static Vectorized<T> apply_vec(Vectorized<T> a, Vectorized<T> b) {  \
      return a.method(b);                                               \
    }                                                                   \
    template <typename T>                                               \
    static Vectorized<T> apply_mask(Vectorized<T> a, Vectorized<T> b) { \
      return a op b;                                                    \
    }                                                                   \
  };
MINIATEN_PREDICATE(Eq, ==, eq)
MINIATEN_PREDICATE(Ne, !=, ne)
MINIATEN_PREDICATE(Lt, <, lt)
MINIATEN_PREDICATE(Le, <=, le)
MINIATEN_PREDICATE(Gt, >, gt)
MINIATEN_PREDICATE(Ge, >=, ge)
#undef MINIATEN_PREDICATE

// The logical ops compare the operands' nonzero-ness (NaN is nonzero: true, as in libtorch).
#define MINIATEN_LOGICAL_PREDICATE(Name, bool_op, mask_op)                            \
  struct Name {                                                                       \
    template <typename T>                                                             \
    static bool apply(T a, T b) {                                                     \
      return (a != T(0)) bool_op(b != T(0));                                          \
    }                                                                                 \
    template <typename T>                                                             \
    static Vectorized<T> apply_mask(Vectorized<T> a, Vectorized<T> b) {               \
      const Vectorized<T> zero(static_cast<T>(0));                                    \
      return (a != zero) mask_op(b != zero);                                          \
    }                                                                                 \
    template <typename T>                                                             \
    static Vectorized<T> apply_vec(Vectorized<T> a, Vectorized<T> b) {                \
      return Vectorized<T>::blendv(Vectorized<T>(), Vectorized<T>(static_cast<T>(1)), \
                                   apply_mask(a, b));                                 \
    }                                                                                 \
  };
MINIATEN_LOGICAL_PREDICATE(LogicalAnd, &&, &)
MINIATEN_LOGICAL_PREDICATE(LogicalOr, ||, |)
MINIATEN_LOGICAL_PREDICATE(LogicalXor, !=, ^)
#undef MINIATEN_LOGICAL_PREDICATE

// See Note [Comparison outputs] in CompareOps.cpp: a Bool output gets the predicate loop (masks
// narrowed to bytes; Note [Predicates write bytes from masks] in PredicateLoops.h); an output of
// the common dtype gets 1 or 0 of that dtype through the vectorized loop.
// eq and ne are the only comparisons complex numbers have; lt & co. reach the dispatch below and
// raise "\"lt_cpu\" not implemented for 'ComplexFloat'", as in libtorch.
template <typename Cmp>
void complex_equality_kernel(TensorIteratorBase& iter, const char* name) {
  if (iter.dtype() == c10::ScalarType::Bool) {
    AT_DISPATCH_COMPLEX_TYPES(iter.common_dtype(), name, [&] {
      cpu_kernel(iter, [](scalar_t a, scalar_t b) -> bool { return Cmp::apply(a, b); });
    });
  } else {
    AT_DISPATCH_COMPLEX_TYPES(iter.common_dtype(), name, [&] {
      cpu_kernel(iter, [](scalar_t a, scalar_t b) -> scalar_t {
        return scalar_t(Cmp::apply(a, b) ? 1 : 0);
      });
    });
  }
}

template <typename Cmp>
void comparison_kernel(TensorIteratorBase& iter, const char* name) {
  if (iter.dtype() == c10::ScalarType::Bool) {
    AT_DISPATCH_ALL_MINIATEN_TYPES(iter.common_dtype(), name, [&] {
      using acc_t = opmath_t<scalar_t>;
      cpu_predicate_kernel(
          iter,
          [](scalar_t a, scalar_t b) -> bool {
            return Cmp::apply(static_cast<acc_t>(a), static_cast<acc_t>(b));
          },
          [](Vectorized<scalar_t> a, Vectorized<scalar_t> b) { return Cmp::apply_mask(a, b); });
    });
  } else {
    AT_DISPATCH_ALL_TYPES_AND2(
        c10::ScalarType::Half, c10::ScalarType::BFloat16, iter.common_dtype(), name, [&] {
          using acc_t = opmath_t<scalar_t>;
          cpu_kernel_vec(
              iter,
              [](scalar_t a, scalar_t b) -> scalar_t {
                return static_cast<scalar_t>(
                    Cmp::apply(static_cast<acc_t>(a), static_cast<acc_t>(b)));
              },
              [](Vectorized<scalar_t> a, Vectorized<scalar_t> b) { return Cmp::apply_vec(a, b); });
        });
  }
}

void eq_kernel(TensorIteratorBase& iter) {
  if (c10::isComplexType(iter.common_dtype())) return complex_equality_kernel<Eq>(iter, "eq_cpu");
  comparison_kernel<Eq>(iter, "eq_cpu");
}
void ne_kernel(TensorIteratorBase& iter) {
  if (c10::isComplexType(iter.common_dtype())) return complex_equality_kernel<Ne>(iter, "ne_cpu");
  comparison_kernel<Ne>(iter, "ne_cpu");
}
void lt_kernel(TensorIteratorBase& iter) {
  comparison_kernel<Lt>(iter, "lt_cpu");
}
void le_kernel(TensorIteratorBase& iter) {
  comparison_kernel<Le>(iter, "le_cpu");
}
void gt_kernel(TensorIteratorBase& iter) {
  comparison_kernel<Gt>(iter, "gt_cpu");
}
void ge_kernel(TensorIteratorBase& iter) {
  comparison_kernel<Ge>(iter, "ge_cpu");
}

#define MINIATEN_LOGICAL_KERNEL(name, Pred)                     \
  void name##_kernel(TensorIteratorBase& iter) {                \
    if (c10::isComplexType(iter.common_dtype())) {              \
      return complex_equality_kernel<Pred>(iter, #name "_cpu"); \
    }                                                           \
    comparison_kernel<Pred>(iter, #name "_cpu");                \
  }
MINIATEN_LOGICAL_KERNEL(logical_and, LogicalAnd)
MINIATEN_LOGICAL_KERNEL(logical_or, LogicalOr)
MINIATEN_LOGICAL_KERNEL(logical_xor, LogicalXor)
#undef MINIATEN_LOGICAL_KERNEL

// Operands (out, self): a Bool out is true where self is zero; otherwise out has self's dtype
// (the iterator converts it back) and gets 1 or 0.
void logical_not_kernel(TensorIteratorBase& iter) {
  const c10::ScalarType self_type = iter.input_dtype(0);
  if (iter.dtype() == c10::ScalarType::Bool) {
    if (c10::isComplexType(self_type)) {
      AT_DISPATCH_COMPLEX_TYPES(self_type, "logical_not_cpu", [&] {
        cpu_kernel(iter, [](scalar_t a) -> bool { return a == scalar_t(0); });
      });
      return;
    }
    AT_DISPATCH_ALL_MINIATEN_TYPES(self_type, "logical_not_cpu", [&] {
      using acc_t = opmath_t<scalar_t>;
      cpu_predicate_kernel(
          iter, [](scalar_t a) -> bool { return static_cast<acc_t>(a) == acc_t(0); },
          [](Vectorized<scalar_t> a) { return a == Vectorized<scalar_t>(scalar_t(0)); });
    });
    return;
  }
  if (c10::isComplexType(self_type)) {
    AT_DISPATCH_COMPLEX_TYPES(self_type, "logical_not_cpu", [&] {
      cpu_kernel(iter, [](scalar_t a) -> scalar_t { return scalar_t(a == scalar_t(0) ? 1 : 0); });
    });
    return;
  }
  AT_DISPATCH_ALL_TYPES_AND2(
      c10::ScalarType::Half, c10::ScalarType::BFloat16, self_type, "logical_not_cpu", [&] {
        using Vec = Vectorized<scalar_t>;
        cpu_kernel_vec(
            iter,
            [](scalar_t a) -> scalar_t {
              return scalar_t(static_cast<opmath_t<scalar_t>>(a) == 0 ? 1 : 0);
            },
            [](Vec a) { return Vec::blendv(Vec(), Vec(scalar_t(1)), a == Vec(scalar_t(0))); });
      });
}

// ---- Bitwise and, or, xor ---------------------------------------------------------------------
// Bool has its own scalar loop (a Bool lane may hold any non-zero byte); the integral types run
// the vectorized loop on their bits. Anything else is "\"bitwise_and_cpu\" not implemented for
// 'Float'", as in libtorch.
#define MINIATEN_BITWISE_KERNEL(name, op, bool_op)                                          \
  void name##_kernel(TensorIteratorBase& iter) {                                            \
    if (iter.dtype() == c10::ScalarType::Bool) {                                            \
      cpu_kernel(iter, [](bool a, bool b) -> bool { return a bool_op b; });                 \
      return;                                                                               \
    }                                                                                       \
    AT_DISPATCH_INTEGRAL_TYPES(iter.dtype(), #name "_cpu", [&] {                            \
      cpu_kernel_vec(                                                                       \
          iter, [](scalar_t a, scalar_t b) -> scalar_t { return static_cast<scalar_t>(a op b); }, \
          [](Vectorized<scalar_t> a, Vectorized<scalar_t> b) { return a op b; });           \
    });                                                                                     \
  }
MINIATEN_BITWISE_KERNEL(bitwise_and, &, &&)
MINIATEN_BITWISE_KERNEL(bitwise_or, |, ||)
MINIATEN_BITWISE_KERNEL(bitwise_xor, ^, !=)
#undef MINIATEN_BITWISE_KERNEL

// Operands (out, condition, self, other); condition is Bool, the rest out's dtype.
void where_kernel(TensorIteratorBase& iter) {
  AT_DISPATCH_ALL_MINIATEN_TYPES_AND_COMPLEX(iter.dtype(), "where_cpu", [&] {
    cpu_kernel(iter, [](bool cond, scalar_t a, scalar_t b) -> scalar_t { return cond ? a : b; });
  });
}

}  // namespace
}  // namespace CPU_CAPABILITY

REGISTER_DISPATCH(add_stub, &add_kernel);
REGISTER_DISPATCH(mul_stub, &mul_kernel);
REGISTER_DISPATCH(div_true_stub, &div_true_kernel);
REGISTER_DISPATCH(div_trunc_stub, &div_trunc_kernel);
REGISTER_DISPATCH(div_floor_stub, &div_floor_kernel);
REGISTER_DISPATCH(add_dense_stub, &add_dense_kernel);
REGISTER_DISPATCH(mul_dense_stub, &mul_dense_kernel);
REGISTER_DISPATCH(div_true_dense_stub, &div_true_dense_kernel);
REGISTER_DISPATCH(eq_stub, &eq_kernel);
REGISTER_DISPATCH(logical_and_stub, &logical_and_kernel);
REGISTER_DISPATCH(logical_or_stub, &logical_or_kernel);
REGISTER_DISPATCH(logical_xor_stub, &logical_xor_kernel);
REGISTER_DISPATCH(logical_not_stub, &logical_not_kernel);
REGISTER_DISPATCH(ne_stub, &ne_kernel);
REGISTER_DISPATCH(lt_stub, &lt_kernel);
REGISTER_DISPATCH(le_stub, &le_kernel);
REGISTER_DISPATCH(gt_stub, &gt_kernel);
REGISTER_DISPATCH(ge_stub, &ge_kernel);
REGISTER_DISPATCH(where_stub, &where_kernel);
REGISTER_DISPATCH(bitwise_and_stub, &bitwise_and_kernel);
REGISTER_DISPATCH(bitwise_or_stub, &bitwise_or_kernel);
REGISTER_DISPATCH(bitwise_xor_stub, &bitwise_xor_kernel);

}  // namespace native
}  // namespace at
