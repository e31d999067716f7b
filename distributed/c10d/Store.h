#pragma once
// c10d::Store: the key-value store the processes of a group meet in (libtorch 1.13's
// torch/csrc/distributed/c10d/Store.hpp). Ranks publish addresses and counters in it before a
// process group's engine connects them; every method may block other ranks, none of them moves
// tensors.
//
//   auto store = c10::make_intrusive<c10d::TCPStore>("127.0.0.1", opts);  // or FileStore,
//   HashStore store->set("addr/0", bytes); store->wait({"addr/1"});                  // until
//   another rank has set it, or the timeout std::vector<uint8_t> peer = store->get("addr/1");   //
//   get waits too int64_t arrived = store->add("arrived", 1);          // atomic counter; 1 for the
//   first caller
//
// The implementations: HashStore (one process, in memory), FileStore (processes sharing a file
// system), TCPStore (a server in one rank, clients in all), PrefixStore (a namespace in another
// store). Values are bytes; add() keeps its counter as the decimal text of the number, as
// libtorch does, so get() of a counter reads "3".
//
// Note [What a store's timeout bounds]
// get() and wait(keys) block until the keys exist; each gives up after the store's timeout
// (setTimeout, 300 s by default; wait(keys, timeout) takes its own) with a c10d::TimeoutError.
// kNoTimeout (zero) waits forever. libtorch 1.13's HashStore and PrefixStore wait(keys) use the
// 300 s default whatever setTimeout said; here every store's wait(keys) uses its timeout.

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "c10/util/Optional.h"
#include "dispatcher/CustomClassHolder.h"
#include "distributed/c10d/exception.h"

namespace c10d {

// watchKey's callback: (old value, new value), either absent for a creation or a deletion.
using WatchKeyCallback =
    std::function<void(c10::optional<std::string>, c10::optional<std::string>)>;

class Store : public torch::CustomClassHolder {
 public:
  static constexpr std::chrono::milliseconds kDefaultTimeout = std::chrono::seconds(300);
  static constexpr std::chrono::milliseconds kNoTimeout = std::chrono::milliseconds::zero();

  Store() : timeout_(kDefaultTimeout) {}
  explicit Store(const std::chrono::milliseconds& timeout) : timeout_(timeout) {}
  ~Store() override;

  virtual void set(const std::string& key, const std::vector<uint8_t>& value) = 0;
  // Sets key to desiredValue if it holds expectedValue (or is absent and expectedValue is empty)
  // and returns desiredValue; otherwise returns what key holds (expectedValue if absent).
  virtual std::vector<uint8_t> compareSet(const std::string& key,
                                          const std::vector<uint8_t>& expectedValue,
                                          const std::vector<uint8_t>& desiredValue);
  virtual std::vector<uint8_t> get(const std::string& key) = 0;
  virtual int64_t add(const std::string& key, int64_t value) = 0;
  virtual bool deleteKey(const std::string& key) = 0;
  virtual bool check(const std::vector<std::string>& keys) = 0;
  virtual int64_t getNumKeys() = 0;
  virtual void wait(const std::vector<std::string>& keys) = 0;
  virtual void wait(const std::vector<std::string>& keys,
                    const std::chrono::milliseconds& timeout) = 0;

  virtual const std::chrono::milliseconds& getTimeout() const noexcept;
  virtual void setTimeout(const std::chrono::milliseconds& timeout);

  virtual void watchKey(const std::string& key, WatchKeyCallback callback);

 protected:
  std::chrono::milliseconds timeout_;
};

namespace detail {
// The value add() stores: the decimal text of the sum of the text already there and `value`.
// A value that is not a decimal integer is an error, as libtorch's stoll makes it.
int64_t add_to_decimal(std::vector<uint8_t>& stored, int64_t value);
std::vector<uint8_t> decimal(int64_t value);
// The deadline `timeout` from now; kNoTimeout gives time_point::max().
std::chrono::steady_clock::time_point deadline_after(std::chrono::milliseconds timeout);
// libtorch's message for a get or wait that timed out.
[[noreturn]] void throw_wait_timeout(const std::vector<std::string>& keys,
                                     std::chrono::milliseconds timeout);
}  // namespace detail

}  // namespace c10d
