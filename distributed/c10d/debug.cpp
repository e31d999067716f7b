#include "distributed/c10d/debug.h"

#include <atomic>
#include <cstdlib>
#include <string>

#include "c10/util/Exception.h"

namespace c10d {

namespace {
// -1: not read yet.
std::atomic<int> g_debug_level{-1};
}  // namespace

void setDebugLevel(DebugLevel level) {
  g_debug_level = static_cast<int>(level);
}

void setDebugLevelFromEnvironment() {
  const char* value = std::getenv("TORCH_DISTRIBUTED_DEBUG");
  const std::string s = value == nullptr ? "OFF" : value;
  DebugLevel level = DebugLevel::Off;
  if (s == "OFF") {
    level = DebugLevel::Off;
  } else if (s == "INFO") {
    level = DebugLevel::Info;
  } else if (s == "DETAIL") {
    level = DebugLevel::Detail;
  } else {
    TORCH_CHECK(false, "The value of TORCH_DISTRIBUTED_DEBUG must be OFF, INFO, or DETAIL.");
  }
  setDebugLevel(level);
}

DebugLevel debug_level() noexcept {
  if (g_debug_level.load() < 0) {
    try {
      setDebugLevelFromEnvironment();
    } catch (const c10::Error& e) {
      TORCH_WARN(e.what_without_backtrace(), " Using OFF.");
      setDebugLevel(DebugLevel::Off);
    }
  }
  return static_cast<DebugLevel>(g_debug_level.load());
}

}  // namespace c10d
