#pragma once
// Errors and checks.
//
//   TORCH_CHECK(dim >= 0, "Expected a non-negative dim but got ", dim);   // the user's mistake
//   TORCH_INTERNAL_ASSERT(perm_.size() == ndim());                       // our bug
//   TORCH_WARN("Overriding a previously registered kernel ...");         // stderr, or a handler
//
// Both checks throw (never abort); the message is built only when the check fails.
// c10::Error::what() is the message, then context lines, then where it was raised;
// what_without_backtrace() omits the location, as libtorch's does.

#include <exception>
#include <string>
#include <vector>

#include "c10/util/Macros.h"
#include "c10/util/StringUtil.h"

namespace c10 {

struct SourceLocation {
  const char* function;
  const char* file;
  uint32_t line;
};
std::ostream& operator<<(std::ostream& out, const SourceLocation& loc);

class C10_API Error : public std::exception {
 public:
  Error(SourceLocation loc, std::string msg);
  // Message plus a ready-made backtrace text (libtorch has this constructor too).
  Error(std::string msg, std::string backtrace);

  const char* what() const noexcept override { return what_.c_str(); }
  const char* what_without_backtrace() const noexcept { return what_without_backtrace_.c_str(); }
  const std::string& msg() const { return msg_; }
  const std::vector<std::string>& context() const { return context_; }
  const std::string& backtrace() const { return backtrace_; }

  // Adds a line of context ("while calling aten::add ..."); shows in both what() forms.
  void add_context(std::string new_msg);

 private:
  void refresh_what();

  std::string msg_;
  std::vector<std::string> context_;
  std::string backtrace_;
  std::string what_;
  std::string what_without_backtrace_;
};

// Typed errors, as libtorch (and Python) classify them.
class C10_API IndexError : public Error { using Error::Error; };
class C10_API ValueError : public Error { using Error::Error; };
class C10_API TypeError : public Error { using Error::Error; };
class C10_API NotImplementedError : public Error { using Error::Error; };
class C10_API OutOfMemoryError : public Error { using Error::Error; };
class C10_API LinAlgError : public Error { using Error::Error; };

// Warnings go through a replaceable handler; the default one logs through spdlog to stderr.
class C10_API WarningHandler {
 public:
  virtual ~WarningHandler() = default;
  virtual void process(const SourceLocation& loc, const std::string& msg, bool verbatim);
};

C10_API void warn(const SourceLocation& loc, const std::string& msg, bool verbatim = false);

// libtorch 1.13 names this namespace c10::Warning and later ones c10::WarningUtils; both work.
namespace WarningUtils {
using ::c10::warn;
C10_API void set_warning_handler(WarningHandler* handler) noexcept;
C10_API WarningHandler* get_warning_handler() noexcept;

// TORCH_WARN_ONCE warns every time while this is set (libtorch's hook for testing it).
C10_API void set_warnAlways(bool setting) noexcept;
C10_API bool get_warnAlways() noexcept;
struct C10_API WarnAlways {
  explicit WarnAlways(bool setting = true);
  ~WarnAlways();

 private:
  bool prev_setting_;
};

// Installs a handler for a scope (tests use it to capture warnings).
class C10_API WarningHandlerGuard {
 public:
  explicit WarningHandlerGuard(WarningHandler* new_handler) : prev_(get_warning_handler()) {
    set_warning_handler(new_handler);
  }
  ~WarningHandlerGuard() { set_warning_handler(prev_); }

 private:
  WarningHandler* prev_;
};

// Turns every warning raised while it lives into a c10::Error carrying the warning's message and
// location, as Python's `warnings.simplefilter("error")` does for PyTorch's tests. The warning
// is thrown from where it is raised, so the operation that warned does not finish. Like any
// handler it is process-wide: warnings on other threads throw too, so keep it to tests.
class C10_API WarningsAsErrors {
 public:
  WarningsAsErrors();
  ~WarningsAsErrors();
  WarningsAsErrors(const WarningsAsErrors&) = delete;
  WarningsAsErrors& operator=(const WarningsAsErrors&) = delete;

 private:
  WarningHandler* prev_;
};
}  // namespace WarningUtils
namespace Warning = WarningUtils;

namespace detail {

[[noreturn]] C10_API void torchCheckFail(const char* func, const char* file, uint32_t line,
                                         const std::string& msg);
[[noreturn]] C10_API void torchCheckFail(const char* func, const char* file, uint32_t line,
                                         const char* msg);
[[noreturn]] C10_API void torchInternalAssertFail(const char* func, const char* file,
                                                  uint32_t line, const char* cond,
                                                  const std::string& msg);

template <typename E>
[[noreturn]] C10_NOINLINE void torchCheckFailTyped(const char* func, const char* file,
                                                   uint32_t line, const std::string& msg) {
  throw E(SourceLocation{func, file, line}, msg);
}

// TORCH_CHECK(cond) with no message gets libtorch's generic text.
inline const char* torchCheckMsgImpl(const char* msg) { return msg; }
inline const char* torchCheckMsgImpl(const char* /*default_msg*/, const char* msg) { return msg; }
template <typename... Args>
inline std::string torchCheckMsgImpl(const char* /*default_msg*/, const Args&... args) {
  return ::c10::str(args...);
}

}  // namespace detail
}  // namespace c10

#define TORCH_CHECK_MSG(cond, type, ...)                                                      \
  (::c10::detail::torchCheckMsgImpl("Expected " #cond " to be true, but got false.  "        \
                                    "(Could this error message be improved?  If so, please " \
                                    "report an enhancement request to PyTorch.)",            \
                                    ##__VA_ARGS__))

#define TORCH_CHECK(cond, ...)                                                    \
  if (C10_UNLIKELY(!(cond))) {                                                    \
    ::c10::detail::torchCheckFail(__func__, __FILE__, static_cast<uint32_t>(__LINE__), \
                                  TORCH_CHECK_MSG(cond, "", ##__VA_ARGS__));      \
  }

#define TORCH_CHECK_WITH(error_t, cond, ...)                                                \
  if (C10_UNLIKELY(!(cond))) {                                                              \
    ::c10::detail::torchCheckFailTyped<::c10::error_t>(                                     \
        __func__, __FILE__, static_cast<uint32_t>(__LINE__),                                \
        ::c10::str(TORCH_CHECK_MSG(cond, "", ##__VA_ARGS__)));                              \
  }

#define TORCH_CHECK_INDEX(cond, ...) TORCH_CHECK_WITH(IndexError, cond, ##__VA_ARGS__)
#define TORCH_CHECK_VALUE(cond, ...) TORCH_CHECK_WITH(ValueError, cond, ##__VA_ARGS__)
#define TORCH_CHECK_TYPE(cond, ...) TORCH_CHECK_WITH(TypeError, cond, ##__VA_ARGS__)
#define TORCH_CHECK_NOT_IMPLEMENTED(cond, ...) \
  TORCH_CHECK_WITH(NotImplementedError, cond, ##__VA_ARGS__)

// Assertions about our own invariants: always on, Release included.
#define TORCH_INTERNAL_ASSERT(cond, ...)                                                   \
  if (C10_UNLIKELY(!(cond))) {                                                             \
    ::c10::detail::torchInternalAssertFail(__func__, __FILE__, static_cast<uint32_t>(__LINE__), \
                                           #cond, ::c10::str(__VA_ARGS__));                \
  }

#ifdef NDEBUG
#define TORCH_INTERNAL_ASSERT_DEBUG_ONLY(...) \
  while (false) TORCH_INTERNAL_ASSERT(__VA_ARGS__)
#else
#define TORCH_INTERNAL_ASSERT_DEBUG_ONLY(...) TORCH_INTERNAL_ASSERT(__VA_ARGS__)
#endif

#define TORCH_WARN(...) \
  ::c10::warn({__func__, __FILE__, static_cast<uint32_t>(__LINE__)}, ::c10::str(__VA_ARGS__))

#define TORCH_WARN_ONCE(...)                                \
  do {                                                      \
    if (::c10::WarningUtils::get_warnAlways()) {            \
      TORCH_WARN(__VA_ARGS__);                              \
    } else {                                                \
      static const bool torch_warn_once_ C10_UNUSED = [&] { \
        TORCH_WARN(__VA_ARGS__);                            \
        return true;                                        \
      }();                                                  \
    }                                                       \
  } while (false)
