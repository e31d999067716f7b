#pragma once
// c10::optional is std::optional (libtorch 1.13 code spells it c10::optional / c10::nullopt).

#include <optional>

namespace c10 {
using std::make_optional;
using std::nullopt;
using std::nullopt_t;
using std::optional;
}  // namespace c10
