#pragma once
// Stride checks that let Loops.h take the vectorized path (see Note [Which loop runs] there).
//
// `strides` are the byte strides of the loop's first (fastest) dim, one per operand, in
// TensorIterator's order: strides[0] the output when the op returns a value, then one per op
// argument. "Contiguous" means stride == sizeof(the op's type for that operand); scalar
// argument s (1-based, like libtorch's) is the exception, required to have stride 0: a value
// broadcast along the whole row.

#include <cstdint>
#include <type_traits>
#include <utility>

#include "aten/detail/FunctionTraits.h"

// Files not compiled per capability get the baseline flavour (as in Vectorized.h).
#ifndef CPU_CAPABILITY
#define CPU_CAPABILITY DEFAULT
#define CPU_CAPABILITY_DEFAULT
#endif

namespace at {
namespace native {
inline namespace CPU_CAPABILITY {

// Per-capability helpers; named apart from at::native::detail, which the inline namespace would
// make ambiguous.
namespace loop_detail {

template <typename traits, std::size_t i>
using arg_t = std::decay_t<typename traits::template arg<i>::type>;

// Argument strides start after the output's, when there is one.
template <typename traits>
constexpr int first_arg_stride() {
  return std::is_void<typename traits::result_type>::value ? 0 : 1;
}

template <typename traits>
inline bool output_contiguous(const int64_t* strides) {
  if constexpr (std::is_void<typename traits::result_type>::value) {
    return true;
  } else {
    return strides[0] == static_cast<int64_t>(sizeof(typename traits::result_type));
  }
}

template <typename traits, std::size_t... I>
inline bool args_contiguous(const int64_t* strides, int scalar_arg, std::index_sequence<I...>) {
  constexpr int first = first_arg_stride<traits>();
  return ((strides[first + I] == (scalar_arg == static_cast<int>(I) + 1
                                      ? 0
                                      : static_cast<int64_t>(sizeof(arg_t<traits, I>)))) &&
          ...);
}

}  // namespace loop_detail

// The output and every input are contiguous.
template <typename traits>
inline bool is_contiguous(const int64_t* strides) {
  return loop_detail::output_contiguous<traits>(strides) &&
         loop_detail::args_contiguous<traits>(strides, -1,
                                              std::make_index_sequence<traits::arity>{});
}

// Input s (1-based) has stride 0; the output and the other inputs are contiguous.
template <typename traits, int s>
inline bool is_contiguous_scalar(const int64_t* strides) {
  static_assert(s > 0 && s <= traits::arity, "scalar argument index out of bounds");
  return loop_detail::output_contiguous<traits>(strides) &&
         loop_detail::args_contiguous<traits>(strides, s,
                                              std::make_index_sequence<traits::arity>{});
}

}  // namespace CPU_CAPABILITY
}  // namespace native
}  // namespace at
