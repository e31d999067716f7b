#pragma once
// The dtype a factory gives when none is asked for, as libtorch's c10/core/DefaultDtype.h
// spells the getters (backend kernels call them):
//
//   dtype.value_or(c10::get_default_dtype_as_scalartype());   // Float
//
// miniaten has no set_default_dtype: the default is always Float (ComplexFloat for complex
// values), which the factories in aten/native/TensorFactories.cpp assume too.

#include "c10/core/ScalarType.h"
#include "c10/util/typeid.h"

namespace c10 {

inline ScalarType get_default_dtype_as_scalartype() {
  return ScalarType::Float;
}
inline caffe2::TypeMeta get_default_dtype() {
  return caffe2::TypeMeta::Make<float>();
}
inline caffe2::TypeMeta get_default_complex_dtype() {
  return caffe2::TypeMeta::fromScalarType(ScalarType::ComplexFloat);
}

}  // namespace c10
