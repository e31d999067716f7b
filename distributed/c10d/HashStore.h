#pragma once
// c10d::HashStore: a Store in this process's memory (libtorch 1.13's HashStore.hpp), for
// threads that play ranks (tests, a world of one) and under a PrefixStore.
//
//   auto store = c10::make_intrusive<c10d::HashStore>();
//   std::thread t([&] { store->set("ready", {'1'}); });
//   store->wait({"ready"});   // the condition variable wakes it; the timeout bounds it

#include <condition_variable>
#include <mutex>
#include <unordered_map>

#include "distributed/c10d/Store.h"

namespace c10d {

class HashStore : public Store {
 public:
  ~HashStore() override {}

  void set(const std::string& key, const std::vector<uint8_t>& data) override;
  std::vector<uint8_t> compareSet(const std::string& key, const std::vector<uint8_t>& expectedValue,
                                  const std::vector<uint8_t>& desiredValue) override;
  std::vector<uint8_t> get(const std::string& key) override;
  // The store's timeout (Note [What a store's timeout bounds]).
  void wait(const std::vector<std::string>& keys) override { wait(keys, timeout_); }
  void wait(const std::vector<std::string>& keys,
            const std::chrono::milliseconds& timeout) override;
  int64_t add(const std::string& key, int64_t value) override;
  int64_t getNumKeys() override;
  bool check(const std::vector<std::string>& keys) override;
  bool deleteKey(const std::string& key) override;

 protected:
  // Waits on cv_ with lock held until every key is in map_, or throws at the deadline.
  void wait_locked(std::unique_lock<std::mutex>& lock, const std::vector<std::string>& keys,
                   std::chrono::milliseconds timeout);

  std::unordered_map<std::string, std::vector<uint8_t>> map_;
  std::mutex m_;
  std::condition_variable cv_;
};

}  // namespace c10d
