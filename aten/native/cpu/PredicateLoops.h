#pragma once
// cpu_predicate_kernel(iter, op, vop): a Bool output from a predicate and its Vectorized twin,
// which returns a mask (Vectorized's operator==, <, ...; see Note [Masks] in Vectorized.h):
//
//   cpu_predicate_kernel(iter,
//       [](float a, float b) -> bool { return a < b; },
//       [](Vectorized<float> a, Vectorized<float> b) { return a < b; });
//
// Note [Predicates write bytes from masks]
// A comparison's output is one byte per element and its inputs 1 to 8 bytes each, so
// cpu_kernel_vec (every operand of one type) cannot run it, and its element loop made eq into
// Bool a fifth of abs's speed. PredicateLoop2d compares a vector at a time wherever the output
// row is contiguous and each input is contiguous or broadcast (stride 0), and narrows the mask's
// lanes to 1/0 bytes in registers (Vectorized::store_mask_as_bool). The row's tail and strided
// rows run the scalar predicate: a comparison is exact in both forms (Half and BFloat16 compare
// in float in both), so no value depends on where it sits. The loop counters
// (Note [Loop counters] in Loops.h) say which path each block took.

#include <algorithm>
#include <array>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "aten/native/cpu/Loops.h"

namespace at {
namespace native {
inline namespace CPU_CAPABILITY {

template <typename op_t, typename vop_t>
struct PredicateLoop2d {
  op_t op;
  vop_t vop;

  using traits = function_traits<op_t>;
  using Vec = typename function_traits<vop_t>::result_type;
  using scalar_t = typename Vec::value_type;
  static constexpr int ntensors = traits::arity + 1;
  static constexpr int64_t kSize = sizeof(scalar_t);

  // The mask for lanes [i, i + Vec::size()) of a row whose inputs are contiguous or broadcast.
  template <std::size_t... I>
  Vec mask(char* const* data, const int64_t* strides, const Vec* bcast, int64_t i,
           std::index_sequence<I...>) const {
    return vop((strides[I + 1] == 0 ? bcast[I] : Vec::loadu(data[I + 1] + i * kSize))...);
  }

  void operator()(char** base, const int64_t* strides, int64_t size0, int64_t size1) const {
    bool dense = strides[0] == static_cast<int64_t>(sizeof(bool));
    bool any_broadcast = false;
    for (int arg = 1; arg < ntensors; ++arg) {
      dense &= strides[arg] == kSize || strides[arg] == 0;
      any_broadcast |= strides[arg] == 0;
    }
    detail::count(!dense          ? detail::loop_counters.basic
                  : any_broadcast ? detail::loop_counters.vectorized_scalar
                                  : detail::loop_counters.vectorized);
    std::array<char*, ntensors> data;
    std::copy_n(base, ntensors, data.data());
    for (int64_t j = 0; j < size1; ++j) {
      int64_t i = 0;
      if (dense) {
        Vec bcast[traits::arity];
        for (int arg = 1; arg < ntensors; ++arg) {
          if (strides[arg] == 0) bcast[arg - 1] = Vec(loop_detail::load<scalar_t>(data[arg]));
        }
        constexpr auto inputs = std::make_index_sequence<traits::arity>{};
        for (; i + Vec::size() <= size0; i += Vec::size()) {
          mask(data.data(), strides, bcast, i, inputs).store_mask_as_bool(data[0] + i);
        }
      }
      basic_loop(data.data(), strides, i, size0, op);
      for (int arg = 0; arg < ntensors; ++arg) data[arg] += strides[ntensors + arg];
    }
  }
};

template <typename func_t, typename vec_func_t>
void cpu_predicate_kernel(TensorIteratorBase& iter, func_t&& op, vec_func_t&& vop,
                          int64_t grain_size = at::internal::GRAIN_SIZE) {
  using traits = function_traits<func_t>;
  using vtraits = function_traits<vec_func_t>;
  using Vec = typename vtraits::result_type;
  using scalar_t = typename Vec::value_type;
  static_assert(std::is_same<typename traits::result_type, bool>::value,
                "cpu_predicate_kernel: the op must return bool");
  static_assert(traits::arity == vtraits::arity && traits::arity > 0,
                "cpu_predicate_kernel: op and vop arities differ");
  static_assert(std::is_same<Vec, Vectorized<scalar_t>>::value,
                "cpu_predicate_kernel: vop must return a Vectorized mask");
  TORCH_INTERNAL_ASSERT(iter.ninputs() == traits::arity);
  TORCH_INTERNAL_ASSERT(iter.noutputs() == 1);
  TORCH_INTERNAL_ASSERT(loop_detail::dtypes_match<traits>(iter),
                        "cpu_predicate_kernel: op types do not match the operands' dtypes");
  for (int arg = 0; arg < iter.ninputs(); ++arg) {
    TORCH_INTERNAL_ASSERT(iter.input_dtype(arg) == c10::CppTypeToScalarType<scalar_t>::value,
                          "cpu_predicate_kernel: input dtypes differ from the vop's");
  }
  iter.for_each(PredicateLoop2d<std::decay_t<func_t>, std::decay_t<vec_func_t>>{op, vop},
                grain_size);
  iter.cast_outputs();
}

}  // namespace CPU_CAPABILITY
}  // namespace native
}  // namespace at
