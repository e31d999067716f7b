// The contiguous chain (DESIGN.md, "The life of at::contiguous(t)"): contiguous -> clone ->
// empty_like / empty_strided -> copy_, and the conversions built on the same pieces (to,
// _to_copy, type_as), plus resize_ and set_.

#include "aten/ATen.h"
#include "aten/TensorUtils.h"
#include "aten/detail/CUDAHooksInterface.h"
#include "aten/detail/Resize.h"
#include "aten/generated/NativeFunctions.h"
#include "c10/core/StorageSize.h"
#include "c10/util/WrappingArithmetic.h"

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
  // An undefined self is never returned as is: _to_copy refuses it, as in libtorch.
  const bool will_alias =
      self.defined() && is_null_or_equal_to(dtype, self.scalar_type()) &&
      is_null_or_equal_to(layout, self.layout()) && is_null_or_equal_to(device, self.device()) &&
      !copy &&
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
  // other's options, as libtorch takes them (an undefined other: "tensor does not have a device").
  const c10::TensorOptions options = other.options();
  return to_impl(self, options.dtype().toScalarType(), options.layout(), options.device(),
                 c10::nullopt, non_blocking, copy, memory_format);
}

Tensor type_as(const Tensor& self, const Tensor& other) { return self.to(other.options()); }

// ---- Changing a tensor's own geometry -------------------------------------------------------

// Note [A refused resize_ or set_ changes nothing]
// libtorch 1.13 checks some arguments only after it has begun to change self: resize_ sets the
// sizes before their product is checked (resize_({-1}) leaves sizes [-1] and numel 6) and
// before the memory format is; set_ swaps in the new storage before checking the offset and sets
// the sizes before checking them. Here every check comes first, with libtorch's words and in its
// order, so that a call that throws leaves self exactly as it was.
Tensor& resize_(Tensor& self, IntArrayRef size, c10::optional<MemoryFormat> memory_format) {
  at::detail::check_numel_overflow(size);
  if (memory_format.has_value()) {
    TORCH_CHECK(*memory_format != MemoryFormat::Preserve, "Unsupported memory format",
                *memory_format);
    TORCH_CHECK(*memory_format != MemoryFormat::ChannelsLast || size.size() == 4,
                "required rank 4 tensor to use channels_last format");
    TORCH_CHECK(*memory_format != MemoryFormat::ChannelsLast3d || size.size() == 5,
                "required rank 5 tensor to use channels_last_3d format");
  }
  at::detail::resize_impl_(self.unsafeGetTensorImpl(), size);
  if (memory_format.has_value()) self.unsafeGetTensorImpl()->empty_tensor_restride(*memory_format);
  return self;
}

// See Note [A refused resize_ or set_ changes nothing]. libtorch 1.13 also lets self take a
// source of another dtype and reads its bytes as self's dtype; that is refused, as later
// versions do.
Tensor& set_(Tensor& self, const Tensor& source, int64_t storage_offset, IntArrayRef size,
             IntArrayRef stride) {
  TORCH_CHECK(self.dtype() == source.dtype(), "Could not set tensor of type ", source.dtype(),
              " to a tensor of type ", self.dtype());
  TORCH_CHECK(stride.empty() || size.size() == stride.size(), "unequal size length (", size.size(),
              ") and stride length (", stride.size(), ")");
  c10::TensorImpl* impl = self.unsafeGetTensorImpl();
  const bool new_storage =
      !self.storage().is_alias_of(source.storage()) ||
      self.storage().unsafeGetStorageImpl() != source.storage().unsafeGetStorageImpl();
  TORCH_CHECK(!new_storage || self.storage().device() == source.storage().device(),
              "Attempted to set the storage of a tensor on device \"", self.storage().device(),
              "\" to a storage on different device \"", source.storage().device(),
              "\".  This is no longer allowed; the devices must match.");
  TORCH_CHECK(storage_offset >= 0, "Tensor: invalid storage offset ", storage_offset);
  at::detail::check_numel_overflow(size);
  c10::DimVector strides(stride.begin(), stride.end());
  if (stride.empty()) {
    // Contiguous strides, wrapping past int64 as TensorImpl::restride_contiguous's do (only an
    // empty tensor's can; found by fuzz_boxed_call: set_ to [0, 2^62, 4]).
    strides.assign(size.size(), 1);
    for (int64_t i = static_cast<int64_t>(size.size()) - 2; i >= 0; --i) {
      strides[i] = c10::wrapping_mul(strides[i + 1], std::max<int64_t>(size[i + 1], 1));
    }
  }
  // A negative stride reads as a huge one: "Storage size calculation overflowed ...".
  c10::checkInBoundsForStorage(size, strides, storage_offset, impl->itemsize(), source.storage());
  if (new_storage) impl->set_storage_keep_dtype(source.storage());
  impl->set_sizes_and_strides(size, strides, storage_offset);
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
