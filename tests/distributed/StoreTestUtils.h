#pragma once
// What the store tests share: byte helpers, a fresh temporary path, and the list of stores the
// EveryStore suite runs over.

#include <unistd.h>

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "distributed/c10d/FileStore.h"
#include "distributed/c10d/HashStore.h"
#include "distributed/c10d/PrefixStore.h"

namespace store_test {

inline std::vector<uint8_t> bytes(const std::string& s) {
  return {s.begin(), s.end()};
}
inline std::string text(const std::vector<uint8_t>& b) {
  return {b.begin(), b.end()};
}

// A path under the temporary directory that no other test or process uses.
inline std::string temp_path(const std::string& name) {
  static std::atomic<int> counter{0};
  const char* dir = std::getenv("TMPDIR");
  std::string path = std::string(dir != nullptr ? dir : "/tmp") + "/miniaten_" + name + "_" +
                     std::to_string(::getpid()) + "_" + std::to_string(counter++);
  ::unlink(path.c_str());
  return path;
}

struct StoreKind {
  std::string name;
  std::function<c10::intrusive_ptr<c10d::Store>()> make;
  // The beginning of its timeout message.
  std::string timeout_text;
  bool watches = false;
};

inline std::vector<StoreKind> every_store() {
  return {
      {"HashStore", [] { return c10::make_intrusive<c10d::HashStore>(); }, "Wait timeout"},
      {"FileStore", [] { return c10::make_intrusive<c10d::FileStore>(temp_path("filestore"), 1); },
       "Wait timeout"},
      {"PrefixOfHashStore",
       [] {
         return c10::make_intrusive<c10d::PrefixStore>("p", c10::make_intrusive<c10d::HashStore>());
       },
       "Wait timeout"},
      {"PrefixOfFileStore",
       [] {
         return c10::make_intrusive<c10d::PrefixStore>(
             "p", c10::make_intrusive<c10d::FileStore>(temp_path("filestore"), 1));
       },
       "Wait timeout"},
  };
}

}  // namespace store_test
