#include "aten/serialization/MappedFile.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "c10/util/Exception.h"

namespace at::serialization {

namespace {
// Closes the descriptor on every path out of open(): the mapping does not need it.
struct FdCloser {
  int fd;
  ~FdCloser() { ::close(fd); }
};
}  // namespace

std::shared_ptr<MappedFile> MappedFile::open(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  TORCH_CHECK(fd >= 0, "open file failed because of errno ", errno,
              " on fopen: ", std::strerror(errno), ", file path: ", path);
  FdCloser closer{fd};
  struct stat st {};
  TORCH_CHECK(::fstat(fd, &st) == 0, "could not stat ", path, ": ", std::strerror(errno));
  TORCH_CHECK(S_ISREG(st.st_mode), path, " is not a regular file");
  size_t size = static_cast<size_t>(st.st_size);
  if (size == 0) return std::shared_ptr<MappedFile>(new MappedFile(path, nullptr, 0));
  // Copy on write: see Note [Loaded tensors keep their file mapped].
  void* data = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
  TORCH_CHECK(data != MAP_FAILED, "could not map ", path, ": ", std::strerror(errno));
  return std::shared_ptr<MappedFile>(new MappedFile(path, static_cast<char*>(data), size));
}

MappedFile::~MappedFile() {
  if (data_ != nullptr) ::munmap(data_, size_);
}

}  // namespace at::serialization
