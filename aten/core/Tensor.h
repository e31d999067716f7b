#pragma once
// at::Tensor: the user-facing tensor handle. Operator methods (t.contiguous(), t.add_(x), ...)
// are generated from the schema registry and defined after the dispatcher is visible; this
// header only declares the class, so the dispatcher can hold Tensors without seeing operators.

#include <initializer_list>
#include <type_traits>
#include <utility>

#include "aten/core/Generator.h"
#include "aten/core/TensorBase.h"
#include "c10/core/Backend.h"
#include "c10/core/Scalar.h"
#include "c10/util/MaybeOwned.h"
#include "dispatcher/ListFwd.h"

namespace at {

class DeprecatedTypeProperties;
namespace indexing {
struct TensorIndex;
}  // namespace indexing

class TORCH_API Tensor : public TensorBase {
 public:
  Tensor() = default;
  explicit Tensor(c10::intrusive_ptr<c10::TensorImpl> impl) : TensorBase(std::move(impl)) {}
  explicit Tensor(const TensorBase& base) : TensorBase(base) {}
  Tensor(const Tensor&) = default;
  Tensor(Tensor&&) noexcept = default;
  Tensor& operator=(const Tensor&) & = default;
  Tensor& operator=(Tensor&&) & noexcept = default;
  // Note [Assigning to a temporary writes its elements]
  // On an rvalue, assignment writes through instead of rebinding: `t[0] = 3` is
  // t.select(0, 0).fill_(3) and `t[1] = u` is t.select(0, 1).copy_(u) (broadcasting u), as
  // libtorch's TensorBody.h has it. A named Tensor still rebinds (`Tensor v = t[0]; v = u;`).
  Tensor& operator=(const c10::Scalar& value) &&;
  Tensor& operator=(const Tensor& rhs) &&;
  Tensor& operator=(Tensor&& rhs) &&;

  template <typename T>
  T* data_ptr() const {
    return TensorBase::data_ptr<T>();
  }
  void* data_ptr() const { return TensorBase::data_ptr(); }

  // libtorch's fast path: a tensor already contiguous in the format comes back as is, with no
  // dispatch at all; otherwise this is at::contiguous (dispatcher, trace, autograd).
  Tensor contiguous(c10::MemoryFormat memory_format = c10::MemoryFormat::Contiguous) const {
    return is_contiguous(memory_format) ? *this : __dispatch_contiguous(memory_format);
  }
  Tensor __dispatch_contiguous(c10::MemoryFormat memory_format) const;
  // Borrows *this when it is contiguous in the format, else owns contiguous(memory_format).
  // A temporary could not outlive the borrow, so rvalues are refused (as in libtorch).
  c10::MaybeOwned<Tensor> expect_contiguous(
      c10::MemoryFormat memory_format = c10::MemoryFormat::Contiguous) const&;
  c10::MaybeOwned<Tensor> expect_contiguous(
      c10::MemoryFormat memory_format = c10::MemoryFormat::Contiguous) && = delete;

  // ---- Operators, as libtorch's TensorBody.h has them (defined in TensorMethodsManual.h; the
  // binary ones are free functions in aten/TensorOperators.h) ----
  Tensor operator-() const;
  Tensor& operator+=(const Tensor& other);
  Tensor& operator+=(const c10::Scalar& other);
  Tensor& operator-=(const Tensor& other);
  Tensor& operator-=(const c10::Scalar& other);
  Tensor& operator*=(const Tensor& other);
  Tensor& operator*=(const c10::Scalar& other);
  Tensor& operator/=(const Tensor& other);
  Tensor& operator/=(const c10::Scalar& other);
  // Integral and bool tensors only: bitwise_not, bitwise_and_, bitwise_or_, bitwise_xor_.
  Tensor operator~() const;
  Tensor& operator&=(const Tensor& other);
  Tensor& operator|=(const Tensor& other);
  Tensor& operator^=(const Tensor& other);
  // t[i] is t.select(0, i); a Scalar or 0-dim Tensor index must be integral.
  Tensor operator[](int64_t index) const;
  Tensor operator[](const c10::Scalar& index) const;
  Tensor operator[](const Tensor& index) const;

  // libtorch's C++ indexing (aten/TensorIndexing.h): t.index({Slice(1, None), 0, "..."}) and
  // t.index_put_({mask}, 0). Defined in aten/TensorIndexing.cpp.
  Tensor index(ArrayRef<at::indexing::TensorIndex> indices) const;
  Tensor index(std::initializer_list<at::indexing::TensorIndex> indices) const;
  Tensor& index_put_(ArrayRef<at::indexing::TensorIndex> indices, const Tensor& rhs);
  Tensor& index_put_(ArrayRef<at::indexing::TensorIndex> indices, const c10::Scalar& v);
  Tensor& index_put_(std::initializer_list<at::indexing::TensorIndex> indices, const Tensor& rhs);
  Tensor& index_put_(std::initializer_list<at::indexing::TensorIndex> indices,
                     const c10::Scalar& v);

  // ---- The deprecated type API (aten/core/DeprecatedTypeProperties.h) ----
  // (backend, dtype) as one object: t.type().toString() is "CPUFloatType". Prefer options().
  DeprecatedTypeProperties& type() const;
  // to(dtype) and to(device of the backend): *this when nothing changes.
  Tensor toType(c10::ScalarType t) const;
  Tensor toBackend(c10::Backend b) const;
  // The tensor on the CPU / the current CUDA device: *this when it is already there, else a
  // copy (libtorch's to(options().device(...)), blocking).
  Tensor cpu() const;
  Tensor cuda() const;

  // The one element as a T: item().to<T>(), with Scalar's overflow check.
  template <typename T>
  T item() const;

  // ---- Autograd (aten/autograd) ----
  // Defined in aten/autograd/Variable.cpp.
  const Tensor& set_requires_grad(bool requires_grad) const {
    TensorBase::set_requires_grad(requires_grad);
    return *this;
  }
  Tensor& requires_grad_(bool requires_grad = true) const;
  // A new tensor sharing storage and version counter, with no autograd history.
  Tensor detach() const;
  Tensor& detach_() const;
  // Accumulates d(this)/d(leaf) into every leaf's grad(), or only into `inputs`'.
  void backward(const Tensor& gradient = {}, c10::optional<bool> retain_graph = c10::nullopt,
                bool create_graph = false,
                c10::optional<c10::ArrayRef<Tensor>> inputs = c10::nullopt) const;
  // hook(grad) runs when backward computes this tensor's gradient: a hook returning void only
  // sees it, one returning a Tensor replaces it (libtorch's register_hook). Returns the hook's
  // position for remove_hook.
  template <typename T>
  using hook_return_void_t =
      std::enable_if_t<std::is_void<std::invoke_result_t<T&, Tensor>>::value, unsigned>;
  template <typename T>
  using hook_return_var_t =
      std::enable_if_t<std::is_same<std::invoke_result_t<T&, Tensor>, Tensor>::value, unsigned>;
  template <typename T>
  hook_return_void_t<T> register_hook(T&& hook) const {
    return _register_hook([fn = std::forward<T>(hook)](const TensorBase& grad) mutable {
      fn(Tensor(grad));
      return TensorBase();
    });
  }
  template <typename T>
  hook_return_var_t<T> register_hook(T&& hook) const {
    return _register_hook([fn = std::forward<T>(hook)](const TensorBase& grad) mutable {
      return TensorBase(fn(Tensor(grad)));
    });
  }
  // ---- end Autograd ----

  // var(0) and std(0) as libtorch's C++ API reads them: over dim 0. int -> bool beats
  // int -> IntArrayRef, so without these the call would pick var(bool unbiased) (gh-40287).
  Tensor var(int dim) const;
  Tensor std(int dim) const;

  // The operator methods, generated from aten/native/native_functions.def; their inline
  // definitions are in aten/generated/TensorMethods.h (included by aten/ATen.h).
#ifndef MINIATEN_CODEGEN_BOOTSTRAP
#include "aten/generated/TensorMethodDecls.inc"
#endif
};

using TensorList = c10::ArrayRef<Tensor>;
using ITensorListRef = c10::ArrayRef<Tensor>;

namespace detail {
// Wraps a freshly made TensorImpl subclass in a Tensor.
template <typename T, typename... Args>
Tensor make_tensor(Args&&... args) {
  return Tensor(c10::make_intrusive<T>(std::forward<Args>(args)...));
}
}  // namespace detail

}  // namespace at

namespace c10 {

// See Note [How MaybeOwned borrows]: a borrowed Tensor holds the same TensorImpl without a
// count of its own.
template <>
struct MaybeOwnedTraits<at::Tensor> {
  using owned_type = at::Tensor;
  using borrow_type = at::Tensor;

  static borrow_type createBorrow(const owned_type& from) {
    return at::Tensor(c10::intrusive_ptr<c10::TensorImpl>::reclaim(from.unsafeGetTensorImpl()));
  }
  static void assignBorrow(borrow_type& lhs, const borrow_type& rhs) {
    lhs.unsafeReleaseTensorImpl();
    lhs = createBorrow(rhs);
  }
  static void destroyBorrow(borrow_type& to_destroy) { to_destroy.unsafeReleaseTensorImpl(); }
  static const owned_type& referenceFromBorrow(const borrow_type& borrow) { return borrow; }
  static const owned_type* pointerFromBorrow(const borrow_type& borrow) { return &borrow; }
  static bool debugBorrowIsValid(const borrow_type& /*borrow*/) { return true; }
};

}  // namespace c10

namespace at {

inline c10::MaybeOwned<Tensor> Tensor::expect_contiguous(c10::MemoryFormat memory_format) const& {
  if (is_contiguous(memory_format)) return c10::MaybeOwned<Tensor>::borrowed(*this);
  return c10::MaybeOwned<Tensor>::owned(__dispatch_contiguous(memory_format));
}

}  // namespace at
