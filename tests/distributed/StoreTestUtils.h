#pragma once
// What the store tests share: byte helpers, a fresh temporary path, and the list of stores the
// EveryStore suite runs over.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "distributed/c10d/FileStore.h"
#include "distributed/c10d/HashStore.h"
#include "distributed/c10d/PrefixStore.h"
#include "distributed/c10d/TCPStore.h"

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

// A port nobody listens on (the kernel's pick, released again).
inline uint16_t unused_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
  socklen_t size = sizeof(addr);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &size);
  ::close(fd);
  return ntohs(addr.sin_port);
}

struct StoreKind {
  std::string name;
  std::function<c10::intrusive_ptr<c10d::Store>()> make;
  // The beginning of its timeout message.
  std::string timeout_text;
  // Another handle on the same keys, for a second thread: the store itself, or, for a TCPStore
  // (whose operations are serialized per object, as libtorch's are), a second client.
  std::function<c10::intrusive_ptr<c10d::Store>(const c10::intrusive_ptr<c10d::Store>&)>
      other_handle = [](const c10::intrusive_ptr<c10d::Store>& store) { return store; };
};

// gtest prints a parameter's name, not its bytes.
inline void PrintTo(const StoreKind& kind, std::ostream* os) {
  *os << kind.name;
}

// A TCPStore serving itself on a free port of the loopback, and a client of its server.
inline c10::intrusive_ptr<c10d::TCPStore> tcp_store() {
  c10d::TCPStoreOptions opts;
  opts.port = 0;
  opts.isServer = true;
  opts.timeout = std::chrono::seconds(10);
  return c10::make_intrusive<c10d::TCPStore>("127.0.0.1", opts);
}
inline c10::intrusive_ptr<c10d::TCPStore> tcp_client(const c10d::Store& server) {
  const auto& tcp = dynamic_cast<const c10d::TCPStore&>(server);
  c10d::TCPStoreOptions opts;
  opts.port = tcp.getPort();
  opts.timeout = std::chrono::seconds(10);
  return c10::make_intrusive<c10d::TCPStore>("127.0.0.1", opts);
}

inline std::vector<StoreKind> every_store() {
  return {
      {"HashStore", [] { return c10::make_intrusive<c10d::HashStore>(); }, "Wait timeout"},
      {"FileStore", [] { return c10::make_intrusive<c10d::FileStore>(temp_path("filestore"), 1); },
       "Wait timeout"},
      {"TCPStore", [] { return c10::intrusive_ptr<c10d::Store>(tcp_store()); }, "Socket Timeout",
       [](const c10::intrusive_ptr<c10d::Store>& store) {
         return c10::intrusive_ptr<c10d::Store>(tcp_client(*store));
       }},
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
      {"PrefixOfTCPStore", [] { return c10::make_intrusive<c10d::PrefixStore>("p", tcp_store()); },
       "Socket Timeout",
       [](const c10::intrusive_ptr<c10d::Store>& store) {
         auto& prefix = dynamic_cast<c10d::PrefixStore&>(*store);
         return c10::intrusive_ptr<c10d::Store>(
             c10::make_intrusive<c10d::PrefixStore>("p", tcp_client(*prefix.getUnderlyingStore())));
       }},
  };
}

}  // namespace store_test
