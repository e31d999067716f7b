// The contiguous chain (DESIGN.md, "The life of at::contiguous(t)"): contiguous -> clone ->
// empty_like / empty_strided -> copy_, and the conversions built on the same pieces (to,
// _to_copy, type_as), plus resize_ and set_.

#include "aten/ATen.h"
#include "aten/TensorUtils.h"
#include "aten/detail/CUDAHooksInterface.h"
#include "aten/detail/Resize.h"
#include "aten/generated/NativeFunctions.h"
#include "c10/core/StorageSize.h"

namespace at {
namespace native {

// CompositeImplicitAutograd: the same tensor when it already is contiguous in `memory_format`
// (an ambiguous tensor counts, so [2,1,4,4] returns early for ChannelsLast), else a clone.
Tensor contiguous(const Tensor& self, MemoryFormat memory_format) {
  if (self.is_contiguous(memory_format)) return self;
  TORCH_CHECK(memory_format != MemoryFormat::Preserve,
              "preserve memory format is unsupported by the contiguous operator");
  return self.clone(memory_format);
}

// CompositeExplicitAutograd. Preserve keeps a dense source's strides exactly; see
// Note [empty_like and Preserve] for the others.
Tensor clone(const Tensor& src, c10::optional<MemoryFormat> optional_memory_format) {
  const MemoryFormat memory_format = optional_memory_format.value_or(MemoryFormat::Preserve);
  Tensor self;
  if (memory_format == MemoryFormat::Preserve) {
    self = src.is_non_overlapping_and_dense()
               ? at::empty_strided(src.sizes(), src.strides(), src.scalar_type(), src.layout(),
                                   src.device(), c10::nullopt)
               : at::empty_like(src);
  } else {
    self = at::empty_like(src, c10::nullopt, c10::nullopt, c10::nullopt, c10::nullopt,
                          memory_format);
  }
  self.copy_(src);
  return self;
}

Tensor _to_copy(const Tensor& self, c10::optional<c10::ScalarType> dtype,
                c10::optional<Layout> layout, c10::optional<Device> device,
                c10::optional<bool> pin_memory, bool non_blocking,
                c10::optional<MemoryFormat> optional_memory_format) {
  const TensorOptions options =
      self.options()
          .merge_in(TensorOptions().dtype(dtype).layout(layout).device(device).pinned_memory(
              pin_memory))
          .memory_format(c10::nullopt);
  MemoryFormat memory_format = optional_memory_format.value_or(MemoryFormat::Preserve);
  if (memory_format == MemoryFormat::Preserve) {
    Tensor r = at::empty_strided(self.sizes(),
                                 self.is_non_overlapping_and_dense()
                                     ? std::vector<int64_t>(self.strides().begin(), self.strides().end())
                                     : infer_dense_strides(self.sizes(), self.strides()),
                                 options);
    r.copy_(self, non_blocking);
    return r;
  }
  Tensor r = at::empty(self.sizes(), options.memory_format(memory_format), c10::nullopt);
  r.copy_(self, non_blocking);
  return r;
}

namespace {

template <typename T>
bool is_null_or_equal_to(const c10::optional<T>& test, const T& value) {
  return !test.has_value() || *test == value;
}

// `to` returns self itself when nothing would change; a requested memory format only counts as
// "nothing" when it is what suggest_memory_format() already says (so to(channels_last) re-strides
// an ambiguous tensor that contiguous(channels_last) would return as is).
Tensor to_impl(const Tensor& self, c10::optional<c10::ScalarType> dtype,
               c10::optional<Layout> layout, c10::optional<Device> device,
               c10::optional<bool> pin_memory, bool non_blocking, bool copy,
               c10::optional<MemoryFormat> optional_memory_format) {
  const MemoryFormat memory_format = optional_memory_format.value_or(MemoryFormat::Preserve);
  const bool will_alias =
      is_null_or_equal_to(dtype, self.scalar_type()) && is_null_or_equal_to(layout, self.layout()) &&
      is_null_or_equal_to(device, self.device()) && !copy &&
      (memory_format == MemoryFormat::Preserve || self.suggest_memory_format() == memory_format);
  if (will_alias) return self;
  return at::_to_copy(self, dtype, layout, device, pin_memory, non_blocking,
                      optional_memory_format);
}

// "cuda" means the calling thread's current CUDA device; other device types without an index
// mean their device 0.
Device ensure_has_index(Device device) {
  if (device.is_cpu() || device.has_index()) return device;
  if (device.is_cuda()) return Device(device.type(), at::detail::getCUDAHooks().currentDevice());
  return Device(device.type(), 0);
}

}  // namespace

Tensor to(const Tensor& self, c10::optional<c10::ScalarType> dtype, c10::optional<Layout> layout,
          c10::optional<Device> device, c10::optional<bool> pin_memory, bool non_blocking,
          bool copy, c10::optional<MemoryFormat> memory_format) {
  return to_impl(self, dtype, layout,
                 device ? c10::make_optional(ensure_has_index(*device)) : c10::nullopt, pin_memory,
                 non_blocking, copy, memory_format);
}

Tensor to(const Tensor& self, Device device, c10::ScalarType dtype, bool non_blocking, bool copy,
          c10::optional<MemoryFormat> memory_format) {
  return to_impl(self, dtype, c10::nullopt, ensure_has_index(device), c10::nullopt, non_blocking,
                 copy, memory_format);
}

Tensor to(const Tensor& self, c10::ScalarType dtype, bool non_blocking, bool copy,
          c10::optional<MemoryFormat> memory_format) {
  return to_impl(self, dtype, c10::nullopt, c10::nullopt, c10::nullopt, non_blocking, copy,
                 memory_format);
}

Tensor to(const Tensor& self, const Tensor& other, bool non_blocking, bool copy,
          c10::optional<MemoryFormat> memory_format) {
  return to_impl(self, other.scalar_type(), other.layout(), other.device(), c10::nullopt,
                 non_blocking, copy, memory_format);
}

Tensor type_as(const Tensor& self, const Tensor& other) { return self.to(other.options()); }

// ---- Changing a tensor's own geometry -------------------------------------------------------

Tensor& resize_(Tensor& self, IntArrayRef size, c10::optional<MemoryFormat> memory_format) {
  at::detail::resize_impl_(self.unsafeGetTensorImpl(), size);
  if (memory_format.has_value()) {
    TORCH_CHECK(*memory_format != MemoryFormat::Preserve, "Unsupported memory format",
                *memory_format);
    self.unsafeGetTensorImpl()->empty_tensor_restride(*memory_format);
  }
  return self;
}

Tensor& set_(Tensor& self, const Tensor& source, int64_t storage_offset, IntArrayRef size,
             IntArrayRef stride) {
  TORCH_CHECK(self.dtype() == source.dtype(), "Could not set tensor of type ", source.dtype(),
              " to a tensor of type ", self.dtype());
  for (int64_t s : stride) {
    TORCH_CHECK(s >= 0, "as_strided: Negative strides are not supported at the moment, got "
                        "strides: ", stride);
  }
  c10::TensorImpl* impl = self.unsafeGetTensorImpl();
  if (!self.storage().is_alias_of(source.storage()) ||
      self.storage().unsafeGetStorageImpl() != source.storage().unsafeGetStorageImpl()) {
    impl->set_storage_keep_dtype(source.storage());
  }
  TORCH_CHECK(storage_offset >= 0, "Tensor: invalid storage offset ", storage_offset);
  if (stride.empty()) {
    const c10::DimVector contiguous = [&] {
      c10::DimVector s(size.size(), 1);
      for (int64_t i = static_cast<int64_t>(size.size()) - 2; i >= 0; --i) {
        s[i] = s[i + 1] * std::max<int64_t>(size[i + 1], 1);
      }
      return s;
    }();
    c10::checkInBoundsForStorage(size, contiguous, storage_offset, impl->itemsize(), impl->storage());
    impl->set_sizes_and_strides(size, contiguous, storage_offset);
  } else {
    TORCH_CHECK(size.size() == stride.size(), "mismatch in length of strides and shape");
    c10::checkInBoundsForStorage(size, stride, storage_offset, impl->itemsize(), impl->storage());
    impl->set_sizes_and_strides(size, stride, storage_offset);
  }
  return self;
}

Tensor& set_(Tensor& self, const Tensor& source) {
  if (self.is_same(source)) return self;
  return native::set_(self, source, source.storage_offset(), source.sizes(), source.strides());
}

Tensor& set_(Tensor& self) {
  // An empty storage of self's dtype and device; sizes [0].
  c10::Storage fresh(c10::Storage::use_byte_size_t(), 0,
                     self.is_meta() ? nullptr : c10::GetAllocator(self.device().type()),
                     /*resizable=*/!self.is_meta());
  self.unsafeGetTensorImpl()->set_storage_keep_dtype(fresh);
  self.unsafeGetTensorImpl()->set_sizes_contiguous({0});
  self.unsafeGetTensorImpl()->set_storage_offset(0);
  return self;
}

}  // namespace native
}  // namespace at
