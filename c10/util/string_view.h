#pragma once
#include <string_view>

namespace c10 {
using string_view = std::string_view;
}  // namespace c10
