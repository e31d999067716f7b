#pragma once
// caffe2::TypeMeta: a tensor's dtype as TensorImpl stores it, the type-erased twin of ScalarType.
//
//   caffe2::TypeMeta m = caffe2::TypeMeta::Make<float>();
//   m.itemsize();                   // 4
//   m.name();                       // "float" (libtorch's spelling of the C++ type)
//   m == at::kFloat;                // true; also kFloat == m, m != kLong
//   c10::typeMetaToScalarType(m);   // kFloat
//
// libtorch's TypeMeta can also describe arbitrary registered C++ types (CAFFE_KNOWN_TYPE);
// miniaten's only ever describes a ScalarType, so it is just that ScalarType. A
// default-constructed TypeMeta is Undefined, "nullptr (uninitialized)", itemsize 0.

#include <cstddef>
#include <ostream>

#include "c10/core/ScalarType.h"
#include "c10/util/string_view.h"

namespace caffe2 {

class TypeMeta final {
 public:
  constexpr TypeMeta() noexcept = default;

  TypeMeta& operator=(c10::ScalarType scalar_type) noexcept {
    scalar_type_ = scalar_type;
    return *this;
  }

  template <typename T>
  static TypeMeta Make() noexcept {
    return TypeMeta(c10::CppTypeToScalarType<T>::value);
  }

  static TypeMeta fromScalarType(c10::ScalarType scalar_type) noexcept {
    return TypeMeta(scalar_type);
  }

  c10::ScalarType toScalarType() const noexcept { return scalar_type_; }

  // True for every TypeMeta miniaten can make, the default (Undefined) one included, as in
  // libtorch.
  bool isScalarType() const noexcept { return true; }
  bool isScalarType(c10::ScalarType scalar_type) const noexcept {
    return scalar_type_ == scalar_type;
  }

  size_t itemsize() const noexcept {
    return scalar_type_ == c10::ScalarType::Undefined ? 0 : c10::elementSize(scalar_type_);
  }

  // The names libtorch derives from the compiler's spelling of each type (GCC, LP64).
  c10::string_view name() const noexcept {
    switch (scalar_type_) {
      case c10::ScalarType::Byte:
        return "unsigned char";
      case c10::ScalarType::Char:
        return "signed char";
      case c10::ScalarType::Short:
        return "short int";
      case c10::ScalarType::Int:
        return "int";
      case c10::ScalarType::Long:
        return "long int";
      case c10::ScalarType::Half:
        return "c10::Half";
      case c10::ScalarType::Float:
        return "float";
      case c10::ScalarType::Double:
        return "double";
      case c10::ScalarType::ComplexFloat:
        return "c10::complex<float>";
      case c10::ScalarType::ComplexDouble:
        return "c10::complex<double>";
      case c10::ScalarType::Bool:
        return "bool";
      case c10::ScalarType::BFloat16:
        return "c10::BFloat16";
      default:
        return "nullptr (uninitialized)";
    }
  }

  template <typename T>
  bool Match() const noexcept {
    return *this == Make<T>();
  }

  friend bool operator==(TypeMeta lhs, TypeMeta rhs) noexcept {
    return lhs.scalar_type_ == rhs.scalar_type_;
  }
  friend bool operator!=(TypeMeta lhs, TypeMeta rhs) noexcept { return !(lhs == rhs); }

 private:
  // Only Make and fromScalarType create TypeMetas, as in libtorch.
  explicit constexpr TypeMeta(c10::ScalarType scalar_type) noexcept : scalar_type_(scalar_type) {}

  c10::ScalarType scalar_type_ = c10::ScalarType::Undefined;
};

inline std::ostream& operator<<(std::ostream& stream, TypeMeta type_meta) {
  return stream << type_meta.name();
}

}  // namespace caffe2

namespace c10 {

inline caffe2::TypeMeta scalarTypeToTypeMeta(ScalarType scalar_type) {
  return caffe2::TypeMeta::fromScalarType(scalar_type);
}

inline ScalarType typeMetaToScalarType(caffe2::TypeMeta dtype) {
  return dtype.toScalarType();
}

// Equality across the two spellings of a dtype (libtorch's c10/core/ScalarTypeToTypeMeta.h).
inline bool operator==(ScalarType t, caffe2::TypeMeta m) {
  return m.isScalarType(t);
}
inline bool operator==(caffe2::TypeMeta m, ScalarType t) {
  return m.isScalarType(t);
}
inline bool operator!=(ScalarType t, caffe2::TypeMeta m) {
  return !m.isScalarType(t);
}
inline bool operator!=(caffe2::TypeMeta m, ScalarType t) {
  return !m.isScalarType(t);
}

}  // namespace c10

namespace at {
using c10::scalarTypeToTypeMeta;
using c10::typeMetaToScalarType;
}  // namespace at
