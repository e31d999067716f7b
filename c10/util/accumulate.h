#pragma once
// Sums and products of integer containers as int64_t (libtorch's c10/util/accumulate.h):
//
//   c10::multiply_integers(t.sizes())          // numel from sizes; 1 for no dims
//   c10::numelements_from_dim(1, sizes)       // product of sizes[1:]
//   c10::numelements_to_dim(2, sizes)         // product of sizes[:2]
//   c10::numelements_between_dim(1, 3, sizes) // product of sizes[1:3]
//
// The products do not check for overflow (TensorImpl's numel does): they wrap modulo 2^64, the
// value libtorch's plain int64 products give (Note [Geometry that wraps as libtorch's does]).

#include <cstdint>
#include <functional>
#include <iterator>
#include <numeric>
#include <type_traits>
#include <utility>

#include "c10/util/ArrayRef.h"
#include "c10/util/Exception.h"
#include "c10/util/WrappingArithmetic.h"

namespace c10 {
namespace detail {
template <typename C>
using if_integral_container =
    std::enable_if_t<std::is_integral<typename C::value_type>::value, int>;
template <typename Iter>
using if_integral_iterator =
    std::enable_if_t<std::is_integral<typename std::iterator_traits<Iter>::value_type>::value, int>;
}  // namespace detail

template <typename Iter, detail::if_integral_iterator<Iter> = 0>
inline int64_t sum_integers(Iter begin, Iter end) {
  return std::accumulate(begin, end, static_cast<int64_t>(0));
}
template <typename C, detail::if_integral_container<C> = 0>
inline int64_t sum_integers(const C& container) {
  return sum_integers(container.begin(), container.end());
}

template <typename Iter, detail::if_integral_iterator<Iter> = 0>
inline int64_t multiply_integers(Iter begin, Iter end) {
  int64_t product = 1;
  for (; begin != end; ++begin) product = wrapping_mul(product, static_cast<int64_t>(*begin));
  return product;
}
template <typename C, detail::if_integral_container<C> = 0>
inline int64_t multiply_integers(const C& container) {
  return multiply_integers(container.begin(), container.end());
}

// Product of dims[k:]; 1 when k is past the end.
template <typename C, detail::if_integral_container<C> = 0>
inline int64_t numelements_from_dim(const int k, const C& dims) {
  TORCH_INTERNAL_ASSERT_DEBUG_ONLY(k >= 0);
  if (k > static_cast<int>(dims.size())) return 1;
  auto begin = dims.cbegin();
  std::advance(begin, k);
  return multiply_integers(begin, dims.cend());
}

// Product of dims[:k].
template <typename C, detail::if_integral_container<C> = 0>
inline int64_t numelements_to_dim(const int k, const C& dims) {
  TORCH_INTERNAL_ASSERT(0 <= k);
  TORCH_INTERNAL_ASSERT(static_cast<size_t>(k) <= dims.size());
  auto end = dims.cbegin();
  std::advance(end, k);
  return multiply_integers(dims.cbegin(), end);
}

// Product of dims[min(k, l):max(k, l)].
template <typename C, detail::if_integral_container<C> = 0>
inline int64_t numelements_between_dim(int k, int l, const C& dims) {
  TORCH_INTERNAL_ASSERT(0 <= k);
  TORCH_INTERNAL_ASSERT(0 <= l);
  if (k > l) std::swap(k, l);
  TORCH_INTERNAL_ASSERT(static_cast<size_t>(l) < dims.size());
  auto begin = dims.cbegin();
  auto end = dims.cbegin();
  std::advance(begin, k);
  std::advance(end, l);
  return multiply_integers(begin, end);
}

}  // namespace c10
