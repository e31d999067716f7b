// c10d::Store's defaults and the helpers its implementations share.

#include "distributed/c10d/Store.h"

#include <cerrno>
#include <cstdlib>
#include <sstream>

namespace c10d {

constexpr std::chrono::milliseconds Store::kDefaultTimeout;
constexpr std::chrono::milliseconds Store::kNoTimeout;

Store::~Store() = default;

std::vector<uint8_t> Store::compareSet(const std::string& /*key*/,
                                       const std::vector<uint8_t>& /*expectedValue*/,
                                       const std::vector<uint8_t>& /*desiredValue*/) {
  TORCH_INTERNAL_ASSERT(false, "Not implemented.");
}

const std::chrono::milliseconds& Store::getTimeout() const noexcept {
  return timeout_;
}

void Store::setTimeout(const std::chrono::milliseconds& timeout) {
  timeout_ = timeout;
}

void Store::watchKey(const std::string& /*key*/, WatchKeyCallback /*callback*/) {
  TORCH_CHECK(false, "watchKey only implemented for TCPStore and PrefixStore that wraps TCPStore.");
}

namespace detail {

std::vector<uint8_t> decimal(int64_t value) {
  const std::string text = std::to_string(value);
  return {text.begin(), text.end()};
}

int64_t add_to_decimal(std::vector<uint8_t>& stored, int64_t value) {
  const std::string text(stored.begin(), stored.end());
  // libtorch parses with std::stoll: leading spaces and a sign, then digits; anything after
  // them is ignored. Here the whole value must be the number.
  char* end = nullptr;
  errno = 0;
  const long long current = text.empty() ? 0 : std::strtoll(text.c_str(), &end, 10);
  TORCH_CHECK(text.empty() || (end == text.c_str() + text.size() && errno == 0),
              "add: the value stored is not a 64-bit decimal integer: \"", text, "\"");
  const int64_t sum = static_cast<int64_t>(current) + value;
  stored = decimal(sum);
  return sum;
}

std::chrono::steady_clock::time_point deadline_after(std::chrono::milliseconds timeout) {
  if (timeout == Store::kNoTimeout) return std::chrono::steady_clock::time_point::max();
  return std::chrono::steady_clock::now() + timeout;
}

void throw_wait_timeout(const std::vector<std::string>& keys, std::chrono::milliseconds timeout) {
  std::ostringstream names;
  for (size_t i = 0; i < keys.size(); ++i) names << (i == 0 ? "" : ", ") << keys[i];
  C10D_THROW(TimeoutError, "Wait timeout: after ", timeout.count(), "ms waiting for keys [",
             names.str(), "]");
}

}  // namespace detail

}  // namespace c10d
