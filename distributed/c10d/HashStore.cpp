#include "distributed/c10d/HashStore.h"

#include <algorithm>

namespace c10d {

void HashStore::set(const std::string& key, const std::vector<uint8_t>& data) {
  {
    std::lock_guard<std::mutex> lock(m_);
    map_[key] = data;
  }
  cv_.notify_all();
}

std::vector<uint8_t> HashStore::compareSet(const std::string& key,
                                           const std::vector<uint8_t>& expectedValue,
                                           const std::vector<uint8_t>& desiredValue) {
  std::unique_lock<std::mutex> lock(m_);
  auto it = map_.find(key);
  if (it == map_.end()) {
    if (!expectedValue.empty()) return expectedValue;
    map_[key] = desiredValue;
  } else if (it->second == expectedValue) {
    it->second = desiredValue;
  } else {
    return it->second;
  }
  lock.unlock();
  cv_.notify_all();
  return desiredValue;
}

void HashStore::wait_locked(std::unique_lock<std::mutex>& lock,
                            const std::vector<std::string>& keys,
                            std::chrono::milliseconds timeout) {
  const auto all_present = [&] {
    return std::all_of(keys.begin(), keys.end(),
                       [&](const std::string& key) { return map_.count(key) != 0; });
  };
  if (timeout == kNoTimeout) {
    cv_.wait(lock, all_present);
  } else if (!cv_.wait_for(lock, timeout, all_present)) {
    detail::throw_wait_timeout(keys, timeout);
  }
}

std::vector<uint8_t> HashStore::get(const std::string& key) {
  std::unique_lock<std::mutex> lock(m_);
  wait_locked(lock, {key}, timeout_);
  return map_.at(key);
}

void HashStore::wait(const std::vector<std::string>& keys,
                     const std::chrono::milliseconds& timeout) {
  std::unique_lock<std::mutex> lock(m_);
  wait_locked(lock, keys, timeout);
}

int64_t HashStore::add(const std::string& key, int64_t value) {
  int64_t sum = 0;
  {
    std::lock_guard<std::mutex> lock(m_);
    sum = detail::add_to_decimal(map_[key], value);
  }
  cv_.notify_all();
  return sum;
}

int64_t HashStore::getNumKeys() {
  std::lock_guard<std::mutex> lock(m_);
  return static_cast<int64_t>(map_.size());
}

bool HashStore::check(const std::vector<std::string>& keys) {
  std::lock_guard<std::mutex> lock(m_);
  return std::all_of(keys.begin(), keys.end(),
                     [&](const std::string& key) { return map_.count(key) != 0; });
}

bool HashStore::deleteKey(const std::string& key) {
  std::lock_guard<std::mutex> lock(m_);
  return map_.erase(key) == 1;
}

}  // namespace c10d
