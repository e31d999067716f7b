#pragma once
// Helpers shared by test files.

#include <functional>
#include <string>

#include "c10/util/Exception.h"

namespace test_util {

// The message (without backtrace) of the c10::Error that f throws, or "no error".
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const c10::Error& e) {
    return e.what_without_backtrace();
  }
  return "no error";
}

}  // namespace test_util
