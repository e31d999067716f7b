#include "c10/core/ScalarType.h"

namespace c10 {

const char* toString(ScalarType t) {
#define C10_TO_STRING_CASE(_, name) \
  case ScalarType::name:            \
    return #name;
  switch (t) {
    C10_FORALL_SCALAR_TYPES(C10_TO_STRING_CASE)
    default:
      return "UNKNOWN_SCALAR";
  }
#undef C10_TO_STRING_CASE
}

namespace {

// Row/column of a ScalarType in the promotion table below; -1 for Undefined and the gaps.
int promotion_index(ScalarType t) {
  switch (t) {
    case ScalarType::Byte:
      return 0;
    case ScalarType::Char:
      return 1;
    case ScalarType::Short:
      return 2;
    case ScalarType::Int:
      return 3;
    case ScalarType::Long:
      return 4;
    case ScalarType::Half:
      return 5;
    case ScalarType::Float:
      return 6;
    case ScalarType::Double:
      return 7;
    case ScalarType::ComplexFloat:
      return 8;
    case ScalarType::ComplexDouble:
      return 9;
    case ScalarType::Bool:
      return 10;
    case ScalarType::BFloat16:
      return 11;
    default:
      return -1;
  }
}

}  // namespace

ScalarType promoteTypes(ScalarType a, ScalarType b) {
  constexpr auto u1 = ScalarType::Byte;
  constexpr auto i1 = ScalarType::Char;
  constexpr auto i2 = ScalarType::Short;
  constexpr auto i4 = ScalarType::Int;
  constexpr auto i8 = ScalarType::Long;
  constexpr auto f2 = ScalarType::Half;
  constexpr auto f4 = ScalarType::Float;
  constexpr auto f8 = ScalarType::Double;
  constexpr auto c4 = ScalarType::ComplexFloat;
  constexpr auto c8 = ScalarType::ComplexDouble;
  constexpr auto b1 = ScalarType::Bool;
  constexpr auto bf = ScalarType::BFloat16;
  // libtorch 1.13's table with the ComplexHalf and quantized rows and columns removed. Note the
  // pairs that are not "the wider of the two": u1+i1 -> i2 (neither holds the other's range),
  // f2+bf -> f4 (neither holds the other's values), f8+c4 -> c8 (a double's precision survives),
  // b1 is below every other type.
  static constexpr ScalarType kTable[12][12] = {
      /*        u1  i1  i2  i4  i8  f2  f4  f8  c4  c8  b1  bf */
      /* u1 */ {u1, i2, i2, i4, i8, f2, f4, f8, c4, c8, u1, bf},
      /* i1 */ {i2, i1, i2, i4, i8, f2, f4, f8, c4, c8, i1, bf},
      /* i2 */ {i2, i2, i2, i4, i8, f2, f4, f8, c4, c8, i2, bf},
      /* i4 */ {i4, i4, i4, i4, i8, f2, f4, f8, c4, c8, i4, bf},
      /* i8 */ {i8, i8, i8, i8, i8, f2, f4, f8, c4, c8, i8, bf},
      /* f2 */ {f2, f2, f2, f2, f2, f2, f4, f8, c4, c8, f2, f4},
      /* f4 */ {f4, f4, f4, f4, f4, f4, f4, f8, c4, c8, f4, f4},
      /* f8 */ {f8, f8, f8, f8, f8, f8, f8, f8, c8, c8, f8, f8},
      /* c4 */ {c4, c4, c4, c4, c4, c4, c4, c8, c4, c8, c4, c4},
      /* c8 */ {c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8},
      /* b1 */ {u1, i1, i2, i4, i8, f2, f4, f8, c4, c8, b1, bf},
      /* bf */ {bf, bf, bf, bf, bf, f4, f4, f8, c4, c8, bf, bf},
  };
  if (a == ScalarType::Undefined || b == ScalarType::Undefined) return ScalarType::Undefined;
  const int ia = promotion_index(a);
  const int ib = promotion_index(b);
  TORCH_CHECK(ia >= 0 && ib >= 0, "promoteTypes got an unknown ScalarType: ", static_cast<int>(a),
              " ", static_cast<int>(b));
  return kTable[ia][ib];
}

}  // namespace c10
