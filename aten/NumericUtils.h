#pragma once
// at::_isnan: NaN-ness of any element type, false for the types that have no NaN (libtorch's
// ATen/NumericUtils.h). The reductions that let a NaN win (argmax, max.dim, amax) ask it of
// every element, whatever the dtype they were dispatched on.

#include <cmath>
#include <type_traits>

namespace at {

template <typename T>
inline bool _isnan(T v) {
  if constexpr (std::is_floating_point<T>::value) {
    return std::isnan(v);
  } else {
    return false;
  }
}

}  // namespace at
