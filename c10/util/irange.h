#pragma once
// for (const auto i : c10::irange(n)) — an integer range that compiles to a plain loop.

#include <cstddef>
#include <iterator>
#include <type_traits>

namespace c10 {

template <typename I>
class integer_range {
 public:
  class iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = I;
    using difference_type = std::ptrdiff_t;
    using pointer = const I*;
    using reference = const I&;

    constexpr explicit iterator(I v) : v_(v) {}
    constexpr I operator*() const { return v_; }
    constexpr iterator& operator++() {
      ++v_;
      return *this;
    }
    constexpr bool operator==(const iterator& o) const { return v_ == o.v_; }
    constexpr bool operator!=(const iterator& o) const { return v_ != o.v_; }

   private:
    I v_;
  };

  constexpr integer_range(I begin, I end) : begin_(begin), end_(end < begin ? begin : end) {}
  constexpr iterator begin() const { return iterator(begin_); }
  constexpr iterator end() const { return iterator(end_); }

 private:
  I begin_;
  I end_;
};

template <typename I1, typename I2,
          typename = std::enable_if_t<std::is_integral<I1>::value && std::is_integral<I2>::value>>
constexpr integer_range<I2> irange(I1 begin, I2 end) {
  return integer_range<I2>(static_cast<I2>(begin), end);
}

template <typename I, typename = std::enable_if_t<std::is_integral<I>::value>>
constexpr integer_range<I> irange(I end) {
  return integer_range<I>(I(), end);
}

}  // namespace c10
