#include "aten/detail/EmptyTensor.h"

#include "c10/core/CPUAllocator.h"
#include "c10/core/StorageSize.h"

namespace at {
namespace detail {

void check_size_nonnegative(IntArrayRef size) {
  for (int64_t x : size) {
    TORCH_CHECK(x >= 0, "Trying to create tensor with negative dimension ", x, ": ", size);
  }
}

namespace {
// Small CPU tensors keep their bytes inside the StorageImpl's allocation: one malloc, not two
// (Note [Small CPU allocations]). empty and empty_strided (clone's) both come here.
c10::Storage make_storage(size_t nbytes, c10::Allocator* allocator) {
  if (nbytes > 0 && nbytes <= c10::StorageImpl::kMaxInlineBytes &&
      allocator == c10::GetDefaultCPUAllocator()) {
    return c10::Storage(c10::StorageImpl::make_with_inline_data(nbytes, allocator));
  }
  return c10::Storage(c10::make_intrusive<c10::StorageImpl>(
      c10::StorageImpl::use_byte_size_t(), nbytes, allocator, /*resizable=*/true));
}
}  // namespace

Tensor empty_generic(IntArrayRef size, c10::Allocator* allocator, c10::DispatchKeySet ks,
                     c10::ScalarType scalar_type,
                     c10::optional<c10::MemoryFormat> memory_format_opt) {
  check_size_nonnegative(size);
  const caffe2::TypeMeta dtype = caffe2::TypeMeta::fromScalarType(scalar_type);
  const size_t nbytes = c10::computeStorageNbytesContiguous(size, dtype.itemsize());
  c10::Storage storage = make_storage(nbytes, allocator);
  auto impl = c10::make_intrusive<c10::TensorImpl>(std::move(storage), ks, dtype);
  // A fresh TensorImpl is 1-d of size 0; the common 1-d contiguous case needs no restride.
  if (!(size.size() == 1 && size[0] == 0)) impl->set_sizes_contiguous(size);
  const c10::MemoryFormat memory_format =
      memory_format_opt.value_or(c10::MemoryFormat::Contiguous);
  if (memory_format != c10::MemoryFormat::Contiguous) {
    impl->empty_tensor_restride(memory_format);
  }
  return Tensor(std::move(impl));
}

Tensor empty_strided_generic(IntArrayRef size, IntArrayRef stride, c10::Allocator* allocator,
                             c10::DispatchKeySet ks, c10::ScalarType scalar_type) {
  check_size_nonnegative(size);
  TORCH_CHECK(size.size() == stride.size(), "mismatch in length of strides and shape");
  const caffe2::TypeMeta dtype = caffe2::TypeMeta::fromScalarType(scalar_type);
  const size_t nbytes = c10::computeStorageNbytes(size, stride, dtype.itemsize());
  c10::Storage storage = make_storage(nbytes, allocator);
  auto impl = c10::make_intrusive<c10::TensorImpl>(std::move(storage), ks, dtype);
  impl->set_sizes_and_strides(size, stride);
  return Tensor(std::move(impl));
}

Tensor empty_cpu(IntArrayRef size, c10::ScalarType dtype,
                 c10::optional<c10::MemoryFormat> memory_format_opt) {
  constexpr c10::DispatchKeySet cpu_ks = c10::keysetForBackend(c10::DispatchKey::CPU);
  return empty_generic(size, c10::GetCPUAllocator(), cpu_ks, dtype, memory_format_opt);
}

Tensor empty_strided_cpu(IntArrayRef size, IntArrayRef stride, c10::ScalarType dtype) {
  constexpr c10::DispatchKeySet cpu_ks = c10::keysetForBackend(c10::DispatchKey::CPU);
  return empty_strided_generic(size, stride, c10::GetCPUAllocator(), cpu_ks, dtype);
}

}  // namespace detail
}  // namespace at
