#pragma once
// Helpers shared by test files.

#include <exception>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "c10/util/Exception.h"

namespace test_util {

// The message of whatever f throws (a c10::Error's without its backtrace), or "no error".
// libtorch throws a few errors as std::runtime_error (shape inference, _base); miniaten throws
// c10::Errors with the same texts, so the texts compared are the same either way.
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const c10::Error& e) {
    return e.what_without_backtrace();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "no error";
}

// Collects the warnings raised while installed (with c10::WarningUtils::WarningHandlerGuard).
struct CapturedWarnings : c10::WarningHandler {
  void process(const c10::SourceLocation&, const std::string& msg, bool) override {
    messages.push_back(msg);
  }
  std::vector<std::string> messages;
};

// What `os << value` writes (IValues, tensors, schemas: anything printable).
template <class T>
std::string printed(const T& value) {
  std::ostringstream ss;
  ss << value;
  return ss.str();
}

}  // namespace test_util
