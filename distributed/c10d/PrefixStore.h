#pragma once
// c10d::PrefixStore: a namespace in another store (libtorch 1.13's PrefixStore.hpp). Every key
// is stored as "<prefix>/<key>", so process groups sharing one store keep their keys apart.
//
//   auto pg_store = c10::make_intrusive<c10d::PrefixStore>("pg1", store);
//   pg_store->set("rank0", bytes);   // store holds "pg1/rank0"

#include "distributed/c10d/Store.h"

namespace c10d {

class PrefixStore : public Store {
 public:
  explicit PrefixStore(const std::string& prefix, c10::intrusive_ptr<Store> store);
  ~PrefixStore() override {}

  void set(const std::string& key, const std::vector<uint8_t>& value) override;
  std::vector<uint8_t> compareSet(const std::string& key, const std::vector<uint8_t>& expectedValue,
                                  const std::vector<uint8_t>& desiredValue) override;
  std::vector<uint8_t> get(const std::string& key) override;
  int64_t add(const std::string& key, int64_t value) override;
  bool deleteKey(const std::string& key) override;
  // The underlying store's count: libtorch 1.13 counts every key there, not only this prefix's.
  int64_t getNumKeys() override;
  bool check(const std::vector<std::string>& keys) override;
  void wait(const std::vector<std::string>& keys) override;
  void wait(const std::vector<std::string>& keys,
            const std::chrono::milliseconds& timeout) override;
  // The timeout is the underlying store's.
  const std::chrono::milliseconds& getTimeout() const noexcept override;
  void setTimeout(const std::chrono::milliseconds& timeout) override;
  void watchKey(const std::string& key, WatchKeyCallback callback) override;

  c10::intrusive_ptr<Store> getUnderlyingStore();

 protected:
  std::string prefix_;
  c10::intrusive_ptr<Store> store_;

  std::string joinKey(const std::string& key);
  std::vector<std::string> joinKeys(const std::vector<std::string>& keys);
};

}  // namespace c10d
