#pragma once
// c10d's error types, with libtorch 1.13's names (torch/csrc/distributed/c10d/exception.h).
//
// Note [c10d errors are c10::Errors]
// libtorch 1.13 derives C10dError from std::runtime_error, and its stores also throw plain
// std::system_error ("Wait timeout: Connection timed out") and std::invalid_argument ("stoll").
// miniaten's rule is that bad input and failures give a c10::Error, so here C10dError is a
// c10::Error and every store failure is one of these classes, with libtorch's wording. Code that
// catches c10d::TimeoutError, c10::Error or std::exception catches them as it would libtorch's;
// code that catches std::runtime_error does not.

#include <string>

#include "c10/util/Exception.h"

namespace c10d {

class C10dError : public c10::Error {
 public:
  using c10::Error::Error;
};

// An operation or a connection did not finish within the store's timeout.
class TimeoutError : public C10dError {
 public:
  using C10dError::C10dError;
};

// A socket could not be made, bound, connected, read or written.
class SocketError : public C10dError {
 public:
  using C10dError::C10dError;
};

namespace detail {
// Throws E(msg) from the caller's location.
template <typename E>
[[noreturn]] void throw_error(const char* function, const char* file, uint32_t line,
                              const std::string& msg) {
  throw E(c10::SourceLocation{function, file, line}, msg);
}
}  // namespace detail

}  // namespace c10d

// C10D_THROW(TimeoutError, "Socket Timeout") throws c10d::TimeoutError with the message (the
// pieces are joined as TORCH_CHECK's are).
#define C10D_THROW(error_t, ...)                \
  ::c10d::detail::throw_error<::c10d::error_t>( \
      __func__, __FILE__, static_cast<uint32_t>(__LINE__), ::c10::str(__VA_ARGS__))
#define C10D_CHECK(error_t, cond, ...) \
  if (C10_UNLIKELY(!(cond))) C10D_THROW(error_t, __VA_ARGS__)
