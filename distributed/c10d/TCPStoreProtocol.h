#pragma once
// The bytes a TCPStore client and its server exchange: the commands, the reply types, how
// requests are written (Message) and read (Reader, parse_request). Both ends include it, so the
// format is written down once; see Note [TCPStore's protocol].

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

// Note [TCPStore's protocol]
// A client sends a request and reads its reply before sending the next, on one TCP connection.
// Integers are 8 bytes, little-endian; a string is (uint64 length, bytes).
//
//   request                                    reply
//   kSet key value                             kNone
//   kCompareSet key expected desired           kBytes: see Store::compareSet
//   kGet key                                   kBytes, once the key exists
//   kAdd key int64                             kInt: the sum, or kError if the value is no number
//   kDeleteKey key                             kInt: 1 if the key existed
//   kCheck uint64-count key...                 kInt: 1 if every key exists
//   kGetNumKeys                                kInt
//   kWait uint64-count key...                  kNone, once every key exists
//   kCancel                                    kCanceled
//   kWatchKey key                              kNone; then, on this connection, a kKeyUpdate
//                                              each time the key changes
//
// A request is its command byte and arguments; a reply is its type byte and payload: kNone and
// kCanceled carry nothing, kInt an int64, kBytes the value, kError a message, kKeyUpdate the
// key, a flags byte (kHadValue, kHasValue) and the old and new values (empty when absent).
//
// watchKey uses a connection of its own, which sends only kWatchKey requests and otherwise
// listens: the server pushes a kKeyUpdate to every watch of the key whenever a set, a
// compareSet that changes it, an add or a deleteKey does (a watch made twice hears twice, as in
// libtorch). Replies say their
// type so that a client can skip one without knowing what it had asked.
//
// The server holds kGet and kWait until their keys exist (a set, add or compareSet of any
// client creates them), then answers. A client whose deadline comes first sends kCancel and
// throws; the server drops the held request if it still holds it and answers kCanceled. As the
// held reply may already be on its way, the client's next call first reads and discards
// everything up to that kCanceled; a client whose reply to any other request was late reads that
// reply first too. So requests and replies stay paired after a timeout, and only a request sent
// in part, a closed connection or a reply cut off by its deadline end a connection.
//
// The server never blocks on one client: its sockets are non-blocking, it parses requests as
// their bytes arrive and keeps what a client is slow to read in that connection's buffer.

namespace c10d {
namespace detail {

enum class Command : uint8_t {
  kSet = 1,
  kCompareSet,
  kGet,
  kAdd,
  kDeleteKey,
  kCheck,
  kGetNumKeys,
  kWait,
  kCancel,
  kWatchKey,
};

enum class ReplyType : uint8_t { kNone = 1, kInt, kBytes, kError, kCanceled, kKeyUpdate };
// kKeyUpdate's flags.
constexpr uint8_t kHadValue = 1, kHasValue = 2;

inline void put_u64(std::string& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
inline void put_bytes(std::string& out, const void* data, size_t size) {
  put_u64(out, size);
  out.append(static_cast<const char*>(data), size);
}
inline uint64_t get_u64(const char* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}

// A request under construction.
class Message {
 public:
  explicit Message(Command command) { data_.push_back(static_cast<char>(command)); }
  Message& str(const std::string& s) {
    put_bytes(data_, s.data(), s.size());
    return *this;
  }
  Message& bytes(const std::vector<uint8_t>& b) {
    put_bytes(data_, b.data(), b.size());
    return *this;
  }
  Message& keys(const std::string& prefix, const std::vector<std::string>& keys) {
    put_u64(data_, keys.size());
    for (const std::string& key : keys) str(prefix + key);
    return *this;
  }
  Message& number(int64_t n) {
    put_u64(data_, static_cast<uint64_t>(n));
    return *this;
  }
  const std::string& data() const { return data_; }

 private:
  std::string data_;
};

// Reads a request out of the bytes received so far; every read fails when they end too soon.
class Reader {
 public:
  Reader(const char* data, size_t size) : data_(data), size_(size) {}
  bool u8(uint8_t& v) {
    if (size_ - pos_ < 1) return false;
    v = static_cast<uint8_t>(data_[pos_++]);
    return true;
  }
  bool u64(uint64_t& v) {
    if (size_ - pos_ < 8) return false;
    v = get_u64(data_ + pos_);
    pos_ += 8;
    return true;
  }
  template <typename Bytes>  // std::string or std::vector<uint8_t>
  bool bytes(Bytes& b) {
    uint64_t n = 0;
    if (!u64(n) || size_ - pos_ < n) return false;
    b.assign(data_ + pos_, data_ + pos_ + n);
    pos_ += n;
    return true;
  }
  bool strings(std::vector<std::string>& v) {
    uint64_t n = 0;
    if (!u64(n)) return false;
    v.clear();  // no reserve(n): n is whatever a peer sent
    for (uint64_t i = 0; i < n; ++i) {
      v.emplace_back();
      if (!bytes(v.back())) return false;
    }
    return true;
  }
  size_t consumed() const { return pos_; }

 private:
  const char* data_;
  size_t size_;
  size_t pos_ = 0;
};

struct Request {
  Command command{};
  std::vector<std::string> keys;  // one, except for kCheck and kWait
  std::vector<uint8_t> value, desired;
  uint64_t number = 0;
};

enum class Parse { kDone, kIncomplete, kMalformed };

inline Parse parse_request(Reader& r, Request& req) {
  uint8_t command = 0;
  if (!r.u8(command)) return Parse::kIncomplete;
  req.command = static_cast<Command>(command);
  req.keys.resize(1);
  bool complete = false;
  switch (req.command) {
    case Command::kSet:
      complete = r.bytes(req.keys[0]) && r.bytes(req.value);
      break;
    case Command::kCompareSet:
      complete = r.bytes(req.keys[0]) && r.bytes(req.value) && r.bytes(req.desired);
      break;
    case Command::kGet:
    case Command::kDeleteKey:
    case Command::kWatchKey:
      complete = r.bytes(req.keys[0]);
      break;
    case Command::kAdd:
      complete = r.bytes(req.keys[0]) && r.u64(req.number);
      break;
    case Command::kCheck:
    case Command::kWait:
      complete = r.strings(req.keys);
      break;
    case Command::kGetNumKeys:
    case Command::kCancel:
      complete = true;
      break;
    default:
      return Parse::kMalformed;
  }
  return complete ? Parse::kDone : Parse::kIncomplete;
}

}  // namespace detail
}  // namespace c10d
