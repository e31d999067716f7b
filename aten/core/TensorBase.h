#pragma once
// TensorBase: the reference-counted handle to a TensorImpl, with every accessor that needs no
// operator. at::Tensor (aten/core/Tensor.h) derives from it and adds the generated operator
// methods; the dispatcher only ever needs this part.

#include <functional>
#include <limits>
#include <memory>
#include <ostream>

#include "aten/core/TensorAccessor.h"
#include "c10/core/TensorImpl.h"
#include "c10/core/TensorOptions.h"
#include "c10/util/Exception.h"
#include "c10/util/intrusive_ptr.h"

// ---- Autograd (aten/autograd) ----
namespace torch {
namespace autograd {
struct Node;
}  // namespace autograd
}  // namespace torch
// ---- end Autograd ----

namespace at {

class TensorBase;
class Tensor;

namespace detail {
[[noreturn]] TORCH_API void throw_undefined_tensor(const char* what);
[[noreturn]] TORCH_API void throw_data_ptr_type_mismatch(c10::ScalarType expected,
                                                         c10::ScalarType found);
}  // namespace detail

class TORCH_API TensorBase {
 public:
  TensorBase() = default;
  explicit TensorBase(c10::intrusive_ptr<c10::TensorImpl> impl) : impl_(std::move(impl)) {}
  TensorBase(const TensorBase&) = default;
  TensorBase(TensorBase&&) noexcept = default;
  TensorBase& operator=(const TensorBase&) & = default;
  TensorBase& operator=(TensorBase&&) & noexcept = default;

  bool defined() const noexcept { return impl_.defined(); }
  void reset() { impl_.reset(); }

  c10::TensorImpl* unsafeGetTensorImpl() const noexcept { return impl_.get(); }
  c10::TensorImpl* unsafeReleaseTensorImpl() { return impl_.release(); }
  const c10::intrusive_ptr<c10::TensorImpl>& getIntrusivePtr() const noexcept { return impl_; }
  c10::intrusive_ptr<c10::TensorImpl> unsafeReleaseIntrusivePtr() { return std::move(impl_); }
  size_t use_count() const noexcept { return impl_.use_count(); }

  // ---- Geometry ---------------------------------------------------------------------------
  int64_t dim() const { return impl("dim")->dim(); }
  int64_t ndimension() const { return dim(); }
  c10::IntArrayRef sizes() const { return impl("sizes")->sizes(); }
  c10::IntArrayRef strides() const { return impl("strides")->strides(); }
  int64_t size(int64_t d) const { return impl("size")->size(d); }
  int64_t stride(int64_t d) const { return impl("stride")->stride(d); }
  int64_t numel() const { return impl("numel")->numel(); }
  int64_t storage_offset() const { return impl("storage_offset")->storage_offset(); }
  // libtorch's undefined tensor counts as contiguous (and as nothing else), so that
  // `bias.contiguous()` of an absent bias hands the undefined tensor back rather than failing.
  bool is_contiguous(c10::MemoryFormat memory_format = c10::MemoryFormat::Contiguous) const {
    if (C10_UNLIKELY(!impl_)) {
      return memory_format == c10::MemoryFormat::Contiguous ||
             memory_format == c10::MemoryFormat::Preserve;
    }
    return impl_->is_contiguous(memory_format);
  }
  bool is_non_overlapping_and_dense() const {
    return impl("is_non_overlapping_and_dense")->is_non_overlapping_and_dense();
  }
  // ChannelsLast / ChannelsLast3d when the strides look like it (see Note [Ambiguous strides
  // and channels-last]); with exact_match, only when they equal the channels-last strides.
  c10::MemoryFormat suggest_memory_format(bool channels_last_strides_exact_match = false) const;

  // ---- Type, device, storage --------------------------------------------------------------
  c10::ScalarType scalar_type() const { return impl("scalar_type")->scalar_type(); }
  caffe2::TypeMeta dtype() const { return impl("dtype")->dtype(); }
  bool is_complex() const { return c10::isComplexType(scalar_type()); }
  bool is_floating_point() const { return c10::isFloatingType(scalar_type()); }
  c10::Device device() const {
    TORCH_CHECK(defined(), "tensor does not have a device");  // libtorch's text
    return impl_->device();
  }
  c10::Layout layout() const { return c10::Layout::Strided; }
  c10::DispatchKeySet key_set() const { return impl("key_set")->key_set(); }
  c10::TensorOptions options() const {
    // The device first: an undefined tensor's options() fail as its device() does.
    return c10::TensorOptions().device(device()).dtype(dtype()).layout(layout());
  }
  bool is_cpu() const { return impl("is_cpu")->is_cpu(); }
  bool is_cuda() const { return impl("is_cuda")->is_cuda(); }
  bool is_meta() const { return impl("is_meta")->is_meta(); }
  int64_t element_size() const { return static_cast<int64_t>(impl("element_size")->itemsize()); }
  size_t itemsize() const { return impl("itemsize")->itemsize(); }
  size_t nbytes() const { return static_cast<size_t>(numel()) * itemsize(); }
  bool has_storage() const { return defined() && impl_->has_storage(); }
  const c10::Storage& storage() const {
    TORCH_CHECK_NOT_IMPLEMENTED(defined(), "Cannot access storage of UndefinedTensorImpl");
    return impl_->storage();
  }
  // "CPUFloatType", as libtorch's toString() and the printed footer say.
  std::string toString() const;

  // Pointer to the first element; data_ptr<T> checks the dtype ("expected scalar type Float
  // but found Long", and "... found UNKNOWN_SCALAR" for an undefined tensor, as libtorch says)
  // and that there is data (a meta tensor with elements has none).
  void* data_ptr() const {
    TORCH_CHECK(defined(), "Cannot access data pointer of Tensor that doesn't have storage");
    return impl_->data();
  }
  template <typename T>
  T* data_ptr() const {
    const c10::ScalarType st = defined() ? scalar_type() : c10::ScalarType::Undefined;
    if (C10_UNLIKELY(st != c10::CppTypeToScalarType<T>::value)) {
      detail::throw_data_ptr_type_mismatch(c10::CppTypeToScalarType<T>::value, st);
    }
    return impl_->data_ptr_impl<T>();
  }

  // ---- Typed element access (aten/core/TensorAccessor.h) ------------------------------------
  // The dims are checked first ("TensorAccessor expected 2 dims but tensor has 3"), then the
  // dtype, as data_ptr<T> does. An accessor borrows this tensor's sizes and strides, so it
  // cannot be taken from a temporary.
  template <typename T, size_t N>
  TensorAccessor<T, N> accessor() const& {
    static_assert(N > 0, "accessor is used for indexing tensor, for scalars use *data_ptr<T>()");
    TORCH_CHECK(dim() == static_cast<int64_t>(N), "TensorAccessor expected ", N,
                " dims but tensor has ", dim());
    return TensorAccessor<T, N>(data_ptr<T>(), sizes().data(), strides().data());
  }
  template <typename T, size_t N>
  TensorAccessor<T, N> accessor() && = delete;

  // Copies sizes and strides (see Note [Accessors borrow or copy the geometry]).
  template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits,
            typename index_t = int64_t>
  GenericPackedTensorAccessor<T, N, PtrTraits, index_t> generic_packed_accessor() const& {
    static_assert(N > 0, "accessor is used for indexing tensor, for scalars use *data_ptr<T>()");
    TORCH_CHECK(dim() == static_cast<int64_t>(N), "TensorAccessor expected ", N,
                " dims but tensor has ", dim());
    return GenericPackedTensorAccessor<T, N, PtrTraits, index_t>(
        static_cast<typename PtrTraits<T>::PtrType>(data_ptr<T>()), sizes().data(),
        strides().data());
  }
  template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits,
            typename index_t = int64_t>
  GenericPackedTensorAccessor<T, N> generic_packed_accessor() && = delete;

  template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
  PackedTensorAccessor32<T, N, PtrTraits> packed_accessor32() const& {
    TORCH_CHECK(numel() <= static_cast<int64_t>(std::numeric_limits<int32_t>::max()),
                "numel needs to be smaller than int32_t max; otherwise, please use "
                "packed_accessor64");
    return generic_packed_accessor<T, N, PtrTraits, int32_t>();
  }
  template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
  PackedTensorAccessor32<T, N, PtrTraits> packed_accessor32() && = delete;

  template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
  PackedTensorAccessor64<T, N, PtrTraits> packed_accessor64() const& {
    return generic_packed_accessor<T, N, PtrTraits, int64_t>();
  }
  template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
  PackedTensorAccessor64<T, N, PtrTraits> packed_accessor64() && = delete;

  // ---- Identity and aliasing --------------------------------------------------------------
  bool is_same(const TensorBase& other) const noexcept { return impl_ == other.impl_; }
  // True when both tensors look at the same storage (views of one base).
  bool is_alias_of(const TensorBase& other) const {
    if (!has_storage() || !other.has_storage()) return false;
    return impl_->storage().is_alias_of(other.impl_->storage());
  }

  // ---- Versions ---------------------------------------------------------------------------
  int64_t _version() const { return impl("_version")->version_counter().current_version(); }

  // ---- Autograd (aten/autograd) ----
  // libtorch's autograd accessors; defined in aten/autograd/Variable.cpp.
  bool requires_grad() const { return impl("requires_grad")->requires_grad(); }
  // "Only Tensors of floating point and complex dtype can require gradients".
  const TensorBase& set_requires_grad(bool requires_grad) const;
  // The accumulated gradient of a leaf (or of a tensor that retains grad); undefined until a
  // backward reaches it.
  const Tensor& grad() const;
  Tensor& mutable_grad() const;
  // The node that made this tensor; nullptr for a leaf.
  const std::shared_ptr<torch::autograd::Node>& grad_fn() const;
  bool is_leaf() const;
  int64_t output_nr() const;
  // Keep this non-leaf's gradient in grad() during backward.
  void retain_grad() const;
  bool retains_grad() const;
  // Tensor::register_hook's untyped core: `hook` sees this tensor's gradient in backward (and
  // may return a replacement, or an undefined tensor to keep it). Returns its position, for
  // remove_hook.
  unsigned _register_hook(std::function<TensorBase(const TensorBase&)> hook) const;
  void remove_hook(unsigned pos) const;
  // A view's root base ("Can't get base of non-view Tensor" otherwise).
  const Tensor& _base() const;
  bool is_view() const;
  // ---- end Autograd ----

 protected:
  c10::TensorImpl* impl(const char* what) const {
    if (C10_UNLIKELY(!impl_)) detail::throw_undefined_tensor(what);
    return impl_.get();
  }

  c10::intrusive_ptr<c10::TensorImpl> impl_;
};

}  // namespace at
