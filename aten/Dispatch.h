#pragma once
// AT_DISPATCH_*: run a lambda with `scalar_t` bound to the C++ type of a runtime dtype.
//
//   AT_DISPATCH_ALL_TYPES_AND3(at::kBool, at::kHalf, at::kBFloat16, t.scalar_type(), "fill_", [&] {
//     scalar_t* p = t.data_ptr<scalar_t>();
//   });
//
// The families (libtorch's names, restricted to miniaten's 12 dtypes):
//   AT_DISPATCH_INTEGRAL_TYPES            Byte, Char, Short, Int, Long
//   AT_DISPATCH_FLOATING_TYPES            Float, Double
//   AT_DISPATCH_COMPLEX_TYPES             ComplexFloat, ComplexDouble (scalar_t c10::complex<T>)
//   AT_DISPATCH_ALL_TYPES                 integral and floating
//   AT_DISPATCH_ALL_TYPES_AND_COMPLEX     integral, floating and complex
//   AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES
//   ..._AND(t1, ...), _AND2, _AND3        plus Bool / Half / BFloat16 as named
//                                         (the floating-and-complex family says _AND1)
// An unsupported dtype raises `"name" not implemented for 'Half'`, as libtorch does (a plain
// c10::Error: 1.13's AT_ERROR, not the NotImplementedError later versions raise). libtorch
// 1.13's composable AT_DISPATCH_SWITCH / AT_DISPATCH_CASE_* forms are at the end of the file.

#include "c10/core/ScalarType.h"
#include "c10/util/Exception.h"

namespace at {
namespace detail {
[[noreturn]] inline void dispatch_not_implemented(const char* name, c10::ScalarType t) {
  TORCH_CHECK(false, "\"", name, "\" not implemented for '", c10::toString(t), "'");
}
}  // namespace detail
}  // namespace at

#define AT_PRIVATE_CASE_TYPE(enum_type, type, ...) \
  case enum_type: {                                \
    using scalar_t C10_UNUSED = type;              \
    return __VA_ARGS__();                          \
  }

#define AT_PRIVATE_DISPATCH(TYPE, NAME, CASES, ...)             \
  [&] {                                                         \
    const ::c10::ScalarType _st = (TYPE);                       \
    switch (_st) {                                              \
      CASES(__VA_ARGS__)                                        \
      default:                                                  \
        ::at::detail::dispatch_not_implemented(NAME, _st);      \
    }                                                           \
  }()

#define AT_PRIVATE_CASES_INTEGRAL(...)                                   \
  AT_PRIVATE_CASE_TYPE(::c10::ScalarType::Byte, uint8_t, __VA_ARGS__)    \
  AT_PRIVATE_CASE_TYPE(::c10::ScalarType::Char, int8_t, __VA_ARGS__)     \
  AT_PRIVATE_CASE_TYPE(::c10::ScalarType::Short, int16_t, __VA_ARGS__)   \
  AT_PRIVATE_CASE_TYPE(::c10::ScalarType::Int, int32_t, __VA_ARGS__)     \
  AT_PRIVATE_CASE_TYPE(::c10::ScalarType::Long, int64_t, __VA_ARGS__)
#define AT_PRIVATE_CASES_FLOATING(...)                                   \
  AT_PRIVATE_CASE_TYPE(::c10::ScalarType::Float, float, __VA_ARGS__)     \
  AT_PRIVATE_CASE_TYPE(::c10::ScalarType::Double, double, __VA_ARGS__)
#define AT_PRIVATE_CASES_COMPLEX(...)                                                     \
  AT_PRIVATE_CASE_TYPE(::c10::ScalarType::ComplexFloat, c10::complex<float>, __VA_ARGS__) \
  AT_PRIVATE_CASE_TYPE(::c10::ScalarType::ComplexDouble, c10::complex<double>, __VA_ARGS__)
#define AT_PRIVATE_CASES_ALL(...) \
  AT_PRIVATE_CASES_INTEGRAL(__VA_ARGS__) AT_PRIVATE_CASES_FLOATING(__VA_ARGS__)
#define AT_PRIVATE_CASES_ALL_AND_COMPLEX(...) \
  AT_PRIVATE_CASES_ALL(__VA_ARGS__) AT_PRIVATE_CASES_COMPLEX(__VA_ARGS__)
#define AT_PRIVATE_CASES_FLOATING_AND_COMPLEX(...) \
  AT_PRIVATE_CASES_FLOATING(__VA_ARGS__) AT_PRIVATE_CASES_COMPLEX(__VA_ARGS__)

// The extra dtypes an _AND macro may name.
#define AT_PRIVATE_EXTRA_CASE(T, ...)                                                     \
  case T: {                                                                               \
    using scalar_t C10_UNUSED = ::c10::impl::ScalarTypeToCPPTypeT<T>;                    \
    return __VA_ARGS__();                                                                 \
  }

#define AT_DISPATCH_INTEGRAL_TYPES(TYPE, NAME, ...) \
  AT_PRIVATE_DISPATCH(TYPE, NAME, AT_PRIVATE_CASES_INTEGRAL, __VA_ARGS__)
#define AT_DISPATCH_FLOATING_TYPES(TYPE, NAME, ...) \
  AT_PRIVATE_DISPATCH(TYPE, NAME, AT_PRIVATE_CASES_FLOATING, __VA_ARGS__)
#define AT_DISPATCH_ALL_TYPES(TYPE, NAME, ...) \
  AT_PRIVATE_DISPATCH(TYPE, NAME, AT_PRIVATE_CASES_ALL, __VA_ARGS__)
#define AT_DISPATCH_COMPLEX_TYPES(TYPE, NAME, ...) \
  AT_PRIVATE_DISPATCH(TYPE, NAME, AT_PRIVATE_CASES_COMPLEX, __VA_ARGS__)
#define AT_DISPATCH_ALL_TYPES_AND_COMPLEX(TYPE, NAME, ...) \
  AT_PRIVATE_DISPATCH(TYPE, NAME, AT_PRIVATE_CASES_ALL_AND_COMPLEX, __VA_ARGS__)
#define AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES(TYPE, NAME, ...) \
  AT_PRIVATE_DISPATCH(TYPE, NAME, AT_PRIVATE_CASES_FLOATING_AND_COMPLEX, __VA_ARGS__)

#define AT_PRIVATE_DISPATCH_AND(BASE, TYPE, NAME, EXTRA_CASES, ...) \
  [&] {                                                             \
    const ::c10::ScalarType _st = (TYPE);                           \
    switch (_st) {                                                  \
      BASE(__VA_ARGS__)                                             \
      EXTRA_CASES                                                   \
      default:                                                      \
        ::at::detail::dispatch_not_implemented(NAME, _st);          \
    }                                                               \
  }()

#define AT_DISPATCH_FLOATING_TYPES_AND(T1, TYPE, NAME, ...) \
  AT_PRIVATE_DISPATCH_AND(AT_PRIVATE_CASES_FLOATING, TYPE, NAME,  \
                          AT_PRIVATE_EXTRA_CASE(T1, __VA_ARGS__), __VA_ARGS__)
#define AT_DISPATCH_FLOATING_TYPES_AND2(T1, T2, TYPE, NAME, ...)     \
  AT_PRIVATE_DISPATCH_AND(AT_PRIVATE_CASES_FLOATING, TYPE, NAME,      \
                          AT_PRIVATE_EXTRA_CASE(T1, __VA_ARGS__)      \
                              AT_PRIVATE_EXTRA_CASE(T2, __VA_ARGS__), \
                          __VA_ARGS__)
#define AT_DISPATCH_ALL_TYPES_AND(T1, TYPE, NAME, ...)                      \
  AT_PRIVATE_DISPATCH_AND(AT_PRIVATE_CASES_ALL, TYPE, NAME,                 \
                          AT_PRIVATE_EXTRA_CASE(T1, __VA_ARGS__), __VA_ARGS__)
#define AT_DISPATCH_ALL_TYPES_AND2(T1, T2, TYPE, NAME, ...)               \
  AT_PRIVATE_DISPATCH_AND(AT_PRIVATE_CASES_ALL, TYPE, NAME,               \
                          AT_PRIVATE_EXTRA_CASE(T1, __VA_ARGS__)          \
                              AT_PRIVATE_EXTRA_CASE(T2, __VA_ARGS__),     \
                          __VA_ARGS__)
#define AT_DISPATCH_ALL_TYPES_AND3(T1, T2, T3, TYPE, NAME, ...)           \
  AT_PRIVATE_DISPATCH_AND(AT_PRIVATE_CASES_ALL, TYPE, NAME,               \
                          AT_PRIVATE_EXTRA_CASE(T1, __VA_ARGS__)          \
                              AT_PRIVATE_EXTRA_CASE(T2, __VA_ARGS__)      \
                                  AT_PRIVATE_EXTRA_CASE(T3, __VA_ARGS__), \
                          __VA_ARGS__)
#define AT_DISPATCH_INTEGRAL_TYPES_AND(T1, TYPE, NAME, ...)                 \
  AT_PRIVATE_DISPATCH_AND(AT_PRIVATE_CASES_INTEGRAL, TYPE, NAME,            \
                          AT_PRIVATE_EXTRA_CASE(T1, __VA_ARGS__), __VA_ARGS__)
#define AT_DISPATCH_COMPLEX_TYPES_AND(T1, TYPE, NAME, ...)      \
  AT_PRIVATE_DISPATCH_AND(AT_PRIVATE_CASES_COMPLEX, TYPE, NAME, \
                          AT_PRIVATE_EXTRA_CASE(T1, __VA_ARGS__), __VA_ARGS__)
#define AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND(T1, TYPE, NAME, ...)      \
  AT_PRIVATE_DISPATCH_AND(AT_PRIVATE_CASES_ALL_AND_COMPLEX, TYPE, NAME, \
                          AT_PRIVATE_EXTRA_CASE(T1, __VA_ARGS__), __VA_ARGS__)
#define AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND2(T1, T2, TYPE, NAME, ...) \
  AT_PRIVATE_DISPATCH_AND(                                              \
      AT_PRIVATE_CASES_ALL_AND_COMPLEX, TYPE, NAME,                     \
      AT_PRIVATE_EXTRA_CASE(T1, __VA_ARGS__) AT_PRIVATE_EXTRA_CASE(T2, __VA_ARGS__), __VA_ARGS__)
#define AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(T1, T2, T3, TYPE, NAME, ...)             \
  AT_PRIVATE_DISPATCH_AND(AT_PRIVATE_CASES_ALL_AND_COMPLEX, TYPE, NAME,                 \
                          AT_PRIVATE_EXTRA_CASE(T1, __VA_ARGS__) AT_PRIVATE_EXTRA_CASE( \
                              T2, __VA_ARGS__) AT_PRIVATE_EXTRA_CASE(T3, __VA_ARGS__),  \
                          __VA_ARGS__)
#define AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND1(T1, TYPE, NAME, ...)     \
  AT_PRIVATE_DISPATCH_AND(AT_PRIVATE_CASES_FLOATING_AND_COMPLEX, TYPE, NAME, \
                          AT_PRIVATE_EXTRA_CASE(T1, __VA_ARGS__), __VA_ARGS__)
#define AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND2(T1, T2, TYPE, NAME, ...) \
  AT_PRIVATE_DISPATCH_AND(                                                   \
      AT_PRIVATE_CASES_FLOATING_AND_COMPLEX, TYPE, NAME,                     \
      AT_PRIVATE_EXTRA_CASE(T1, __VA_ARGS__) AT_PRIVATE_EXTRA_CASE(T2, __VA_ARGS__), __VA_ARGS__)

// Every real dtype miniaten has: the kernels whose bodies need a Vectorized<scalar_t> or an
// ordering, which complex numbers lack.
#define AT_DISPATCH_ALL_MINIATEN_TYPES(TYPE, NAME, ...) \
  AT_DISPATCH_ALL_TYPES_AND3(::c10::ScalarType::Bool, ::c10::ScalarType::Half, \
                             ::c10::ScalarType::BFloat16, TYPE, NAME, __VA_ARGS__)
// Every dtype miniaten has, complex included.
#define AT_DISPATCH_ALL_MINIATEN_TYPES_AND_COMPLEX(TYPE, NAME, ...)                        \
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(::c10::ScalarType::Bool, ::c10::ScalarType::Half, \
                                         ::c10::ScalarType::BFloat16, TYPE, NAME, __VA_ARGS__)

// ---- libtorch 1.13's composable form: a switch whose cases are listed ----------------------
//
//   AT_DISPATCH_SWITCH(t.scalar_type(), "my_op",
//       AT_DISPATCH_CASE_FLOATING_TYPES([&] { ... scalar_t ... })
//       AT_DISPATCH_CASE(at::kLong, [&] { ... }));
//
// Each AT_DISPATCH_CASE_<family> lists the cases of the family above; AT_DISPATCH_INDEX_TYPES
// binds `index_t` (Int or Long) instead of scalar_t.
#define AT_DISPATCH_SWITCH(TYPE, NAME, ...)                \
  [&] {                                                    \
    const ::c10::ScalarType _st = (TYPE);                  \
    switch (_st) {                                         \
      __VA_ARGS__                                          \
      default:                                             \
        ::at::detail::dispatch_not_implemented(NAME, _st); \
    }                                                      \
  }()
#define AT_PRIVATE_CASE_TYPE_USING_HINT(enum_type, HINT, ...)           \
  case enum_type: {                                                     \
    using HINT C10_UNUSED = ::c10::impl::ScalarTypeToCPPTypeT<enum_type>; \
    return __VA_ARGS__();                                               \
  }
#define AT_DISPATCH_CASE(enum_type, ...) \
  AT_PRIVATE_CASE_TYPE_USING_HINT(enum_type, scalar_t, __VA_ARGS__)

#define AT_DISPATCH_CASE_FLOATING_TYPES(...)              \
  AT_DISPATCH_CASE(::c10::ScalarType::Double, __VA_ARGS__) \
  AT_DISPATCH_CASE(::c10::ScalarType::Float, __VA_ARGS__)
#define AT_DISPATCH_CASE_FLOATING_TYPES_AND(T1, ...) \
  AT_DISPATCH_CASE_FLOATING_TYPES(__VA_ARGS__) AT_DISPATCH_CASE(T1, __VA_ARGS__)
#define AT_DISPATCH_CASE_FLOATING_TYPES_AND2(T1, T2, ...) \
  AT_DISPATCH_CASE_FLOATING_TYPES_AND(T1, __VA_ARGS__) AT_DISPATCH_CASE(T2, __VA_ARGS__)
#define AT_DISPATCH_CASE_FLOATING_TYPES_AND_HALF(...) \
  AT_DISPATCH_CASE_FLOATING_TYPES_AND(::c10::ScalarType::Half, __VA_ARGS__)
#define AT_DISPATCH_CASE_INTEGRAL_TYPES(...)             \
  AT_DISPATCH_CASE(::c10::ScalarType::Byte, __VA_ARGS__)  \
  AT_DISPATCH_CASE(::c10::ScalarType::Char, __VA_ARGS__)  \
  AT_DISPATCH_CASE(::c10::ScalarType::Int, __VA_ARGS__)   \
  AT_DISPATCH_CASE(::c10::ScalarType::Long, __VA_ARGS__)  \
  AT_DISPATCH_CASE(::c10::ScalarType::Short, __VA_ARGS__)
#define AT_DISPATCH_CASE_INTEGRAL_TYPES_AND(T1, ...) \
  AT_DISPATCH_CASE_INTEGRAL_TYPES(__VA_ARGS__) AT_DISPATCH_CASE(T1, __VA_ARGS__)
#define AT_DISPATCH_CASE_ALL_TYPES(...) \
  AT_DISPATCH_CASE_INTEGRAL_TYPES(__VA_ARGS__) AT_DISPATCH_CASE_FLOATING_TYPES(__VA_ARGS__)
#define AT_DISPATCH_CASE_ALL_TYPES_AND(T1, ...) \
  AT_DISPATCH_CASE_ALL_TYPES(__VA_ARGS__) AT_DISPATCH_CASE(T1, __VA_ARGS__)
#define AT_DISPATCH_CASE_ALL_TYPES_AND2(T1, T2, ...) \
  AT_DISPATCH_CASE_ALL_TYPES_AND(T1, __VA_ARGS__) AT_DISPATCH_CASE(T2, __VA_ARGS__)
#define AT_DISPATCH_CASE_ALL_TYPES_AND3(T1, T2, T3, ...) \
  AT_DISPATCH_CASE_ALL_TYPES_AND2(T1, T2, __VA_ARGS__) AT_DISPATCH_CASE(T3, __VA_ARGS__)

#define AT_DISPATCH_CASE_COMPLEX_TYPES(...)                      \
  AT_DISPATCH_CASE(::c10::ScalarType::ComplexFloat, __VA_ARGS__) \
  AT_DISPATCH_CASE(::c10::ScalarType::ComplexDouble, __VA_ARGS__)
#define AT_DISPATCH_CASE_COMPLEX_TYPES_AND(T1, ...) \
  AT_DISPATCH_CASE_COMPLEX_TYPES(__VA_ARGS__) AT_DISPATCH_CASE(T1, __VA_ARGS__)
#define AT_DISPATCH_CASE_ALL_TYPES_AND_COMPLEX(...) \
  AT_DISPATCH_CASE_ALL_TYPES(__VA_ARGS__) AT_DISPATCH_CASE_COMPLEX_TYPES(__VA_ARGS__)
#define AT_DISPATCH_CASE_ALL_TYPES_AND_COMPLEX_AND(T1, ...) \
  AT_DISPATCH_CASE_ALL_TYPES_AND_COMPLEX(__VA_ARGS__) AT_DISPATCH_CASE(T1, __VA_ARGS__)
#define AT_DISPATCH_CASE_ALL_TYPES_AND_COMPLEX_AND2(T1, T2, ...) \
  AT_DISPATCH_CASE_ALL_TYPES_AND_COMPLEX_AND(T1, __VA_ARGS__) AT_DISPATCH_CASE(T2, __VA_ARGS__)
#define AT_DISPATCH_CASE_ALL_TYPES_AND_COMPLEX_AND3(T1, T2, T3, ...) \
  AT_DISPATCH_CASE_ALL_TYPES_AND_COMPLEX_AND2(T1, T2, __VA_ARGS__) AT_DISPATCH_CASE(T3, __VA_ARGS__)
#define AT_DISPATCH_CASE_FLOATING_AND_COMPLEX_TYPES(...) \
  AT_DISPATCH_CASE_FLOATING_TYPES(__VA_ARGS__) AT_DISPATCH_CASE_COMPLEX_TYPES(__VA_ARGS__)
#define AT_DISPATCH_CASE_FLOATING_AND_COMPLEX_TYPES_AND1(T1, ...) \
  AT_DISPATCH_CASE_FLOATING_AND_COMPLEX_TYPES(__VA_ARGS__) AT_DISPATCH_CASE(T1, __VA_ARGS__)
#define AT_DISPATCH_CASE_FLOATING_AND_COMPLEX_TYPES_AND2(T1, T2, ...) \
  AT_DISPATCH_CASE_FLOATING_AND_COMPLEX_TYPES_AND1(T1, __VA_ARGS__)   \
  AT_DISPATCH_CASE(T2, __VA_ARGS__)

#define AT_DISPATCH_FLOATING_TYPES_AND_HALF(TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_FLOATING_TYPES_AND_HALF(__VA_ARGS__))
// libtorch's older name: every integral and floating type, and Half.
#define AT_DISPATCH_ALL_TYPES_AND_HALF(TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_ALL_TYPES_AND(::c10::ScalarType::Half, __VA_ARGS__))
#define AT_DISPATCH_INDEX_TYPES(TYPE, NAME, ...)                                       \
  AT_DISPATCH_SWITCH(TYPE, NAME,                                                       \
                     AT_PRIVATE_CASE_TYPE_USING_HINT(::c10::ScalarType::Int, index_t,  \
                                                     __VA_ARGS__)                      \
                         AT_PRIVATE_CASE_TYPE_USING_HINT(::c10::ScalarType::Long, index_t, \
                                                         __VA_ARGS__))
