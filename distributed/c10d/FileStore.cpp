#include "distributed/c10d/FileStore.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

namespace c10d {

// The store's file, open and flocked for the life of one operation. See Note [FileStore's
// file is a log].
class FileStore::LockedFile {
 public:
  LockedFile(const std::string& path, bool exclusive) : path_(path) {
    do {
      fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    } while (fd_ < 0 && errno == EINTR);
    C10D_CHECK(C10dError, fd_ >= 0, "open(", path, "): ", std::strerror(errno));
    int rc = 0;
    do {
      rc = ::flock(fd_, exclusive ? LOCK_EX : LOCK_SH);
    } while (rc != 0 && errno == EINTR);
    if (rc != 0) {
      const int error = errno;
      ::close(fd_);
      C10D_THROW(C10dError, "flock(", path, "): ", std::strerror(error));
    }
  }
  ~LockedFile() {
    ::flock(fd_, LOCK_UN);
    ::close(fd_);
  }
  LockedFile(const LockedFile&) = delete;
  LockedFile& operator=(const LockedFile&) = delete;

  int64_t size() const {
    struct stat st {};
    C10D_CHECK(C10dError, ::fstat(fd_, &st) == 0, "fstat(", path_, "): ", std::strerror(errno));
    return static_cast<int64_t>(st.st_size);
  }

  void read_at(int64_t offset, void* out, size_t n) const {
    char* p = static_cast<char*>(out);
    while (n > 0) {
      const ssize_t got = ::pread(fd_, p, n, static_cast<off_t>(offset));
      if (got < 0 && errno == EINTR) continue;
      C10D_CHECK(C10dError, got > 0, "read(", path_,
                 "): ", got == 0 ? "the file ends inside a record" : std::strerror(errno));
      p += got;
      offset += got;
      n -= static_cast<size_t>(got);
    }
  }

  // Appends one record: key and value, each as (uint64 length, bytes).
  void append(const std::string& key, const std::vector<uint8_t>& value) {
    std::string record;
    const uint64_t key_size = key.size(), value_size = value.size();
    record.append(reinterpret_cast<const char*>(&key_size), sizeof(key_size));
    record.append(key);
    record.append(reinterpret_cast<const char*>(&value_size), sizeof(value_size));
    record.append(value.begin(), value.end());
    int64_t offset = size();
    const char* p = record.data();
    size_t n = record.size();
    while (n > 0) {
      const ssize_t put = ::pwrite(fd_, p, n, static_cast<off_t>(offset));
      if (put < 0 && errno == EINTR) continue;
      C10D_CHECK(C10dError, put > 0, "write(", path_, "): ", std::strerror(errno));
      p += put;
      offset += put;
      n -= static_cast<size_t>(put);
    }
  }

 private:
  std::string path_;
  int fd_ = -1;
};

FileStore::FileStore(const std::string& path, int numWorkers)
    : Store(), path_(path), numWorkers_(numWorkers) {
  TORCH_CHECK(numWorkers >= 1, "FileStore: numWorkers must be at least 1, got ", numWorkers);
  LockedFile file(path_, /*exclusive=*/false);  // creates it, and checks it can be opened
}

FileStore::~FileStore() {
  // The last of numWorkers stores removes the file. A destructor must not throw: a file that
  // went away or cannot be written is left as it is.
  try {
    if (addHelper(cleanupKey_, 1) == numWorkers_) ::unlink(path_.c_str());
  } catch (const c10::Error&) {
  }
}

void FileStore::refresh(LockedFile& file) {
  const int64_t end = file.size();
  while (pos_ < end) {
    std::string parts[2];
    int64_t at = pos_;
    for (std::string& part : parts) {
      uint64_t length = 0;
      file.read_at(at, &length, sizeof(length));
      at += static_cast<int64_t>(sizeof(length));
      C10D_CHECK(C10dError, length <= static_cast<uint64_t>(end - at), "FileStore(", path_,
                 "): a record at offset ", pos_, " runs past the end of the file");
      part.resize(length);
      if (length != 0) file.read_at(at, &part[0], length);
      at += static_cast<int64_t>(length);
    }
    const std::string& key = parts[0];
    if (key.compare(0, deletePrefix_.size(), deletePrefix_) == 0) {
      cache_.erase(regularPrefix_ + key.substr(deletePrefix_.size()));
    } else {
      cache_[key] = std::vector<uint8_t>(parts[1].begin(), parts[1].end());
    }
    pos_ = at;
  }
}

void FileStore::set(const std::string& key, const std::vector<uint8_t>& value) {
  std::lock_guard<std::mutex> guard(activeFileOpLock_);
  LockedFile file(path_, /*exclusive=*/true);
  file.append(regularPrefix_ + key, value);
}

std::vector<uint8_t> FileStore::compareSet(const std::string& key,
                                           const std::vector<uint8_t>& expectedValue,
                                           const std::vector<uint8_t>& desiredValue) {
  std::lock_guard<std::mutex> guard(activeFileOpLock_);
  LockedFile file(path_, /*exclusive=*/true);
  refresh(file);
  const std::string stored_key = regularPrefix_ + key;
  auto it = cache_.find(stored_key);
  if (it == cache_.end() ? !expectedValue.empty() : it->second != expectedValue) {
    return it == cache_.end() ? expectedValue : it->second;
  }
  file.append(stored_key, desiredValue);
  return desiredValue;
}

std::vector<uint8_t> FileStore::get(const std::string& key) {
  std::vector<uint8_t> value;
  wait_for_keys({regularPrefix_ + key}, timeout_, &value);
  return value;
}

int64_t FileStore::addHelper(const std::string& key, int64_t i) {
  std::lock_guard<std::mutex> guard(activeFileOpLock_);
  LockedFile file(path_, /*exclusive=*/true);
  refresh(file);
  std::vector<uint8_t> value = cache_[key];
  const int64_t sum = detail::add_to_decimal(value, i);
  file.append(key, value);
  return sum;
}

int64_t FileStore::add(const std::string& key, int64_t value) {
  return addHelper(regularPrefix_ + key, value);
}

int64_t FileStore::getNumKeys() {
  std::lock_guard<std::mutex> guard(activeFileOpLock_);
  LockedFile file(path_, /*exclusive=*/false);
  refresh(file);
  int64_t count = 0;
  for (const auto& entry : cache_) {
    count += entry.first.compare(0, regularPrefix_.size(), regularPrefix_) == 0 ? 1 : 0;
  }
  return count;
}

bool FileStore::deleteKey(const std::string& key) {
  std::lock_guard<std::mutex> guard(activeFileOpLock_);
  LockedFile file(path_, /*exclusive=*/true);
  refresh(file);
  const bool existed = cache_.count(regularPrefix_ + key) != 0;
  if (existed) file.append(deletePrefix_ + key, {});
  return existed;
}

bool FileStore::check(const std::vector<std::string>& keys) {
  std::lock_guard<std::mutex> guard(activeFileOpLock_);
  LockedFile file(path_, /*exclusive=*/false);
  refresh(file);
  for (const std::string& key : keys) {
    if (cache_.count(regularPrefix_ + key) == 0) return false;
  }
  return true;
}

void FileStore::wait(const std::vector<std::string>& keys) {
  wait(keys, timeout_);
}

void FileStore::wait(const std::vector<std::string>& keys,
                     const std::chrono::milliseconds& timeout) {
  std::vector<std::string> stored_keys;
  stored_keys.reserve(keys.size());
  for (const std::string& key : keys) stored_keys.push_back(regularPrefix_ + key);
  wait_for_keys(stored_keys, timeout);
}

void FileStore::wait_for_keys(const std::vector<std::string>& keys,
                              std::chrono::milliseconds timeout, std::vector<uint8_t>* first) {
  // Other processes write the file: nothing wakes this one, so it looks every 10 ms.
  const auto deadline = detail::deadline_after(timeout);
  while (true) {
    {
      std::lock_guard<std::mutex> guard(activeFileOpLock_);
      LockedFile file(path_, /*exclusive=*/false);
      refresh(file);
      bool all = true;
      for (const std::string& key : keys) all = all && cache_.count(key) != 0;
      if (all) {
        if (first != nullptr) *first = cache_.at(keys.front());
        return;
      }
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      std::vector<std::string> names;
      for (const std::string& key : keys) names.push_back(key.substr(regularPrefix_.size()));
      detail::throw_wait_timeout(names, timeout);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace c10d
