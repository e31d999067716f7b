#pragma once
// Layout: how a tensor's elements are laid out. miniaten implements the strided layout only.

#include <cstdint>
#include <ostream>

#include "c10/util/Exception.h"

namespace c10 {

enum class Layout : int8_t { Strided = 0, NumOptions };

constexpr auto kStrided = Layout::Strided;

inline std::ostream& operator<<(std::ostream& stream, Layout layout) {
  switch (layout) {
    case Layout::Strided:
      return stream << "Strided";
    default:
      TORCH_CHECK(false, "Unknown layout");
  }
}

}  // namespace c10

namespace at {
using c10::kStrided;
using c10::Layout;
}  // namespace at
