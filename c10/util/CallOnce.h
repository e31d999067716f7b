#pragma once
// c10::call_once / c10::once_flag under libtorch's names: run a function once per flag, even when
// several threads get there together.
//
//   static c10::once_flag flag;
//   c10::call_once(flag, [] { init(); });
//
// libtorch writes its own (so that a flag can be reset in tests); miniaten uses the standard
// library's, which behaves the same for every use above.

#include <mutex>

namespace c10 {
using std::call_once;
using std::once_flag;
}  // namespace c10
