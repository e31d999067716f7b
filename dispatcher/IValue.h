#pragma once
// IValue: one boxed value — what a Stack holds, what a schema default is, and what TorchScript's
// containers (List, Dict, Tuple, Future, Object) hold.
//
//   c10::IValue v = 3;                 // Int
//   v.isInt();  v.toInt();             // true, 3
//   c10::IValue t = tensor;            // Tensor
//   std::move(t).toTensor();           // takes the tensor out without a refcount bump
//   c10::IValue(c10::List<int64_t>({1, 2})).toIntList();   // shares the list, as libtorch does
//   c10::IValue(std::make_tuple(1, "a")).toTuple()->elements()[1].toStringRef();  // "a"
//   c10::IValue(c10::kFloat).toScalarType();   // enums travel as Int, as in libtorch
//   v.toDouble();                      // throws "Expected Double but got Int"
//
// The containers live in their own headers (dispatcher/List.h, Dict.h, Tuple.h, Future.h,
// Object.h, WeakIValue.h); this header includes them all at its end, as libtorch's ivalue.h
// does. See Note [IValue layout].

#include <array>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "aten/core/Tensor.h"
#include "c10/core/Device.h"
#include "c10/core/Layout.h"
#include "c10/core/MemoryFormat.h"
#include "c10/core/Scalar.h"
#include "c10/core/ScalarType.h"
#include "c10/core/Storage.h"
#include "c10/core/Stream.h"
#include "c10/util/ArrayRef.h"
#include "c10/util/Exception.h"
#include "c10/util/MaybeOwned.h"
#include "c10/util/Optional.h"
#include "c10/util/complex.h"
#include "c10/util/intrusive_ptr.h"
#include "c10/util/string_view.h"
#include "dispatcher/ListFwd.h"
#include "dispatcher/SchemaType.h"
#include "dispatcher/impl/HeapObjects.h"

namespace caffe2 {
class Blob;
}  // namespace caffe2
namespace torch {
struct CustomClassHolder;
}  // namespace torch

namespace c10 {

// Note [IValue layout]
// An IValue is a one-byte tag plus an 8-byte union, 16 bytes in all, so a Stack of them is a
// flat array and moving one is two word copies. Numbers, devices and streams live in the union;
// a Tensor is its intrusive pointer placed in the union; everything else is one refcounted heap
// object (an intrusive_ptr_target: ConstantString, StorageImpl, a list, a Tuple, a dict, a
// Future, ...) held by a raw owning pointer, so a copy is one refcount increment and a move two
// word copies. Tags after kFirstHeapTag are the heap kinds; copy, move and destroy test that
// one range and never switch.
//
// Lists keep their elements unboxed where libtorch's hot paths need them: int, float, bool,
// complex, Tensor and Tensor? lists each have a tag and hold a std::vector of that C++ type
// (boxing an IntArrayRef is one vector copy, unboxing one is a view). Lists of anything else
// are GenericList, a vector of IValues. libtorch keeps all of them as GenericList; tagKind()
// reports them all as "GenericList" as it does. See dispatcher/List.h.
//
// ScalarType, Layout, MemoryFormat are stored as Int, exactly as libtorch does, so
// `IValue(kFloat).isInt()` is true and prints as 6.
//
// What libtorch has and this does not: symbolic numbers, RRef, PyObject, Quantizer.

class IValue;
class WeakIValue;
template <class Key, class Value>
class Dict;
struct ClassType;
struct EnumType;

namespace ivalue {
struct Tuple;
struct Future;
struct Object;
struct EnumHolder;
}  // namespace ivalue

class C10_API IValue final {
 public:
  enum class Tag : uint8_t {
    None,
    Tensor,
    Double,
    Int,
    Bool,
    Device,
    Stream,
    // Heap kinds from here on (see Note [IValue layout]).
    ComplexDouble,
    Storage,
    String,
    IntList,
    DoubleList,
    BoolList,
    ComplexDoubleList,
    TensorList,
    OptionalTensorList,
    GenericList,
    Tuple,
    GenericDict,
    Future,
    Object,
    Enum,
    Blob,
    Generator,  // its GeneratorImpl, shared by copies; equality is identity
    Capsule,    // a torch::CustomClassHolder; see Note [Custom class objects]
  };
  static constexpr Tag kFirstHeapTag = Tag::ComplexDouble;

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
  void swap(IValue& rhs) noexcept {
    IValue tmp(std::move(rhs));
    rhs = std::move(*this);
    *this = std::move(tmp);
  }

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
  c10::TensorImpl* unsafeToTensorImpl() const { return toTensor().unsafeGetTensorImpl(); }

  // Storage (an empty Storage is still a Storage).
  IValue(c10::Storage s) : IValue(Tag::Storage, s.getIntrusivePtr().get()) {}  // NOLINT
  bool isStorage() const { return tag_ == Tag::Storage; }
  c10::Storage toStorage() const {
    if (!isStorage()) report_type_error("Storage");
    return c10::Storage(toIntrusivePtr<c10::StorageImpl>());
  }

  // Double
  IValue(double d) : tag_(Tag::Double) { payload_.u.as_double = d; }  // NOLINT
  bool isDouble() const { return tag_ == Tag::Double; }
  double toDouble() const {
    if (!isDouble()) report_type_error("Double");
    return payload_.u.as_double;
  }

  // ComplexDouble (complex<float> widens).
  template <class T>
  IValue(c10::complex<T> c)  // NOLINT
      : IValue(Tag::ComplexDouble, make_intrusive<ivalue::ComplexHolder>(c10::complex<double>(c))) {
  }
  bool isComplexDouble() const { return tag_ == Tag::ComplexDouble; }
  c10::complex<double> toComplexDouble() const {
    if (!isComplexDouble()) report_type_error("ComplexDouble");
    return static_cast<const ivalue::ComplexHolder*>(payload_.u.as_intrusive_ptr)->val;
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

  // Scalar: stored as Double, ComplexDouble, Bool or Int; any of those reads back as a Scalar.
  IValue(const Scalar& s);  // NOLINT
  bool isScalar() const { return isDouble() || isInt() || isBool() || isComplexDouble(); }
  Scalar toScalar() const;

  // Enums, stored as Int.
  IValue(ScalarType t) : IValue(static_cast<int64_t>(t)) {}    // NOLINT
  IValue(Layout l) : IValue(static_cast<int64_t>(l)) {}        // NOLINT
  IValue(MemoryFormat m) : IValue(static_cast<int64_t>(m)) {}  // NOLINT
  // See Note [An enum from an IValue is checked].
  ScalarType toScalarType() const;
  Layout toLayout() const;
  MemoryFormat toMemoryFormat() const;

  // String
  IValue(c10::intrusive_ptr<ivalue::ConstantString> s)
      : IValue(Tag::String, std::move(s)) {}                                       // NOLINT
  IValue(std::string s) : IValue(ivalue::ConstantString::create(std::move(s))) {}  // NOLINT
  IValue(const char* s) : IValue(std::string(s)) {}                                // NOLINT
  IValue(c10::string_view s) : IValue(std::string(s)) {}                           // NOLINT
  bool isString() const { return tag_ == Tag::String; }
  c10::intrusive_ptr<ivalue::ConstantString> toString() const {
    if (!isString()) report_type_error("String");
    return toIntrusivePtr<ivalue::ConstantString>();
  }
  const std::string& toStringRef() const {
    if (!isString()) report_type_error("String");
    return static_cast<const ivalue::ConstantString*>(payload_.u.as_intrusive_ptr)->string();
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

  // Stream, packed into the payload as libtorch packs it.
  IValue(c10::Stream s) : tag_(Tag::Stream) {  // NOLINT
    payload_.u.as_int = static_cast<int64_t>(s.pack());
  }
  bool isStream() const { return tag_ == Tag::Stream; }
  c10::Stream toStream() const {
    if (!isStream()) report_type_error("Stream");
    return c10::Stream::unpack(static_cast<uint64_t>(payload_.u.as_int));
  }

  // Lists: see dispatcher/List.h for c10::List<T> and the generic kinds. The vectors box into
  // the unboxed kinds; toXList() shares the list as a c10::List<X>; toXVector() copies it out;
  // toXListRef() is miniaten's zero-copy view (what unboxing an IntArrayRef uses).
  IValue(std::vector<int64_t> v) : IValue(Tag::IntList, std::move(v)) {}  // NOLINT
  IValue(ArrayRef<int64_t> v) : IValue(v.vec()) {}                        // NOLINT
  bool isIntList() const { return tag_ == Tag::IntList; }
  c10::List<int64_t> toIntList() const&;
  c10::List<int64_t> toIntList() &&;
  const std::vector<int64_t>& toIntListRef() const { return list_ref<int64_t>(Tag::IntList); }
  std::vector<int64_t> toIntVector() const { return list_ref<int64_t>(Tag::IntList); }

  IValue(std::vector<double> v) : IValue(Tag::DoubleList, std::move(v)) {}  // NOLINT
  IValue(ArrayRef<double> v) : IValue(v.vec()) {}                           // NOLINT
  bool isDoubleList() const { return tag_ == Tag::DoubleList; }
  c10::List<double> toDoubleList() const&;
  c10::List<double> toDoubleList() &&;
  const std::vector<double>& toDoubleListRef() const { return list_ref<double>(Tag::DoubleList); }
  std::vector<double> toDoubleVector() const { return list_ref<double>(Tag::DoubleList); }

  IValue(std::vector<bool> v) : IValue(Tag::BoolList, std::move(v)) {}  // NOLINT
  bool isBoolList() const { return tag_ == Tag::BoolList; }
  c10::List<bool> toBoolList() const&;
  c10::List<bool> toBoolList() &&;
  const std::vector<bool>& toBoolListRef() const { return list_ref<bool>(Tag::BoolList); }

  IValue(std::vector<c10::complex<double>> v)  // NOLINT
      : IValue(Tag::ComplexDoubleList, std::move(v)) {}
  bool isComplexDoubleList() const { return tag_ == Tag::ComplexDoubleList; }
  c10::List<c10::complex<double>> toComplexDoubleList() const&;
  c10::List<c10::complex<double>> toComplexDoubleList() &&;
  std::vector<c10::complex<double>> toComplexDoubleVector() const {
    return list_ref<c10::complex<double>>(Tag::ComplexDoubleList);
  }

  // Tensor lists hand out their vector (libtorch returns a c10::List<at::Tensor>); the key
  // extractor (DispatchKeyExtractor.cpp) reads toTensorListRef(), which stays a vector.
  IValue(std::vector<at::Tensor> v) : IValue(Tag::TensorList, std::move(v)) {}  // NOLINT
  IValue(ArrayRef<at::Tensor> v) : IValue(v.vec()) {}                           // NOLINT
  bool isTensorList() const { return tag_ == Tag::TensorList; }
  const std::vector<at::Tensor>& toTensorList() const& {
    return list_ref<at::Tensor>(Tag::TensorList);
  }
  std::vector<at::Tensor> toTensorList() && { return take_list<at::Tensor>(Tag::TensorList); }
  std::vector<at::Tensor> toTensorVector() const { return list_ref<at::Tensor>(Tag::TensorList); }
  const std::vector<at::Tensor>& toTensorListRef() const {
    return list_ref<at::Tensor>(Tag::TensorList);
  }

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

  // c10::List<T> of any T, and std::vector<T> of the T no unboxed kind covers (GenericList).
  template <class T>
  IValue(c10::List<T> list);  // NOLINT
  template <class T, std::enable_if_t<!detail::has_unboxed_list<T>::value, int> = 0>
  IValue(const std::vector<T>& v);  // NOLINT
  template <class T, std::enable_if_t<!detail::has_unboxed_list<T>::value, int> = 0>
  IValue(ArrayRef<T> v) : IValue(v.vec()) {}  // NOLINT
  // Any of the list kinds.
  bool isList() const { return tag_ >= Tag::IntList && tag_ <= Tag::GenericList; }
  // A GenericList as a List<IValue> (the unboxed kinds are not GenericLists here).
  c10::List<IValue> toList() const&;
  c10::List<IValue> toList() &&;
  // Elements of a GenericList, in place.
  c10::ArrayRef<IValue> toListRef() const;

  // Tuple (dispatcher/Tuple.h), also from a std::tuple.
  IValue(c10::intrusive_ptr<ivalue::Tuple> t);  // NOLINT
  template <class... Args>
  IValue(const std::tuple<Args...>& t);  // NOLINT
  bool isTuple() const { return tag_ == Tag::Tuple; }
  c10::intrusive_ptr<ivalue::Tuple> toTuple() const&;
  c10::intrusive_ptr<ivalue::Tuple> toTuple() &&;
  const ivalue::Tuple& toTupleRef() const;

  // Dict (dispatcher/Dict.h).
  template <class Key, class Value>
  IValue(c10::Dict<Key, Value> dict);  // NOLINT
  // The deprecated std::unordered_map form becomes a Dict too (insertion order is the map's).
  template <class Key, class Value>
  IValue(const std::unordered_map<Key, Value>& map);  // NOLINT
  template <class T, size_t N>
  IValue(const std::array<T, N>& v) : IValue(std::vector<T>(v.begin(), v.end())) {}  // NOLINT
  bool isGenericDict() const { return tag_ == Tag::GenericDict; }
  c10::Dict<IValue, IValue> toGenericDict() const&;
  c10::Dict<IValue, IValue> toGenericDict() &&;

  // Future, Object, Enum (dispatcher/Future.h, Object.h), Blob (dispatcher/Blob.h).
  IValue(c10::intrusive_ptr<ivalue::Future> f);  // NOLINT
  bool isFuture() const { return tag_ == Tag::Future; }
  c10::intrusive_ptr<ivalue::Future> toFuture() const;
  IValue(c10::intrusive_ptr<ivalue::Object> o);  // NOLINT
  bool isObject() const { return tag_ == Tag::Object; }
  c10::intrusive_ptr<ivalue::Object> toObject() const;
  const ivalue::Object& toObjectRef() const;
  IValue(c10::intrusive_ptr<ivalue::EnumHolder> e);  // NOLINT
  bool isEnum() const { return tag_ == Tag::Enum; }
  c10::intrusive_ptr<ivalue::EnumHolder> toEnumHolder() const;
  IValue(c10::intrusive_ptr<caffe2::Blob> b);  // NOLINT
  bool isBlob() const { return tag_ == Tag::Blob; }
  c10::intrusive_ptr<caffe2::Blob> toBlob() const;
  IValue(at::Generator g);  // NOLINT
  bool isGenerator() const { return tag_ == Tag::Generator; }
  at::Generator toGenerator() const;

  // Custom classes (torch::class_, dispatcher/CustomClass.h): an intrusive_ptr<T> to a
  // registered class T becomes an Object of T's class holding the pointer in a Capsule; see
  // Note [Custom class objects].
  template <class T, std::enable_if_t<std::is_base_of<torch::CustomClassHolder, T>::value, int> = 0>
  IValue(c10::intrusive_ptr<T> custom_class);  // NOLINT
  bool isCustomClass() const;
  // The object's pointer as T; throws unless this is an object of T's registered class.
  template <typename T>
  c10::intrusive_ptr<T> toCustomClass() const;
  static IValue make_capsule(c10::intrusive_ptr<torch::CustomClassHolder> blob);
  bool isCapsule() const { return tag_ == Tag::Capsule; }
  c10::intrusive_ptr<torch::CustomClassHolder> toCapsule() const;

  // Optionals: None when empty.
  template <typename T>
  IValue(c10::optional<T> v) : IValue() {  // NOLINT
    if (v.has_value()) *this = IValue(std::move(*v));
  }

  // Generic access, for code that only knows the C++ type (dispatcher/IValue_inl.h): the types
  // above, c10::List<T>, c10::Dict<K, V>, std::vector<T>, std::tuple<...>, optional<T>.
  template <typename T>
  T to() const&;
  template <typename T>
  T to() &&;
  template <typename T>
  c10::optional<T> toOptional() const {
    return to<c10::optional<T>>();
  }

  // ---- Identity, equality, hashing (libtorch's semantics; see IValue.cpp) ------------------
  // Python's `==`: numbers, strings, devices, streams by value; lists, tuples, dicts element by
  // element; tensors elementwise (a Bool tensor, via at::eq); the rest by identity.
  IValue equals(const IValue& rhs) const;
  // Python's `is`: heap objects and tensors by pointer (None is an undefined tensor), the rest
  // by value.
  bool is(const IValue& rhs) const;
  // True when a Tensor (by storage) or heap object is shared.
  bool isAliasOf(const IValue& rhs) const;
  // A defined Tensor or a heap object (an empty Storage is not one).
  bool isPtrType() const;
  const void* internalToPointer() const;
  // Python's hash(): tensors and storages by identity, numbers and strings by value, tuples by
  // their elements; lists, dicts, futures, objects, streams and complex numbers are unhashable.
  static size_t hash(const IValue& v);
  IValue hash() const { return static_cast<int64_t>(hash(*this)); }
  size_t use_count() const noexcept;

  // Sets of IValues keyed by what they alias (the storage of a tensor, the pointer of a heap
  // object).
  struct HashAliasedIValue {
    size_t operator()(const IValue& v) const;
  };
  struct CompAliasedIValues {
    bool operator()(const IValue& lhs, const IValue& rhs) const { return lhs.isAliasOf(rhs); }
  };
  using HashAliasedIValues = std::unordered_set<IValue, HashAliasedIValue, CompAliasedIValues>;
  using HashAliasedIValueMap =
      std::unordered_map<IValue, IValue, HashAliasedIValue, CompAliasedIValues>;
  // Adds this value and every Tensor, list, tuple, dict and object inside it.
  void getSubValues(HashAliasedIValues& subValues) const;

  // The value's type, as far as miniaten knows it (TypeKind::Any for objects without a type).
  TypePtr type() const;

  Tag tag() const { return tag_; }
  // libtorch's names: "None", "Tensor", "Int", ...; every list kind is "GenericList".
  std::string tagKind() const;

 private:
  friend class WeakIValue;

  static bool is_heap(Tag tag) { return tag >= kFirstHeapTag; }

  // Adopts one reference to `target` (which may be null).
  template <class T>
  IValue(Tag tag, intrusive_ptr<T> target) : tag_(tag) {
    payload_.u.as_intrusive_ptr = target.release();
  }
  // Takes a new reference to `target` (which may be null).
  IValue(Tag tag, intrusive_ptr_target* target) : tag_(tag) {
    payload_.u.as_intrusive_ptr = target;
    incref(target);
  }
  template <typename T>
  IValue(Tag tag, std::vector<T> v)
      : IValue(tag, make_intrusive<detail::ListImpl<T>>(std::move(v))) {}

  template <class T>
  intrusive_ptr<T> toIntrusivePtr() const {
    return intrusive_ptr<T>::reclaim_copy(static_cast<T*>(payload_.u.as_intrusive_ptr));
  }
  template <class T>
  intrusive_ptr<T> moveToIntrusivePtr() {
    auto result = intrusive_ptr<T>::reclaim(static_cast<T*>(payload_.u.as_intrusive_ptr));
    tag_ = Tag::None;
    payload_.u.as_int = 0;
    return result;
  }

  template <typename T>
  const std::vector<T>& list_ref(Tag expected) const {
    if (tag_ != expected) report_type_error(tag_name(expected));
    return static_cast<const detail::ListImpl<T>*>(payload_.u.as_intrusive_ptr)->list;
  }
  template <typename T>
  std::vector<T> take_list(Tag expected) {
    if (tag_ != expected) report_type_error(tag_name(expected));
    auto impl = moveToIntrusivePtr<detail::ListImpl<T>>();
    return impl.unique() ? std::move(impl->list) : impl->list;
  }
  template <typename T, typename Self>
  static T to_impl(Self&& self);
  template <class Tuple, class Elements, size_t... I>
  static Tuple tuple_from(const Elements& elements, std::index_sequence<I...>);

  template <class T>
  c10::List<T> list_of(Tag expected) const&;
  template <class T>
  c10::List<T> list_of(Tag expected) &&;

  static const char* tag_name(Tag tag);
  [[noreturn]] void report_type_error(const char* expected) const;

  static void incref(intrusive_ptr_target* p) noexcept {
    intrusive_ptr<intrusive_ptr_target>::reclaim_copy(p).release();
  }
  static void decref(intrusive_ptr_target* p) noexcept {
    intrusive_ptr<intrusive_ptr_target>::reclaim(p);  // drops the reference
  }

  void copy_from(const IValue& rhs) {
    if (tag_ == Tag::Tensor) {
      new (&payload_.as_tensor) at::Tensor(rhs.payload_.as_tensor);
    } else {
      payload_.u = rhs.payload_.u;
      if (is_heap(tag_)) incref(payload_.u.as_intrusive_ptr);
    }
  }
  // Precondition: tag_ == rhs.tag_ and *this holds nothing live. Leaves rhs None.
  void move_from(IValue& rhs) noexcept {
    if (tag_ == Tag::Tensor) {
      new (&payload_.as_tensor) at::Tensor(std::move(rhs.payload_.as_tensor));
      rhs.payload_.as_tensor.~Tensor();
    } else {
      payload_.u = rhs.payload_.u;
    }
    rhs.tag_ = Tag::None;
  }
  void destroy() noexcept {
    if (tag_ == Tag::Tensor) {
      payload_.as_tensor.~Tensor();
    } else if (is_heap(tag_)) {
      decref(payload_.u.as_intrusive_ptr);
    }
  }

  union Payload {
    union Trivial {
      int64_t as_int;
      double as_double;
      bool as_bool;
      intrusive_ptr_target* as_intrusive_ptr;
      struct {
        DeviceType type;
        DeviceIndex index;
      } as_device;
    } u;
    at::Tensor as_tensor;
    Payload() : u{0} {}
    ~Payload() {}
  } payload_;
  Tag tag_;
};

namespace detail {
// What IValue's equality needs of operators, which the dispatcher cannot call itself: at::eq,
// and bool() of a one-element tensor. Defined in aten/core/IValueTensorOps.cpp.
C10_API at::Tensor ivalue_tensor_eq(const at::Tensor& lhs, const at::Tensor& rhs);
C10_API bool ivalue_tensor_is_nonzero(const at::Tensor& t);
}  // namespace detail

// bool(lhs == rhs) in Python: equals(), and a tensor result must hold a single value (a
// multi-element one throws, as in libtorch).
C10_API bool operator==(const IValue& lhs, const IValue& rhs);
inline bool operator!=(const IValue& lhs, const IValue& rhs) {
  return !(lhs == rhs);
}
// `lhs.is(rhs) || lhs == rhs`: how containers compare their elements, so a list holding a
// multi-element tensor equals itself.
C10_API bool _fastEqualsForContainer(const IValue& lhs, const IValue& rhs);

// As libtorch prints an IValue: 1, 1., 0.5, 2.-3.j, True, None, [1, 2], (1,), {a: 1}, cpu,
// stream 0 on device cuda:1, Future, Enum<Color.RED>. Strings print raw (FunctionSchema quotes
// string defaults itself); tensors print their footer only ([ CPUFloatType{2,3} ]).
C10_API std::ostream& operator<<(std::ostream& out, const IValue& v);

// MaybeOwned<IValue> borrows through a pointer (see Note [How MaybeOwned borrows]).
template <>
struct MaybeOwnedTraits<IValue> : public MaybeOwnedTraitsGenericImpl<IValue> {};

}  // namespace c10

// libtorch's at:: sees all of c10 (a using-directive); miniaten names what at:: users reach for.
namespace at {
using c10::Dict;
using c10::IValue;
namespace ivalue = c10::ivalue;
}  // namespace at

#include "dispatcher/IValue_inl.h"
