#pragma once
// IValue: one boxed value — what a Stack holds and what a schema default is.
//
//   c10::IValue v = 3;                 // Int
//   v.isInt();  v.toInt();             // true, 3
//   c10::IValue t = tensor;            // Tensor
//   std::move(t).toTensor();           // takes the tensor out without a refcount bump
//   c10::IValue(std::vector<int64_t>{1, 2}).toIntVector();
//   c10::IValue(c10::kFloat).toScalarType();   // enums travel as Int, as in libtorch
//   v.toDouble();                      // throws "Expected Double but got Int"
//
// See Note [IValue layout].

#include <cstdint>
#include <iosfwd>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "aten/core/Tensor.h"
#include "c10/core/Device.h"
#include "c10/core/Layout.h"
#include "c10/core/MemoryFormat.h"
#include "c10/core/Scalar.h"
#include "c10/core/ScalarType.h"
#include "c10/util/ArrayRef.h"
#include "c10/util/Exception.h"
#include "c10/util/MaybeOwned.h"
#include "c10/util/Optional.h"
#include "c10/util/intrusive_ptr.h"
#include "c10/util/string_view.h"

namespace c10 {

// Note [IValue layout]
// An IValue is a one-byte tag plus an 8-byte union, 16 bytes in all, so a Stack of them is a
// flat array and moving one is two word copies. Numbers and devices live in the union; a Tensor
// is its intrusive pointer placed in the union; strings, lists and tuples live in a refcounted
// heap object (ivalue::HeapObject), shared between copies and never changed once built, so a
// copy is one refcount increment. Taking a list out of an rvalue IValue moves the vector when
// that IValue held the only reference.
//
// What libtorch has and this does not: generic lists and dicts, objects, futures, complex and
// symbolic numbers. ScalarType, Layout, MemoryFormat are stored as Int, exactly as libtorch does,
// so `IValue(kFloat).isInt()` is true and prints as 6.

class IValue;

namespace ivalue {

class HeapObject : public intrusive_ptr_target {
 public:
  ~HeapObject() override = default;
};

// A tuple of IValues (what a multi-return op's boxed result or a tuple default is). Its members
// are defined after IValue, which it contains.
class C10_API Tuple final : public HeapObject {
 public:
  explicit Tuple(std::vector<IValue> elements);
  ~Tuple() override;
  static intrusive_ptr<Tuple> create(std::vector<IValue> elements);
  const std::vector<IValue>& elements() const { return elements_; }
  size_t size() const;

 private:
  std::vector<IValue> elements_;
};

}  // namespace ivalue

namespace detail {

struct StringHolder final : ivalue::HeapObject {
  explicit StringHolder(std::string s) : str(std::move(s)) {}
  std::string str;
};

template <typename T>
struct ListHolder final : ivalue::HeapObject {
  explicit ListHolder(std::vector<T> v) : elements(std::move(v)) {}
  std::vector<T> elements;
};

}  // namespace detail

class C10_API IValue final {
 public:
  enum class Tag : uint8_t {
    None,
    Tensor,
    Double,
    Int,
    Bool,
    Device,
    // Heap kinds from here on.
    String,
    IntList,
    DoubleList,
    BoolList,
    TensorList,
    OptionalTensorList,
    Tuple,
    Generator,
  };

  IValue() noexcept : tag_(Tag::None) {}
  IValue(const IValue& rhs) : tag_(rhs.tag_) { copy_from(rhs); }
  IValue(IValue&& rhs) noexcept : tag_(rhs.tag_) { move_from(rhs); }
  IValue& operator=(const IValue& rhs) {
    if (this != &rhs) *this = IValue(rhs);
    return *this;
  }
  IValue& operator=(IValue&& rhs) noexcept {
    if (this != &rhs) {
      destroy();
      tag_ = rhs.tag_;
      move_from(rhs);
    }
    return *this;
  }
  ~IValue() { destroy(); }

  // None
  IValue(c10::nullopt_t) noexcept : IValue() {}  // NOLINT
  bool isNone() const { return tag_ == Tag::None; }

  // Tensor (an undefined tensor is still a Tensor, as in libtorch).
  IValue(at::Tensor t) : tag_(Tag::Tensor) {  // NOLINT
    new (&payload_.as_tensor) at::Tensor(std::move(t));
  }
  bool isTensor() const { return tag_ == Tag::Tensor; }
  const at::Tensor& toTensor() const& {
    if (!isTensor()) report_type_error("Tensor");
    return payload_.as_tensor;
  }
  at::Tensor& toTensor() & {
    if (!isTensor()) report_type_error("Tensor");
    return payload_.as_tensor;
  }
  at::Tensor toTensor() && {
    if (!isTensor()) report_type_error("Tensor");
    at::Tensor result = std::move(payload_.as_tensor);
    *this = IValue();
    return result;
  }

  // Double
  IValue(double d) : tag_(Tag::Double) { payload_.u.as_double = d; }  // NOLINT
  bool isDouble() const { return tag_ == Tag::Double; }
  double toDouble() const {
    if (!isDouble()) report_type_error("Double");
    return payload_.u.as_double;
  }

  // Int: any integer type except bool.
  template <typename T,
            std::enable_if_t<std::is_integral<T>::value && !std::is_same<T, bool>::value, int> = 0>
  IValue(T i) : tag_(Tag::Int) {  // NOLINT
    payload_.u.as_int = static_cast<int64_t>(i);
  }
  bool isInt() const { return tag_ == Tag::Int; }
  int64_t toInt() const {
    if (!isInt()) report_type_error("Int");
    return payload_.u.as_int;
  }

  // Bool
  IValue(bool b) : tag_(Tag::Bool) { payload_.u.as_bool = b; }  // NOLINT
  bool isBool() const { return tag_ == Tag::Bool; }
  bool toBool() const {
    if (!isBool()) report_type_error("Bool");
    return payload_.u.as_bool;
  }

  // Scalar: stored as Double, Bool or Int; any of those reads back as a Scalar.
  IValue(const Scalar& s);  // NOLINT
  bool isScalar() const { return isDouble() || isInt() || isBool(); }
  Scalar toScalar() const;

  // Enums, stored as Int.
  IValue(ScalarType t) : IValue(static_cast<int64_t>(t)) {}    // NOLINT
  IValue(Layout l) : IValue(static_cast<int64_t>(l)) {}        // NOLINT
  IValue(MemoryFormat m) : IValue(static_cast<int64_t>(m)) {}  // NOLINT
  ScalarType toScalarType() const { return static_cast<ScalarType>(toInt()); }
  Layout toLayout() const { return static_cast<Layout>(toInt()); }
  MemoryFormat toMemoryFormat() const { return static_cast<MemoryFormat>(toInt()); }

  // String
  IValue(std::string s) : tag_(Tag::String) {  // NOLINT
    new (&payload_.as_heap) HeapPtr(make_intrusive<detail::StringHolder>(std::move(s)));
  }
  IValue(const char* s) : IValue(std::string(s)) {}       // NOLINT
  IValue(c10::string_view s) : IValue(std::string(s)) {}  // NOLINT
  bool isString() const { return tag_ == Tag::String; }
  const std::string& toStringRef() const {
    if (!isString()) report_type_error("String");
    return static_cast<const detail::StringHolder*>(payload_.as_heap.get())->str;
  }
  c10::string_view toStringView() const { return toStringRef(); }

  // Device
  IValue(Device d) : tag_(Tag::Device) {  // NOLINT
    payload_.u.as_device.type = d.type();
    payload_.u.as_device.index = d.index();
  }
  bool isDevice() const { return tag_ == Tag::Device; }
  Device toDevice() const {
    if (!isDevice()) report_type_error("Device");
    return Device(payload_.u.as_device.type, payload_.u.as_device.index);
  }

  // Lists. toXList() const& views the stored vector; on an rvalue it hands the vector over.
  IValue(std::vector<int64_t> v) : IValue(Tag::IntList, std::move(v)) {}  // NOLINT
  IValue(ArrayRef<int64_t> v) : IValue(v.vec()) {}                        // NOLINT
  bool isIntList() const { return tag_ == Tag::IntList; }
  const std::vector<int64_t>& toIntList() const& { return list_ref<int64_t>(Tag::IntList); }
  std::vector<int64_t> toIntList() && { return take_list<int64_t>(Tag::IntList); }
  std::vector<int64_t> toIntVector() const { return list_ref<int64_t>(Tag::IntList); }

  IValue(std::vector<double> v) : IValue(Tag::DoubleList, std::move(v)) {}  // NOLINT
  IValue(ArrayRef<double> v) : IValue(v.vec()) {}                           // NOLINT
  bool isDoubleList() const { return tag_ == Tag::DoubleList; }
  const std::vector<double>& toDoubleList() const& { return list_ref<double>(Tag::DoubleList); }
  std::vector<double> toDoubleList() && { return take_list<double>(Tag::DoubleList); }
  std::vector<double> toDoubleVector() const { return list_ref<double>(Tag::DoubleList); }

  IValue(std::vector<bool> v) : IValue(Tag::BoolList, std::move(v)) {}  // NOLINT
  bool isBoolList() const { return tag_ == Tag::BoolList; }
  const std::vector<bool>& toBoolList() const& { return list_ref<bool>(Tag::BoolList); }
  std::vector<bool> toBoolList() && { return take_list<bool>(Tag::BoolList); }

  IValue(std::vector<at::Tensor> v) : IValue(Tag::TensorList, std::move(v)) {}  // NOLINT
  IValue(ArrayRef<at::Tensor> v) : IValue(v.vec()) {}                           // NOLINT
  bool isTensorList() const { return tag_ == Tag::TensorList; }
  const std::vector<at::Tensor>& toTensorList() const& {
    return list_ref<at::Tensor>(Tag::TensorList);
  }
  std::vector<at::Tensor> toTensorList() && { return take_list<at::Tensor>(Tag::TensorList); }
  std::vector<at::Tensor> toTensorVector() const { return list_ref<at::Tensor>(Tag::TensorList); }

  IValue(std::vector<c10::optional<at::Tensor>> v)  // NOLINT
      : IValue(Tag::OptionalTensorList, std::move(v)) {}
  IValue(ArrayRef<c10::optional<at::Tensor>> v) : IValue(v.vec()) {}  // NOLINT
  bool isOptionalTensorList() const { return tag_ == Tag::OptionalTensorList; }
  const std::vector<c10::optional<at::Tensor>>& toOptionalTensorList() const& {
    return list_ref<c10::optional<at::Tensor>>(Tag::OptionalTensorList);
  }
  std::vector<c10::optional<at::Tensor>> toOptionalTensorList() && {
    return take_list<c10::optional<at::Tensor>>(Tag::OptionalTensorList);
  }

  // Any of the list kinds above.
  bool isList() const { return tag_ >= Tag::IntList && tag_ <= Tag::OptionalTensorList; }

  // Tuple
  IValue(c10::intrusive_ptr<ivalue::Tuple> t);  // NOLINT
  bool isTuple() const { return tag_ == Tag::Tuple; }
  const ivalue::Tuple& toTupleRef() const;

  // Generator: held by a shared heap box, so copies of the IValue share one at::Generator handle
  // (and one GeneratorImpl); equality is identity, as for tensors.
  IValue(at::Generator g);  // NOLINT
  bool isGenerator() const { return tag_ == Tag::Generator; }
  at::Generator toGenerator() const;

  // Optionals: None when empty.
  template <typename T>
  IValue(c10::optional<T> v) : IValue() {  // NOLINT
    if (v.has_value()) *this = IValue(std::move(*v));
  }

  // Generic access, for code that only knows the C++ type: at::Tensor, int64_t, double, bool,
  // std::string, c10::string_view, Scalar, ScalarType, Layout, MemoryFormat, Device, IValue,
  // std::vector<int64_t | double | bool | at::Tensor | optional<Tensor>>, and optional<T> of those.
  template <typename T>
  T to() const&;
  template <typename T>
  T to() &&;
  template <typename T>
  c10::optional<T> toOptional() const {
    return to<c10::optional<T>>();
  }

  Tag tag() const { return tag_; }

  // Identity, as libtorch's: a defined Tensor or a heap value (string, list, tuple) is held by
  // pointer; use_count counts the holders of that object (0 for a value held inline).
  bool isPtrType() const {
    return tag_ == Tag::Tensor ? payload_.as_tensor.defined() : is_heap(tag_);
  }
  const void* internalToPointer() const {
    TORCH_INTERNAL_ASSERT(isPtrType(), "Can only call internalToPointer() for pointer types");
    return tag_ == Tag::Tensor ? static_cast<const void*>(payload_.as_tensor.unsafeGetTensorImpl())
                               : static_cast<const void*>(payload_.as_heap.get());
  }
  size_t use_count() const noexcept {
    if (tag_ == Tag::Tensor) return payload_.as_tensor.use_count();
    return is_heap(tag_) ? payload_.as_heap.use_count() : 0;
  }
  // libtorch's names: "None", "Tensor", "Int", ...; every list kind is "GenericList".
  std::string tagKind() const;

 private:
  using HeapPtr = intrusive_ptr<ivalue::HeapObject>;

  static bool is_heap(Tag tag) { return tag >= Tag::String; }

  template <typename T>
  IValue(Tag tag, std::vector<T> v) : tag_(tag) {
    new (&payload_.as_heap) HeapPtr(make_intrusive<detail::ListHolder<T>>(std::move(v)));
  }

  template <typename T>
  const std::vector<T>& list_ref(Tag expected) const {
    if (tag_ != expected) report_type_error(tag_name(expected));
    return static_cast<const detail::ListHolder<T>*>(payload_.as_heap.get())->elements;
  }
  template <typename T>
  std::vector<T> take_list(Tag expected) {
    if (tag_ != expected) report_type_error(tag_name(expected));
    auto* holder = static_cast<detail::ListHolder<T>*>(payload_.as_heap.get());
    std::vector<T> result =
        payload_.as_heap.unique() ? std::move(holder->elements) : holder->elements;
    *this = IValue();
    return result;
  }

  static const char* tag_name(Tag tag);
  [[noreturn]] void report_type_error(const char* expected) const;

  void copy_from(const IValue& rhs) {
    if (tag_ == Tag::Tensor) {
      new (&payload_.as_tensor) at::Tensor(rhs.payload_.as_tensor);
    } else if (is_heap(tag_)) {
      new (&payload_.as_heap) HeapPtr(rhs.payload_.as_heap);
    } else {
      payload_.u = rhs.payload_.u;
    }
  }
  // Precondition: tag_ == rhs.tag_ and *this holds nothing live. Leaves rhs None.
  void move_from(IValue& rhs) noexcept {
    if (tag_ == Tag::Tensor) {
      new (&payload_.as_tensor) at::Tensor(std::move(rhs.payload_.as_tensor));
    } else if (is_heap(tag_)) {
      new (&payload_.as_heap) HeapPtr(std::move(rhs.payload_.as_heap));
    } else {
      payload_.u = rhs.payload_.u;
    }
    rhs.destroy();
    rhs.tag_ = Tag::None;
  }
  void destroy() noexcept {
    if (tag_ == Tag::Tensor) {
      payload_.as_tensor.~Tensor();
    } else if (is_heap(tag_)) {
      payload_.as_heap.~HeapPtr();
    }
  }

  union Payload {
    union Trivial {
      int64_t as_int;
      double as_double;
      bool as_bool;
      struct {
        DeviceType type;
        DeviceIndex index;
      } as_device;
    } u;
    at::Tensor as_tensor;
    HeapPtr as_heap;
    Payload() : u{0} {}
    ~Payload() {}
  } payload_;
  Tag tag_;
};

// Deep equality: same tag and equal contents; tensors compare by identity (is_same), as a
// schema default or a test wants. (libtorch's operator== returns an IValue; this returns bool.)
C10_API bool operator==(const IValue& lhs, const IValue& rhs);
inline bool operator!=(const IValue& lhs, const IValue& rhs) {
  return !(lhs == rhs);
}

// As libtorch prints an IValue (and a schema default): 1, 1., 0.5, True, None, [1, 2], (1,), cpu.
// Strings print raw here; FunctionSchema quotes string defaults itself.
C10_API std::ostream& operator<<(std::ostream& out, const IValue& v);

namespace ivalue {

inline Tuple::Tuple(std::vector<IValue> elements) : elements_(std::move(elements)) {}
inline Tuple::~Tuple() = default;
inline intrusive_ptr<Tuple> Tuple::create(std::vector<IValue> elements) {
  return make_intrusive<Tuple>(std::move(elements));
}
inline size_t Tuple::size() const {
  return elements_.size();
}

}  // namespace ivalue

inline IValue::IValue(c10::intrusive_ptr<ivalue::Tuple> t) : tag_(Tag::Tuple) {
  TORCH_INTERNAL_ASSERT(t.defined(), "IValue from a null Tuple pointer");
  new (&payload_.as_heap) HeapPtr(std::move(t));
}

inline const ivalue::Tuple& IValue::toTupleRef() const {
  if (!isTuple()) report_type_error("Tuple");
  return *static_cast<const ivalue::Tuple*>(payload_.as_heap.get());
}

namespace detail {
struct GeneratorHolder final : ivalue::HeapObject {
  explicit GeneratorHolder(at::Generator g) : generator(std::move(g)) {}
  at::Generator generator;
};
}  // namespace detail

inline IValue::IValue(at::Generator g) : tag_(Tag::Generator) {
  new (&payload_.as_heap) HeapPtr(make_intrusive<detail::GeneratorHolder>(std::move(g)));
}

inline at::Generator IValue::toGenerator() const {
  if (!isGenerator()) report_type_error("Generator");
  return static_cast<const detail::GeneratorHolder*>(payload_.as_heap.get())->generator;
}

namespace detail {

template <typename T>
struct is_optional : std::false_type {};
template <typename T>
struct is_optional<c10::optional<T>> : std::true_type {};

template <typename T>
struct always_false : std::false_type {};

// V is `const IValue&` or `IValue` (an rvalue we may take from).
template <typename T, typename V>
T ivalue_to(V&& v) {
  if constexpr (is_optional<T>::value) {
    if (v.isNone()) return c10::nullopt;
    return ivalue_to<typename T::value_type>(std::forward<V>(v));
  } else if constexpr (std::is_same<T, IValue>::value) {
    return std::forward<V>(v);
  } else if constexpr (std::is_same<T, at::Tensor>::value) {
    return std::forward<V>(v).toTensor();
  } else if constexpr (std::is_same<T, int64_t>::value) {
    return v.toInt();
  } else if constexpr (std::is_same<T, double>::value) {
    return v.toDouble();
  } else if constexpr (std::is_same<T, bool>::value) {
    return v.toBool();
  } else if constexpr (std::is_same<T, std::string>::value) {
    return v.toStringRef();
  } else if constexpr (std::is_same<T, c10::string_view>::value) {
    static_assert(std::is_lvalue_reference<V>::value, "a string_view into a temporary IValue");
    return v.toStringView();
  } else if constexpr (std::is_same<T, Scalar>::value) {
    return v.toScalar();
  } else if constexpr (std::is_same<T, ScalarType>::value) {
    return v.toScalarType();
  } else if constexpr (std::is_same<T, Layout>::value) {
    return v.toLayout();
  } else if constexpr (std::is_same<T, MemoryFormat>::value) {
    return v.toMemoryFormat();
  } else if constexpr (std::is_same<T, Device>::value) {
    return v.toDevice();
  } else if constexpr (std::is_same<T, at::Generator>::value) {
    return v.toGenerator();
  } else if constexpr (std::is_same<T, std::vector<int64_t>>::value) {
    return std::forward<V>(v).toIntList();
  } else if constexpr (std::is_same<T, std::vector<double>>::value) {
    return std::forward<V>(v).toDoubleList();
  } else if constexpr (std::is_same<T, std::vector<bool>>::value) {
    return std::forward<V>(v).toBoolList();
  } else if constexpr (std::is_same<T, std::vector<at::Tensor>>::value) {
    return std::forward<V>(v).toTensorList();
  } else if constexpr (std::is_same<T, std::vector<c10::optional<at::Tensor>>>::value) {
    return std::forward<V>(v).toOptionalTensorList();
  } else {
    static_assert(always_false<T>::value, "IValue::to<T>() does not support this T");
  }
}

}  // namespace detail

template <typename T>
T IValue::to() const& {
  return detail::ivalue_to<T>(*this);
}
template <typename T>
T IValue::to() && {
  return detail::ivalue_to<T>(std::move(*this));
}

// MaybeOwned<IValue> borrows through a pointer (see Note [How MaybeOwned borrows]).
template <>
struct MaybeOwnedTraits<IValue> : public MaybeOwnedTraitsGenericImpl<IValue> {};

}  // namespace c10
