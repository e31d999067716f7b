#pragma once
// at::opmath_type<T>: the type arithmetic on T is done in — float for Half and BFloat16 (they
// round once, after computing in float), T itself otherwise. libtorch's ATen/OpMathType.h.

#include <type_traits>

#include "c10/util/BFloat16.h"
#include "c10/util/Half.h"

namespace at {

template <typename T>
using opmath_type =
    std::conditional_t<std::is_same<T, c10::Half>::value || std::is_same<T, c10::BFloat16>::value,
                       float, T>;

}  // namespace at
