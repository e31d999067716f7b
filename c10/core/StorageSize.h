#pragma once
// Storage-size arithmetic for strided tensors, and the checks a strided view must pass before
// it may point into a storage (as_strided, set_, view kernels).

#include <cstddef>
#include <cstdint>

#include "c10/core/Storage.h"
#include "c10/util/ArrayRef.h"

namespace c10 {

// Bytes needed for a contiguous tensor of these sizes (the sizes are known non-negative).
// "Storage size calculation overflowed with sizes=[...]" when it does not fit in int64.
C10_API size_t computeStorageNbytesContiguous(IntArrayRef sizes, size_t itemsize_bytes,
                                              size_t storage_offset = 0);
// Bytes from the storage start to one past the last element a strided view can reach; 0 when
// the view has no elements. Negative sizes or overflow raise the same error as above, with
// the strides.
C10_API size_t computeStorageNbytes(IntArrayRef sizes, IntArrayRef strides, size_t itemsize_bytes,
                                    size_t storage_offset = 0);
// "setStorage: sizes [..], strides [..], storage offset N, and itemsize M requiring a storage
// size of X are out of bounds for storage of size Y"
C10_API void checkInBoundsForStorage(IntArrayRef sizes, IntArrayRef strides,
                                     int64_t storage_offset, size_t itemsize,
                                     const Storage& storage);

}  // namespace c10
