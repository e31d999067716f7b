#include "c10/util/Exception.h"

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <cstring>
#include <ostream>

namespace c10 {

std::ostream& operator<<(std::ostream& out, const SourceLocation& loc) {
  return out << loc.function << " at " << loc.file << ":" << loc.line;
}

namespace {
std::string location_text(const SourceLocation& loc) {
  // Only the file's name: full build paths make messages unreadable.
  const char* base = std::strrchr(loc.file, '/');
  return str("Exception raised from ", loc.function, " at ", base ? base + 1 : loc.file, ":",
             loc.line, " (most recent call first)");
}
}  // namespace

Error::Error(SourceLocation loc, std::string msg)
    : Error(std::move(msg), location_text(loc)) {}

Error::Error(std::string msg, std::string backtrace)
    : msg_(std::move(msg)), backtrace_(std::move(backtrace)) {
  refresh_what();
}

void Error::add_context(std::string new_msg) {
  context_.push_back(std::move(new_msg));
  refresh_what();
}

void Error::refresh_what() {
  what_without_backtrace_ = msg_;
  for (const auto& c : context_) {
    what_without_backtrace_ += "\n";
    what_without_backtrace_ += c;
  }
  what_ = what_without_backtrace_;
  if (!backtrace_.empty()) {
    what_ += "\n";
    what_ += backtrace_;
  }
}

// Note [Warnings go to stderr]
// spdlog's default logger writes to stdout, which belongs to the program that links miniaten;
// warnings get their own logger on stderr, in the line c10 prints without glog:
//   [W Resize.cpp:17] Warning: An output with one or more elements was resized ... (function f)
void WarningHandler::process(const SourceLocation& loc, const std::string& msg,
                             bool /*verbatim*/) {
  static const std::shared_ptr<spdlog::logger> logger = [] {
    auto l = std::make_shared<spdlog::logger>("miniaten.warnings",
                                              std::make_shared<spdlog::sinks::stderr_sink_mt>());
    l->set_pattern("%v");
    return l;
  }();
  const char* base = std::strrchr(loc.file, '/');
  logger->warn("[W {}:{}] Warning: {} (function {})", base ? base + 1 : loc.file, loc.line, msg,
               loc.function);
  logger->flush();
}

namespace WarningUtils {
namespace {
WarningHandler* default_handler() {
  static WarningHandler handler;
  return &handler;
}
std::atomic<WarningHandler*>& handler_slot() {
  static std::atomic<WarningHandler*> slot{default_handler()};
  return slot;
}
}  // namespace

void set_warning_handler(WarningHandler* handler) noexcept {
  handler_slot().store(handler ? handler : default_handler());
}
WarningHandler* get_warning_handler() noexcept { return handler_slot().load(); }

namespace {
std::atomic<bool> warn_always{false};

class ThrowingWarningHandler : public WarningHandler {
 public:
  void process(const SourceLocation& loc, const std::string& msg, bool /*verbatim*/) override {
    throw Error(loc, msg);
  }
};
}  // namespace

void set_warnAlways(bool setting) noexcept {
  warn_always.store(setting);
}
bool get_warnAlways() noexcept {
  return warn_always.load();
}

WarnAlways::WarnAlways(bool setting) : prev_setting_(get_warnAlways()) {
  set_warnAlways(setting);
}
WarnAlways::~WarnAlways() {
  set_warnAlways(prev_setting_);
}

WarningsAsErrors::WarningsAsErrors() : prev_(get_warning_handler()) {
  static ThrowingWarningHandler handler;
  set_warning_handler(&handler);
}
WarningsAsErrors::~WarningsAsErrors() {
  set_warning_handler(prev_);
}
}  // namespace WarningUtils

void warn(const SourceLocation& loc, const std::string& msg, bool verbatim) {
  WarningUtils::get_warning_handler()->process(loc, msg, verbatim);
}

namespace detail {

void torchCheckFail(const char* func, const char* file, uint32_t line, const std::string& msg) {
  throw Error(SourceLocation{func, file, line}, msg);
}

void torchCheckFail(const char* func, const char* file, uint32_t line, const char* msg) {
  throw Error(SourceLocation{func, file, line}, msg);
}

void torchInternalAssertFail(const char* func, const char* file, uint32_t line, const char* cond,
                             const std::string& msg) {
  const char* base = std::strrchr(file, '/');
  throw Error(SourceLocation{func, file, line},
              str(cond, " INTERNAL ASSERT FAILED at \"", base ? base + 1 : file, "\":", line,
                  ", please report a bug to miniaten. ", msg));
}

}  // namespace detail
}  // namespace c10
