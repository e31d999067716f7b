#include "aten/detail/Resize.h"

#include <cstring>
#include <limits>

#include "aten/detail/CUDAHooksInterface.h"
#include "aten/detail/EmptyTensor.h"
#include "c10/core/StorageSize.h"

namespace at {
namespace detail {

namespace {
void maybe_grow_storage(c10::TensorImpl* self, size_t new_nbytes) {
  if (new_nbytes == 0) return;
  c10::StorageImpl* storage = self->storage().unsafeGetStorageImpl();
  TORCH_CHECK(storage != nullptr, "Cannot resize a tensor that has no storage");
  if (new_nbytes <= storage->nbytes()) return;
  if (self->is_meta()) {  // meta storage has a size but no bytes
    storage->set_nbytes(new_nbytes);
    return;
  }
  TORCH_CHECK(storage->resizable(), "Trying to resize storage that is not resizable");
  c10::Allocator* allocator = storage->allocator();
  TORCH_CHECK(allocator != nullptr, "Trying to resize storage without an allocator");
  c10::DataPtr fresh = allocator->allocate(new_nbytes);
  // Keep the old bytes (libtorch copies them too: resize_ may grow a tensor in place).
  if (storage->data() != nullptr && fresh.get() != nullptr && storage->nbytes() > 0) {
    if (self->is_cpu()) {
      std::memcpy(fresh.get(), storage->data(), storage->nbytes());
    } else if (self->is_cuda()) {
      at::detail::getCUDAHooks().copyDeviceBytes(fresh.get(), storage->data(), storage->nbytes(),
                                                 fresh.device().index());
    }
  }
  storage->set_data_ptr_noswap(std::move(fresh));
  storage->set_nbytes(new_nbytes);
}
}  // namespace

void check_numel_overflow(IntArrayRef sizes) {
  uint64_t n = 1;
  bool overflowed = false;
  for (int64_t s : sizes) overflowed |= __builtin_mul_overflow(n, static_cast<uint64_t>(s), &n);
  TORCH_CHECK(!overflowed && n <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max()),
              "numel: integer multiplication overflow");
}

void resize_impl_(c10::TensorImpl* self, IntArrayRef sizes, c10::optional<IntArrayRef> strides) {
  if (self->sizes() == sizes && (!strides || self->strides() == *strides)) return;
  check_numel_overflow(sizes);
  const size_t itemsize = self->itemsize();
  const size_t offset = static_cast<size_t>(self->storage_offset());
  size_t nbytes;
  if (strides) {
    self->set_sizes_and_strides(sizes, *strides);
    nbytes = c10::computeStorageNbytes(sizes, *strides, itemsize, offset);
  } else {
    self->set_sizes_contiguous(sizes);
    nbytes = c10::computeStorageNbytesContiguous(sizes, itemsize, offset);
  }
  maybe_grow_storage(self, nbytes);
}

}  // namespace detail
}  // namespace at
