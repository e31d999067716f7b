#pragma once
// WeakIValue: an IValue that does not keep its tensor or heap object alive. lock() gives the
// IValue back while something else still holds it, None after; numbers are simply copied.
//
//   c10::IValue v = tensor;
//   c10::WeakIValue weak(v);
//   weak.lock().toTensor().is_same(tensor);    // true while `tensor` lives

#include "dispatcher/IValue.h"

namespace c10 {

class C10_API WeakIValue final {
 public:
  WeakIValue() = default;
  WeakIValue(const IValue& v)  // NOLINT
      : tag_(v.tag_), weak_(intrusive_ptr<intrusive_ptr_target>::reclaim_copy(strong_target(v))) {
    if (!v.isTensor()) trivial_ = v.payload_.u;
  }

  IValue lock() const {
    if (tag_ == IValue::Tag::Tensor) {
      if (!weak_.is_null()) {
        auto impl = weak_.lock();
        if (!impl) return IValue();
        return IValue(at::Tensor(
            intrusive_ptr<TensorImpl>::reclaim(static_cast<TensorImpl*>(impl.release()))));
      }
      return IValue(at::Tensor());
    }
    if (!IValue::is_heap(tag_)) {
      IValue result;
      result.tag_ = tag_;
      result.payload_.u = trivial_;
      return result;
    }
    if (weak_.is_null()) return IValue(tag_, intrusive_ptr<intrusive_ptr_target>());
    auto strong = weak_.lock();
    if (!strong) return IValue();
    return IValue(tag_, std::move(strong));
  }

  // Strong holders of the object (0 once it is gone); 1 for a value held inline, as libtorch.
  size_t use_count() const noexcept { return weak_.is_null() ? 1 : weak_.use_count(); }
  bool isSameIdentity(const WeakIValue& rhs) const {
    return tag_ == rhs.tag_ && (IValue::is_heap(tag_) || tag_ == IValue::Tag::Tensor
                                    ? weak_.unsafe_get_target() == rhs.weak_.unsafe_get_target()
                                    : trivial_.as_int == rhs.trivial_.as_int);
  }

 private:
  static intrusive_ptr_target* strong_target(const IValue& v) {
    if (v.isTensor()) return v.payload_.as_tensor.unsafeGetTensorImpl();
    return IValue::is_heap(v.tag_) ? v.payload_.u.as_intrusive_ptr : nullptr;
  }

  IValue::Tag tag_ = IValue::Tag::None;
  IValue::Payload::Trivial trivial_{0};
  weak_intrusive_ptr<intrusive_ptr_target> weak_{intrusive_ptr<intrusive_ptr_target>()};
};

}  // namespace c10
