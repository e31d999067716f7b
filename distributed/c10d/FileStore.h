#pragma once
// c10d::FileStore: a Store in a file that every rank can open (a shared or local file system;
// libtorch 1.13's FileStore.hpp). No server: each operation locks the file, reads what other
// ranks appended since its last look, and appends its own change.
//
//   c10d::FileStore store("/tmp/rendezvous", /*numWorkers=*/2);   // every rank, same path
//   store.set("addr/0", bytes);
//   auto peer = store.get("addr/1");   // polls the file until the key appears, or the timeout
//
// Note [FileStore's file is a log]
// The file is a sequence of records, each a key and a value as (uint64 length, bytes) pairs in
// the machine's byte order. A key starting with '+' sets the rest of it to the value; one
// starting with '-' deletes it; "cleanup/" counts the stores that have been destroyed. Writers
// append under an exclusive flock, readers replay the records after `pos_` under a shared one
// into `cache_`, so a value is read once however often it is asked for. add() and compareSet()
// decide and append under one exclusive lock, which makes them atomic across processes. When
// the numWorkers-th store is destroyed the file is removed, as libtorch does. The layout is
// libtorch's in spirit, not byte for byte: a FileStore is shared by the ranks of one program.

#include <mutex>
#include <unordered_map>

#include "distributed/c10d/Store.h"

namespace c10d {

class FileStore : public Store {
 public:
  explicit FileStore(const std::string& path, int numWorkers);
  ~FileStore() override;

  void set(const std::string& key, const std::vector<uint8_t>& value) override;
  std::vector<uint8_t> compareSet(const std::string& key, const std::vector<uint8_t>& expectedValue,
                                  const std::vector<uint8_t>& desiredValue) override;
  std::vector<uint8_t> get(const std::string& key) override;
  int64_t add(const std::string& key, int64_t value) override;
  int64_t getNumKeys() override;
  // True if the key was there (libtorch 1.13 answers true whether or not it was).
  bool deleteKey(const std::string& key) override;
  bool check(const std::vector<std::string>& keys) override;
  void wait(const std::vector<std::string>& keys) override;
  void wait(const std::vector<std::string>& keys,
            const std::chrono::milliseconds& timeout) override;

  const std::string& getPath() const noexcept { return path_; }

 protected:
  class LockedFile;
  int64_t addHelper(const std::string& key, int64_t i);
  // Reads the records appended since pos_ into cache_.
  void refresh(LockedFile& file);
  // Waits (polling) until every key (as stored) is in cache_, or throws at the deadline; then
  // copies the first key's value to *first if given.
  void wait_for_keys(const std::vector<std::string>& keys, std::chrono::milliseconds timeout,
                     std::vector<uint8_t>* first = nullptr);

  std::string path_;
  int64_t pos_ = 0;
  int numWorkers_;
  const std::string cleanupKey_ = "cleanup/";
  const std::string regularPrefix_ = "+";
  const std::string deletePrefix_ = "-";
  std::unordered_map<std::string, std::vector<uint8_t>> cache_;
  std::mutex activeFileOpLock_;
};

}  // namespace c10d
