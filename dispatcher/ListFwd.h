#pragma once
// Declares c10::List, so headers below the dispatcher (aten/core/Tensor.h) can name
// `const c10::List<c10::optional<at::Tensor>>&` without seeing IValue. The class is in
// dispatcher/List.h.

namespace c10 {
template <class T>
class List;
}  // namespace c10

namespace at {
using c10::List;
}  // namespace at
