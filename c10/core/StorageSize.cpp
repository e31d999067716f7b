#include "c10/core/StorageSize.h"

#include <algorithm>
#include <limits>

namespace c10 {

namespace {
constexpr uint64_t kStorageMax = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());

bool mul_overflows(uint64_t a, uint64_t b, uint64_t* out) {
  return __builtin_mul_overflow(a, b, out);
}
bool add_overflows(uint64_t a, uint64_t b, uint64_t* out) {
  return __builtin_add_overflow(a, b, out);
}
}  // namespace

size_t computeStorageNbytesContiguous(IntArrayRef sizes, size_t itemsize_bytes,
                                      size_t storage_offset) {
  uint64_t size = 1;
  bool overflowed = false;
  for (int64_t s : sizes) overflowed |= mul_overflows(size, static_cast<uint64_t>(s), &size);
  overflowed |= add_overflows(size, storage_offset, &size);
  overflowed |= mul_overflows(size, itemsize_bytes, &size);
  overflowed |= size > kStorageMax;
  TORCH_CHECK(!overflowed, "Storage size calculation overflowed with sizes=", sizes);
  return static_cast<size_t>(size);
}

// Note [A negative size beside a zero size]
// libtorch 1.13 returns 0 bytes at the first zero size without looking at the others, so
// t.as_strided({0, -2}, {0, 0}) succeeds there and makes a tensor whose size is -2 (its numel
// check multiplies to 0 as well; found by fuzz_view). Here a zero size beside a negative one is
// the overflow error that as_strided({-2}, {1}) gives in libtorch. Without a zero size the sum
// runs as libtorch's does, so each other negative size gets libtorch's own error (the overflow
// here, or the numel check's "integer multiplication overflow" after a 0 stride).
size_t computeStorageNbytes(IntArrayRef sizes, IntArrayRef strides, size_t itemsize_bytes,
                            size_t storage_offset) {
  // One past the offset of the last reachable element. A negative size reads as a huge
  // unsigned number and so reports as an overflow, as in libtorch; see
  // Note [A negative size beside a zero size].
  uint64_t size = storage_offset + 1;
  bool overflowed = false;
  for (size_t i = 0; i < sizes.size(); i++) {
    if (sizes[i] == 0) {
      overflowed = std::any_of(sizes.begin(), sizes.end(), [](int64_t s) { return s < 0; });
      if (!overflowed) return 0;
      break;
    }
    uint64_t strided_size = 0;
    overflowed |= mul_overflows(static_cast<uint64_t>(strides[i]),
                                static_cast<uint64_t>(sizes[i]) - 1, &strided_size);
    overflowed |= add_overflows(size, strided_size, &size);
  }
  overflowed |= mul_overflows(size, itemsize_bytes, &size);
  overflowed |= size > kStorageMax;
  TORCH_CHECK(!overflowed, "Storage size calculation overflowed with sizes=", sizes,
              " and strides=", strides);
  return static_cast<size_t>(size);
}

void checkInBoundsForStorage(IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset,
                             size_t itemsize, const Storage& storage) {
  const size_t storage_size_bytes = computeStorageNbytes(sizes, strides, itemsize);
  // A view with no elements may sit on any storage.
  if (storage_size_bytes == 0) return;
  // libtorch 1.13 adds the offset's bytes in int64 and wraps for a huge offset
  // (as_strided({1}, {1}, INT64_MAX) passes its check there and points far past the storage);
  // here that sum overflowing is reported as computeStorageNbytes reports its own. A negative
  // offset is left to the caller's check ("Tensor: invalid storage offset -1").
  int64_t storage_offset_bytes = 0;
  int64_t required_bytes = 0;
  const bool overflowed = __builtin_mul_overflow(storage_offset, static_cast<int64_t>(itemsize),
                                                 &storage_offset_bytes) ||
                          __builtin_add_overflow(static_cast<int64_t>(storage_size_bytes),
                                                 storage_offset_bytes, &required_bytes);
  TORCH_CHECK(!overflowed, "Storage size calculation overflowed with sizes=", sizes,
              " and strides=", strides);
  const int64_t new_storage_size_bytes = static_cast<int64_t>(storage.nbytes());
  TORCH_CHECK(required_bytes <= new_storage_size_bytes, "setStorage: sizes ", sizes, ", strides ",
              strides, ", storage offset ", storage_offset, ", and itemsize ", itemsize,
              " requiring a storage size of ", required_bytes,
              " are out of bounds for storage of size ", new_storage_size_bytes);
}

}  // namespace c10
