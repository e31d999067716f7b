#pragma once
// MaybeOwned<T>: either a borrow of a T that lives elsewhere or a T of its own (libtorch's
// c10/util/MaybeOwned.h, Rust's Cow without the borrow checker). It lets a function return
// its argument unchanged without a refcount increment, or a new value when it had to make one:
//
//   c10::MaybeOwned<at::Tensor> c = t.expect_contiguous();  // borrows t when t is contiguous
//   use(*c);                                                 // const at::Tensor&
//   auto o = c10::MaybeOwned<at::Tensor>::owned(c10::in_place, sizes, options);
//   auto b = c10::MaybeOwned<at::Tensor>::borrowed(t);       // t must outlive b
//
// Copying a borrow borrows the same T; copying an owned T copies the T (no chains of borrows).
// Moving leaves the source in its state: a borrow stays a borrow, an owned T is moved from.
//
// Note [How MaybeOwned borrows]
// MaybeOwnedTraits<T> says how a borrow is kept. The generic way is a `const T*`. For types that
// are themselves one pointer to an intrusively counted object (intrusive_ptr, at::Tensor) the
// borrow is a T holding the same pointer without a count of its own (made with reclaim, given
// up with release): *borrowed is then a T& with no second indirection, and the use count of
// the original stays as it was. MaybeOwned<T> for a T without traits does not compile, as in
// libtorch; the traits for at::Tensor and IValue live beside those types.

#include <memory>
#include <new>
#include <type_traits>
#include <utility>

#include "c10/util/Exception.h"
#include "c10/util/Macros.h"
#include "c10/util/in_place.h"
#include "c10/util/intrusive_ptr.h"

namespace c10 {

// Borrowing through a pointer to const.
template <typename T>
struct MaybeOwnedTraitsGenericImpl {
  using owned_type = T;
  using borrow_type = const T*;

  static borrow_type createBorrow(const owned_type& from) { return &from; }
  static void assignBorrow(borrow_type& lhs, borrow_type rhs) { lhs = rhs; }
  static void destroyBorrow(borrow_type& /*to_destroy*/) {}
  static const owned_type& referenceFromBorrow(const borrow_type& borrow) { return *borrow; }
  static const owned_type* pointerFromBorrow(const borrow_type& borrow) { return borrow; }
  static bool debugBorrowIsValid(const borrow_type& borrow) { return borrow != nullptr; }
};

template <typename T>
struct MaybeOwnedTraits;

template <typename T>
struct MaybeOwnedTraits<std::shared_ptr<T>>
    : public MaybeOwnedTraitsGenericImpl<std::shared_ptr<T>> {};

// See Note [How MaybeOwned borrows]: the borrow is an uncounted intrusive_ptr.
template <typename T>
struct MaybeOwnedTraits<intrusive_ptr<T>> {
  using owned_type = intrusive_ptr<T>;
  using borrow_type = intrusive_ptr<T>;

  static borrow_type createBorrow(const owned_type& from) {
    return borrow_type::reclaim(from.get());
  }
  static void assignBorrow(borrow_type& lhs, const borrow_type& rhs) {
    lhs.release();
    lhs = borrow_type::reclaim(rhs.get());
  }
  static void destroyBorrow(borrow_type& to_destroy) { to_destroy.release(); }
  static const owned_type& referenceFromBorrow(const borrow_type& borrow) { return borrow; }
  static const owned_type* pointerFromBorrow(const borrow_type& borrow) { return &borrow; }
  static bool debugBorrowIsValid(const borrow_type& /*borrow*/) { return true; }
};

template <typename T>
class MaybeOwned final {
  using Traits = MaybeOwnedTraits<T>;
  using borrow_type = typename Traits::borrow_type;
  using owned_type = typename Traits::owned_type;

  // Private: borrowed(), owned() and owned(in_place, ...) say which one is meant.
  explicit MaybeOwned(const owned_type& t) : isBorrowed_(true), borrow_(Traits::createBorrow(t)) {}
  explicit MaybeOwned(T&& t) noexcept(std::is_nothrow_move_constructible<T>::value)
      : isBorrowed_(false), own_(std::move(t)) {}
  template <class... Args>
  explicit MaybeOwned(in_place_t, Args&&... args)
      : isBorrowed_(false), own_(std::forward<Args>(args)...) {}

 public:
  // A borrow of nothing: only for assigning to later (dereferencing it is undefined).
  explicit MaybeOwned() : isBorrowed_(true), borrow_() {}

  MaybeOwned(const MaybeOwned& rhs) : isBorrowed_(rhs.isBorrowed_) {
    if (C10_LIKELY(rhs.isBorrowed_)) {
      new (&borrow_) borrow_type();
      Traits::assignBorrow(borrow_, rhs.borrow_);
    } else {
      new (&own_) T(rhs.own_);
    }
  }
  MaybeOwned(MaybeOwned&& rhs) noexcept(std::is_nothrow_move_constructible<T>::value)
      : isBorrowed_(rhs.isBorrowed_) {
    if (C10_LIKELY(rhs.isBorrowed_)) {
      new (&borrow_) borrow_type();
      Traits::assignBorrow(borrow_, rhs.borrow_);
    } else {
      new (&own_) T(std::move(rhs.own_));
    }
  }

  MaybeOwned& operator=(const MaybeOwned& rhs) {
    if (this == &rhs) return *this;
    if (C10_UNLIKELY(!isBorrowed_)) {
      if (rhs.isBorrowed_) {
        own_.~T();
        new (&borrow_) borrow_type();
        Traits::assignBorrow(borrow_, rhs.borrow_);
        isBorrowed_ = true;
      } else {
        own_ = rhs.own_;
      }
    } else if (C10_LIKELY(rhs.isBorrowed_)) {
      Traits::assignBorrow(borrow_, rhs.borrow_);
    } else {
      destroy_borrow();
      new (&own_) T(rhs.own_);
      isBorrowed_ = false;
    }
    return *this;
  }
  MaybeOwned& operator=(MaybeOwned&& rhs) noexcept(std::is_nothrow_move_assignable<T>::value) {
    if (this == &rhs) return *this;
    if (C10_UNLIKELY(!isBorrowed_)) {
      if (rhs.isBorrowed_) {
        own_.~T();
        new (&borrow_) borrow_type();
        Traits::assignBorrow(borrow_, rhs.borrow_);
        isBorrowed_ = true;
      } else {
        own_ = std::move(rhs.own_);
      }
    } else if (C10_LIKELY(rhs.isBorrowed_)) {
      Traits::assignBorrow(borrow_, rhs.borrow_);
    } else {
      destroy_borrow();
      new (&own_) T(std::move(rhs.own_));
      isBorrowed_ = false;
    }
    return *this;
  }

  ~MaybeOwned() {
    if (C10_UNLIKELY(!isBorrowed_)) {
      own_.~T();
    } else {
      destroy_borrow();
    }
  }

  // The caller guarantees that t outlives the result.
  static MaybeOwned borrowed(const T& t) { return MaybeOwned(t); }
  static MaybeOwned owned(T&& t) noexcept(std::is_nothrow_move_constructible<T>::value) {
    return MaybeOwned(std::move(t));
  }
  template <class... Args>
  static MaybeOwned owned(in_place_t, Args&&... args) {
    return MaybeOwned(in_place, std::forward<Args>(args)...);
  }

  // An implementation detail, for tests: to be sure of owning, move the T out (std::move(mo)).
  bool unsafeIsBorrowed() const { return isBorrowed_; }

  const T& operator*() const& {
    if (isBorrowed_) TORCH_INTERNAL_ASSERT_DEBUG_ONLY(Traits::debugBorrowIsValid(borrow_));
    return C10_LIKELY(isBorrowed_) ? Traits::referenceFromBorrow(borrow_) : own_;
  }
  const T* operator->() const {
    if (isBorrowed_) TORCH_INTERNAL_ASSERT_DEBUG_ONLY(Traits::debugBorrowIsValid(borrow_));
    return C10_LIKELY(isBorrowed_) ? Traits::pointerFromBorrow(borrow_) : &own_;
  }
  // A borrow is copied out; an owned T is moved out (this stays owned, holding a moved-from T).
  T operator*() && {
    if (isBorrowed_) {
      TORCH_INTERNAL_ASSERT_DEBUG_ONLY(Traits::debugBorrowIsValid(borrow_));
      return Traits::referenceFromBorrow(borrow_);
    }
    return std::move(own_);
  }

 private:
  // A borrow_type is a pointer or a T holding an uncounted pointer: after destroyBorrow gave
  // the pointer up, running its destructor releases nothing.
  void destroy_borrow() {
    Traits::destroyBorrow(borrow_);
    borrow_.~borrow_type();
  }

  bool isBorrowed_;
  union {
    borrow_type borrow_;
    owned_type own_;
  };
};

}  // namespace c10
