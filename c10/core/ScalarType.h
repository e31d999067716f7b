#pragma once
// ScalarType: the element type of a tensor, and the rules that relate element types.
//
//   at::ScalarType t = at::kFloat;
//   c10::elementSize(t);                          // 4
//   c10::promoteTypes(at::kInt, at::kHalf);       // Half: the type a + b computes in
//   c10::canCast(at::kFloat, at::kLong);          // false: int_tensor += 1.5 is refused
//   #define PRINT(cpp_type, name) std::cout << #name << ' ' << sizeof(cpp_type) << '\n';
//   C10_FORALL_SCALAR_TYPES(PRINT)                // one line per supported type
//
// miniaten keeps 12 of libtorch's scalar types (no ComplexHalf, no quantized ones); the enum
// values are libtorch's, gaps included, so a ScalarType printed or stored as a number means the
// same. See Note [Why ComplexHalf is a gap].

#include <cstddef>
#include <cstdint>
#include <limits>
#include <ostream>
#include <type_traits>

#include "c10/util/BFloat16.h"
#include "c10/util/Exception.h"
#include "c10/util/Half.h"
#include "c10/util/complex.h"

namespace c10 {

// Every supported (C++ type, ScalarType name) pair, in enum order, complex types included
// (libtorch's AT_FORALL_SCALAR_TYPES_WITH_COMPLEX less ComplexHalf).
#define C10_FORALL_SCALAR_TYPES(_)       \
  _(uint8_t, Byte)                       \
  _(int8_t, Char)                        \
  _(int16_t, Short)                      \
  _(int, Int)                            \
  _(int64_t, Long)                       \
  _(c10::Half, Half)                     \
  _(float, Float)                        \
  _(double, Double)                      \
  _(c10::complex<float>, ComplexFloat)   \
  _(c10::complex<double>, ComplexDouble) \
  _(bool, Bool)                          \
  _(c10::BFloat16, BFloat16)

#define AT_FORALL_SCALAR_TYPES_WITH_COMPLEX(_) C10_FORALL_SCALAR_TYPES(_)

#define AT_FORALL_COMPLEX_TYPES(_)     \
  _(c10::complex<float>, ComplexFloat) \
  _(c10::complex<double>, ComplexDouble)

// libtorch's narrower lists, kept under their libtorch names and meanings.
#define AT_FORALL_INT_TYPES(_) \
  _(uint8_t, Byte)             \
  _(int8_t, Char)              \
  _(int16_t, Short)            \
  _(int, Int)                  \
  _(int64_t, Long)

#define AT_FORALL_SCALAR_TYPES(_) \
  _(uint8_t, Byte)                \
  _(int8_t, Char)                 \
  _(int16_t, Short)               \
  _(int, Int)                     \
  _(int64_t, Long)                \
  _(float, Float)                 \
  _(double, Double)

enum class ScalarType : int8_t {
  Byte = 0,
  Char = 1,
  Short = 2,
  Int = 3,
  Long = 4,
  Half = 5,
  Float = 6,
  Double = 7,
  // 8 is libtorch's ComplexHalf. See Note [Why ComplexHalf is a gap].
  ComplexFloat = 9,
  ComplexDouble = 10,
  Bool = 11,
  // 12-14 are libtorch's quantized types.
  BFloat16 = 15,
  // 16-17 are libtorch's packed quantized types.
  Undefined = 18,
  NumOptions = 19,
};

constexpr uint16_t NumScalarTypes = static_cast<uint16_t>(ScalarType::NumOptions);

// Note [Why ComplexHalf is a gap]
// ComplexHalf needs c10::complex<c10::Half> with its own arithmetic, and libtorch 1.13 itself
// implements almost no CPU kernel for it (most ops raise "not implemented for 'ComplexHalf'").
// Keeping the gap is cheaper and honest: code that names kComplexHalf does not compile, instead
// of compiling and failing in every kernel. promoteTypes and canCast skip its row and column.

#define C10_DEFINE_SCALAR_TYPE_CONSTANT(_, name) constexpr ScalarType k##name = ScalarType::name;
C10_FORALL_SCALAR_TYPES(C10_DEFINE_SCALAR_TYPE_CONSTANT)
#undef C10_DEFINE_SCALAR_TYPE_CONSTANT

// "Float", "Long", ...; Undefined (and anything else) is "UNKNOWN_SCALAR", as in libtorch.
C10_API const char* toString(ScalarType t);

inline std::ostream& operator<<(std::ostream& stream, ScalarType t) {
  return stream << toString(t);
}

inline size_t elementSize(ScalarType t) {
#define C10_ELEMENT_SIZE_CASE(cpp_type, name) \
  case ScalarType::name:                      \
    return sizeof(cpp_type);
  switch (t) {
    C10_FORALL_SCALAR_TYPES(C10_ELEMENT_SIZE_CASE)
    default:
      break;
  }
#undef C10_ELEMENT_SIZE_CASE
  TORCH_CHECK(false, "Unknown ScalarType");
}

inline bool isIntegralType(ScalarType t, bool includeBool) {
  const bool integral = t == ScalarType::Byte || t == ScalarType::Char || t == ScalarType::Short ||
                        t == ScalarType::Int || t == ScalarType::Long;
  return integral || (includeBool && t == ScalarType::Bool);
}

inline bool isFloatingType(ScalarType t) {
  return t == ScalarType::Half || t == ScalarType::Float || t == ScalarType::Double ||
         t == ScalarType::BFloat16;
}

inline bool isReducedFloatingType(ScalarType t) {
  return t == ScalarType::Half || t == ScalarType::BFloat16;
}

inline bool isComplexType(ScalarType t) {
  return t == ScalarType::ComplexFloat || t == ScalarType::ComplexDouble;
}

// The complex type whose parts are `t`: Float -> ComplexFloat, Double -> ComplexDouble; a complex
// type maps to itself. libtorch's wording for anything else (Half would be ComplexHalf).
inline ScalarType toComplexType(ScalarType t) {
  switch (t) {
    case ScalarType::BFloat16:
      // libtorch maps BFloat16 to ComplexFloat, having no complex BFloat16.
    case ScalarType::Float:
    case ScalarType::ComplexFloat:
      return ScalarType::ComplexFloat;
    case ScalarType::Double:
    case ScalarType::ComplexDouble:
      return ScalarType::ComplexDouble;
    default:
      TORCH_CHECK(false, "Unknown Complex ScalarType for ", toString(t));
  }
}

// The type of a complex type's parts (ComplexFloat -> Float); any other type maps to itself.
inline ScalarType toRealValueType(ScalarType t) {
  switch (t) {
    case ScalarType::ComplexFloat:
      return ScalarType::Float;
    case ScalarType::ComplexDouble:
      return ScalarType::Double;
    default:
      return t;
  }
}

// Byte and Bool are unsigned, complex types signed; Undefined throws "Unknown ScalarType", as in
// libtorch.
inline bool isSignedType(ScalarType t) {
  if (isComplexType(t)) return true;  // std::numeric_limits knows no complex type.
#define C10_SIGNED_CASE(cpp_type, name) \
  case ScalarType::name:                \
    return std::numeric_limits<cpp_type>::is_signed;
  switch (t) {
    C10_FORALL_SCALAR_TYPES(C10_SIGNED_CASE)
    default:
      break;
  }
#undef C10_SIGNED_CASE
  TORCH_CHECK(false, "Unknown ScalarType");
}

// The type both operands of a binary op are computed in (NumPy's promote_types, as libtorch
// restricts it). Undefined with anything gives Undefined.
C10_API ScalarType promoteTypes(ScalarType a, ScalarType b);

// Whether an op computing in `from` may write its result to a tensor of type `to`: complex to
// real, floating to integral and anything but Bool to Bool are refused (float_tensor += 1i,
// int_tensor += 1.5, bool_tensor += 1).
inline bool canCast(ScalarType from, ScalarType to) {
  if (isComplexType(from) && !isComplexType(to)) return false;
  if (isFloatingType(from) && isIntegralType(to, /*includeBool=*/false)) return false;
  if (from != ScalarType::Bool && to == ScalarType::Bool) return false;
  return true;
}

// C++ type <-> ScalarType, at compile time:
//   CppTypeToScalarType<float>::value == kFloat;  impl::ScalarTypeToCPPTypeT<kLong> is int64_t.
template <typename T>
struct CppTypeToScalarType;

#define C10_SPECIALIZE_CppTypeToScalarType(cpp_type, name) \
  template <>                                              \
  struct CppTypeToScalarType<cpp_type> : std::integral_constant<ScalarType, ScalarType::name> {};
C10_FORALL_SCALAR_TYPES(C10_SPECIALIZE_CppTypeToScalarType)
#undef C10_SPECIALIZE_CppTypeToScalarType

namespace impl {

template <ScalarType N>
struct ScalarTypeToCPPType;

#define C10_SPECIALIZE_ScalarTypeToCPPType(cpp_type, name) \
  template <>                                              \
  struct ScalarTypeToCPPType<ScalarType::name> {           \
    using type = cpp_type;                                 \
  };
C10_FORALL_SCALAR_TYPES(C10_SPECIALIZE_ScalarTypeToCPPType)
#undef C10_SPECIALIZE_ScalarTypeToCPPType

template <ScalarType N>
using ScalarTypeToCPPTypeT = typename ScalarTypeToCPPType<N>::type;

}  // namespace impl
}  // namespace c10

namespace at {
using c10::canCast;
using c10::CppTypeToScalarType;
using c10::elementSize;
using c10::isComplexType;
using c10::isFloatingType;
using c10::isIntegralType;
using c10::isReducedFloatingType;
using c10::isSignedType;
using c10::kBFloat16;
using c10::kBool;
using c10::kByte;
using c10::kChar;
using c10::kComplexDouble;
using c10::kComplexFloat;
using c10::kDouble;
using c10::kFloat;
using c10::kHalf;
using c10::kInt;
using c10::kLong;
using c10::kShort;
using c10::promoteTypes;
using c10::ScalarType;
using c10::toComplexType;
using c10::toRealValueType;
using c10::toString;
}  // namespace at
