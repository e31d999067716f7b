#include "aten/serialization/Unpickler.h"

#include <cstring>

#include "aten/ATen.h"
#include "aten/serialization/PickleOpCode.h"
#include "aten/serialization/TypeAnnotation.h"
#include "dispatcher/Dict.h"
#include "dispatcher/List.h"
#include "dispatcher/Tuple.h"

namespace torch::jit {

namespace {

using c10::TypeKind;
using c10::TypePtr;

// The storage dtype a GLOBAL torch.<Name>Storage names, if miniaten has it.
c10::optional<c10::ScalarType> storage_dtype(const std::string& class_name) {
#define MINIATEN_STORAGE_NAME(_, name) \
  if (class_name == #name "Storage") return c10::ScalarType::name;
  C10_FORALL_SCALAR_TYPES(MINIATEN_STORAGE_NAME)
#undef MINIATEN_STORAGE_NAME
  return c10::nullopt;
}

}  // namespace

Unpickler::~Unpickler() = default;

namespace {
bool is_container(const IValue& v) {
  return v.isTuple() || v.isList() || v.isGenericDict();
}
}  // namespace

Unpickler::Nesting& Unpickler::nesting(const IValue& container) {
  auto inserted = nesting_.try_emplace(container.internalToPointer());
  if (inserted.second) containers_.push_back(container);
  return inserted.first->second;
}

void Unpickler::check_growable(const IValue& container) {
  TORCH_CHECK(!nesting(container).placed,
              "Unpickler: a list or dict cannot change after it is placed in another container");
}

void Unpickler::adopt(const IValue& parent, const IValue& child) {
  if (!is_container(child)) return;
  TORCH_CHECK(child.internalToPointer() != parent.internalToPointer(),
              "Unpickler: a container cannot hold itself");
  Nesting& c = nesting(child);
  c.placed = true;
  const uint32_t depth = c.depth + 1;
  Nesting& p = nesting(parent);
  TORCH_CHECK(depth <= kMaxNesting, "Unpickler: containers nested more than ", kMaxNesting,
              " deep are not supported");
  if (depth > p.depth) p.depth = depth;
}

void Unpickler::adopt_all(const IValue& built) {
  if (built.isTuple()) {
    for (const IValue& e : built.toTupleRef().elements()) adopt(built, e);
  } else if (built.tag() == IValue::Tag::GenericList) {
    for (const IValue& e : built.toListRef()) adopt(built, e);
  } else if (built.isGenericDict()) {
    for (const auto& entry : built.toGenericDict()) {
      adopt(built, entry.key());
      adopt(built, entry.value());
    }
  } else if (is_container(built)) {
    nesting(built);  // a typed list: no containers inside
  }
}

IValue Unpickler::parse_ivalue() {
  while (run_opcode()) {
  }
  TORCH_CHECK(stack_.size() == 1 && stack_[0].global == Global::kValue,
              "Unpickler: the program must leave one value on the stack but left ", stack_.size());
  return std::move(stack_[0].value);
}

const char* Unpickler::read_bytes(size_t n) {
  TORCH_CHECK(n <= program_.size() - pos_, "Unexpected end of pickler archive.");
  const char* p = program_.data() + pos_;
  pos_ += n;
  return p;
}

template <typename T>
T Unpickler::read() {
  T value;
  std::memcpy(&value, read_bytes(sizeof value), sizeof value);
  return value;
}

std::string Unpickler::read_line() {
  const char* start = program_.data() + pos_;
  const void* nl = std::memchr(start, '\n', program_.size() - pos_);
  TORCH_CHECK(nl != nullptr, "Unexpected end of pickler archive.");
  const size_t n = static_cast<const char*>(nl) - start;
  pos_ += n + 1;
  return std::string(start, n);
}

size_t Unpickler::pop_mark() {
  TORCH_CHECK(!marks_.empty(), "Unpickler: an opcode needs a MARK but none is open");
  const size_t mark = marks_.back();
  marks_.pop_back();
  TORCH_CHECK(mark <= stack_.size(), "Unpickler: stack underflow below a MARK");
  for (size_t i = mark; i < stack_.size(); ++i) {
    TORCH_CHECK(stack_[i].global == Global::kValue,
                "Unpickler: a global can only be called by REDUCE");
  }
  return mark;
}

size_t Unpickler::take_top(size_t n, size_t below) {
  TORCH_CHECK(stack_.size() >= n + below && (marks_.empty() || marks_.back() <= stack_.size() - n),
              "Unpickler: stack underflow");
  const size_t start = stack_.size() - n;
  for (size_t i = start; i < stack_.size(); ++i) {
    TORCH_CHECK(stack_[i].global == Global::kValue,
                "Unpickler: a global can only be called by REDUCE");
  }
  return start;
}

IValue Unpickler::pop_value() {
  TORCH_CHECK(!stack_.empty() && (marks_.empty() || marks_.back() < stack_.size()),
              "Unpickler: stack underflow");
  TORCH_CHECK(stack_.back().global == Global::kValue,
              "Unpickler: a global can only be called by REDUCE");
  IValue v = std::move(stack_.back().value);
  stack_.pop_back();
  return v;
}

void Unpickler::memo_put(uint32_t id) {
  TORCH_CHECK(!stack_.empty(), "Unpickler: stack underflow");
  memo_[id] = stack_.back();
}

void Unpickler::memo_get(uint32_t id) {
  auto it = memo_.find(id);
  TORCH_CHECK(it != memo_.end(), "Parsing error: memo entry ", id, " was never written");
  stack_.push_back(it->second);
}

bool Unpickler::run_opcode() {
  const auto op = static_cast<PickleOpCode>(read<char>());
  switch (op) {
    case PickleOpCode::PROTO: {
      const auto protocol = read<uint8_t>();
      TORCH_CHECK(protocol == 2, "Only Pickle protocol 2 is supported, found protocol = ",
                  static_cast<int>(protocol));
    } break;
    case PickleOpCode::STOP:
      return false;
    case PickleOpCode::MARK:
      marks_.push_back(stack_.size());
      break;
    case PickleOpCode::NONE:
      stack_.push_back({IValue()});
      break;
    case PickleOpCode::NEWTRUE:
    case PickleOpCode::NEWFALSE:
      stack_.push_back({IValue(op == PickleOpCode::NEWTRUE)});
      break;
    case PickleOpCode::BININT1:
      stack_.push_back({IValue(static_cast<int64_t>(read<uint8_t>()))});
      break;
    case PickleOpCode::BININT2:
      stack_.push_back({IValue(static_cast<int64_t>(read<uint16_t>()))});
      break;
    case PickleOpCode::BININT:
      stack_.push_back({IValue(static_cast<int64_t>(read<int32_t>()))});
      break;
    case PickleOpCode::LONG1: {
      const auto n = read<uint8_t>();
      TORCH_CHECK(n <= 8, "Unpickler: integers of more than 8 bytes are not supported");
      const auto* bytes = reinterpret_cast<const uint8_t*>(read_bytes(n));
      uint64_t v = 0;
      for (int i = n - 1; i >= 0; --i) v = v << 8 | bytes[i];
      if (n > 0 && n < 8 && (bytes[n - 1] & 0x80)) v |= ~uint64_t{0} << (8 * n);  // sign
      int64_t value;
      std::memcpy(&value, &v, sizeof value);
      stack_.push_back({IValue(value)});
    } break;
    case PickleOpCode::BINFLOAT: {
      const uint64_t bits = __builtin_bswap64(read<uint64_t>());  // big endian
      double d;
      std::memcpy(&d, &bits, sizeof d);
      stack_.push_back({IValue(d)});
    } break;
    case PickleOpCode::BINUNICODE: {
      const auto n = read<uint32_t>();
      const char* p = read_bytes(n);
      stack_.push_back({IValue(std::string(p, n))});
    } break;
    case PickleOpCode::EMPTY_TUPLE:
      stack_.push_back({IValue(c10::ivalue::Tuple::create(std::vector<IValue>()))});
      break;
    case PickleOpCode::TUPLE1:
    case PickleOpCode::TUPLE2:
    case PickleOpCode::TUPLE3:
    case PickleOpCode::TUPLE: {
      size_t start;
      if (op == PickleOpCode::TUPLE) {
        start = pop_mark();
      } else {
        start = take_top(static_cast<size_t>(static_cast<uint8_t>(op) -
                                             static_cast<uint8_t>(PickleOpCode::TUPLE1) + 1));
      }
      std::vector<IValue> elements;
      elements.reserve(stack_.size() - start);
      for (size_t i = start; i < stack_.size(); ++i) elements.push_back(std::move(stack_[i].value));
      stack_.resize(start);
      IValue tuple(c10::ivalue::Tuple::create(std::move(elements)));
      adopt_all(tuple);
      stack_.push_back({std::move(tuple)});
    } break;
    case PickleOpCode::EMPTY_LIST:
      stack_.push_back({IValue(c10::impl::GenericList())});
      break;
    case PickleOpCode::EMPTY_DICT:
      stack_.push_back({IValue(c10::impl::GenericDict(c10::AnyType::get(), c10::AnyType::get()))});
      break;
    case PickleOpCode::LIST:
    case PickleOpCode::APPEND:
    case PickleOpCode::APPENDS: {
      size_t start;
      if (op == PickleOpCode::APPEND) {
        start = take_top(1, /*below=*/1);  // the list
      } else {
        start = pop_mark();
      }
      if (op == PickleOpCode::LIST)
        stack_.insert(stack_.begin() + start, {IValue(c10::impl::GenericList())});
      else
        TORCH_CHECK(start >= 1, "Unpickler: stack underflow");
      const size_t list_at = op == PickleOpCode::LIST ? start : start - 1;
      const size_t first = list_at + 1;
      const IValue& target = stack_[list_at].value;
      TORCH_CHECK(
          stack_[list_at].global == Global::kValue && target.tag() == IValue::Tag::GenericList,
          "Unpickler: APPEND needs a list but found ", target.tagKind());
      check_growable(target);
      for (size_t i = first; i < stack_.size(); ++i) adopt(target, stack_[i].value);
      c10::impl::GenericList list = target.toList();
      for (size_t i = first; i < stack_.size(); ++i) list.push_back(std::move(stack_[i].value));
      stack_.resize(first);
    } break;
    case PickleOpCode::DICT:
    case PickleOpCode::SETITEM:
    case PickleOpCode::SETITEMS: {
      size_t start;
      if (op == PickleOpCode::SETITEM) {
        start = take_top(2, /*below=*/1);  // the dict
      } else {
        start = pop_mark();
      }
      if (op == PickleOpCode::DICT) {
        stack_.insert(stack_.begin() + start,
                      {IValue(c10::impl::GenericDict(c10::AnyType::get(), c10::AnyType::get()))});
      } else {
        TORCH_CHECK(start >= 1, "Unpickler: stack underflow");
      }
      const size_t dict_at = op == PickleOpCode::DICT ? start : start - 1;
      const IValue& target = stack_[dict_at].value;
      TORCH_CHECK(stack_[dict_at].global == Global::kValue && target.isGenericDict(),
                  "Unpickler: SETITEMS needs a dict but found ", target.tagKind());
      TORCH_CHECK((stack_.size() - dict_at - 1) % 2 == 0,
                  "Unpickler: SETITEMS needs keys and values in pairs");
      check_growable(target);
      for (size_t i = dict_at + 1; i < stack_.size(); ++i) adopt(target, stack_[i].value);
      c10::impl::GenericDict dict = target.toGenericDict();
      for (size_t i = dict_at + 1; i < stack_.size(); i += 2) {
        dict.insert_or_assign(stack_[i].value, stack_[i + 1].value);
      }
      stack_.resize(dict_at + 1);
    } break;
    case PickleOpCode::BINPUT:
      memo_put(read<uint8_t>());
      break;
    case PickleOpCode::LONG_BINPUT:
      memo_put(read<uint32_t>());
      break;
    case PickleOpCode::BINGET:
      memo_get(read<uint8_t>());
      break;
    case PickleOpCode::LONG_BINGET:
      memo_get(read<uint32_t>());
      break;
    case PickleOpCode::GLOBAL:
      read_global();
      break;
    case PickleOpCode::REDUCE:
      reduce();
      break;
    case PickleOpCode::BINPERSID:
      persistent_load();
      break;
    case PickleOpCode::BUILD: {
      // See Note [Python's state_dict]: an OrderedDict's attributes, dropped.
      const Item& target = stack_[take_top(2)];
      const Item& state = stack_.back();
      TORCH_CHECK(
          target.value.isGenericDict() && (state.value.isGenericDict() || state.value.isNone()),
          "Unpickler: BUILD is read only to set an OrderedDict's attributes");
      stack_.pop_back();
    } break;
    default:
      TORCH_CHECK(false, "Unknown opcode for unpickling at ", pos_ - 1, ": ",
                  static_cast<int>(static_cast<uint8_t>(op)));
  }
  return true;
}

void Unpickler::read_global() {
  const std::string module = read_line();
  const std::string name = read_line();
  Global global = Global::kValue;
  if (module == "torch._utils" && name == "_rebuild_tensor_v2") {
    global = Global::kRebuildTensor;
  } else if (module == "collections" && name == "OrderedDict") {
    global = Global::kOrderedDict;
  } else if (module == "builtins" && name == "complex") {
    global = Global::kComplex;
  } else if (module == "torch.jit._pickle") {
    if (name == "restore_type_tag")
      global = Global::kRestoreTypeTag;
    else if (name == "build_intlist")
      global = Global::kBuildIntList;
    else if (name == "build_doublelist")
      global = Global::kBuildDoubleList;
    else if (name == "build_boollist")
      global = Global::kBuildBoolList;
    else if (name == "build_tensorlist")
      global = Global::kBuildTensorList;
    else
      TORCH_CHECK(false, "Unknown pickler class id ", name);
  } else if (module == "torch" && name == "device") {
    global = Global::kDevice;
  } else if (module == "torch") {
    const auto dtype = storage_dtype(name);
    TORCH_CHECK(dtype.has_value(), "Unpickler found unknown torch global, 'torch.", name, "'");
    stack_.push_back({IValue(static_cast<int64_t>(*dtype))});  // as libtorch: the dtype, an int
    return;
  } else {
    TORCH_CHECK(false, "Unpickler found unknown global, '", module, ".", name,
                "': pickle_load reads tensors and TorchScript's builtin containers only");
  }
  stack_.push_back({IValue(), global});
}

void Unpickler::reduce() {
  IValue args = pop_value();
  TORCH_CHECK(args.isTuple(), "Unpickler: REDUCE needs a tuple of arguments but got ",
              args.tagKind());
  TORCH_CHECK(!stack_.empty() && (marks_.empty() || marks_.back() < stack_.size()) &&
                  stack_.back().global != Global::kValue,
              "Unpickler: REDUCE needs a global to call");
  const Global global = stack_.back().global;
  stack_.pop_back();
  const auto& tuple = args.toTupleRef();
  const auto& elements = tuple.elements();
  IValue result;
  switch (global) {
    case Global::kRebuildTensor:
      result = rebuild_tensor(tuple);
      break;
    case Global::kOrderedDict:
      // A tensor's backward hooks (always empty: nothing reads them, as in libtorch), or the
      // dict Python's torch.save makes of a state_dict. See Note [Python's state_dict].
      TORCH_CHECK(elements.empty(), "Unpickler: OrderedDict() takes no arguments here");
      result = IValue(c10::impl::GenericDict(c10::AnyType::get(), c10::AnyType::get()));
      break;
    case Global::kRestoreTypeTag:
      result = restore_type_tag(tuple);
      break;
    case Global::kComplex:
      TORCH_CHECK(elements.size() == 2 && elements[0].isDouble() && elements[1].isDouble(),
                  "Unpickler: complex() needs (real, imag)");
      result = IValue(c10::complex<double>(elements[0].toDouble(), elements[1].toDouble()));
      break;
    case Global::kDevice:
      TORCH_CHECK(elements.size() == 1 && elements[0].isString(),
                  "Unpickler: torch.device() needs a string");
      result = IValue(c10::Device(elements[0].toStringRef()));
      break;
    default:
      result = build_typed_list(global, tuple);
      break;
  }
  if (is_container(result)) adopt_all(result);  // typed lists and dicts made from placed parts
  stack_.push_back({std::move(result)});
}

IValue Unpickler::build_typed_list(Global kind, const c10::ivalue::Tuple& args) {
  const auto& elements = args.elements();
  TORCH_CHECK(elements.size() == 1 && elements[0].tag() == IValue::Tag::GenericList,
              "Unpickler: a typed list must be built from (list,)");
  const c10::ArrayRef<IValue> items = elements[0].toListRef();
  switch (kind) {
    case Global::kBuildIntList: {
      std::vector<int64_t> v;
      for (const IValue& e : items) v.push_back(e.toInt());
      return IValue(std::move(v));
    }
    case Global::kBuildDoubleList: {
      std::vector<double> v;
      for (const IValue& e : items) v.push_back(e.toDouble());
      return IValue(std::move(v));
    }
    case Global::kBuildBoolList: {
      std::vector<bool> v;
      for (const IValue& e : items) v.push_back(e.toBool());
      return IValue(std::move(v));
    }
    default: {
      std::vector<at::Tensor> v;
      for (const IValue& e : items) v.push_back(e.toTensor());
      return IValue(std::move(v));
    }
  }
}

IValue Unpickler::restore_type_tag(const c10::ivalue::Tuple& args) {
  const auto& elements = args.elements();
  TORCH_CHECK(elements.size() == 2 && elements[1].isString(),
              "Unpickler: restore_type_tag needs (container, type)");
  const IValue& container = elements[0];
  const TypePtr type = parse_type_annotation(elements[1].toStringRef());
  if (container.isGenericDict() && type->kind() == TypeKind::Dict) {
    const auto& kv = type->containedTypes();
    c10::impl::GenericDict typed(kv[0], kv[1]);
    for (const auto& entry : container.toGenericDict()) typed.insert(entry.key(), entry.value());
    return IValue(std::move(typed));
  }
  TORCH_CHECK(container.tag() == IValue::Tag::GenericList && type->kind() == TypeKind::List,
              "Unpickler: the type tag '", elements[1].toStringRef(), "' does not fit a ",
              container.tagKind());
  const c10::ArrayRef<IValue> items = container.toListRef();
  const TypePtr& element = type->getElementType();
  switch (element->kind()) {
    case TypeKind::Int:
      return build_typed_list(Global::kBuildIntList, *c10::ivalue::Tuple::create({container}));
    case TypeKind::Float:
      return build_typed_list(Global::kBuildDoubleList, *c10::ivalue::Tuple::create({container}));
    case TypeKind::Bool:
      return build_typed_list(Global::kBuildBoolList, *c10::ivalue::Tuple::create({container}));
    case TypeKind::Tensor:
      return build_typed_list(Global::kBuildTensorList, *c10::ivalue::Tuple::create({container}));
    case TypeKind::Complex: {
      std::vector<c10::complex<double>> v;
      for (const IValue& e : items) v.push_back(e.toComplexDouble());
      return IValue(std::move(v));
    }
    case TypeKind::Str: {
      c10::List<std::string> v;
      for (const IValue& e : items) v.push_back(e.toStringRef());
      return IValue(std::move(v));
    }
    case TypeKind::Optional:
      if (element->getElementType()->kind() == TypeKind::Tensor) {
        std::vector<c10::optional<at::Tensor>> v;
        for (const IValue& e : items) {
          v.push_back(e.isNone() ? c10::nullopt : c10::optional<at::Tensor>(e.toTensor()));
        }
        return IValue(std::move(v));
      }
      return container;
    default:
      // miniaten's GenericList cannot be given an element type from outside; see the Note in
      // aten/serialization/Pickle.h.
      return container;
  }
}

}  // namespace torch::jit
